-- sweep_ensemble_spec.lua -- `scripts/sweep.lua ensemble` (lib/lua/kapitza/sweep/ensemble.lua): a 3 x 4
-- grid of a small user C model (tests/models/pend2.lua, two degrees of freedom) run as one
-- ensemble call; every row, in point order, equals the scalar run of the model file loaded with
-- that point's overrides (kz.run, hmm.run, sam.sam), to 1e-12 relative (|a - b| / max(1, |b|):
-- libmvec against libm along the run; measured here: 0 for rk4, 0 for HMM-V, 0 for SAM -- the
-- model's sin and cos of the states take the same values member by member on this machine; 3.4e-15
-- for rk4 over the initial state alone, every member with the same parameters).
-- The Lua functions (--lua) run member by member, said on stderr, into the same file. Bad input
-- (an unknown key, an empty list, T or a knob swept, omega swept under the HMM) is one line on
-- stderr, exit status 2, and nothing written; emit given a model file names `ensemble`. The figure
-- (gnuplot): a line plot for one swept key, a heat map for two (plot=NAME its component), none for
-- three or plot=none; plot=bogus refused before the run.
local U = require "testutil"
local F = require "kapitza.files"
local kz = require "kapitza"
local MF = require "kapitza.modelfile"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local S = require "kapitza.scenario"

local MODEL = U.root .. "/tests/models/pend2.lua"
local TOL = 1e-12
local T = "16*pi/1e3" -- 8 fast periods at omega = 1e3

local q = U.q -- shell quoting

local function sweep(dir, args)
  return U.run(string.format("luajit scripts/sweep.lua ensemble %s %s %s", q(MODEL), q(dir), args))
end

-- The header, the rows (by column name) and the comment lines of the TSV.
local function table_of(path)
  local rows, head, comments = S.read_table(path)
  assert(rows, path .. " not written")
  return head, rows, table.concat(comments, "\n")
end

local worst = 0
local function agree(a, b, what)
  local d = math.abs(a - b) / math.max(1, math.abs(b))
  worst = math.max(worst, d)
  assert.is_true(d <= TOL, string.format("%s: sweep %.17g, scalar %.17g (rel %.2e)", what, a, b, d))
end

-- The scalar run at one point: the model file loaded with the point's overrides.
local function scalar(method, ov, q0_1)
  local mf = MF.load(MODEL, ov, { how = "c" })
  local y0 = { unpack(mf.y0) }
  if q0_1 then y0[1] = q0_1 end
  if method == "rk4" then return kz.run(mf.model.sys, "rk4", 0, mf.T / 2000, 2000, y0) end
  local P = mf.period
  if method == "hmm" then
    local Q, Pv, c = hmm.run(mf.model, { preset = "ste", macro = "V", micro = "rk4", kernel = "uniform", eta = P,
                                         h = P / 16, H = mf.T / 4, T = mf.T, Y0 = y0, check_micro = false })
    return { Q[#Q][1], Q[#Q][2], Pv[#Pv][1], Pv[#Pv][2] }, c
  end
  local ys, c = sam.sam(sam.micro(mf.model, "rk4"), { n = 16, period = P, y0 = y0, tout = { mf.T }, macro = "rk4", H = mf.T / 4 })
  return ys[1], c
end

local function check(rows, method, point)
  assert.are.equal(12, #rows)
  for m, r in ipairs(rows) do
    local ov, q0_1 = point(m, r)
    local y, c = scalar(method, ov, q0_1)
    assert.are.equal("ok", r.status)
    assert.are.equal(c.force_evals, tonumber(r.evaluations))
    for i, name in ipairs { "q1", "q2", "v1", "v2" } do
      agree(tonumber(r[name]), y[i], string.format("%s point %d %s", method, m, name))
    end
  end
end

describe("sweep ensemble: a grid as one ensemble call", function()
  local tmp
  setup(function() tmp = U.tmpdir() end)
  teardown(function()
    U.rmdir(tmp)
    print(string.format("\n  sweep ensemble: largest |sweep - scalar| / max(1, |scalar|) = %.2e", worst))
  end)

  it("rk4 over omega x q0_1 (point order: the first --over outermost): every row equals kz.run at that point", function()
    local dir = tmp .. "/rk4"
    local st, out, err = sweep(dir, "--over omega=1e3,2e3,4e3 --over q0_1=0.1,0.2,0.3,0.4 n=2000 T=" .. T .. " --threads 2")
    assert.are.equal(0, st, err)
    assert.are.equal("", out)
    assert.matches("one ensemble call, 12 members, method rk4", err)
    local head, rows, comments = table_of(dir .. "/data/sweep-pend2.tsv")
    assert.are.same({ "omega", "q0_1", "q1", "q2", "v1", "v2", "status", "evaluations" }, head)
    assert.matches("model pend2", comments)
    assert.matches("one ensemble call: vector width %d doubles, 2 threads", comments)
    local oms, qs = { 1e3, 2e3, 4e3 }, { 0.1, 0.2, 0.3, 0.4 }
    check(rows, "rk4", function(m, r)
      local om, q1 = oms[math.floor((m - 1) / 4) + 1], qs[(m - 1) % 4 + 1]
      assert.are.equal(om, tonumber(r.omega))
      assert.are.equal(q1, tonumber(r.q0_1))
      return { "omega=" .. om, "T=" .. T }, q1
    end)
  end)

  it("rk4 over the initial state alone (no parameter list: every member the same parameters)", function()
    local dir = tmp .. "/state"
    local st, _, err = sweep(dir, "--over q0_1=0.1,0.2,0.3 n=2000 plot=none T=" .. T)
    assert.are.equal(0, st, err)
    local _, rows = table_of(dir .. "/data/sweep-pend2.tsv")
    assert.are.equal(3, #rows)
    for m, r in ipairs(rows) do
      local y = scalar("rk4", { "T=" .. T }, 0.1 * m)
      assert.are.equal("ok", r.status)
      for i, name in ipairs { "q1", "q2", "v1", "v2" } do agree(tonumber(r[name]), y[i], string.format("state point %d %s", m, name)) end
    end
  end)

  it("the HMM (HMM-V) and SAM over vmax x a component of the state: every row equals hmm.run / sam.sam", function()
    local vms, qs, vs = { 3, 4, 5 }, { 0.1, 0.2, 0.3, 0.4 }, { -1, 0, 0.5, 1 }
    local dir = tmp .. "/hmm"
    local st, _, err = sweep(dir, "--over vmax=3,4,5 --over q0_1=0.1,0.2,0.3,0.4 method=hmm N=4 n=16 T=" .. T)
    assert.are.equal(0, st, err)
    local _, rows = table_of(dir .. "/data/sweep-pend2.tsv")
    check(rows, "hmm", function(m) return { "vmax=" .. vms[math.floor((m - 1) / 4) + 1], "T=" .. T }, qs[(m - 1) % 4 + 1] end)
    dir = tmp .. "/sam"
    st, _, err = sweep(dir, "--over vmax=3,4,5 --over v0_2=-1,0,0.5,1 method=sam N=4 n=16 T=" .. T)
    assert.are.equal(0, st, err)
    _, rows = table_of(dir .. "/data/sweep-pend2.tsv")
    check(rows, "sam", function(m)
      local mf = MF.load(MODEL, {})
      return { "vmax=" .. vms[math.floor((m - 1) / 4) + 1], "T=" .. T,
               string.format("v0=%.17g,%.17g", mf.y0[3], vs[(m - 1) % 4 + 1]) }
    end)
  end)

  it("observers: max, crossing with stop, samples, an invariant, as columns that equal the scalar runs' values", function()
    local dir = tmp .. "/obs"
    local st, _, err = sweep(dir, "--over vmax=3,4,5 --over q0_1=0.1,0.2,0.3,0.4 n=2000 T=" .. T ..
                                  " max=q1,v2 cross=q1:0.305:abs:stop every=10 samples=q1 plot=max_q1 --threads 2")
    assert.are.equal(0, st, err)
    local head, rows, comments = table_of(dir .. "/data/sweep-pend2.tsv")
    assert.are.same({ "vmax", "q0_1", "q1", "q2", "v1", "v2", "max_q1", "max_v2", "cross_q1", "status", "evaluations" }, head)
    assert.matches("observers, checked in the call at the start and every 10 step", comments)
    local _, srows = table_of(dir .. "/data/sweep-pend2-samples.tsv")
    assert.are.equal(12 * 201, #srows)
    local vms, qs, stopped = { 3, 4, 5 }, { 0.1, 0.2, 0.3, 0.4 }, 0
    for m, r in ipairs(rows) do
      local mf = MF.load(MODEL, { "vmax=" .. vms[math.floor((m - 1) / 4) + 1], "T=" .. T }, { how = "c" })
      local y0 = { unpack(mf.y0) }
      y0[1] = qs[(m - 1) % 4 + 1]
      local h = mf.T / 2000
      local out = kz.trajectory(mf.model.sys, "rk4", 0, h, 10, 200, y0)
      local mq, mv, tc, jc = 0, 0, nil, nil
      for j = 0, 200 do
        if not tc then mq, mv = math.max(mq, math.abs(out[4 * j])), math.max(mv, math.abs(out[4 * j + 3])) end
        if not tc and math.abs(out[4 * j]) >= 0.305 then tc, jc = j * 10 * h, j end
      end
      agree(tonumber(r.max_q1), mq, "max_q1 point " .. m)
      agree(tonumber(r.max_v2), mv, "max_v2 point " .. m)
      if tc then
        stopped = stopped + 1
        assert.are.equal("stopped", r.status)
        assert.is_true(math.abs(tonumber(r.cross_q1) - tc) < 1e-12)
        agree(tonumber(r.q1), out[4 * jc], "the stopped state, point " .. m)
        assert.are.equal(tonumber(r.q1), tonumber(srows[(m - 1) * 201 + 201].q1)) -- held to the end
      else
        assert.are.equal("ok", r.status)
        assert.is_true(tonumber(r.cross_q1) ~= tonumber(r.cross_q1)) -- nan: never
        agree(tonumber(r.q1), out[4 * 200], "q1 point " .. m)
      end
      local at10 = (jc and jc < 1) and out[4 * jc] or out[4] -- held from a stop at the start
      agree(tonumber(srows[(m - 1) * 201 + 2].q1), at10, "the sample at step 10, point " .. m)
    end
    assert.is_true(stopped > 0 and stopped < 12, "stopped " .. stopped)
    assert.is_truthy(F.read(dir .. "/figures/sweep-pend2.svg"))
    -- SAM writes the state at every macro node for its observers: the state at T is the same
    local a, b = tmp .. "/sam0", tmp .. "/sam1"
    assert.are.equal(0, (sweep(a, "--over vmax=3,4 method=sam N=4 n=16 plot=none T=" .. T)))
    assert.are.equal(0, (sweep(b, "--over vmax=3,4 method=sam N=4 n=16 plot=none max=q1 T=" .. T)))
    local _, ra = table_of(a .. "/data/sweep-pend2.tsv")
    local _, rb = table_of(b .. "/data/sweep-pend2.tsv")
    for m = 1, 2 do
      for _, c in ipairs { "q1", "q2", "v1", "v2" } do assert.are.equal(ra[m][c], rb[m][c]) end
      assert.is_true(tonumber(rb[m].max_q1) >= math.abs(tonumber(rb[m].q1)))
    end
  end)

  it("observers: an invariant of the model at the end, and the refusals", function()
    local osc = U.root .. "/tests/models/osc2.lua"
    local dir = tmp .. "/inv"
    local st, _, err = U.run(string.format("luajit scripts/sweep.lua ensemble %s %s --over eps=0.01,0.02 n=100 final=energy plot=none",
                                           q(osc), q(dir)))
    assert.are.equal(0, st, err)
    local _, rows = table_of(dir .. "/data/sweep-osc2.tsv")
    for m, r in ipairs(rows) do
      local mf = MF.load(osc, { "eps=" .. (m == 1 and "0.01" or "0.02") }, { how = "c" })
      local y = kz.run(mf.model.sys, "rk4", 0, mf.T / 100, 100, mf.y0)
      agree(tonumber(r.final_energy), mf.model.invariants(y).energy, "energy point " .. m)
    end
    for _, c in ipairs {
      { "max=x", "max: 'x' is not a state column (q1, q2, v1, v2)" },
      { "cross=q1", "cross: give cross=COMP:LEVEL" },
      { "cross=q1:1:sideways", "cross: unknown flag 'sideways'" },
      { "final=energy", "final: the model has no invariant 'energy'" },
      { "every=0 max=q1", "every: '0' is not a whole number >= 1" },
      { "every=5", "every= alone observes nothing" },
      { "method=hmm N=4 cross=q1:1:stop", "cross: stop is for a direct run" },
      { "max=q1 --lua", "observers (max, cross, final, samples, every) run in C" },
      { "plot=max_v1 max=q1", "plot=max_v1: not a state or observer column" },
    } do
      local d = tmp .. "/bad"
      local st2, _, err2 = sweep(d, "--over vmax=3,4 n=100 T=" .. T .. " " .. c[1]) -- (n: steps, or micro-steps for the HMM)
      assert.are.equal(2, st2, c[1])
      assert.is_truthy(err2:find(c[2], 1, true), c[1] .. ": " .. err2)
      assert.is_falsy(F.read(d .. "/data/sweep-pend2.tsv"))
    end
  end)

  it("--lua: the Lua functions run member by member (said on stderr), the same table", function()
    local dir = tmp .. "/lua"
    local st, _, err = sweep(dir, "--over vmax=3,4,5 --over q0_1=0.1,0.2,0.3,0.4 method=hmm N=4 n=16 --lua T=" .. T)
    assert.are.equal(0, st, err)
    assert.matches("Lua functions %(%-%-lua%), which do not vectorise: its 12 points run one by one", err)
    local _, rows, comments = table_of(dir .. "/data/sweep-pend2.tsv")
    assert.matches("member by member", comments)
    local vms, qs = { 3, 4, 5 }, { 0.1, 0.2, 0.3, 0.4 }
    check(rows, "hmm", function(m) return { "vmax=" .. vms[math.floor((m - 1) / 4) + 1], "T=" .. T }, qs[(m - 1) % 4 + 1] end)
  end)

  it("bad input: one line on stderr, exit 2, nothing written", function()
    local ints = {} -- 1001 distinct values: a grid of 1001^2 points
    for i = 1, 1001 do ints[i] = tostring(i) end
    local cases = {
      { "--over vmx=1,2 n=10", "unknown key 'vmx' (the model 'pend2' sweeps l, g, vmax, k, omega, theta0, q0_1..q0_2, v0_1..v0_2)" },
      { "--over vmax= n=10", "key 'vmax': empty value" },
      { "--over vmax=1,,2 n=10", "key 'vmax': empty value" },
      { "n=10", "nothing to sweep" },
      { "--over T=1,2 n=10", "T cannot be swept in one ensemble call" },
      { "--over n=10,20", "'n' cannot be swept" },
      { "--over vmax=1,2 N=3", "method rk4 has no knob 'N' (its knobs: n or h)" },
      { "--over vmax=1,2 n=3 h=0.1", "give n=steps or h=step, not both" },
      { "--over q0=0.1,0.2 n=3", "q0 has several components: sweep one as q0_1" },
      { "--over q0_3=0.1,0.2 n=3", "unknown key 'q0_3'" },
      { "--over vmax=1,2 method=shake n=3", "method 'shake': an ensemble runs hmm, sam or an explicit stepper" },
      { "--over omega=1e3,2e3 method=hmm N=4 n=16", "method=hmm: 'omega' cannot be swept" },
      { "--over omega=1e3,2e3 method=sam N=4 n=16", "the fast period differs between points" },
      { "--over vmax=1,2 n=3 zz=1", "unknown key 'zz'" },
      { "--over vmax=1,2 n=3 --threads 0", "--threads needs a whole number" },
      -- runs that would not finish, and grids that would not fit, refused before anything runs
      { "--over vmax=1,2 n=1e12", "the sweep would take about 8e+12 force evaluations (2 points x 4e+12 each; limit 2e+10" },
      { "--over vmax=1,2 method=sam N=1e5 n=1e4", "the sweep would take about 6.4e+10 force evaluations" },
      { "--over vmax=" .. table.concat(ints, ",") .. " --over g=" .. table.concat(ints, ",") .. " n=3",
        "the grid has 1.002e+06 points (at most 1e+06 in one call" },
    }
    for _, c in ipairs(cases) do
      local dir = tmp .. "/never"
      local st, out, err = sweep(dir, c[1])
      assert.are.equal(2, st, c[1] .. ": " .. err)
      assert.are.equal("", out)
      assert.is_truthy(err:find(c[2], 1, true), c[1] .. ": " .. err)
      assert.are.equal(1, select(2, err:gsub("\n", "")), c[1] .. ": " .. err)
      assert.is_false(F.is_dir(dir), c[1] .. " wrote " .. dir)
    end
  end)

  it("--force runs past the work limit; KZ_MAX_WORK sets it", function()
    local dir = tmp .. "/forced"
    local st, _, err = U.run(string.format("KZ_MAX_WORK=100 luajit scripts/sweep.lua ensemble %s %s --over vmax=1,2 n=10",
                                           q(MODEL), q(dir)))
    assert.are.equal(2, st, err)
    assert.is_truthy(err:find("limit 1e+02, KZ_MAX_WORK", 1, true), err)
    assert.is_false(F.is_dir(dir))
    st, _, err = U.run(string.format("KZ_MAX_WORK=100 luajit scripts/sweep.lua ensemble %s %s --over vmax=1,2 n=10 --force",
                                     q(MODEL), q(dir)))
    assert.are.equal(0, st, err)
    assert.is_true(F.is_dir(dir))
  end)

  -- the figure (lib/lua/kapitza/sweep/figure.lua): drawn by gnuplot from the TSV when one runs
  local has_gnuplot = os.execute("gnuplot --version >/dev/null 2>&1") == 0
  local svg = F.read -- the text of a file, nil when there is none

  it("the figure: one key a line plot, two a heat map (plot=NAME its component), plot=none none", function()
    if not has_gnuplot then return pending("no gnuplot") end
    local dir = tmp .. "/fig1"
    local st, _, err = sweep(dir, "--over vmax=1,2,3 n=10")
    assert.are.equal(0, st, err)
    local t = svg(dir .. "/figures/sweep-pend2.svg")
    assert.is_truthy(t and #t > 0, err)
    assert.is_truthy(err:find("and " .. dir .. "/figures/sweep-pend2.svg", 1, true), err)
    assert.matches(">vmax<", t) -- the x label
    for _, n in ipairs { "q1", "q2", "v1", "v2" } do assert.matches(">" .. n .. "<", t) end -- the legend
    dir = tmp .. "/fig2"
    st, _, err = sweep(dir, "--over vmax=1,2,3 --over omega=1e2,1e3,1e4 n=10")
    assert.are.equal(0, st, err)
    t = svg(dir .. "/figures/sweep-pend2.svg")
    assert.is_truthy(t and #t > 0, err)
    assert.matches(">vmax<", t)
    assert.matches(">omega %(log scale%)<", t)
    assert.matches(">q1 at T<", t) -- the colour bar: the first position by default
    st, _, err = sweep(dir, "--over vmax=1,2,3 --over omega=1e2,1e3,1e4 n=10 plot=v2")
    assert.are.equal(0, st, err)
    t = svg(dir .. "/figures/sweep-pend2.svg")
    assert.matches(">v2 at T<", t)
    assert.is_nil(t:find(">q1 at T<", 1, true))
    -- plot=none: no figure, and the earlier one (of other data) is gone
    st, _, err = sweep(dir, "--over vmax=1,2,3 --over omega=1e2,1e3,1e4 n=10 plot=none")
    assert.are.equal(0, st, err)
    assert.is_truthy(svg(dir .. "/data/sweep-pend2.tsv"))
    assert.is_nil(svg(dir .. "/figures/sweep-pend2.svg")) -- (the folder stays: it is not removed by name)
  end)

  it("the figure: three keys none (one line why), plot=bogus refused before the run", function()
    local dir = tmp .. "/fig3"
    local st, out, err = sweep(dir, "--over vmax=1,2 --over g=9,10 --over l=1,2 n=10")
    assert.are.equal(0, st, err)
    assert.is_truthy(svg(dir .. "/data/sweep-pend2.tsv"))
    assert.is_nil(svg(dir .. "/figures/sweep-pend2.svg")) -- (the folder stays: it is not removed by name)
    assert.are.equal(1, select(2, err:gsub("no figure: 3 keys with more than one value", "")), err)
    dir = tmp .. "/fig4"
    st, out, err = sweep(dir, "--over vmax=1,2 n=10 plot=bogus")
    assert.are.equal(2, st, err)
    assert.are.equal("", out)
    assert.are.equal("sweep: plot=bogus: not a state or observer column of this sweep (its columns: q1, q2, v1, v2; or plot=none)\n", err)
    assert.is_false(F.is_dir(dir))
  end)

  it("a model with constraints: the unconstrained methods are refused (they would drop the constraint forces)", function()
    local con = U.root .. "/scenarios/examples/forced_pendulum2d_constrained.lua"
    for _, m in ipairs { "n=10", "method=hmm N=4 n=16", "method=sam N=4 n=16" } do
      local dir = tmp .. "/con"
      local st, out, err = U.run(string.format("luajit scripts/sweep.lua ensemble %s %s --over vmax=1,2 %s", q(con), q(dir), m))
      assert.are.equal(2, st, m .. ": " .. err)
      assert.are.equal("", out)
      assert.is_truthy(err:find("the model has constraints", 1, true), m .. ": " .. err)
      assert.are.equal(1, select(2, err:gsub("\n", "")), err)
      assert.is_false(F.is_dir(dir))
    end
  end)

  it("every point failing: the data are written, no figure, said in one line (gnuplot failed on it before)", function()
    local dir = tmp .. "/allfail"
    local st, _, err = sweep(dir, "--over vmax=1e300,2e300 n=64") -- a force beyond 1e100: every member leaves the bound
    assert.are.equal(0, st, err)
    assert.is_truthy(err:find("no figure: none of the 2 points finished", 1, true), err)
    assert.is_truthy(F.read(dir .. "/data/sweep-pend2.tsv"):find("failed:", 1, true))
    assert.is_nil(svg(dir .. "/figures/sweep-pend2.svg")) -- (the folder stays: it is not removed by name)
  end)

  it("emit given a model file says to use ensemble", function()
    local dir = tmp .. "/emit"
    local st, _, err = U.run(string.format("luajit scripts/sweep.lua emit %s %s --over vmax=1,2", q(MODEL), q(dir)))
    assert.are.equal(2, st)
    assert.matches("is a model file, not a scenario: sweep it with `sweep.lua ensemble", err)
    assert.is_false(F.is_dir(dir))
  end)
end)
