-- ensemble_spec.lua -- ensembles (lib/methods/kz_ens.c, lib/models/kz_ens_models.c, lib/lua/ensemble.lua): every
-- member equals its own scalar run (direct RK4 and Verlet, the HMM of both pendulums, SAM), on
-- one thread and on several; a member that blows up is flagged and the others go on; bad input
-- is refused naming the parameter.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C
local models = require "models"
local hmm = require "hmm"
local sam = require "sam"
local ens = require "ensemble"

-- the bound on |member - scalar| / max(1, |scalar|) over whole runs: libmvec's sin (<= 4 ulp)
-- against libm's (<= 1 ulp), propagated along a trajectory; measured below 1e-13 here
local TOL = 1e-12

local function with(base, extra)
  local t = {}
  for k, v in pairs(base) do t[k] = v end
  for k, v in pairs(extra) do t[k] = v end
  return t
end

local function agree(a, b, what)
  local d = math.abs(a - b) / math.max(1, math.abs(b))
  assert.is_true(d <= TOL, string.format("%s: ensemble %.17g, scalar %.17g (rel %.2e)", what, a, b, d))
  return d
end

describe("ensembles of the vibrated pendulum #asan", function()
  local amps, oms, q0s = {}, {}, {}
  for m = 1, 37 do
    amps[m] = 0.5 + 0.1 * m
    oms[m] = 40 + 3 * m
    q0s[m] = 0.05 + 0.01 * m
  end

  it("direct RK4 and Verlet: every member equals its scalar run, on 1 and 3 threads", function()
    local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = oms, theta0 = 0.1 }
    assert.are.equal(37, e.M)
    for _, st in ipairs { "rk4", "verlet" } do
      for _, th in ipairs { 1, 3 } do
        local q, v, failed, w = ens.run(e, { stepper = st, h = 1e-4, n = 500, q0 = q0s, v0 = 0.2, threads = th })
        assert.are.equal(500 * (st == "rk4" and 4 or 1) + (st == "verlet" and 1 or 0), w.force_evals)
        for m = 1, 37, 6 do
          local sm = models.pendulum { l = 0.2, g = 9.8, vmax = amps[m], omega = oms[m], theta0 = 0.1 }
          local y = kz.vec(2, { q0s[m], 0.2 })
          kz.call("kz_run", kz.stepper(st), sm.sys, 0, 1e-4, 500, y, kz.report())
          assert.are.equal(0, failed[m])
          agree(q[m], y[0], st .. " q member " .. m)
          agree(v[m], y[1], st .. " v member " .. m)
        end
      end
    end
  end)

  it("the HMM (Algorithm 1, micro RK4): every member equals hmm.run", function()
    local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = 1e4, theta0 = 0 }
    assert.is_true(e.phase)
    local o = { preset = "cs1", kernel = "exp2", H = 1 / 20, T = 0.5, eta = 4 * 2 * math.pi / 1e4,
                h = 2 * math.pi / 1e4 / 16, micro = "rk4" }
    local Q, P, failed = ens.hmm(e, with(o, { Q0 = q0s, P0 = 0, threads = 2 }))
    for m = 1, 37, 9 do
      local sm = models.pendulum { l = 0.2, g = 9.8, vmax = amps[m], omega = 1e4, theta0 = 0 }
      local Qs, Ps = hmm.run(sm, with(o, { Q0 = q0s[m], P0 = 0 }))
      assert.are.equal(0, failed[m])
      for n = 1, #Qs, 5 do
        agree(Q[n][m], Qs[n], "Q member " .. m .. " node " .. n)
        agree(P[n][m], Ps[n], "P member " .. m .. " node " .. n)
      end
    end
  end)

  it("a member that blows up is flagged, returned as NaN, and the others go on", function()
    local vm = { 1, 1, 1e200, 1 }
    local e = ens.pendulum { l = 0.2, g = 9.8, vmax = vm, omega = 50 }
    local q, _, failed = ens.run(e, { stepper = "rk4", h = 1e-3, n = 100, q0 = { 0.1, 0.2, 0.3, 0.4 } })
    assert.are.same({ 0, 0, 2, 0 }, failed)
    assert.is_true(q[3] ~= q[3])
    local sm = models.pendulum { l = 0.2, g = 9.8, vmax = 1, omega = 50 }
    local y = kz.vec(2, { 0.2, 0 })
    kz.call("kz_run", kz.stepper("rk4"), sm.sys, 0, 1e-3, 100, y, kz.report())
    agree(q[2], y[0], "the member beside the failed one")
    -- through C: a non-finite initial state is flag 1 (the Lua binding refuses it up front)
    local yc = kz.vec(8, { 0.1, 0.2, 0 / 0, 0.4, 0, 0, 0, 0 })
    local f = ffi.new("int[4]")
    kz.call("kz_ens_run", kz.stepper("rk4"), e.c, 0, 1e-3, 10, yc, f, nil, 0, ens.pool(2), kz.report())
    assert.are.same({ 0, 0, 1, 0 }, { f[0], f[1], f[2], f[3] })
    assert.is_true(yc[2] ~= yc[2] and yc[6] ~= yc[6] and yc[1] == yc[1])
  end)

  it("refuses bad input naming it", function()
    local function fails(pat, f, ...)
      local ok, err = pcall(f, ...)
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find(pat, 1, true), tostring(err))
    end
    fails("other lists have 2", ens.pendulum, { l = 0.2, g = 9.8, vmax = { 1, 2 }, omega = { 1, 2, 3 } })
    fails("q0[2] must be a finite number", ens.run, ens.pendulum { l = 0.2, g = 9.8, vmax = 1, omega = 3, M = 2 },
          { h = 1e-3, n = 1, q0 = { 0, 0 / 0 } })
    fails("unknown parameter 'vmx'", ens.pendulum, { l = 0.2, g = 9.8, vmx = 1, omega = 3 })
    fails("parameter 'l'", ens.pendulum, { l = -1, g = 9.8, vmax = 1, omega = 3 })
    local e = ens.pendulum { l = 0.2, g = 9.8, vmax = 1, omega = { 3, 4 } }
    fails("one shared phase", ens.hmm, e, { H = 0.1, T = 1, Q0 = 0.1 })
    fails("unknown option 'stepr'", ens.run, e, { stepr = "rk4", h = 1e-3, n = 1, q0 = 0 })
    fails("parameter 'stepper'", ens.run, e, { stepper = "strang", h = 1e-3, n = 1, q0 = 0 })
    fails("parameter 'h'", ens.run, e, { h = 0, n = 1, q0 = 0 })
    fails("threads", ens.run, e, { h = 1e-3, n = 1, q0 = 0, threads = 0 })
    local r = kz.report()
    assert.are.equal(C.KZ_ENULL, C.kz_ens_run(kz.stepper("rk4"), e.c, 0, 1e-3, 1, kz.vec(4), nil, nil, 0, nil, r))
    assert.are.equal("failed", ffi.string(r.param))
  end)
end)

describe("ensembles of the inverted pendulum (Sharp, Tsai & Engquist) #asan", function()
  it("the HMM with the reconstruction (3.4) and SAM: every member equals its scalar run", function()
    local ls, q0s = {}, {}
    for m = 1, 11 do ls[m], q0s[m] = 0.8 + 0.05 * m, 0.1 + 0.02 * m end
    local eps = 1e-4
    local e = ens.ste { eps = eps, g = 9.81, l = ls }
    local o = { preset = "ste", kernel = "cosine", H = 0.05, T = 1, eta = 4 * eps, h = eps / 32, micro = "verlet" }
    local Q, P, failed = ens.hmm(e, with(o, { Q0 = q0s, P0 = 0.1 }))
    for m = 1, 11, 5 do
      local sm = models.ste { eps = eps, g = 9.81, l = ls[m] }
      local Qs, Ps = hmm.run(sm, with(o, { Q0 = q0s[m], P0 = 0.1 }))
      assert.are.equal(0, failed[m])
      agree(Q[#Q][m], Qs[#Qs], "HMM Q member " .. m)
      agree(P[#P][m], Ps[#Ps], "HMM P member " .. m)
    end
    -- SAM on the time form (period eps), RK4 micro and macro
    local tout = { 0.01, 0.02 }
    local ys, sf = ens.sam(e, { n = 32, period = eps, H = 0.001, tout = tout, q0 = q0s, v0 = 0 })
    for m = 1, 11, 5 do
      local sm = models.ste { eps = eps, g = 9.81, l = ls[m] }
      local mi = sam.micro(sm, "rk4")
      local ss = sam.sam(mi, { n = 32, period = eps, H = 0.001, tout = tout, y0 = { q0s[m], 0 } })
      assert.are.equal(0, sf[m])
      agree(ys[2][1][m], ss[2][1], "SAM q member " .. m)
      agree(ys[2][2][m], ss[2][2], "SAM v member " .. m)
    end
  end)
end)

describe("ensembles of the slow-variable HMM (the spinning top)", function()
  it("every member is bit-identical to its scalar run; threads change nothing", function()
    local top = models.top {}
    local om = 1e3
    local x0s = {}
    for m = 1, 5 do x0s[m] = top.x0(om, 1e-3 * m, 0.2 + 0.01 * m) end
    local o = { set = "32", H = 0.01 / 40, T = 0.01, eta = 1e-4, h = 1e-5 }
    local x1 = ens.slow(top, with(o, { x0 = x0s, threads = 1 }))
    local x2, f2 = ens.slow(top, with(o, { x0 = x0s, threads = 3 }))
    for m = 1, 5, 2 do
      local xs = hmm.slow_run(top, with(o, { x0 = x0s[m] }))
      assert.are.equal(0, f2[m])
      for i = 1, 6 do
        assert.are.equal(xs[i][41], x1[m][i][41])
        assert.are.equal(xs[i][41], x2[m][i][41])
      end
    end
  end)
end)
