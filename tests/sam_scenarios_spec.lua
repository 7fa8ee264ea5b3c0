-- The claims of Calvo, Chartier, Murua & Sanz-Serna, Sec. 5 (Figures 3-5), checked on fresh full
-- runs of scenarios/sam-fig{3,4,5}.lua (written to a temporary directory), read back from the
-- data files alone: orders in n, work counts, epsilon scalings, the ~20x work factor, LISP and
-- multirevolution against SAM, saturation for small N, the ode45 step count.
local U = require "testutil"
local S = require "kapitza.scenario"

local function run(id)
  local dir = U.tmpdir()
  local st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --out %s", id, dir))
  assert.are.equal(0, st, err)
  return dir
end

-- rows of an efficiency file as t[method][eps or N][n] = row
local function index(rows, key)
  local t = {}
  for _, r in ipairs(rows) do
    t[r.method] = t[r.method] or {}
    local k = r[key]
    t[r.method][k] = t[r.method][k] or {}
    t[r.method][k][r.n] = r
  end
  return t
end

local function efficiency(dir, id)
  local top, ct = S.read_table(dir .. "/data/" .. id .. "-top.tsv")
  local bot, cb = S.read_table(dir .. "/data/" .. id .. "-bottom.tsv")
  for _, c in ipairs { ct, cb } do
    assert.are.equal("method\teps\tN\tn\twork\terror", table.concat(c, "\t"))
  end
  return index(top, "eps"), index(bot, "N"), top, bot
end

describe("sam-fig3 (Kepler, RK4 micro)", function()
  local dir = run("sam-fig3")
  local top, bot, rows = efficiency(dir, "sam-fig3")
  local E = { 2^-12, 2^-13, 2^-14 }

  it("writes eps and errors as decimals, one row per run", function()
    assert.are.equal(3 * 4 * 2, #rows)
    local f = io.open(dir .. "/data/sam-fig3-top.tsv")
    local txt = f:read("*a")
    f:close()
    assert.truthy(txt:find("\t0.000244140625\t", 1, true))
    for _, r in ipairs(rows) do
      assert.are.equal("number", type(r.eps))
      assert.are.equal("number", type(r.error))
      assert.is_true(r.method == "SAM" or r.method == "conventional")
    end
  end)

  it("SAM error ~ n^-4: ratio >= 14 per doubling of n on the finest pair, every eps", function()
    for _, e in ipairs(E) do
      local s = top.SAM[e]
      assert.is_true(s[64].error / s[128].error >= 14, string.format("eps %g: %g", e, s[64].error / s[128].error))
    end
  end)

  it("SAM work is exactly 64n, independent of eps; conventional work is n/(16 eps)", function()
    for _, e in ipairs(E) do
      for _, n in ipairs { 16, 32, 64, 128 } do
        assert.are.equal(64 * n, top.SAM[e][n].work)
        assert.are.equal(n / (16 * e), top.conventional[e][n].work)
      end
    end
  end)

  it("SAM error doubles per halving of eps at equal n (n >= 32, within 10 %)", function()
    for i = 2, 3 do
      for _, n in ipairs { 32, 64, 128 } do
        assert.is_near(2, top.SAM[E[i]][n].error / top.SAM[E[i - 1]][n].error, 0.2)
      end
    end
  end)

  it("conventional errors are larger than SAM's at equal n and eps", function()
    for _, e in ipairs(E) do
      for _, n in ipairs { 16, 32, 64, 128 } do
        assert.is_true(top.conventional[e][n].error > top.SAM[e][n].error)
      end
    end
  end)

  it("at eps = 2^-14 SAM needs about 20x less work than RK4 for the same error (accept 12-25)", function()
    local c = top.conventional[2^-14]
    local ws, es = {}, {}
    for i, n in ipairs { 16, 32, 64, 128 } do ws[i], es[i] = c[n].work, c[n].error end
    local factors = {}
    for _, n in ipairs { 32, 64, 128 } do
      local e = top.SAM[2^-14][n].error
      local j = 1
      while j < 3 and es[j + 1] > e do j = j + 1 end
      local lw = math.log(ws[j]) + (math.log(e) - math.log(es[j])) *
                 (math.log(ws[j + 1]) - math.log(ws[j])) / (math.log(es[j + 1]) - math.log(es[j]))
      local f = math.exp(lw) / top.SAM[2^-14][n].work
      factors[#factors + 1] = string.format("n=%d: %.1f", n, f)
      assert.is_true(f >= 12 and f <= 25, "factor " .. f)
    end
    print("\n  sam-fig3 measured equal-error work factor at eps = 2^-14: " .. table.concat(factors, ", "))
  end)

  it("multirevolution error within x1.5 of SAM at half the work; LISP within x1.5 of SAM (two finest n)", function()
    for _, N in ipairs { 2, 4, 8 } do
      for _, n in ipairs { 64, 128 } do
        local s, m, l = bot.SAM[N][n], bot.MR[N][n], bot.LISP[N][n]
        assert.are.equal(s.work / 2, m.work)
        assert.are.equal(s.work, l.work)
        for _, x in ipairs { m.error / s.error, l.error / s.error } do
          assert.is_true(x <= 1.5 and x >= 1 / 1.5, string.format("N=%d n=%d ratio %g", N, n, x))
        end
      end
    end
  end)

  it("small-N SAM curves saturate: the N = 2 line bends (ratio < 8 on the finest pair), N = 8 does not", function()
    local r2 = bot.SAM[2][64].error / bot.SAM[2][128].error
    local r4 = bot.SAM[4][64].error / bot.SAM[4][128].error
    local r8 = bot.SAM[8][64].error / bot.SAM[8][128].error
    assert.is_true(r2 < 8, "N=2 " .. r2)
    assert.is_true(r2 < r4 and r4 < r8, string.format("%g %g %g", r2, r4, r8))
    assert.is_true(r8 >= 14)
  end)

  teardown(function() U.rmdir(dir) end)
end)

describe("sam-fig4 (Kepler, Strang micro)", function()
  local dir = run("sam-fig4")
  local top, bot = efficiency(dir, "sam-fig4")
  local E = { 2^-12, 2^-13, 2^-14 }
  local ns = { 8, 16, 32, 64 }

  it("SAM and conventional Strang errors ~ n^-2 (fitted slope 2 +- 0.3)", function()
    for _, e in ipairs(E) do
      for _, m in ipairs { "SAM", "conventional" } do
        local xs, ys = {}, {}
        for i, n in ipairs(ns) do xs[i], ys[i] = n, top[m][e][n].error end
        local sl = -U.slope(xs, ys)
        assert.is_near(2, sl, 0.3, string.format("%s eps %g slope %g", m, e, sl))
      end
    end
  end)

  it("SAM work 128n independent of eps; halving eps halves the error (n <= 32, within 10 %)", function()
    for i, e in ipairs(E) do
      for _, n in ipairs(ns) do
        assert.are.equal(128 * n, top.SAM[e][n].work)
        if i > 1 and n <= 32 then
          assert.is_near(0.5, top.SAM[e][n].error / top.SAM[E[i - 1]][n].error, 0.05)
        end
      end
    end
  end)

  it("conventional errors are comparable to SAM's (within x1.5) at work 256n..1024n", function()
    for i, e in ipairs(E) do
      for _, n in ipairs(ns) do
        local x = top.conventional[e][n].error / top.SAM[e][n].error
        assert.is_true(x <= 1.5 and x >= 1 / 1.5, "ratio " .. x)
        assert.are.equal(2^(7 + i) * n, top.conventional[e][n].work)
      end
    end
  end)

  it("multirevolution costs half of SAM and is within x1.5 of it where the micro error dominates (N = 16, n <= 32)", function()
    for _, N in ipairs { 4, 8, 16 } do
      for _, n in ipairs(ns) do assert.are.equal(bot.SAM[N][n].work / 2, bot.MR[N][n].work) end
    end
    for _, n in ipairs { 8, 16, 32 } do
      local x = bot.MR[16][n].error / bot.SAM[16][n].error
      assert.is_true(x <= 1.5 and x >= 1 / 1.5, "ratio " .. x)
    end
  end)

  it("the N = 4 line saturates at the macro error (no gain from n = 32 to 64)", function()
    assert.is_true(bot.SAM[4][32].error / bot.SAM[4][64].error < 2)
    assert.is_true(bot.SAM[16][32].error / bot.SAM[16][64].error > 3.5)
  end)

  teardown(function() U.rmdir(dir) end)
end)

describe("sam-fig5 (van der Pol, ode45 clone)", function()
  local dir = run("sam-fig5")
  local errs = S.read_table(dir .. "/data/sam-fig5.tsv")
  local steps = S.read_table(dir .. "/data/sam-fig5-steps.tsv")

  local count = {}
  for _, s in ipairs(steps) do
    local k = s.method .. s.eps
    count[k] = (count[k] or 0) + 1
  end

  it("the ode45 clone takes 35-45 accepted macro-steps at eps = 2^-9 and 2^-10 (paper: 40)", function()
    for _, e in ipairs { 2^-9, 2^-10 } do
      local c = count["ode45" .. e]
      assert.is_true(c >= 35 and c <= 45, "steps " .. tostring(c))
      assert.are.equal(128, count["dp5" .. e])
    end
    print(string.format("\n  sam-fig5 ode45 accepted steps: %d (eps 2^-9), %d (eps 2^-10)",
                        count["ode45" .. 2^-9], count["ode45" .. 2^-10]))
  end)

  it("the ode45 steps grow once the limit cycle is reached (largest >= 4x the smallest)", function()
    local lo, hi = math.huge, 0
    for _, s in ipairs(steps) do
      if s.method == "ode45" and s.eps == 2^-9 then lo, hi = math.min(lo, s.H), math.max(hi, s.H) end
    end
    assert.is_true(hi >= 4 * lo, string.format("%g %g", lo, hi))
  end)

  it("the three errors agree at tau_end, and halve when eps is halved (within 10 %)", function()
    local last = {}
    for _, r in ipairs(errs) do last[r.eps] = r end
    local a, b = last[2^-9], last[2^-10]
    for _, m in ipairs { "ode45", "dp5" } do assert.is_near(1, a[m] / a.strang, 0.1) end
    for _, m in ipairs { "ode45", "dp5", "strang" } do assert.is_near(0.5, b[m] / a[m], 0.05) end
  end)

  teardown(function() U.rmdir(dir) end)
end)
