-- The `kapitza` command (bin/kapitza, lib/lua/kapitza/cli.lua) and what it stands on (lib/lua/kapitza/modelfile.lua,
-- lib/lua/kapitza/atlas/user.lua): --help on every verb; bad input is one line on stderr, exit status 2,
-- nothing written; it works from another directory and through a symbolic link; `kapitza run`
-- runs a scenario kept outside the repository (its figure script beside it); `kapitza atlas`
-- on a small user model in quick mode writes its files, and the configuration its table
-- recommends, pasted into `kapitza solve`, gives the same error and work; every command of
-- paper/own-model.md runs, its constrained variant included.
local U = require "testutil"
local MF = require "kapitza.modelfile"
local S = require "kapitza.scenario"

local KZ = U.root .. "/bin/kapitza"
local MODEL = U.root .. "/scenarios/examples/forced_pendulum2d.lua"

local q = U.q -- shell quoting
local lines = U.lines
local function kz(args, dir)
  return U.run(string.format("cd %s && %s %s", q(dir or "/"), q(KZ), args))
end
local function slurp(p)
  local f = io.open(p, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

describe("kapitza: the command line", function()
  local tmp
  setup(function() tmp = U.tmpdir() end)
  teardown(function() U.rmdir(tmp) end)

  it("--help on the command and on every verb (exit 0, usage on stdout)", function()
    for _, v in ipairs { "", "run ", "check ", "solve ", "atlas ", "sweep " } do
      local st, out, err = kz(v .. "--help")
      assert.are.equal(0, st, err)
      assert.truthy(out:find("usage: kapitza " .. (v == "" and "VERB" or v:gsub(" $", "")), 1, true), out)
    end
  end)

  it("check at omega = 0 (no fast period): runs, and says the averaged force is not compared (a traceback before)", function()
    local st, out, err = kz("check " .. q(MODEL) .. " omega=0")
    assert.are.equal(0, st, err)
    assert.truthy(out:find("averaged force: not compared with the HMM's estimate (no fast period", 1, true), out)
  end)

  it("bad input: one line naming the problem, exit 2, nothing on stdout and nothing written", function()
    local out_dir = tmp .. "/never"
    local cases = {
      { "", "usage" }, { "frobnicate", "unknown verb 'frobnicate'" },
      { "check", "give a model file" }, { "check /nonexistent.lua", "cannot open" },
      { "check " .. q(MODEL) .. " omgea=1e4", "unknown key 'omgea'" },
      { "check " .. q(MODEL) .. " omega=1e4x", "omega: cannot read '1e4x'" },
      { "check " .. q(MODEL) .. " q0=1,2,3", "q0: 3 values given, the model needs 2" },
      { "check " .. q(MODEL) .. " T=0", "T must be a finite number > 0" },
      { "check " .. q(MODEL) .. " --bogus", "unknown argument '--bogus'" },
      { "atlas " .. q(MODEL), "give --out DIR" },
      { "atlas " .. q(MODEL) .. " --out " .. q(out_dir) .. " tol=2", "tol: 2 is outside" },
      { "atlas " .. q(MODEL) .. " --out " .. q(out_dir) .. " methods=nope --quick", "no method 'nope'" },
      { "atlas " .. q(MODEL) .. " --out " .. q(out_dir) .. " --quick omega=1e3,1e4 vmax=2,3", "omega and vmax are both lists" },
      { "atlas " .. q(MODEL) .. " --out " .. q(out_dir) .. " --quick omega=1e3,1e4,1e3", "the value 1e3 is given twice in the list" },
      { "atlas " .. q(MODEL) .. " --out " .. q(out_dir) .. " --quick omega=1e3,1e4x", "omega: cannot read '1e4x' as a number" },
      -- runs that would not finish: refused before anything runs (the work limit, KZ_MAX_WORK)
      { "atlas " .. q(MODEL) .. " --out " .. q(out_dir) .. " omega=1e9", "the run would take about 1.7e+12 force evaluations" },
      { "atlas " .. q(MODEL) .. " --out " .. q(out_dir) .. " --quick omega=1e3,1e9", "1.59e+08 periods at the largest value" },
      { "solve " .. q(MODEL) .. " method=rk4 n=16 omega=1e10", "the run would take about 1.5e+11 force evaluations (rk4 at n=16" },
      -- fuzz findings: a fast period that is not finite or too many periods to count (a traceback
      -- or an endless divisor loop before), a method's non-finite failure (exit 1 with a position)
      { "solve " .. q(MODEL) .. " method=HMM-V N=8 n=16 omega=1e308", "= 1.59e+307 fast periods: more than can be counted" },
      { "atlas " .. q(MODEL) .. " --out " .. q(out_dir) .. " --quick omega=2^-1074", "the fast period inf (2 pi/omega" },
      { "solve " .. q(MODEL) .. " method=HMM-V N=8 n=16 k=1e300", "kapitza solve: kz_hmm_run: the solution became non-finite" },
      { "solve " .. q(MODEL), "give method=NAME" },
      { "solve " .. q(MODEL) .. " method=rk4", "method rk4 needs n=" },
      { "solve " .. q(MODEL) .. " method=rk4 n=8 N=3", "has no knob 'N'" },
      { "run /nonexistent.lua", "cannot open" },
      { "sweep", "give emit, run, status, merge, task or ensemble" },
    }
    for _, c in ipairs(cases) do
      local st, out, err = kz(c[1])
      assert.are.equal(2, st, c[1] .. ": " .. err)
      assert.are.equal("", out, c[1])
      if c[1] ~= "" then
        assert.are.equal(1, #lines(err), c[1] .. ": " .. err)
        assert.truthy(err:find(c[2], 1, true), c[1] .. ": " .. err)
      end
    end
    assert.is_nil(io.open(out_dir .. "/."), "the atlas created its --out on bad input")
  end)

  it("check, from another directory and through a symbolic link: parts, time scales, methods and why not", function()
    local link = tmp .. "/kz-link"
    os.execute("ln -s " .. q(KZ) .. " " .. q(link))
    local st, out, err = U.run(string.format("cd / && %s check %s omega=1e4", q(link), q(MODEL)))
    assert.are.equal(0, st, err)
    for _, s in ipairs { "second order, nq = 2", "equations of motion: accel (C function 'force')",
                         "reconstruct: given (C function 'lift')", "averaged: given (C function 'averaged')", "flows: none",
                         "constraints: none", "slow sets: none", "vmi split: none",
                         "derivatives:\n  none needed", "they agree", "period = 0.000628319 (2 pi/omega", "tau = 0.08",
                         "  HMM:\n    yes hmm ", "yes sam ", "yes rk4 ",
                         "kapitza atlas runs: HMM-V, HMM-A2, SAM-rk4/rk4, SAM-dp5/rk4, SAM-ode45/rk4, LISP-rk4/rk4, MR-rk4, euler" } do
      assert.truthy(out:find(s, 1, true), s .. " not in:\n" .. out)
    end
    -- why the others do not apply: capability's one line, naming the part
    assert.truthy(out:find("no%s+strang%s+the model has no splitting: stepper=strang needs flows a and b"), out)
    assert.truthy(out:find("no%s+sam%-strang%s+the model has no splitting: micro=strang needs flows a and b"), out)
    assert.truthy(out:find("no%s+shake%s+the model has no constraints: stepper=shake needs constraints g%(q%)"), out)
    assert.truthy(out:find("no%s+hmm%-slow%s+the model has no slow variables"), out)
    assert.truthy(out:find("no%s+vmi%s+the model has no multirate split"), out)
    assert.is_nil(out:find("not in the atlas yet", 1, true), out)
  end)

  it("check on a model of each part (tests/models/): parts, invariants at y0, derivatives given or formed, every family in the atlas", function()
    local M = U.root .. "/tests/models/"
    local cases = {
      { "osc2.lua", { "flows: a and b (C functions 'kick', 'rotate')", "invariants at y0: energy = 1.0025", "yes sam-strang ",
                      "yes strang ", "period: 6.28319 (the model's; no fast phase)",
                      "kapitza atlas runs: SAM-rk4/rk4, SAM-dp5/rk4, SAM-ode45/rk4, LISP-rk4/rk4, MR-rk4, SAM-rk4/strang, " ..
                      "SAM-dp5/strang, SAM-ode45/strang, LISP-rk4/strang, MR-strang, euler" } },
      { "pend2.lua", { "slow sets: lift (r = 4 slow variables of 4)", "yes hmm-slow ",
                       "slow.lift.gradient: given; agrees with central differences at y0",
                       "slow.lift.dtheta: given; agrees with central differences at y0", "HMM-slow-LF/lift, HMM-slow-FE/lift" } },
      { "pend2.lua --lua", { "slow.lift.gradient: formed by central differences", "slow.lift.dtheta: formed by central differences",
                             "Lua functions" } },
      { "dpend2.lua", { "constraints: m = 2 on nq = 4 positions, masses (0.01, 0.01, 0.005, 0.005)",
                        "invariants at y0: height = 0.00313275, constraint_g = 0, constraint_Gv = 0",
                        "constraints.jacobian: given; agrees with central differences at y0", "from HERK3 (the constraints kept)",
                        "yes hmm-rattle ", "yes sam-dae ", "kapitza atlas runs: HMM-shake-shake, HMM-rattle-shake, SAM-herk3/herk3, shake, rattle, herk3\n" } },
      { "fpu2.lua", { "mechanical split (vmi), ns + nf = 4 positions", "q0 = (1, 0, 0.02, 0), p0 = (1, 0, 1, 0)",
                      "vmi split: ns = 2 slow and nf = 2 fast positions, masses (1, 1) and (1, 1); potentials V and W",
                      "invariants at y0: I = 1", "vmi.V_gradient: given; agrees", "vmi.V_hessian: formed by central differences",
                      "period = 0.12", "yes vmi ", "yes verlet ",
                      "kapitza atlas runs: VMI-MM, VMI-TM, VMI-TT, euler, symeuler, verlet, leapfrog, rk4, dp5, ve" } },
    }
    for _, c in ipairs(cases) do
      local st, out, err = kz("check " .. q(M .. c[1]:match("^%S+")) .. (c[1]:match(" .*$") or ""))
      assert.are.equal(0, st, c[1] .. ": " .. err)
      for _, s in ipairs(c[2]) do assert.truthy(out:find(s, 1, true), c[1] .. ": " .. s .. " not in:\n" .. out) end
      assert.is_nil(out:find("not in the atlas yet", 1, true), out)
    end
  end)

  it("check: a given derivative that disagrees at the initial state of the command line is reported, exit status 1", function()
    -- the Jacobian's second entry is wrong by q1, which is 0 at the file's initial state (where the
    -- model is built and its derivatives first checked) but not at q0=0.6,0.8
    local f = assert(io.open(tmp .. "/ring.lua", "wb"))
    f:write([[
return { name = "bead_ring", nq = 2, params = { "r" }, values = { r = 1 }, q0 = { 0, 1 }, v0 = { 1, 0 }, T = 1,
  constraints = { m = 1, mass = 1 },
  lua = { accel = function(p, t, q, a) a[0], a[1] = 0, -1 end,
          constraints = { g = function(p, q, g) g[0] = q[0] * q[0] + q[1] * q[1] - p.r * p.r end,
                          jacobian = function(p, q, G) G[0], G[1] = 2 * q[0], 2 * q[1] + q[0] end } } }
]])
    f:close()
    local st, out, err = kz("check " .. q(tmp .. "/ring.lua"))
    assert.are.equal(0, st, err)
    assert.truthy(out:find("constraints.jacobian: given; agrees", 1, true), out)
    local st2, out2, err2 = kz("check " .. q(tmp .. "/ring.lua") .. " q0=0.6,0.8 v0=0.8,-0.6")
    assert.are.equal(1, st2, err2)
    assert.truthy(out2:find("constraints.jacobian: given; DISAGREES at y0", 1, true), out2)
    assert.are.equal(1, #lines(err2), err2)
    assert.truthy(err2:find("constraints.jacobian disagrees with central differences at the initial state: entry (1, 2)", 1, true), err2)
  end)

  it("modelfile: the file's defaults, then the overrides, strictly; numbers may be a table's", function()
    local mf = MF.load(MODEL, { "omega=2*pi*1000", "q0=0.1,0.2", "T=1/2" })
    assert.are.same({ 0.1, 0.2, 0, 0 }, mf.y0)
    assert.are.equal(0.5, mf.T)
    assert.is_true(math.abs(mf.period - 1e-3) < 1e-15)
    local mf2 = MF.load(MODEL, { omega = 1e3, v0 = "1,2" })
    assert.are.same({ 0.5, -0.3, 1, 2 }, mf2.y0)
    for _, bad in ipairs { { { "y0=1,2,3,4", "q0=1,2" }, "give y0 or q0/v0" }, { { "omega=1", "omega=2" }, "given twice" },
                           { { "l" }, "not key=value" }, { { "theta0=" }, "has no value" } } do
      local ok, e = pcall(MF.load, MODEL, bad[1])
      assert.is_false(ok)
      assert.truthy(tostring(e):find(bad[2], 1, true), e)
    end
  end)

  it("run: a scenario kept outside the repository, from another directory (figure script beside it); the repository's too", function()
    local d = tmp .. "/mine"
    os.execute(string.format("mkdir -p %s && cp %s %s %s %s", q(d), q(MODEL), q(U.root .. "/scenarios/examples/scan-forced_pendulum2d.lua"),
                             q(U.root .. "/scenarios/examples/scan-forced_pendulum2d.gp"), q(d)))
    local st, _, err = kz("run scan-forced_pendulum2d.lua --out out omega=1e3 N=50", d)
    assert.are.equal(0, st, err)
    local rows = assert(S.read_table(d .. "/out/data/scan-forced_pendulum2d.tsv"))
    assert.are.equal(1, #rows)
    assert.is_true(rows[1].diff > 0 and rows[1].diff < 0.05, tostring(rows[1].diff))
    assert.truthy(slurp(d .. "/out/figures/scan-forced_pendulum2d.svg"), "the figure beside the scenario was not drawn")
    -- bad input reaches the scenario's own checks: one line, exit 2
    local st2, _, err2 = kz("run scan-forced_pendulum2d.lua --out out N=0", d)
    assert.are.equal(2, st2)
    assert.are.equal(1, #lines(err2), err2)
    -- a scenario of the repository, by path, from another directory
    local st3, _, err3 = kz(string.format("run %s --out %s --quick", q(U.root .. "/scenarios/cs-table2.2.lua"), q(tmp .. "/cs")))
    assert.are.equal(0, st3, err3)
    assert.truthy(slurp(tmp .. "/cs/tables/cs-table2.2.md"))
  end)

  it("sweep: the sweep tool through the command (emit by scenario id)", function()
    local st, out, err = kz(string.format("sweep emit cs-table2.2 %s --over omega=1e4,1e6", q(tmp .. "/sw")))
    assert.are.equal(0, st, err)
    assert.are.equal(2, #lines(out))
    assert.truthy(slurp(tmp .. "/sw/commands.txt"))
  end)

  it("atlas --quick on a user model (Lua functions): its files, every family, and the best configurations reproduced by solve", function()
    local dir = tmp .. "/atlas"
    local st, out, err = kz(string.format("atlas %s --out %s --quick --lua omega=1e3 tol=1e-2,1e-4", q(MODEL), q(dir)))
    assert.are.equal(0, st, err)
    local rows, cols = assert(S.read_table(dir .. "/data/atlas-forced_pendulum2d.tsv"))
    local have = {}
    for _, c in ipairs(cols) do have[c] = true end
    for _, c in ipairs { "method", "params", "error", "evaluations", "seconds" } do assert.truthy(have[c], c) end
    local fam = {}
    for _, r in ipairs(rows) do
      fam[r.family] = true
      assert.is_true(r.seconds > 0 or r.status ~= "ok")
    end
    for _, f in ipairs { "HMM", "SAM", "LISP", "MR", "direct" } do assert.truthy(fam[f], f .. " missing") end
    assert.truthy(slurp(dir .. "/figures/atlas-forced_pendulum2d.svg"))
    local md = assert(slurp(dir .. "/tables/atlas-forced_pendulum2d-best.md"))
    assert.truthy(md:find("estimated at %d"), "the reference's accuracy is not stated")
    local best, bcols = assert(S.read_table(dir .. "/tables/atlas-forced_pendulum2d-best.tsv"))
    local bh = {}
    for _, c in ipairs(bcols) do bh[c] = true end
    for _, c in ipairs { "tol", "method", "params", "error", "evaluations", "seconds" } do assert.truthy(bh[c], c) end
    assert.are.equal(4, #best)
    local pasted = 0
    for _, b in ipairs(best) do
      assert.is_true(b.error <= b.tol, b.params)
      if b.by == "evaluations" then
        -- paste the parameters into solve (C functions this time: the same numbers)
        local st2, o2, e2 = kz(string.format("solve %s omega=1e3 %s --error", q(MODEL), b.params))
        assert.are.equal(0, st2, e2)
        local e = tonumber(o2:match("error (%S+) against"))
        local w = tonumber(o2:match("evaluations (%d+)"))
        assert.are.equal(b.evaluations, w, o2)
        assert.is_true(math.abs(e - b.error) <= 0.01 * b.error, o2 .. " vs " .. b.error)
        pasted = pasted + 1
      end
    end
    assert.are.equal(2, pasted)
    -- stdout: one line per tolerance
    assert.are.equal(2, #lines(out))
  end)

  it("atlas over a list of omega values (tests/models/pend2.lua, --quick): runs value by value, the cheapest per value, " ..
     "the work's exponent in omega (a direct stepper's near 1, the HMM's near 0), the figures", function()
    local dir = tmp .. "/sweep"
    local st, out, err = kz(string.format("atlas %s --out %s --quick omega=1e3,1e4 methods=HMM-A2,SAM-rk4/rk4,rk4 tol=1e-2,1e-4",
                                          q(U.root .. "/tests/models/pend2.lua"), q(dir)))
    assert.are.equal(0, st, err)
    assert.truthy(err:find("atlas-pend2 omega=10000 (2/2)", 1, true), err) -- progress per value
    assert.are.equal(6, #lines(out), out) -- a line per value and tolerance, one per tolerance with the exponents
    -- the runs: key, value, then the columns of one value's atlas; value by value
    local rows, cols = assert(S.read_table(dir .. "/data/atlas-pend2.tsv"))
    local AU = require "kapitza.atlas.user"
    assert.are.same({ "key", "value" }, { cols[1], cols[2] })
    for i, c in ipairs(AU.columns) do assert.are.equal(c, cols[i + 2]) end
    local n, last = { [1000] = 0, [10000] = 0 }, 1000
    for _, r in ipairs(rows) do
      assert.are.equal("omega", r.key)
      assert.is_true(r.value >= last, "rows not value by value")
      last, n[r.value] = r.value, n[r.value] + 1
    end
    assert.is_true(n[1000] > 0 and n[1000] == n[10000], n[1000] .. " " .. n[10000])
    local best, bcols = assert(S.read_table(dir .. "/tables/atlas-pend2-best.tsv"))
    assert.are.same({ "key", "value", "tol" }, { bcols[1], bcols[2], bcols[3] })
    assert.are.equal(8, #best) -- 2 values x 2 tolerances x (evaluations, seconds)
    -- the scaling: a row per method, tolerance and value; the exponent of work against omega
    local sc, scols = assert(S.read_table(dir .. "/tables/atlas-pend2-scaling.tsv"))
    assert.are.same({ "method", "family", "tol", "key", "value", "work", "bound", "exponent" }, scols)
    assert.are.equal(12, #sc)
    local p = {}
    for _, r in ipairs(sc) do p[r.method .. "@" .. r.tol] = r.exponent end
    -- rk4 at n steps per fast period: its error at each n does not depend on omega, its work is
    -- n K = n omega T / 2 pi steps: p = 1 (measured 1.00); the HMM's macro steps are cut from the
    -- slow scale, its micro-steps cover one period per macro step: flat (measured -0.07)
    assert.is_true(p["rk4@0.0001"] > 0.7 and p["rk4@0.0001"] < 1.3, tostring(p["rk4@0.0001"]))
    assert.is_true(math.abs(p["HMM-A2@0.01"]) < 0.3, tostring(p["HMM-A2@0.01"]))
    assert.are.equal("-", p["HMM-A2@0.0001"]) -- not reached in quick mode: no exponent
    local md = assert(slurp(dir .. "/tables/atlas-pend2-scaling.md"))
    assert.truthy(md:find("| method | family | omega = 1000 | omega = 10000 | p |", 1, true), md)
    assert.truthy(md:find("flat in omega (|p| < 0.3): HMM-A2", 1, true), md)
    assert.truthy(md:find("growing like omega (|p - 1| ≤ 0.3): rk4", 1, true), md)
    assert.truthy(assert(slurp(dir .. "/tables/atlas-pend2-best.md")):find("| omega | tol | by |", 1, true))
    local svg = assert(slurp(dir .. "/figures/atlas-pend2.svg"))
    assert.truthy(svg:find("omega = 1000", 1, true) and svg:find("omega = 10000", 1, true), "a panel per value")
    assert.truthy(slurp(dir .. "/figures/atlas-pend2-scaling.svg"))
  end)

  it("a model without omega or period: the fast period estimated from the Jacobian, HMM and SAM n/a with the reason", function()
    local f = assert(io.open(tmp .. "/stiff.lua", "wb"))
    f:write([[
return { name = "stiff_pair", nq = 2, params = { "k", "c" }, values = { k = 1e4, c = 1 }, q0 = { 1, 0 }, T = 1,
  lua = { accel = function(p, t, q, a)
    a[0] = -p.k * (q[0] - q[1]) - p.c * q[0] * q[0] * q[0]
    a[1] = -p.k * (q[1] - q[0]) - p.c * q[1] * q[1] * q[1]
  end } }
]])
    f:close()
    local st, out, err = kz("check " .. q(tmp .. "/stiff.lua"))
    assert.are.equal(0, st, err)
    -- da/dq at q0 = (1, 0) is [[-k - 3c, k], [k, -k]]: the fastest frequency is the square root of
    -- its largest |eigenvalue| ((2k + 3c) + sqrt((2k + 3c)^2 - 12 k c)) / 2, about sqrt(2k)
    local k, c = 1e4, 1
    local lam = ((2 * k + 3 * c) + math.sqrt((2 * k + 3 * c) ^ 2 - 12 * k * c)) / 2
    local p = tonumber(out:match("period = (%S+) %(estimated"))
    assert.is_true(math.abs(p - 2 * math.pi / math.sqrt(lam)) < 2e-6 * p, out)
    assert.truthy(out:find("no%s+hmm%s+the model is not fast%-forced %(no parameter 'omega'%): the HMM needs the fast phase"), out)
    assert.truthy(out:find("no%s+sam%s+the model has no period: SAM needs the period of its oscillation"), out)
    -- the registry steppers, then the peers when build/libkzpeers.so has any (GSL, SUNDIALS)
    assert.truthy(out:find("kapitza atlas runs: euler, symeuler, verlet, leapfrog, rk4, dp5, ve[,\n]"), out)
    local st2, _, err2 = kz(string.format("atlas %s --out %s --quick", q(tmp .. "/stiff.lua"), q(tmp .. "/sa")))
    assert.are.equal(0, st2, err2)
    local rows = assert(S.read_table(tmp .. "/sa/data/atlas-stiff_pair.tsv"))
    for _, r in ipairs(rows) do assert.truthy(r.family == "direct" or r.family == "peer", r.family) end
  end)

  it("a constrained model (lib/lua/kapitza/models.lua's dpend, in the shape a constrained user model takes): the constrained " ..
     "families run against a HERK3 reference, the unconstrained ones are n/a with the reason", function()
    local D, AU, AC = require "kapitza.papers.dpend", require "kapitza.atlas.user", require "kapitza.atlas.catalogue"
    local Pd = {}
    for _, p in ipairs(D.params) do Pd[p[1]] = p[2] end
    local model = D.model(Pd, 1e3)
    local mf = { name = "dpend_user", model = model, nq = 4, dim = 8, y0 = model.state(D.start(Pd)), T = 0.5,
                 period = 2 * math.pi / 1e3, period_source = "2 pi/omega", values = { theta0 = 0 }, how = "c", spec = { c = {} } }
    local ctx = AU.setup(mf, { tol = { 1e-2, 1e-4 } })
    assert.is_true(ctx.constrained)
    assert.truthy(ctx.note:find("HERK3", 1, true))
    assert.is_true(ctx.ref_est < 1e-6)
    local methods, na = AC.catalogue(ctx, { quick = true })
    local names = {}
    for _, m in ipairs(methods) do names[#names + 1] = m.name end
    assert.are.same({ "HMM-rattle-shake", "SAM-herk3/herk3", "shake", "rattle", "herk3" }, names)
    local why = {}
    for _, n in ipairs(na) do why[n.name] = n.reason end
    assert.are.equal("the model has constraints: stepper=rk4 ignores them (use shake, rattle, herk3, hmm-shake, hmm-rattle or sam-dae)",
                     why.rk4)
    local rows = AU.sweep(ctx, methods, { reps = 1 })
    local best = {}
    for _, r in ipairs(rows) do
      assert.are.equal("ok", r.status, r.params)
      best[r.method] = math.min(best[r.method] or 1, r.error)
    end
    -- each converges towards the reference (the HMM to its averaging floor, O(1/omega))
    assert.is_true(best.herk3 < 1e-4 and best.rattle < 1e-3 and best["SAM-herk3/herk3"] < 1e-2 and best["HMM-rattle-shake"] < 0.02)
  end)

  it("atlas --quick runs the families the parts allow, each converging: Strang micro-steps (osc2), the slow-variable " ..
     "HMM (pend2), the variational multirate integrators (fpu2)", function()
    local M = U.root .. "/tests/models/"
    local cases = {
      { "osc2", "", "SAM-rk4/strang,MR-strang,strang", { ["SAM-rk4/strang"] = 1e-4, ["MR-strang"] = 2e-5, strang = 1e-5 } },
      { "pend2", " omega=1e4", "HMM-slow-LF/lift", { ["HMM-slow-LF/lift"] = 5e-3 } },
      { "fpu2", "", "VMI-MM,VMI-TT", { ["VMI-MM"] = 5e-3, ["VMI-TT"] = 3e-3 } },
    }
    for _, c in ipairs(cases) do
      local dir = tmp .. "/fam-" .. c[1]
      local st, _, err = kz(string.format("atlas %s --out %s --quick methods=%s%s", q(M .. c[1] .. ".lua"), q(dir), c[3], c[2]))
      assert.are.equal(0, st, c[1] .. ": " .. err)
      local rows = assert(S.read_table(dir .. "/data/atlas-" .. c[1] .. ".tsv"))
      local runs = {}
      for _, r in ipairs(rows) do
        assert.are.equal("ok", r.status, r.params)
        runs[r.method] = runs[r.method] or {}
        table.insert(runs[r.method], r)
      end
      for m, bound in pairs(c[4]) do
        assert.truthy(runs[m], c[1] .. ": " .. m .. " did not run")
        -- the ladder's best run is within the bound and better than its cheapest (refining helps)
        table.sort(runs[m], function(a, b) return a.evaluations < b.evaluations end)
        local best = math.huge
        for _, r in ipairs(runs[m]) do best = math.min(best, r.error) end
        assert.is_true(#runs[m] >= 2 and best < bound and best < runs[m][1].error,
                       string.format("%s %s: cheapest %s, best %s", c[1], m, runs[m][1].error, best))
      end
    end
  end)

  it("modelfile: data given as functions of the parameters, a vmi model's momenta (p0), strictly", function()
    local d = MF.load(U.root .. "/tests/models/dpend2.lua", { "a1=0.3" })
    assert.is_near(0.2 * math.sin(0.3), d.y0[1], 1e-15)
    assert.are.equal(4, d.npos)
    local f = MF.load(U.root .. "/tests/models/fpu2.lua", { "omega=100", "p0=0,0,1,0" })
    assert.are.same({ 1, 0, 1 / 100, 0, 0, 0, 1, 0 }, f.y0)
    assert.is_true(f.vmi and f.npos == 4 and f.nq == 0 and f.dim == 8)
    assert.is_true(math.abs(MF.estimate_period(f) - 2 * math.pi / 100) < 0.01 * 2 * math.pi / 100) -- from (df/dy)^2
    local ok, e = pcall(MF.load, U.root .. "/tests/models/fpu2.lua", { "v0=0,0,1,0" })
    assert.is_false(ok)
    assert.truthy(tostring(e):find("unknown key 'v0' (the model 'fpu2' takes omega, T, q0, p0 or y0)", 1, true), e)
  end)

  it("make install: the installed kapitza finds its installed modules, from / (not the source tree's)", function()
    local prefix = tmp .. "/usr"
    local MAKE = "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u KZ_LIB make --no-print-directory -C " .. q(U.root)
    local st, _, err = U.run(string.format("%s install PREFIX=%s >/dev/null", MAKE, q(prefix)))
    assert.are.equal(0, st, err)
    local prog = prefix .. "/bin/kapitza"
    local st2, out, err2 = U.run(string.format("(cd / && export KZ_CACHE=%s && env -u KZ_LIB -u LUA_PATH %s atlas %s --out %s " ..
      "--quick omega=1e3,1e4 methods=HMM-A2,rk4 && env -u KZ_LIB -u LUA_PATH %s check %s omega=1e3 && " ..
      "env -u KZ_LIB -u LUA_PATH %s sweep ensemble %s %s --over vmax=2,3 --over q0_1=0.1,0.3 n=100)", q(tmp .. "/cache"), q(prog),
      q(MODEL), q(tmp .. "/ia"), q(prog), q(MODEL), q(prog), q(MODEL), q(tmp .. "/ie")))
    assert.are.equal(0, st2, err2 .. out)
    assert.truthy(out:find("kapitza atlas runs: HMM-V, HMM-A2,", 1, true), out)
    assert.truthy(slurp(tmp .. "/ia/figures/atlas-forced_pendulum2d.svg"), "no figure from the installed atlas")
    assert.truthy(slurp(tmp .. "/ia/figures/atlas-forced_pendulum2d-scaling.svg"), "no scaling figure from the installed atlas")
    assert.truthy(slurp(tmp .. "/ie/figures/sweep-forced_pendulum2d.svg"), "no figure from the installed sweep ensemble")
    local st3, _, err3 = U.run(string.format("%s uninstall PREFIX=%s >/dev/null", MAKE, q(prefix)))
    assert.are.equal(0, st3, err3)
    assert.is_nil(io.open(prog), "uninstall left bin/kapitza")
  end)
end)

---------------------------------------------------------------------------------------------------
-- paper/own-model.md: every ```sh block, in order, in a fresh folder
---------------------------------------------------------------------------------------------------

-- The ```sh blocks of the chapter, in order.
local function blocks(path)
  local t, cur = {}, nil
  for line in (assert(slurp(path)) .. "\n"):gmatch("([^\n]*)\n") do
    if cur then
      if line:match("^```%s*$") then t[#t + 1] = cur; cur = nil else cur.text = cur.text .. line .. "\n" end
    elseif line:match("^```sh%s*$") then
      cur = { text = "" }
    end
  end
  return t
end

describe("paper/own-model.md", function()
  local tmp
  setup(function() tmp = U.tmpdir() end)
  teardown(function() U.rmdir(tmp) end)

  it("has the chapter's steps: check, a direct run, the HMM, SAM, a constrained variant, the atlas and a sweep", function()
    local all = {}
    for _, b in ipairs(blocks(U.root .. "/paper/own-model.md")) do all[#all + 1] = b.text end
    local s = table.concat(all)
    for _, w in ipairs { "kapitza check", "method=rk4", "method=HMM", "method=SAM", "forced_pendulum2d_constrained",
                         "kapitza atlas", "kapitza sweep emit", "kapitza sweep ensemble", "kapitza run" } do
      assert.truthy(s:find(w, 1, true), w)
    end
  end)

  it("every command runs, in order, in a fresh folder (HOME/kapitza is the source tree)", function()
    local home = tmp .. "/home"
    os.execute(string.format("mkdir -p %s && ln -s %s %s", q(home), q(U.root), q(home .. "/kapitza")))
    local script = { "set -e", "cd " .. q(home) }
    for _, b in ipairs(blocks(U.root .. "/paper/own-model.md")) do script[#script + 1] = b.text end
    local f = assert(io.open(tmp .. "/doc.sh", "wb"))
    f:write(table.concat(script, "\n"), "\n")
    f:close()
    local st, out, err = U.run(string.format("env HOME=%s KZ_CACHE=%s KZ_QUIET=1 sh -x %s", q(home), q(tmp .. "/cache"),
                                             q(tmp .. "/doc.sh")))
    assert.are.equal(0, st, err:sub(-3000))
    assert.truthy(out:find("method=HMM-A2 N=100 n=16", 1, true))
    assert.truthy(slurp(home .. "/mywork/atlas/tables/atlas-forced_pendulum2d-best.md"))
    -- the constrained variant: its parts, a RATTLE run and the constrained HMM against the HERK3
    -- reference, the atlas of the constrained families only
    assert.truthy(out:find("constraints: m = 2 on nq = 4 positions", 1, true), out)
    assert.truthy(out:find("constraints.jacobian: given; agrees with central differences at y0", 1, true), out)
    assert.truthy(out:find("kapitza atlas runs: HMM-shake-shake, HMM-rattle-shake, SAM-herk3/herk3, shake, rattle, herk3\n", 1, true), out)
    local e1 = tonumber(out:match("method=rattle n=32 on forced_pendulum2d_constrained.-error (%S+) against the reference %(HERK3"))
    local e2 = tonumber(out:match("method=HMM%-rattle%-shake N=80 n=32 on forced_pendulum2d_constrained.-error (%S+) against"))
    assert.is_true(e1 > 1e-3 and e1 < 5e-3, out)  -- RATTLE, second order, 32 steps per period
    assert.is_true(e2 > 1e-3 and e2 < 1e-2, out)  -- the constrained HMM: macro error and averaging floor
    local rows = assert(S.read_table(home .. "/mywork/atlas-constrained/data/atlas-forced_pendulum2d_constrained.tsv"))
    local fams, best = {}, math.huge
    for _, r in ipairs(rows) do
      fams[r.method] = true
      assert.are.equal("ok", r.status, r.params)
      best = math.min(best, r.error)
    end
    for _, m in ipairs { "HMM-rattle-shake", "SAM-herk3/herk3", "shake", "rattle", "herk3" } do assert.truthy(fams[m], m) end
    assert.is_true(best < 1e-5, tostring(best))
  end)
end)

describe("kapitza atlas on a papers' model file: the paper's atlas, one code path with scenarios/atlas-<problem>.lua", function()
  local tmp
  setup(function() tmp = U.tmpdir() end)
  teardown(function() U.rmdir(tmp) end)

  -- every file under DIR/{data,tables,figures}, relative, sorted
  local function files(dir)
    local F = require "kapitza.files"
    local t = {}
    for _, sub in ipairs { "data", "tables", "figures" } do
      for _, e in ipairs(F.entries(dir .. "/" .. sub) or {}) do t[#t + 1] = sub .. "/" .. e.name end
    end
    table.sort(t)
    return t
  end

  it("writes exactly what the scenario writes (every file, every byte, the claims too)", function()
    for _, c in ipairs { { "ste", "eps=1e-2" }, { "fpu", "omega=50" } } do
      local A, B = tmp .. "/cmd-" .. c[1], tmp .. "/scn-" .. c[1]
      local st, _, err = kz(string.format("atlas %s --out %s --quick %s", q(U.root .. "/lib/models/" .. c[1] .. ".lua"), q(A), c[2]))
      assert.are.equal(0, st, err)
      local st2, _, err2 = U.run(string.format("cd / && luajit %s --out %s --quick %s", q(U.root .. "/scenarios/atlas-" .. c[1] .. ".lua"),
                                               q(B), c[2]))
      assert.are.equal(0, st2, err2)
      local fa, fb = files(A), files(B)
      assert.are.same(fb, fa)
      local id = "atlas-" .. c[1]
      assert.are.same({ "data/" .. id .. ".tsv", "figures/" .. id .. ".svg", "tables/" .. id .. "-claims.md",
                        "tables/" .. id .. "-claims.tsv", "tables/" .. id .. ".md", "tables/" .. id .. ".tsv" }, fa)
      for _, f in ipairs(fa) do
        local a, b = slurp(A .. "/" .. f), slurp(B .. "/" .. f)
        assert.are.equal(b, a, c[1] .. ": " .. f .. " differs")
        -- nothing run-specific in any file (the output folder, the staging folder)
        assert.is_nil(a:find(tmp, 1, true), f .. " names the output folder")
        assert.is_nil(a:find("kz-stage", 1, true), f .. " names the staging folder")
      end
    end
  end)

  it("bad input on the paper's route: one line, exit 2, nothing written; --help names the command and its keys", function()
    local never = tmp .. "/never"
    local pend = q(U.root .. "/lib/models/pendulum.lua")
    for _, c in ipairs {
      { "--out " .. q(never) .. " bogus=1", "unknown parameter 'bogus'" },
      { "--out " .. q(never) .. " omega=1e3,1e3", "given twice" },
      { "--out " .. q(never) .. " --lua", "unknown argument '--lua'" },
      { "--out " .. q(never) .. " tol=1e-3", "unknown parameter 'tol'" },
      { "--out " .. q(never) .. " omega=10", "vmax/(l omega)" },
      { "omega=1e3", "give --out DIR" },
    } do
      local st, out, err = kz("atlas " .. pend .. " " .. c[1])
      assert.are.equal(2, st, c[1] .. ": " .. err)
      assert.are.equal("", out, c[1])
      assert.are.equal(1, #lines(err), c[1] .. ": " .. err)
      assert.truthy(err:find(c[2], 1, true), c[1] .. ": " .. err)
    end
    assert.is_nil(io.open(never .. "/."), "the paper's atlas created its --out on bad input")
    local st, out = kz("atlas " .. pend .. " --help")
    assert.are.equal(0, st)
    assert.truthy(out:find("usage: kapitza atlas " .. U.root .. "/lib/models/pendulum.lua", 1, true), out)
    assert.truthy(out:find("omega ", 1, true) and out:find("target ", 1, true), out)
    local st2, out2 = kz("atlas --help")
    assert.are.equal(0, st2)
    assert.truthy(out2:find("runs its paper atlas", 1, true), out2)
  end)

  it("a copy of a papers' model file (atlas = 'pendulum' outside lib/models/) gets the atlas of a model of one's own", function()
    local copy = tmp .. "/mypend.lua"
    local f = assert(io.open(copy, "wb"))
    f:write(slurp(U.root .. "/lib/models/pendulum.lua"))
    f:close()
    local D = tmp .. "/own"
    local cmd = string.format("atlas %s --out %s --quick omega=1e3 methods=rk4 reps=1", q(copy), q(D))
    -- the model file names its C (c.file = "pendulum.c"): a copy without it is one line, exit 2
    local st0, _, err0 = kz(cmd)
    assert.are.equal(2, st0)
    assert.truthy(err0:find("c.file: cannot read " .. tmp .. "/pendulum.c", 1, true), err0)
    f = assert(io.open(tmp .. "/pendulum.c", "wb"))
    f:write(slurp(U.root .. "/lib/models/pendulum.c"))
    f:close()
    local st, out, err = kz(cmd)
    assert.are.equal(0, st, err)
    assert.truthy(err:find("note: atlas = 'pendulum' names a paper's atlas", 1, true), err)
    assert.truthy(out:find("method=rk4", 1, true), out)
    local _, cols = assert(S.read_table(D .. "/data/atlas-pendulum.tsv"))
    assert.truthy(table.concat(cols, " "):find("params", 1, true)) -- the generic columns, timed
    assert.truthy(table.concat(cols, " "):find("seconds", 1, true))
    assert.is_nil(io.open(D .. "/tables/atlas-pendulum-claims.tsv"), "a copy ran the paper's atlas")
    -- kapitza check says which atlas each file gets
    local _, co = kz("check " .. q(U.root .. "/lib/models/pendulum.lua"))
    assert.truthy(co:find("kapitza atlas runs the paper's atlas instead, scenarios/atlas-pendulum.lua", 1, true), co)
    local _, cc = kz("check " .. q(copy))
    assert.is_nil(cc:find("the paper's atlas", 1, true), cc)
    -- and it still may not write over the paper's outputs
    local st2, _, err2 = kz(string.format("atlas %s --out %s --quick", q(copy), q(U.root .. "/paper")))
    assert.are.equal(2, st2)
    assert.truthy(err2:find("built-in atlas of paper/", 1, true), err2)
  end)
end)
