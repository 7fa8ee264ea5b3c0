-- The efficiency atlas (lib/lua/kapitza/atlas.lua, lib/lua/kapitza/atlas/problems.lua, scenarios/atlas-*.lua,
-- scripts/bench-atlas.lua): the cost interpolation, the curves a summary reads, the n/a reasons
-- of the stepper registry, the references of every problem, work counts that do not depend on
-- the stiffness, and the bench's outputs. The scenarios' outputs themselves are guarded by the
-- regression spec and their claims by the claims spec; that `kapitza atlas lib/models/<problem>.lua`
-- writes the same bytes, by tests/kapitza_cli_spec.lua.
local U = require "testutil"
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local A = require "kapitza.atlas"
local AC = require "kapitza.atlas.claims"
local AP = require "kapitza.atlas.problems"

local function defaults(prob)
  local P = {}
  for _, p in ipairs(A.params(prob, A.names(prob))) do P[p[1]] = p[2] end
  P.methods = nil
  return P
end

describe("atlas", function()
  it("cost_at interpolates in log-log between bracketing runs, never beyond them", function()
    local pts = { { error = 1e-2, work = 100 }, { error = 1e-4, work = 1e4 }, { error = 0 / 0, work = 5 } }
    local w, b = E.cost_at(pts, 1e-3, "work")
    assert.is_true(math.abs(w - 1e3) < 1e-9 * 1e3)
    assert.is_false(b)
    assert.is_nil(E.cost_at(pts, 1e-5, "work"))          -- never reached: no extrapolation
    local w2, b2 = E.cost_at(pts, 1e-1, "work")           -- already more accurate: an upper bound
    assert.are.equal(100, w2)
    assert.is_true(b2)
  end)

  it("a ladder's lucky coarse run does not count as reaching a target its finer runs miss", function()
    local rows = {}
    for i, r in ipairs { { 8, 1e-4, 100 }, { 16, 5e-2, 200 }, { 32, 1e-3, 400 }, { 64, 1e-5, 800 } } do
      rows[i] = { si = 1, method = "m", family = "direct", knob = "n", x = r[1], x2 = 0, status = "ok", error = r[2],
                  force_evals = r[3] }
    end
    A.mark_fronts(rows)
    local w, b = A.work_at(rows, 1, "m", 1e-3)
    assert.is_true(math.abs(w - 400) < 1e-9)              -- not 100 (the first run's error is luck)
    assert.is_false(b)
    assert.are.equal(5e-2, rows[1].env)
  end)

  it("a grid's curve is the lower envelope of its ladders", function()
    local rows, k = {}, 0
    for _, n in ipairs { 16, 32 } do
      for _, N in ipairs { 4, 8 } do
        k = k + 1
        rows[k] = { si = 1, method = "g", family = "SAM", knob = "N,n", x = N, x2 = n, status = "ok",
                    error = (n == 16 and 1e-2 or 1e-4) / N, force_evals = N * n }
      end
    end
    A.mark_fronts(rows)
    local front = {}
    for _, r in ipairs(rows) do if r.front == 1 then front[#front + 1] = r.x .. "," .. r.x2 end end
    table.sort(front)
    -- (4,16) 64 evals 2.5e-3; (8,16) 128 evals 1.25e-3; (4,32) 128 evals 2.5e-5 dominates (8,16)
    assert.are.same({ "4,16", "4,32", "8,32" }, front)
  end)

  it("the registry's steppers that do not apply are n/a with the reason", function()
    local prob = AP.pendulum
    local _, na = A.catalogue(prob, defaults(prob))
    local why = {}
    for _, n in ipairs(na) do why[n.name] = n.reason end
    assert.truthy(why.strang and why.strang:find("splitting", 1, true))
    assert.truthy(why.shake and why.shake:find("constraints", 1, true))
    local names = {}
    for _, m in ipairs((A.catalogue(prob, defaults(prob)))) do names[m.name] = m.family end
    assert.are.equal("direct", names.verlet)
    assert.are.equal("HMM", names["HMM-A2s"])
    assert.is_nil(names["SAM-rk4/strang"])                -- the pendulum has no splitting
    local knames = {}
    for _, m in ipairs((A.catalogue(AP.kepler, defaults(AP.kepler)))) do knames[m.name] = true end
    assert.truthy(knames["SAM-rk4/strang"] and knames["MR-strang"] and not knames.verlet)
  end)

  -- The reference of every problem at its smallest stiffness: doubling its resolution moves it
  -- by less than a hundredth of the smallest target error.
  for _, key in ipairs { "pendulum", "ste", "kepler", "vdp", "fpu", "ring", "top", "dpend" } do
    it(key .. ": the reference is resolved far below the targets", function()
      local prob = AP[key]
      local P = defaults(prob)
      local s = P[prob.stiff.key][1]
      local a = prob.setup(P, s)
      P.refm = 2 * P.refm
      local b = prob.setup(P, s)
      local emin = math.huge
      for _, e in ipairs(P.target) do emin = math.min(emin, e) end
      local d = (a.err_angles or a.err)(b.ref)
      assert.is_true(d < emin / 100, string.format("%s: reference moves by %.3g, smallest target %.3g", key, d, emin))
    end)
  end

  it("the HMM's and SAM's work per run does not depend on omega; a direct run's grows like omega", function()
    local prob = AP.pendulum
    local P = defaults(prob)
    local methods = A.catalogue(prob, P)
    local by = {}
    for _, m in ipairs(methods) do by[m.name] = m end
    local ca, cb = prob.setup(P, 1e3), prob.setup(P, 1e4)
    local function evals(ctx, name, x) return A.run_one(ctx, by[name], x).force_evals end
    assert.are.equal(evals(ca, "HMM-A2s", 40), evals(cb, "HMM-A2s", 40))
    assert.are.equal(evals(ca, "SAM-rk4/rk4", { 16, 32 }), evals(cb, "SAM-rk4/rk4", { 16, 32 }))
    assert.are.equal(10, cb.K / ca.K)                     -- 1600 and 160 periods in about 1 s
    assert.are.equal(4 * 8 * ca.K, evals(ca, "rk4", 8))
    assert.are.equal(4 * 8 * cb.K, evals(cb, "rk4", 8))
  end)

  it("the sweep of a model of one's own: a method's curve by evaluations at each value, its work and exponent", function()
    local AUS = require "kapitza.atlas.user_sweep"
    -- two values; at each, method d's ladder has errors 1e-2, 1e-4 at work 10 s, 100 s (its
    -- curve marked by evaluations in front_evals/env_evals; front/env hold the marks by seconds,
    -- here deliberately wrong), method f's the same at work 10, 100 whatever s
    local pts = {}
    for si, s in ipairs { 1e3, 1e4 } do
      local rows = {}
      for _, m in ipairs { "d", "f" } do
        for k, e in ipairs { 1e-2, 1e-4 } do
          local w = (m == "d" and s or 1) * 10 ^ k
          rows[#rows + 1] = { method = m, family = m == "d" and "direct" or "HMM", knob = "n", status = "ok", error = e,
                              force_evals = w, evaluations = w, front_evals = 1, env_evals = e, front = 0, env = 1 }
        end
      end
      pts[si] = { value = s, rows = rows }
    end
    local rows = AUS.join("omega", pts)
    assert.are.equal(8, #rows)
    assert.are.same({ "omega", 1e4, 2 }, { rows[8].key, rows[8].value, rows[8].si })
    local sca = AUS.scaling(rows, { 1e3, 1e4 }, { { name = "d", family = "direct" }, { name = "f", family = "HMM" } }, { 1e-3, 1e-5 })
    assert.are.equal(4, #sca)
    -- 1e-3 lies halfway (in log) between the two runs: work sqrt(10 * 100) s
    assert.is_true(math.abs(sca[1].works[1][1] - 1e3 * math.sqrt(1000)) < 1e-6 * 1e3 * math.sqrt(1000))
    assert.is_false(sca[1].works[1][2])
    assert.is_true(math.abs(sca[1].p - 1) < 1e-12, tostring(sca[1].p)) -- d: work ∝ omega
    assert.is_nil(sca[2].works[1][1])                                     -- 1e-5: not reached
    assert.is_nil(sca[2].p)
    assert.is_true(math.abs(sca[3].p) < 1e-12, tostring(sca[3].p))      -- f: flat
    -- a value that is not positive: no exponent
    assert.is_nil(AUS.scaling(rows, { -1e3, 1e4 }, { { name = "d", family = "direct" } }, { 1e-3 })[1].p)
    assert.is_nil(AUS.scaling_plot({ -1e3, 1e4 }, 1e-3, sca, { { name = "d" } }))
    assert.are.same({ "d", "f" }, AUS.scaling_plot({ 1e3, 1e4 }, 1e-3, sca, { { name = "d" }, { name = "f" } }).names)
  end)

  it("the summary names the cheapest method; claims with nothing to measure are n/a", function()
    local rows = {
      { si = 1, stiffness = 1, method = "a", family = "HMM", knob = "N", x = 1, x2 = 0, status = "ok", error = 1e-2, force_evals = 10 },
      { si = 1, stiffness = 1, method = "a", family = "HMM", knob = "N", x = 2, x2 = 0, status = "ok", error = 1e-4, force_evals = 100 },
      { si = 1, stiffness = 1, method = "b", family = "direct", knob = "n", x = 1, x2 = 0, status = "ok", error = 1e-2, force_evals = 50 },
      { si = 1, stiffness = 1, method = "b", family = "direct", knob = "n", x = 2, x2 = 0, status = "ok", error = 1e-4, force_evals = 5000 },
    }
    A.mark_fronts(rows)
    local methods = { { name = "a", family = "HMM" }, { name = "b", family = "direct" } }
    local rk = A.ranking(rows, 1, 1e-3, methods)
    assert.are.equal("a", rk[1].method)
    assert.is_true(math.abs(rk[2].work / rk[1].work - 500 / 31.622776601683793) < 1e-6)
    local prob = { stiff = { key = "omega", label = "ω" } }
    local P = { omega = { 1 }, target = { 1e-3 } }
    local cl = E.claims(nil)
    -- one stiffness value, or a method the run does not have: no exponent to fit
    assert.are.equal("n/a", AC.claim_exponent(cl, "k", "text", prob, P, rows, "a", 1e-3, -0.1, 0.1))
    assert.truthy(cl.rows[#cl.rows].measured:find("at least 2 ω values (an exponent) (this run: 1)", 1, true), cl.rows[#cl.rows].measured)
    assert.are.equal("n/a", AC.claim_exponent(cl, "k2", "text", prob, { omega = { 1, 2 } }, rows, "zz", 1e-3, -0.1, 0.1))
    assert.truthy(cl.rows[#cl.rows].measured:find("zz among the run's methods", 1, true), cl.rows[#cl.rows].measured)
    assert.are.equal("yes", AC.claim_cheapest(cl, "c", "text", prob, P, rows, methods, 1e-3, 1, { "HMM" }, 10))
    assert.are.equal("partly", AC.claim_cheapest(cl, "d", "text", prob, P, rows, methods, 1e-3, 1, { "HMM" }, 100)) -- the cheapest, not 100 times
    assert.are.equal("n/a", AC.claim_cheapest(cl, "e", "text", prob, P, rows, methods, 1e-3, 1, { "SAM" }, 10))
    assert.are.equal("n/a", AC.claim_cheapest(cl, "f", "text", prob, P, rows, { methods[1] }, 1e-3, 1, { "HMM" }, 10))
    -- a target every run already beats: the works are upper bounds, and a ratio to a bound is not measured
    assert.are.equal("n/a", AC.claim_cheapest(cl, "g", "text", prob, P, rows, methods, 0.1, 1, { "HMM" }, 1))
    assert.truthy(cl.rows[#cl.rows].measured:find("open: b ≤ 50", 1, true), cl.rows[#cl.rows].measured)
    assert.are.equal("yes", AC.claim_unreached(cl, "u", "text", prob, P, rows, methods, 1e-5, 1, { "HMM" }))
    assert.are.equal("no", AC.claim_unreached(cl, "v", "text", prob, P, rows, methods, 1e-3, 1, { "HMM" }))
    assert.are.equal("n/a", AC.claim_unreached(cl, "w", "text", prob, P, rows, methods, 1e-5, 1, { "SAM" })) -- not yes on nothing
    assert.are.equal("yes", AC.claim_costlier(cl, "x", "text", prob, P, rows, methods, 1e-3, { "direct" }, 1, { "HMM" }))
    assert.are.equal("n/a", AC.claim_costlier(cl, "y", "text", prob, P, rows, methods, 1e-3, { "SAM" }, 1))
  end)

  it("bench-atlas writes every run, the summary and what its figure draws", function()
    local dir = U.tmpdir()
    local st, _, err = U.run(string.format("luajit scripts/bench-atlas.lua --quick --only kepler --out '%s'", dir))
    assert.are.equal(0, st, err)
    local rows, cols = S.read_table(dir .. "/bench/atlas-kepler.tsv")
    assert.truthy(rows and #rows > 50)
    local has = {}
    for _, c in ipairs(cols) do has[c] = true end
    assert.truthy(has.seconds and has.error and has.force_evals and has.front)
    local lib = 0
    for _, r in ipairs(rows) do
      if r.family ~= "peer" then lib = lib + 1 end
      assert.is_true(r.seconds >= 0 and r.error >= 0)
    end
    assert.is_true(lib > 50)
    local f = io.open(dir .. "/bench/atlas-kepler.md")
    local md = f:read("*a")
    f:close()
    assert.truthy(md:find("Target error", 1, true))
    local peers = require "kapitza.peers"
    if not peers.available("gsl-rk8pd") then assert.truthy(md:find("Skipped peers", 1, true)) end
    -- the figure script draws from the written gpvars (a root with figures/ and paper/bench/)
    assert.truthy(os.execute(string.format("mkdir -p '%s/root/paper' && ln -s '%s/figures' '%s/root/figures' && ln -s '%s/bench' '%s/root/paper/bench'",
                                           dir, U.root, dir, dir, dir)))
    local st2, _, err2 = U.run(string.format("gnuplot -e \"root='%s/root'; outfile='%s/b.svg'\" figures/bench-atlas-kepler.gp", dir, dir))
    assert.are.equal(0, st2, err2)
    local g = io.open(dir .. "/b.svg")
    assert.truthy(g and g:read("*a"):find("<svg", 1, true))
    if g then g:close() end
    U.rmdir(dir)
  end)

  it("one code path: each problem's papers' model file names it, its scenario is the driver's call, its claims are the problem's", function()
    local R, MF, models = require "kapitza.atlas.run", require "kapitza.modelfile", require "kapitza.models"
    local n = 0
    for key, prob in pairs(AP) do
      n = n + 1
      assert.are.equal("function", type(prob.claims), key)
      assert.are.equal(key, MF.spec(models.path(key)).atlas, key)
      assert.are.equal(key, (R.curated_key(models.path(key))), key)
      local f = assert(io.open(U.root .. "/scenarios/atlas-" .. key .. ".lua"))
      local src = f:read("*a")
      f:close()
      local code = src:gsub("%-%-[^\n]*", "")
      assert.truthy(code:find('require("kapitza.atlas.run").scenario("' .. key .. '", arg)', 1, true), key)
      assert.is_nil(code:find("claim_", 1, true), key .. ": claims in the scenario file, not in the problem")
    end
    assert.are.equal(8, n)
  end)
end)
