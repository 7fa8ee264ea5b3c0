-- Every method family on models written only in the user format (issue 18): the model files of
-- tests/models/ -- osc2 (a splitting), pend2 (fast-forced, with a slow-variable set), dpend2
-- (constraints), fpu2 (the multirate split) -- through lib/lua/kapitza/usermodel.lua and lib/lua/kapitza/usermodel/parts.lua,
-- each family's order of accuracy checked by self-convergence (the ratio of successive
-- differences when the step halves: 2^order), both ways (C source and Lua functions), the
-- derivatives the library forms against given ones, the refusals of lib/lua/kapitza/capability.lua, the
-- strict options of lib/lua/kapitza/options.lua and the safe defaults (the HMM's micro-stepper warning, the
-- VMI's stability bound).
local kz = require "kapitza"
local um = require "kapitza.usermodel"
local parts = require "kapitza.usermodel.parts"
local cap = require "kapitza.capability"
local Dv = require "kapitza.usermodel.derivatives"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local vmi = require "kapitza.vmi"
local models = require "kapitza.models"
local U = require "testutil"
local ffi = kz.ffi

local function spec(name) return dofile(U.root .. "/tests/models/" .. name .. ".lua") end
local function model(name, how, values) return um.model(spec(name), values, how) end

local function dist(a, b)
  local s = 0
  for i = 1, #a do s = s + (a[i] - b[i]) ^ 2 end
  return math.sqrt(s)
end

-- The ratios of successive differences of f(x) over the ladder xs (each step half the last).
local function ratios(f, xs)
  local ys, r = {}, {}
  for i, x in ipairs(xs) do ys[i] = f(x) end
  for i = 1, #ys - 2 do r[i] = dist(ys[i], ys[i + 1]) / dist(ys[i + 1], ys[i + 2]) end
  return r, ys
end

local function within(x, lo, hi, what)
  assert.is_true(x >= lo and x <= hi, string.format("%s: %.3f not in [%g, %g]", what, x, lo, hi))
end

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error matching " .. pattern)
  err = tostring(err)
  assert.truthy(err:find(pattern, 1, true), err)
  assert.is_nil(err:find("\n"), err)
  return err
end

local function last(rows, n) local t = {} for i = 1, n do t[i] = rows[#rows][i] end return t end

describe("the model parts #asan", function()
  it("build both ways, with the spec's values, initial state, end time, period and derivatives", function()
    for _, how in ipairs { "c", "lua" } do
      local o = model("osc2", how)
      assert.are.same({ 1, 0, 0, 1 }, o.y0)
      assert.are.equal(16 * math.pi, o.T)
      assert.are.equal(2 * math.pi, o.period)
      assert.is_true(o.sys.flow_a ~= nil and o.sys.flow_b ~= nil)
      assert.are.equal(0.01, o.par.eps)
      assert.are.equal(0.02, model("osc2", how, { eps = 0.02 }).par.eps) -- values override the defaults
      assert.is_near(1.0025, o.invariants(o.y0).energy, 1e-15)
      local d = model("dpend2", how)
      assert.are.equal(2, d.con.m)
      assert.are.equal(d.con, d.sys.con)
      assert.is_near(1 / 0.005, d.con.minv[3], 1e-12)
      local inv = d.invariants(d.y0)
      assert.is_true(inv.constraint_g <= d.con.tol and inv.constraint_Gv == 0)
      assert.are.same({ { part = "constraints.jacobian", how = how == "c" and "given" or "central differences" } }, d.derivatives)
      local p = model("pend2", how)
      assert.are.equal(4, p.slow.lift.r)
      local f = model("fpu2", how)
      assert.are.equal(8, f.dim)
      assert.are.equal(2, f.ns)
      assert.are.same({ 1, 0, 1 / 50, 0, 1, 0, 1, 0 }, f.y0)
      assert.are.equal(1, f.invariants(f.y0).I)
    end
  end)

  it("form the derivatives they leave out by central differences, accurate to ~1e-10", function()
    -- constraints (Lua: formed; C: given) at a point off the initial state
    local dc, dl = model("dpend2", "c"), model("dpend2", "lua")
    local q = kz.vec(4, { 0.1, 0.17, 0.05, 0.26 })
    local Gc, Gl = kz.vec(8), kz.vec(8)
    assert.are.equal(0, dc.con.g(dc.con.par, q, nil, Gc))
    assert.are.equal(0, dl.con.g(dl.con.par, q, nil, Gl))
    for i = 0, 7 do assert.is_near(Gc[i], Gl[i], 1e-10) end
    -- a slow set's gradient and phase derivative (Lua: formed; C: given)
    local pc, pl = model("pend2", "c"), model("pend2", "lua")
    local x, th = kz.vec(4, { 0.4, -0.2, 3, -1 }), 1.1
    local xc, xl, gc, gl, tc, tl = kz.vec(4), kz.vec(4), kz.vec(16), kz.vec(16), kz.vec(4), kz.vec(4)
    assert.are.equal(0, pc.slow.lift.eval(pc.slow.lift.par, th, x, xc, gc, tc))
    assert.are.equal(0, pl.slow.lift.eval(pl.slow.lift.par, th, x, xl, gl, tl))
    for i = 0, 15 do assert.is_near(gc[i], gl[i], 1e-9 * 20) end
    for i = 0, 3 do assert.is_near(tc[i], tl[i], 1e-9 * 20) end
    -- the vmi potentials (Lua: everything formed; C: V's Hessian formed)
    local fc, fl = model("fpu2", "c"), model("fpu2", "lua")
    local qs, qf = kz.vec(2, { 0.7, -0.3 }), kz.vec(2, { 0.02, 0.01 })
    local function all(m)
      local gs, gf, H, v = kz.vec(2), kz.vec(2), kz.vec(16), kz.vec(1)
      assert.are.equal(0, m.model.V(m.model.par, qs, qf, v, gs, gf, H))
      return { v[0], gs[0], gs[1], gf[0], gf[1] }, H
    end
    local a, Ha = all(fc)
    local b, Hb = all(fl)
    for i = 1, 5 do assert.is_near(a[i], b[i], 1e-10) end
    for i = 0, 15 do assert.is_near(Ha[i], Hb[i], 1e-5) end -- a Hessian from formed gradients: ~eps^(1/3)
    assert.are.equal(Hb[1], Hb[4]) -- symmetrised
    -- the given derivatives pass the check at the initial state, well inside its tolerance
    for _, m in ipairs { dc, pc, fc } do
      local rows = parts.check(m)
      assert.is_true(#rows >= 1)
      for _, r in ipairs(rows) do assert.is_true(r.ok and r.rel < 1e-8, r.part .. " " .. tostring(r.rel)) end
    end
    -- and the check works on a built-in model too (analytic everywhere)
    local top = models.top {}
    local rows = parts.check(top, top.x0(1, 0.1, 0.2))
    assert.is_true(#rows >= 3)
    for _, r in ipairs(rows) do assert.is_true(r.ok, r.part .. " " .. tostring(r.message)) end
  end)

  it("refuse a given derivative that disagrees with the differences, in one line naming the part", function()
    -- C: a wrong sign in the Jacobian's last entry
    local s = spec("dpend2")
    s.c.source = s.c.source:gsub("G%[7%] = 2 %* dy;", "G[7] = -2 * dy;")
    local err = fails("constraints.jacobian disagrees with central differences at the initial state: entry (2, 4)", um.model, s, nil, "c")
    assert.truthy(err:find("^usermodel 'dpend2': "), err)
    -- Lua: a gradient of V missing a factor
    local f = spec("fpu2")
    f.lua.vmi.V_gradient = function(p, qs, qf, gs, gf)
      local a, b, c = qs[0] - qf[0], qs[1] - qf[1] - qs[0] - qf[0], qs[1] + qf[1]
      gs[0], gs[1] = a ^ 3 - 2 * b ^ 3, b ^ 3 + c ^ 3 -- the factor 2: wrong
      gf[0], gf[1] = -(a ^ 3) - b ^ 3, -(b ^ 3) + c ^ 3
    end
    fails("vmi.V_gradient disagrees", um.model, f, nil, "lua")
    -- Lua: a slow gradient with a wrong sign
    local p = spec("pend2")
    p.lua.slow.lift.gradient = function(pp, th, x, G)
      for i = 0, 15 do G[i] = 0 end
      G[0], G[5], G[10], G[15] = 1, 1, 1, 1
      G[8] = pp.vmax * math.sin(th) / pp.l * math.cos(x[0])
    end
    fails("slow.lift.gradient disagrees", um.model, p, { theta0 = 0.7 }, "lua")
    -- the comparison itself: a relative 1e-5 per row, the differences' own error allowed for
    local A, F = kz.vec(2, { 1, 2 }), kz.vec(2, { 1, 2 + 1e-9 })
    local _, ok = Dv.compare(A, F, F, 1, 2)
    assert.is_true(ok)
    local w, bad = Dv.compare(kz.vec(2, { 1, 2.001 }), F, F, 1, 2)
    assert.is_false(bad)
    assert.are.equal(1, w.j)
  end)

  it("refuse bad parts with one-line messages naming them", function()
    local function with(name, edit)
      local s = spec(name)
      edit(s)
      return s
    end
    local cases = {
      { with("dpend2", function(s) s.constraint, s.constraints = s.constraints, nil end), "unknown entry 'constraint' (did you mean 'constraints'?)" },
      { with("osc2", function(s) s.lua.constraints = { g = print } end), "lua.constraints: the spec declares no constraints" },
      { with("pend2", function(s) s.lua.slow = nil end), "lua.slow is missing (the spec declares slow sets)" },
      { with("osc2", function(s) s.lua.flows.b = nil end), "lua.flows.b is missing" },
      { with("osc2", function(s) s.lua.flows.c = print end), "lua.flows.c: unknown entry (one of a, b)" },
      { with("osc2", function(s) s.y0, s.q0, s.v0 = { 1, 2 }, nil, nil end), "y0 must list 4 numbers" },
      { with("dpend2", function(s) s.constraints.mass = { "m1", "m1", "m3", "m2" } end), "constraints.mass[3]: 'm3' is not a parameter" },
      { with("dpend2", function(s) s.constraints.m = 5 end), "constraints.m (the number of constraints) must be a whole number in 1..4" },
      { with("fpu2", function(s) s.lua.accel = print end), "a model with a vmi part gets its equations of motion from V and W" },
      { with("fpu2", function(s) s.nq = 4 end), "takes its size from vmi.ns and vmi.nf" },
      { with("osc2", function(s) s.slow = { e = { r = 1 } } end), "slow variables need a fast-forced model" },
      { with("pend2", function(s) s.period = 1 end), "a fast-forced model's period is 2 pi / omega" },
      { with("fpu2", function(s) s.v0 = { 1, 0, 0, 0 } end), "a vmi model's state holds momenta: give p0" },
    }
    for _, c in ipairs(cases) do fails(c[2], um.model, c[1], nil, "lua") end
  end)
end)

describe("each method family on a user model, with its order of accuracy", function()
  local osc, oscl = model("osc2", "c"), model("osc2", "lua")

  it("direct integration with the registry steppers (osc2): rk4 4, verlet 2, strang 2, dp5 5", function()
    for _, c in ipairs { { "rk4", 14, 18 }, { "verlet", 3.6, 4.4 }, { "strang", 3.6, 4.4 }, { "dp5", 25, 40 } } do
      local r = ratios(function(n) return kz.run(osc.sys, c[1], 0, 2 * math.pi / n, 4 * n, osc.y0) end, { 32, 64, 128 })
      within(r[1], c[2], c[3], "direct " .. c[1])
    end
    -- the Lua way gives the same numbers to round-off, flows and invariants included
    local a = kz.run(osc.sys, "strang", 0, 0.1, 200, osc.y0)
    local b = kz.run(oscl.sys, "strang", 0, 0.1, 200, oscl.y0)
    assert.is_true(dist(a, b) < 1e-13)
    assert.is_near(osc.invariants(a).energy, oscl.invariants(b).energy, 1e-14)
    assert.is_near(osc.invariants(osc.y0).energy, osc.invariants(a).energy, 1e-4) -- Strang: bounded energy error
  end)

  it("SAM, LISP and multirevolution with micro=rk4 (order 4 in n) and micro=strang (order 2), rk4 macro (order 4)", function()
    local tend = 2 * math.pi * 64
    for _, kind in ipairs { "rk4", "strang" } do
      local mi = sam.micro(osc, kind)
      local lo, hi = kind == "rk4" and 12 or 3.6, kind == "rk4" and 20 or 4.6
      local rs = ratios(function(n) return sam.sam(mi, { n = n, H = tend / 8, y0 = osc.y0, tout = { tend }, period = osc.period })[1] end, { 16, 32, 64 })
      within(rs[1], lo, hi, "SAM n " .. kind)
      local rl = ratios(function(n) return sam.sam(mi, { n = n, H = tend / 8, y0 = osc.y0, tout = { tend }, period = osc.period, diff = "lisp" })[1] end, { 16, 32, 64 })
      within(rl[1], lo, hi, "LISP n " .. kind)
      local rm = ratios(function(n) return sam.mr(mi, { n = n, M = 8, N = 8, y0 = osc.y0, period = osc.period }) end, { 16, 32, 64 })
      within(rm[1], lo, hi, "MR n " .. kind)
      local rH = ratios(function(N) return sam.sam(mi, { n = 64, H = tend / N, y0 = osc.y0, tout = { tend }, period = osc.period })[1] end, { 4, 8, 16 })
      within(rH[1], 10, 20, "SAM H " .. kind)
    end
    -- the Lua way: the same SAM result to round-off
    local a = sam.sam(sam.micro(osc, "strang"), { n = 16, H = tend / 8, y0 = osc.y0, tout = { tend }, period = osc.period })[1]
    local b = sam.sam(sam.micro(oscl, "strang"), { n = 16, H = tend / 8, y0 = oscl.y0, tout = { tend }, period = oscl.period })[1]
    assert.is_true(dist(a, b) < 1e-10, dist(a, b))
  end)

  it("the HMM on a fast-forced model (pend2, Algorithm 1 with the model's lift): order 2 in H, near the averaged motion", function()
    local p, pl = model("pend2", "c"), model("pend2", "lua")
    local per = 2 * math.pi / p.vib.omega
    local function run(m, N)
      local Q = hmm.run(m, { preset = "cs1", micro = "rk4", kernel = "exponential", H = 1 / N, T = 1, eta = 10 * per,
                             h = per / 32, Q0 = { m.y0[1], m.y0[2] } })
      return Q[#Q]
    end
    local r, ys = ratios(function(N) return run(p, N) end, { 20, 40, 80 })
    within(r[1], 3.5, 4.5, "HMM H")
    local ref = kz.run(p.avg, "rk4", 0, 1e-4, 10000, p.y0)
    assert.is_true(dist(ys[3], { ref[1], ref[2] }) < 0.02, dist(ys[3], { ref[1], ref[2] }))
    assert.is_true(dist(run(pl, 20), ys[1]) < 1e-10)
  end)

  it("the slow-variable HMM (pend2's set 'lift'): FE order 1, LF order 2 in H; formed gradients as good as given ones", function()
    local values = { omega = 2000 * math.pi } -- H a whole number of periods 1e-3
    local p, pl = model("pend2", "c", values), model("pend2", "lua", values)
    local per = 2 * math.pi / p.vib.omega
    local function run(m, mac, N)
      local x = hmm.slow_run(m, { set = "lift", macro = mac, H = 0.64 / N, T = 0.64, eta = 10 * per, h = per / 32, x0 = m.y0 })
      return { x[1][#x[1]], x[2][#x[2]] }
    end
    within(ratios(function(N) return run(p, "FE", N) end, { 160, 320, 640 })[1], 1.8, 2.8, "slow HMM FE")
    local r, ys = ratios(function(N) return run(p, "LF", N) end, { 80, 160, 320 })
    within(r[1], 3.5, 4.6, "slow HMM LF")
    local ref = kz.run(p.avg, "rk4", 0, 0.64e-4, 10000, p.y0)
    assert.is_true(dist(ys[3], { ref[1], ref[2] }) < 5e-3, dist(ys[3], { ref[1], ref[2] }))
    -- Lua: gradient and phase derivative formed by differences; C: given
    assert.is_true(dist(run(pl, "LF", 20), run(p, "LF", 20)) < 1e-8)
  end)

  it("SHAKE, RATTLE (order 2) and HERK3 (order 3) on the user double pendulum, on the constraints", function()
    local smooth = { omega = 20, vmax = 1, a1 = math.pi - 0.5, a2 = math.pi + 0.3 } -- hanging rods, mild vibration
    local d, dl = model("dpend2", "c", smooth), model("dpend2", "lua", smooth)
    for _, c in ipairs { { "shake", 3.7, 4.3 }, { "rattle", 3.7, 4.3 }, { "herk3", 7, 9 } } do
      -- positions (SHAKE's step-point velocity is unprojected, first order)
      local states = {}
      local r = ratios(function(n)
        states[#states + 1] = kz.run(d.sys, c[1], 0, 0.5 / n, n, d.y0)
        return last(states, 4)
      end, { 128, 256, 512 })
      within(r[1], c[2], c[3], "direct " .. c[1])
      assert.is_true(d.invariants(states[3]).constraint_g <= d.con.tol, c[1])
    end
    -- the Lua way (formed Jacobian) agrees to the differences' accuracy
    assert.is_true(dist(kz.run(d.sys, "rattle", 0, 0.5 / 128, 128, d.y0), kz.run(dl.sys, "rattle", 0, 0.5 / 128, 128, dl.y0)) < 1e-8)
    -- and the same model built in gives the same numbers (the C way: bit for bit)
    local b = models.dpend { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 1, omega = 20 }
    assert.are.same(kz.run(b.sys, "shake", 0, 1e-3, 100, d.y0), kz.run(d.sys, "shake", 0, 1e-3, 100, d.y0))
  end)

  it("the constrained HMM (SHAKE-SHAKE, RATTLE-SHAKE) and SAM on the DAE (HERK3: order 3 in H) on the user double pendulum", function()
    local d = model("dpend2", "c", { omega = 1e4 })
    local per = 2 * math.pi / d.vib.omega
    for _, sch in ipairs { "shake-shake", "rattle-shake" } do
      local r = ratios(function(N)
        return last(hmm.dae_run(d, { preset = sch, H = 0.2 / N, T = 0.2, eta = per, h = per / 64 }, d.y0), 4)
      end, { 40, 80, 160 })
      within(r[1], 3.5, 4.5, "constrained HMM " .. sch)
    end
    local rH = ratios(function(N)
      return last(sam.dae(d, { n = 32, period = per, H = 0.2 / N, y0 = d.y0, tout = { 0.2 } }), 4)
    end, { 20, 40, 80 })
    within(rH[1], 6, 9, "SAM-DAE H")
    local rn = ratios(function(n)
      return last(sam.dae(d, { n = n, period = per, H = 0.01, y0 = d.y0, tout = { 0.2 } }), 4)
    end, { 8, 16, 32 })
    assert.is_true(rn[1] >= 7, "SAM-DAE n " .. rn[1])
  end)

  it("the variational multirate integrator (fpu2): midpoint-midpoint order 2 both ways, the built-in FPU's numbers", function()
    for _, how in ipairs { "c", "lua" } do
      local f = model("fpu2", how)
      local r = ratios(function(N)
        local res = vmi.run(f, "MM", { p = 5, dT = 1 / N, T = 1, tol = 1e-12 })
        local y = {}
        for i = 0, res.d - 1 do y[i + 1] = res.out[res.N * res.d + i] end
        return y
      end, { 320, 640, 1280 })
      within(r[1], 3.7, 4.3, "VMI MM " .. how)
    end
    local f, b = model("fpu2", "c"), vmi.fpu { l = 2, omega = 50 }
    local a = vmi.run(f, "MM", { p = 5, dT = 0.05, T = 1 })
    local c = vmi.run(b, "MM", { p = 5, dT = 0.05, T = 1, y0 = f.y0 })
    for i = 0, a.d - 1 do assert.is_near(c.out[a.N * a.d + i], a.out[a.N * a.d + i], 1e-14) end
  end)
end)

describe("capabilities: each method refuses a model that lacks its part, at set-up, naming it", function()
  local osc, pend, dp, fpu = model("osc2", "c"), model("pend2", "c"), model("dpend2", "c"), model("fpu2", "c")

  it("lists which methods apply to each model and why not the others", function()
    local function oks(m)
      local t = {}
      for _, r in ipairs(cap.table(m)) do
        if r.ok then t[#t + 1] = r.method else assert.truthy(r.why and r.why:find("^the model "), r.why) end
      end
      return table.concat(t, " ")
    end
    assert.are.equal("euler symeuler verlet leapfrog rk4 strang dp5 ve sam sam-strang lisp lisp-strang mr mr-strang", oks(osc))
    assert.are.equal("euler symeuler verlet leapfrog rk4 dp5 ve hmm sam lisp mr hmm-slow", oks(pend))
    assert.are.equal("shake rattle herk3 hmm-shake hmm-rattle sam-dae", oks(dp))
    assert.are.equal("euler symeuler verlet leapfrog rk4 dp5 ve vmi", oks(fpu)) -- unit masses: second-order form too
    local ok, why = cap.check(pend, "sam", { micro = "strang" })
    assert.is_nil(ok)
    assert.are.equal("the model has no splitting: micro=strang needs flows a and b", why)
    assert.is_nil(cap.check(osc, "no-such"))
  end)

  it("the bindings refuse before anything runs", function()
    fails("sam.micro: the model has no splitting: micro=strang needs flows a and b", sam.micro, pend, "strang")
    fails("hmm.run: the model is not fast-forced (no parameter 'omega')", hmm.run, osc, { preset = "cs1", H = 1, T = 1, eta = 1, h = 0.1, Q0 = { 1, 0 } })
    fails("hmm.run: the model has constraints: the HMM ignores them", hmm.run, dp, { preset = "cs1", H = 1, T = 1, eta = 1, h = 0.1, Q0 = { 1, 0, 0, 0 } })
    fails("vmi.run: the model has no multirate split", vmi.run, pend, "MM", { p = 1, dT = 0.1, N = 1 })
    fails("hmm.dae_run: the model has no constraints: the constrained HMM needs constraints g(q)", hmm.dae_run, pend, { H = 0.1, T = 0.1, eta = 0.01, h = 0.001 }, pend.y0)
    fails("hmm.slow_run: the model has no slow variables", hmm.slow_run, model("dpend2", "c", { omega = 1e4 }), { H = 0.1, T = 0.1 })
    fails("hmm.slow_run: the model 'pend2' has no slow set 'x' (it has lift)", hmm.slow_run, pend, { set = "x", H = 0.1, T = 0.1, x0 = pend.y0 })
    fails("sam.dae: the model has no constraints: SAM on the DAE needs", sam.dae, osc, { n = 8, H = 1, y0 = osc.y0, tout = { 1 } })
    fails("kz.run: the system has no splitting: stepper=strang needs flows a and b", kz.run, pend.sys, "strang", 0, 0.1, 1, pend.y0)
    fails("kz.run: y0 must list 4 numbers (the system's dim; got 2)", kz.run, pend.sys, "rk4", 0, 0.1, 1, { 1, 0 })
  end)
end)

describe("the Lua API is strict (issue 18, item 6)", function()
  local pend, osc, fpu = model("pend2", "c"), model("osc2", "c"), model("fpu2", "c")
  local per = 2 * math.pi / pend.vib.omega
  local good = { preset = "cs1", micro = "rk4", kernel = "exponential", H = 0.1, T = 1, eta = 10 * per, h = per / 32 }
  local function o(extra)
    local t = {}
    for k, v in pairs(good) do t[k] = v end
    for k, v in pairs(extra) do t[k] = v end
    return t
  end

  it("unknown option keys, arrays of the wrong length, non-finite states, non-integer counts", function()
    fails("hmm.run: unknown option 'kernal' (did you mean 'kernel'?)", hmm.run, pend, o { kernal = "uniform", Q0 = { 0.5, 0.3 } })
    fails("hmm.run: option 'Q0' must list 2 numbers (the model 'pend2' has nq = 2; got one number)", hmm.run, pend, o { Q0 = 0.5 })
    fails("hmm.run: option 'P0' must list 2 numbers", hmm.run, pend, o { Q0 = { 0.5, 0.3 }, P0 = { 0, 0, 0 } })
    fails("hmm.run: option 'Q0' has a non-finite component 2", hmm.run, pend, o { Q0 = { 0.5, 0 / 0 } })
    fails("hmm.run: option 'half_window' must be true or false (got 0)", hmm.run, pend, o { half_window = 0, Q0 = { 0.5, 0.3 } })
    local mi = sam.micro(osc, "rk4")
    fails("sam.mr: option 'M' must be a whole number >= 1 (got 248.90000000000001)", sam.mr, mi, { n = 8, M = 248.9, N = 1, y0 = osc.y0, period = osc.period })
    fails("sam.sam: option 'n' must be a whole number >= 1 (got 8.5)", sam.sam, mi, { n = 8.5, H = 1, y0 = osc.y0, tout = { 1 } })
    fails("sam.sam: option 'y0' must list 4 numbers", sam.sam, mi, { n = 8, H = 1, y0 = { 1, 0 }, tout = { 1 } })
    fails("sam.sam: unknown option 'tend'", sam.sam, mi, { n = 8, H = 1, y0 = osc.y0, tend = 1 })
    fails("vmi.run: option 'p' must be a whole number >= 1 (got 5.5)", vmi.run, fpu, "MM", { p = 5.5, dT = 0.1, N = 1 })
    fails("vmi.run: unknown option 'dt' (did you mean 'dT'?)", vmi.run, fpu, "MM", { p = 5, dt = 0.1, N = 1 })
    fails("vmi.run: option 'y0' has a non-finite component 1", vmi.run, fpu, "MM", { p = 5, dT = 0.1, N = 1, y0 = { 1 / 0, 0, 0, 0, 0, 0, 0, 0 } })
    fails("hmm.slow_run: unknown option 'x_0' (did you mean 'x0'?)", hmm.slow_run, pend, { set = "lift", H = 0.1, T = 0.1, x_0 = pend.y0 })
    -- a correct call goes through
    local Q = hmm.run(pend, o { Q0 = { 0.5, 0.3 } })
    assert.are.equal(11, #Q)
  end)
end)

describe("safe defaults (issue 18, item 7)", function()
  it("a user model run with the preset's coarse Verlet micro-stepper says so; rk4 or an explicit choice does not", function()
    local spec1 = { name = "hpend_default", nq = 1, params = { "l", "g", "vmax", "omega", "theta0" }, even_in_theta = true,
      values = { l = 0.2, g = 9.8, vmax = 4, omega = 1e4, theta0 = 0 },
      lua = { accel = function(p, th, q, a) a[0] = (p.vmax * p.omega * math.cos(th) * math.cos(q[0]) - p.g * math.sin(q[0])) / p.l end } }
    local m = um.model(spec1)
    local per = 2 * math.pi / 1e4
    local said = {}
    local real = io.stderr
    io.stderr = { write = function(_, s) said[#said + 1] = s end }
    local ok, err = pcall(function()
      local base = { preset = "cs2", kernel = "uniform", H = 0.05, T = 0.5, eta = per, Q0 = 0.5 }
      local function run(extra) local t = {} for k, v in pairs(base) do t[k] = v end for k, v in pairs(extra) do t[k] = v end return hmm.run(m, t) end
      run { h = per / 16 }
      run { h = per / 16 } -- said once
      run { h = per / 16, micro = "verlet" }
      run { h = per / 16, micro = "rk4" }
      run { h = per / 256 } -- fine enough: silent
      hmm.run(models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e4 }, { preset = "cs2", kernel = "uniform", H = 0.05, T = 0.5, eta = per, h = per / 16, Q0 = 0.5 })
    end)
    io.stderr = real
    assert.is_true(ok, err)
    assert.are.equal(1, #said, table.concat(said))
    assert.truthy(said[1]:find("hmm.run: the preset's micro-stepper verlet at h = period/16 moves the force estimate", 1, true), said[1])
    assert.truthy(said[1]:find("pass micro = \"rk4\"", 1, true), said[1])
  end)

  it("a VMI step beyond the stability bound names the bound, not only Newton", function()
    local f = model("fpu2", "c")
    local err = fails("omega dT/p = 10 is beyond the linear stability bound 2 of scheme TT", vmi.run, f, "TT", { p = 5, dT = 1, N = 2 })
    assert.truthy(err:find("^vmi.run: Newton did not converge at step %d"), err)
    assert.truthy(err:find("omega = 50, the largest frequency of W", 1, true), err)
    -- within the bounds, the message says so and what to try
    fails("the step is within the linear stability bounds at the initial state", vmi.run, f, "MM", { p = 5, dT = 0.3, N = 2, max_iter = 1 })
  end)
end)
