-- The claims of Ober-Bloebaum, Wenger, Gail & Leyendecker, Sec. 6, in the quantitative forms of the
-- notes (Sec. 7), recomputed through lib/lua/kapitza/vmi.lua (the code the scenarios use), and the scenarios'
-- command line and data conventions.
local V = require "kapitza.papers.vmi_convergence"
local T = require "testutil"

describe("vmi FPU energy exchange (Figs. 6.3-6.5)", function()
  local function runs(scheme, dT)
    local out = {}
    for _, p in ipairs { 1, 5, 10 } do
      local rows = V.fpu_energies(V.fpu(), scheme, { p = p, dT = dT, T = 200, tol = 1e-9 })
      local lo, hi = V.stats(rows, "I", 0, math.huge)
      local _, _, late = V.stats(rows, "I", 150, 200)
      local _, _, I1 = V.stats(rows, "I1", 190, 200)
      local tr, er = V.envelope_return(rows, "I2", 5, 0.3)
      out[#out + 1] = { p = p, lo = lo, hi = hi, late = late, I1 = I1, tr = tr, er = er }
    end
    return out
  end
  it("MM: I within 0.1 of I(0) = 1 without drift, exchange faster with p, spread unchanged", function()
    local r = runs("MM", 0.3)
    for i, s in ipairs(r) do
      assert.is_true(math.max(1 - s.lo, s.hi - 1) <= 0.1, "p=" .. s.p)
      assert.is_true(math.abs(s.late - 1) <= 0.02, "p=" .. s.p)
      if i > 1 then
        assert.is_true(s.I1 < r[i - 1].I1, "exchange not faster at p=" .. s.p)
        local ratio = (s.hi - s.lo) / (r[1].hi - r[1].lo)
        assert.is_true(ratio > 0.5 and ratio < 2)
      end
    end
  end)
  it("TM: I2 returns to ~0 around t = 150 for every p; the spread of I shrinks with p", function()
    local r = runs("TM", 0.3)
    for i, s in ipairs(r) do
      assert.is_true(s.tr >= 135 and s.tr <= 175 and s.er < 0.05, string.format("p=%d: t=%s E=%s", s.p, s.tr, s.er))
      if i > 1 then assert.is_true(s.hi - s.lo < r[i - 1].hi - r[i - 1].lo) end
    end
  end)
  it("TT (dT = 0.03): the return of I2 moves from t ~ 100 (p = 1) to t ~ 170 (p = 10); spread shrinks", function()
    local r = runs("TT", 0.03)
    assert.is_true(r[1].tr >= 85 and r[1].tr <= 115, tostring(r[1].tr))
    assert.is_true(r[3].tr >= 155 and r[3].tr <= 185, tostring(r[3].tr))
    for i = 2, 3 do
      assert.is_true(r[i].tr >= r[i - 1].tr)
      assert.is_true(r[i].hi - r[i].lo < r[i - 1].hi - r[i - 1].lo)
    end
  end)
end)

describe("vmi spring ring (Figs. 6.6-6.9)", function()
  it("energy error bounded without drift, decreasing with p, ordered MM < TM < TT", function()
    local E0
    local maxerr = {}
    for _, sch in ipairs { "MM", "TM", "TT" } do
      maxerr[sch] = {}
      for i, p in ipairs { 1, 5, 10 } do
        local rows = V.ring_energies(V.ring(), sch, { p = p, dT = 0.01, T = 50, tol = 1e-8 })
        E0 = E0 or rows[1].total
        assert.is_true(math.abs(rows[1].total - 63365.09) < 0.01 and rows[1].kinetic == 9350)
        local a, b = V.relerr_halves(rows, 25)
        assert.is_true(b <= 1.5 * a, sch .. " p=" .. p .. " drifts")
        maxerr[sch][i] = math.max(a, b)
        if i > 1 then assert.is_true(maxerr[sch][i] < maxerr[sch][i - 1], sch .. " p=" .. p) end
      end
    end
    for i = 1, 3 do assert.is_true(maxerr.MM[i] < maxerr.TM[i] and maxerr.TM[i] < maxerr.TT[i]) end
    assert.is_true(maxerr.MM[1] < 1e-2) -- "several orders of magnitude" below E for MM
  end)
  it("the printed gravity sign changes E0 to 63847.74", function()
    local rows = V.ring_energies(V.ring { gravity = "printed" }, "MM", { p = 1, dT = 0.01, T = 0.01 })
    assert.is_true(math.abs(rows[1].total - 63847.74) < 0.01)
  end)
  it("L3 is conserved to the Newton tolerance, L1 and L2 are not", function()
    local function drift(tol)
      local _, L = V.ring_energies(V.ring(), "MM", { p = 5, dT = 0.01, T = 50, tol = tol })
      return V.L_drift(L)
    end
    local d8, w1, w2 = drift(1e-8)
    local d12 = drift(1e-12)
    assert.is_true(d8 <= 1e-6, "drift at 1e-8: " .. d8)
    assert.is_true(d12 <= 1e-9 and d12 < d8 / 10, "drift at 1e-12: " .. d12)
    assert.is_true(w1 > 10 and w2 > 10)
  end)
end)

describe("vmi Table 2: fitted orders on macro nodes within 0.25", function()
  it("MM 2, TM 1, TT 1 for FPU and the spring ring, p = 5 and 10", function()
    local want = { MM = 2, TM = 1, TT = 1 }
    for _, prob in ipairs { "FPU", "SR" } do
      for sch, order in pairs(want) do
        local rows = V.convergence(prob, sch, { p = { 5, 10 }, dT = { 0.0005, 0.0002, 0.0001, 0.00005 }, T = 0.5,
                                                tol = 1e-12, href = 5e-6, sub = 1 })
        for _, p in ipairs { 5, 10 } do
          local q, pp = V.fit_order(rows, p, "q_mac", 4), V.fit_order(rows, p, "p_mac", 4)
          assert.is_true(math.abs(q - order) <= 0.25, string.format("%s %s p=%d q %.3f", prob, sch, p, q))
          assert.is_true(math.abs(pp - order) <= 0.25, string.format("%s %s p=%d p %.3f", prob, sch, p, pp))
        end
      end
    end
  end)
end)

describe("vmi computing-time study (Fig. 6.18): work, not time", function()
  it("total Newton iterations fall with p at fixed dt", function()
    for _, sch in ipairs { "MM", "TM", "TT" } do
      local last = math.huge
      for _, p in ipairs { 1, 5, 10, 50, 200 } do
        local res = V.run(V.fpu(), sch, { p = p, dT = p * 0.001, N = math.floor(2 / (p * 0.001) + 0.5), tol = 1e-9,
                                          predictor = "drift" }) -- the study's Newton start (vmi-fig6.18)
        assert.is_true(res.counts.newton_iters < last, sch .. " p=" .. p)
        last = res.counts.newton_iters
      end
    end
  end)
end)

describe("vmi claims decided on local slopes (Figs. 6.12-6.17)", function()
  -- synthetic error curves e(dT) on the scenarios' dT list
  local dTs = { 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001, 0.00005 }
  local function rows(f)
    local t = {}
    for _, dT in ipairs(dTs) do t[#t + 1] = { p = 5, dT = dT, e = f(dT) } end
    return t
  end
  local first, second = rows(function(h) return 3 * h end), rows(function(h) return 50 * h * h end)
  local change = rows(function(h) return 500 * h * h + h end) -- order 2 at large dT, 1 at small (crossing at 2e-3)
  local function holds(r, c) return (V.decide(r, 5, c, 4)) end
  it("a fitted order accepts its own order only", function()
    assert.is_true(holds(first, { col = "e", kind = "order", order = 1 }))
    assert.is_false(holds(first, { col = "e", kind = "order", order = 2 }))
    assert.is_true(holds(second, { col = "e", kind = "order", order = 2 }))
  end)
  it("a change of order from 2 to 1 is found, and neither a first- nor a second-order curve passes for one", function()
    local c = { col = "e", kind = "transition", from = 2, to = 1 }
    assert.is_true(holds(change, c))
    assert.is_false(holds(first, c))
    assert.is_false(holds(second, c))
  end)
  it("'rates between one and two' fails a purely first-order result (and a purely second-order one)", function()
    local c = { col = "e", kind = "between", from = 2, to = 1 }
    assert.is_true(holds(change, c))
    assert.is_false(holds(first, c))
    assert.is_false(holds(second, c))
    -- a jump from 2 to 1 without rates in between is not 'between'
    local jump = rows(function(h) return h >= 0.002 and 1e3 * h * h or 2 * h end)
    assert.is_false(holds(jump, c))
  end)
end)

describe("vmi stability bounds of the implemented schemes", function()
  it("trapezoidal-trapezoidal at p = 1 is stable for omega dT < 2 exactly (Sec. 6.1, Fig. 6.5), MM for every dT", function()
    for _, omega in ipairs { 50, 100 } do
      assert.is_true(math.abs(V.fast_bound("TT", omega, 1) * omega - 2) < 1e-6)
    end
    assert.are.equal(math.huge, V.fast_bound("MM", 50, 1))
  end)
end)

describe("vmi scenarios: keys change the model, the figure is of the run", function()
  it("vmi-fig6.3 omega=100 p=1,3: the model's frequency changes, the figure has panels p = 1 and 3 only", function()
    local S = require "kapitza.scenario"
    local d = T.tmpdir()
    assert.are.equal(0, (T.run(string.format("KZ_QUIET=1 luajit scenarios/vmi-fig6.3.lua --out %s T=30 p=1,3 omega=100", d))))
    local rows, _, comments = S.read_table(d .. "/data/vmi-fig6.3-p3.tsv")
    assert.truthy(table.concat(comments, " "):find("ω = 100", 1, true))
    assert.is_true(math.abs(rows[1].I - 1) < 1e-12) -- q^f(0) = 1/omega: I(0) = 1 at any omega
    local d2 = T.tmpdir()
    assert.are.equal(0, (T.run(string.format("KZ_QUIET=1 luajit scenarios/vmi-fig6.3.lua --out %s T=30 p=1,3", d2))))
    local rows50 = S.read_table(d2 .. "/data/vmi-fig6.3-p3.tsv")
    assert.are_not.equal(rows50[20].I1, rows[20].I1)
    local f = io.open(d .. "/figures/vmi-fig6.3.svg")
    local svg = f and f:read("*a") or ""
    if f then f:close() end
    assert.truthy(svg:find("p = 3", 1, true))
    assert.is_nil(svg:find("p = 10", 1, true))
    assert.is_nil(svg:find("p = 5", 1, true))
    T.rmdir(d)
    T.rmdir(d2)
  end)
end)

describe("vmi scenarios: command line and data conventions", function()
  it("rejects bad parameters with a message naming them and writes nothing", function()
    for _, bad in ipairs { "p=0", "scheme=XX", "dT=abc", "foo=1", "tol=-1", "omega=0", "l=1", "dT=1e-6" } do
      local d = T.tmpdir()
      local st, _, err = T.run(string.format("luajit scenarios/vmi-fig6.3.lua --out %s %s", d, bad))
      assert.are_not.equal(0, st)
      assert.matches(bad:match("^[^=]+"), err, 1, true)
      assert.are.same({}, T.files(d))
      T.rmdir(d)
    end
  end)
  it("writes the energy columns t I1 I2 I3 I (FPU) and t kinetic potential total relerr (ring)", function()
    local d = T.tmpdir()
    assert.are.equal(0, (T.run(string.format("KZ_QUIET=1 luajit scenarios/vmi-fig6.3.lua --quick --out %s", d))))
    assert.are.equal(0, (T.run(string.format("KZ_QUIET=1 luajit scenarios/vmi-fig6.6.lua --quick --out %s p=5", d))))
    local S = require "kapitza.scenario"
    local _, cols = S.read_table(d .. "/data/vmi-fig6.3-p5.tsv")
    assert.are.same({ "t", "I1", "I2", "I3", "I", "H" }, cols)
    _, cols = S.read_table(d .. "/data/vmi-fig6.6-p5.tsv")
    assert.are.same({ "t", "kinetic", "potential", "total", "relerr" }, cols)
    T.rmdir(d)
  end)
end)
