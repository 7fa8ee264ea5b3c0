-- Stroboscopic averaging, LISP, multirevolution and their steppers (Calvo, Chartier, Murua &
-- Sanz-Serna 2011): the C API through lib/lua/kapitza/sam.lua and the raw FFI. Orders of the difference
-- formulas (25), (26), (29) and of (32), exact work counts, the t0 rule, the Kepler flow and the
-- errata, the Dormand-Prince stepper, and every class of bad input.
local kz = require "kapitza"
local sam = require "kapitza.sam"
local SX = require "kapitza.papers.sam"
local U = require "testutil"
local ffi, C = kz.ffi, kz.C
local twopi = 2 * math.pi

local RK4, STRANG, DP5 = kz.stepper("rk4"), kz.stepper("strang"), kz.stepper("dp5")

-- A Lua-defined kz_sys (callbacks are slow, so only small runs). Keeps the callback alive.
local function lua_sys(dim, f)
  local cb = ffi.cast("kz_rhs_fn", function(_, t, y, dy) f(t, y, dy); return 0 end)
  local s = ffi.new("kz_sys")
  s.dim, s.rhs, s.par = dim, cb, nil
  local m = ffi.new("kz_micro")
  m.type, m.sys = RK4, s
  return { c = m, sys = s, cb = cb, dim = dim }
end

local function params(t)
  local p = ffi.new("kz_sam_params")
  p.period, p.t0, p.n, p.diff = t.period or twopi, t.t0 or 0, t.n or 16, t.diff or C.KZ_SAM_CENTRAL2
  return p
end

local function errmsg(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return tostring(e)
end

describe("Kepler model (19) and its exact unperturbed flow #asan", function()
  local states = { { 1, 0, 0, 1 }, { 1, 0, 0, 1.2 }, { 0.7, 0.3, -0.4, 1.1 }, { -1.5, 0.2, 0.1, -0.6 } }

  it("returns to the start after tau = 2 pi for every bound orbit (period 2 pi in tau)", function()
    local out, r = kz.vec(4), kz.report()
    for _, y in ipairs(states) do
      assert.is_true(C.kz_kepler_energy(kz.vec(4, y)) < 0)
      kz.call("kz_kepler_flow", kz.vec(4, y), twopi, out, r)
      for i = 1, 4 do assert.is_near(y[i], out[i - 1], 1e-12) end
    end
  end)

  it("agrees with RK4 on (19) at eps = 0 and is inverted by tau -> -tau", function()
    local mod = sam.kepler(0)
    for _, y in ipairs(states) do
      for _, tau in ipairs { 1.3, -2 } do
        local a, b, r = kz.vec(4), kz.vec(4, y), kz.report()
        kz.call("kz_kepler_flow", kz.vec(4, y), tau, a, r)
        kz.call("kz_run", RK4, mod.sys, 0, tau / 4000, 4000, b, r)
        for i = 0, 3 do assert.is_near(b[i], a[i], 1e-11) end
        kz.call("kz_kepler_flow", a, -tau, a, r)
        for i = 0, 3 do assert.is_near(y[i + 1], a[i], 1e-12) end
      end
    end
  end)

  it("erratum: the printed energy |v|^2/2 - 2/r is not conserved by Kepler orbits, the corrected one is", function()
    local y, out, r = { 0.7, 0.3, -0.4, 1.1 }, kz.vec(4), kz.report()
    local function printed(s) return 0.5 * (s[2] ^ 2 + s[3] ^ 2) - 2 / math.sqrt(s[0] ^ 2 + s[1] ^ 2) end
    local e0, p0 = C.kz_kepler_energy(kz.vec(4, y)), printed(kz.vec(4, y))
    local dE, dP = 0, 0
    for k = 1, 12 do
      kz.call("kz_kepler_flow", kz.vec(4, y), k * twopi / 12, out, r)
      dE = math.max(dE, math.abs(C.kz_kepler_energy(out) - e0))
      dP = math.max(dP, math.abs(printed(out) - p0))
    end
    assert.is_true(dE < 1e-13, "corrected energy drift " .. dE)
    assert.is_true(dP > 0.1, "printed energy drift " .. dP)
  end)

  it("kz_kepler_energy is NaN for a NULL or non-finite state, E = |v|^2/2 - 1/r otherwise", function()
    assert.are.equal(-0.5, C.kz_kepler_energy(kz.vec(4, { 1, 0, 0, 1 })))
    assert.is_near(0.5 * (0.16 + 1.21) - 1 / math.sqrt(0.58), C.kz_kepler_energy(kz.vec(4, { 0.7, 0.3, -0.4, 1.1 })), 1e-15)
    local e = C.kz_kepler_energy(nil)
    assert.is_true(e ~= e, "NULL gave " .. tostring(e))
    for i = 0, 3 do
      for _, bad in ipairs { 0 / 0, 1 / 0, -1 / 0 } do
        local y = kz.vec(4, { 1, 0, 0, 1 })
        y[i] = bad -- e.g. x1 = inf would give 0 - 1/inf = 0 without the check
        e = C.kz_kepler_energy(y)
        assert.is_true(e ~= e, string.format("y[%d] = %g gave %g", i, bad, e))
      end
    end
  end)

  it("the perturbation half-step A solves its implicit-midpoint equation, or fails with KZ_ENOCONV (never a silent unconverged value)", function()
    -- v' = v + c G(x) with c = h eps lam(x, (v + v')/2): check c against the equation
    local function lam(x1, x2, v1, v2) local m = 2 / math.sqrt(x1 * x1 + x2 * x2) - v1 * v1 - v2 * v2; return m ^ -1.5 end
    local x1, x2 = 0.8, 0.6
    local r2 = x1 * x1 + x2 * x2
    local G1 = -4.5 * x1 * r2 ^ -2.5 + 7.5 * x1 ^ 3 * r2 ^ -3.5
    -- (eps, h): fast to slow (28 iterations) contraction
    for _, c in ipairs { { 0.01, 0.5 }, { 0.05, 2 }, { 0.3, 0.5 } } do
      local mod = sam.kepler(c[1])
      local y0 = { x1, x2, -0.5, 0.7 }
      local y, r = kz.vec(4, y0), kz.report()
      assert.are.equal(0, mod.sys.flow_a(mod.sys.par, 0, c[2], y, r))
      local cc = (y[2] - y0[3]) / G1
      local want = c[2] * c[1] * lam(x1, x2, (y0[3] + y[2]) / 2, (y0[4] + y[3]) / 2)
      assert.is_true(math.abs(cc - want) <= 1e-12 * math.abs(want), string.format("eps %g h %g: c %.17g want %.17g", c[1], c[2], cc, want))
      assert.is_true(tonumber(r.newton_iters) >= 2)
    end
    -- eps = 0.5, h = 1 from the circular orbit: the fixed-point correction grows after a few
    -- iterations (c = h eps lam(v + c G/2) has no attracting solution); the old stopping rule
    -- "correction no longer shrinks" accepted it as converged
    local mod = sam.kepler(0.5)
    local y, r = kz.vec(4, sam.kepler_y0), kz.report()
    assert.are.equal(C.KZ_ENOCONV, mod.sys.flow_a(mod.sys.par, 0, 0.5, y, r))
    assert.are.equal("kepler midpoint", ffi.string(r.param))
    -- through a Strang step (state restored) and a run (failed step named)
    y = kz.vec(4, sam.kepler_y0)
    local m = errmsg(kz.call, "kz_step_apply", STRANG, mod.sys, 0, 1, y, kz.report())
    assert.truthy(m:find("did not converge", 1, true) and m:find("'kepler midpoint'", 1, true), m)
    for i = 1, 4 do assert.are.equal(sam.kepler_y0[i], y[i - 1]) end
    m = errmsg(kz.call, "kz_micro_run", sam.micro(mod, "strang").c, 0, 1, 5, y, kz.report())
    assert.truthy(m:find("did not converge", 1, true) and m:find("at step 0", 1, true), m)
    for i = 1, 4 do assert.are.equal(sam.kepler_y0[i], y[i - 1]) end
  end)

  it("the reference of the scenarios matches an independent implementation (notes, PILOT)", function()
    -- RK4 + Richardson at tau_end = (pi/8)/eps, eps = 2^-12; notes seed-003 Sec. 3.1
    local ks = SX.kepler_setup(2^-12, 1024)
    local pilot = { 0.8317995582221847, -0.5551816775828425, 0.5549677467254599, 0.8319371261595752 }
    for i = 1, 4 do assert.is_near(pilot[i], ks.ref[i], 1e-9) end
  end)
end)

describe("Strang splitting #asan", function()
  it("is symmetric: a step with -h undoes a step with h (Kepler and van der Pol)", function()
    for _, mod in ipairs { sam.kepler(0.01), sam.vdp(0.3) } do
      local y0 = mod.dim == 4 and { 0.9, 0.2, -0.1, 1.05 } or { 0.5, -1.2 }
      local y, r = kz.vec(mod.dim, y0), kz.report()
      kz.call("kz_step_apply", STRANG, mod.sys, 0, 0.3, y, r)
      kz.call("kz_step_apply", STRANG, mod.sys, 0.3, -0.3, y, r)
      for i = 1, mod.dim do assert.is_near(y0[i], y[i - 1], 1e-14) end
      assert.are.equal(2, tonumber(r.micro_steps))
    end
  end)

  it("kz_run and kz_micro_run: a failing run restores y and names the failed step", function()
    -- flow A: y += h, failing once t >= 0.24; flow B: y *= 2. Steps of 0.1 from 0: the second
    -- A half-step of step 2 starts at t = 0.25 and fails.
    local fa = ffi.cast("kz_flow_fn", function(_, t, h, y) if t >= 0.24 then return C.KZ_EDOMAIN end y[0] = y[0] + h; return 0 end)
    local fb = ffi.cast("kz_flow_fn", function(_, _, _, y) y[0] = 2 * y[0]; return 0 end)
    local split = ffi.new("kz_sys", { dim = 1, flow_a = fa, flow_b = fb })
    local mi = ffi.new("kz_micro")
    mi.type, mi.sys = STRANG, split
    -- two good steps: ((1 + .05) 2 + .05 + .05) 2 + .05 = 4.45
    local y, r = kz.vec(1, { 1 }), kz.report()
    kz.call("kz_run", STRANG, split, 0, 0.1, 2, y, r)
    assert.is_near(4.45, y[0], 1e-14)
    local function run(...) return kz.call("kz_run", STRANG, split, ...) end
    local function micro(...) return kz.call("kz_micro_run", mi, ...) end
    for _, call in ipairs { run, micro } do
      y, r = kz.vec(1, { 1 }), kz.report()
      local m = errmsg(call, 0, 0.1, 5, y, r)
      assert.are.equal(1, y[0])
      assert.are.equal(2, tonumber(r.fail_step), m)
      assert.are.equal(2, tonumber(r.micro_steps))
      assert.truthy(m:find("outside its domain", 1, true) and m:find("at step 2", 1, true), m)
    end
    fa:free(); fb:free()
  end)

  it("is second order (van der Pol, eps = 0.3, tau = 2 pi)", function()
    local mod = sam.vdp(0.3)
    local exact = kz.vec(2, { 0.5, 0.5 })
    kz.call("kz_run", RK4, mod.sys, 0, twopi / 4096, 4096, exact, kz.report())
    local errs = {}
    for i, n in ipairs { 32, 64, 128 } do
      local y = kz.vec(2, { 0.5, 0.5 })
      kz.call("kz_run", STRANG, mod.sys, 0, twopi / n, n, y, kz.report())
      errs[i] = math.sqrt((y[0] - exact[0]) ^ 2 + (y[1] - exact[1]) ^ 2)
    end
    assert.is_near(4, errs[1] / errs[2], 0.3)
    assert.is_near(4, errs[2] / errs[3], 0.3)
  end)
end)

describe("Dormand-Prince 5(4) #asan", function()
  local mod = sam.vdp(0.5)
  local function exact(tau)
    local y = kz.vec(2, { 2, 0 })
    kz.call("kz_run", RK4, mod.sys, 0, tau / 20000, 20000, y, kz.report())
    return { y[0], y[1] }
  end

  it("with constant steps is fifth order and counts 1 + 6 evaluations per step", function()
    -- y' = cos(t) y, y = exp(sin t): the 5th-order solution converges like h^5
    local ls = lua_sys(1, function(t, y, dy) dy[0] = math.cos(t) * y[0] end)
    local errs = {}
    for i, h in ipairs { 0.1, 0.05, 0.025 } do
      local yout, r = kz.vec(1, { 1 }), kz.report()
      kz.call("kz_run", DP5, ls.sys, 0, h, 2 / h, yout, r)
      errs[i] = math.abs(yout[0] - math.exp(math.sin(2)))
      assert.are.equal(2 / h, tonumber(r.micro_steps))
      assert.are.equal(1 + 6 * 2 / h, tonumber(r.force_evals))
    end
    assert.is_near(32, errs[1] / errs[2], 5)
    assert.is_near(32, errs[2] / errs[3], 5)
  end)

  it("ode45 mode rejects and halves a step whose stages leave the rhs's domain or overflow; constant steps fail", function()
    -- y' = -10 y, y(0) = 1, to t = 1 from a first step h = 1: its stages reach |y| > 2, where
    -- the rhs either returns an error (domain) or an enormous value (overflow: ynew = inf)
    for _, kind in ipairs { "domain", "overflow" } do
      local nbad = 0
      local cb = ffi.cast("kz_rhs_fn", function(_, _, y, dy)
        if math.abs(y[0]) > 2 then
          nbad = nbad + 1
          if kind == "domain" then return C.KZ_EDOMAIN end
          dy[0] = -1e300 * y[0]
          return 0
        end
        dy[0] = -10 * y[0]
        return 0
      end)
      local sys = ffi.new("kz_sys", { 1, cb, nil })
      local p = ffi.new("kz_ode45_params", { 1, 1e-8, 1e-8, 1 })
      local yout, r = kz.vec(1), kz.report()
      kz.call("kz_ode45_run", sys, p, 0, kz.vec(1, { 1 }), 1, kz.vec(1, { 1 }), yout, nil, nil, 0, nil, r)
      assert.is_true(nbad > 0, kind)
      assert.is_true(tonumber(r.rejected) >= 1, kind)
      assert.is_near(math.exp(-10), yout[0], 1e-8)
      assert.is_true(r.param == nil, kind) -- diagnostics untouched by a run that succeeds
      -- the constant-step DP5 of the registry fails instead, and restores the state
      yout = kz.vec(1, { 1 })
      local m = errmsg(kz.call, "kz_run", DP5, sys, 0, 1, 1, yout, kz.report())
      assert.truthy(m:find("at step 0", 1, true), m)
      assert.truthy(m:find(kind == "domain" and "'rhs'" or "'y'", 1, true), m)
      assert.are.equal(1, yout[0])
      cb:free()
    end
  end)

  it("ode45 mode fails with KZ_ENOCONV at the time where the rhs fails whatever the step", function()
    local cb = ffi.cast("kz_rhs_fn", function(_, t, y, dy) if t > 0.5 then return C.KZ_EDOMAIN end dy[0] = -y[0]; return 0 end)
    local sys = ffi.new("kz_sys", { 1, cb, nil })
    local p = ffi.new("kz_ode45_params", { 0, 1e-6, 1e-6, 0 })
    local yout, r = kz.vec(1, { 7 }), kz.report()
    local st = C.kz_ode45_run(sys, p, 0, kz.vec(1, { 1 }), 1, kz.vec(1, { 1 }), yout, nil, nil, 0, nil, r)
    assert.are.equal(C.KZ_ENOCONV, st)
    assert.are.equal("rhs", ffi.string(r.param))
    assert.is_true(r.fail_time <= 0.5 and r.fail_time > 0.5 - 1e-13, string.format("t = %.17g", r.fail_time))
    assert.are.equal(7, yout[0])
    cb:free()
  end)

  it("ode45 mode: dense outputs meet the tolerance, do not change the steps, and tighter tolerances cost more steps", function()
    local tout = { 0.37, 1, 2.5, 3.3, 4 }
    local counts = {}
    for i, tol in ipairs { 1e-5, 1e-8 } do
      local p = ffi.new("kz_ode45_params", { 0, tol, tol, 0 })
      local yout, r = kz.vec(2 * #tout), kz.report()
      local ht, hh, nh = kz.vec(1000), kz.vec(1000), ffi.new("long long[1]")
      kz.call("kz_ode45_run", mod.sys, p, 0, kz.vec(2, { 2, 0 }), #tout, kz.vec(#tout, tout), yout, ht, hh, 1000, nh, r)
      counts[i] = tonumber(r.macro_steps)
      assert.are.equal(counts[i], tonumber(nh[0]))
      local s = 0
      for k = 0, counts[i] - 1 do s = s + hh[k] end
      assert.is_near(4, s, 1e-12) -- the steps tile [0, 4]
      for k, t in ipairs(tout) do
        local e = exact(t)
        assert.is_true(math.abs(yout[2 * (k - 1)] - e[1]) < 200 * tol, string.format("tol %g t %g", tol, t))
      end
      -- the same run with only the final output takes exactly the same steps
      local r2 = kz.report()
      kz.call("kz_ode45_run", mod.sys, p, 0, kz.vec(2, { 2, 0 }), 1, kz.vec(1, { 4 }), kz.vec(2), nil, nil, 0, nil, r2)
      assert.are.equal(counts[i], tonumber(r2.macro_steps))
      assert.are.equal(yout[2 * (#tout - 1)], yout[2 * (#tout - 1)])
    end
    assert.is_true(counts[2] > 2 * counts[1])
  end)
end)

describe("SAM field recovery: orders of (25), (26), (29) and the forward difference #asan", function()
  -- y' = eps y^2 (autonomous): the averaged field is F = eps y^2 exactly, Psi its 2 pi-flow.
  local function field_err(diff, eps)
    local ls = lua_sys(1, function(_, y, dy) dy[0] = eps * y[0] * y[0] end)
    local F, r = kz.vec(1), kz.report()
    kz.call("kz_sam_force", ls.c, params { n = 400, diff = diff }, kz.vec(1, { 1 }), F, r)
    return math.abs(F[0] - eps) / eps, tonumber(r.micro_steps)
  end
  local cases = {
    { C.KZ_SAM_CENTRAL2, 4, 2 }, { C.KZ_SAM_CENTRAL4, 16, 4 }, { C.KZ_SAM_LISP2, 4, 2 }, { C.KZ_SAM_FORWARD, 2, 1 },
  }
  for _, c in ipairs(cases) do
    it(string.format("diff %d: relative error falls by %d per halving of eps; work %dn", c[1], c[2], c[3]), function()
      local e1, w = field_err(c[1], 0.02)
      local e2 = field_err(c[1], 0.01)
      assert.are.equal(c[3] * 400, w)
      assert.is_near(c[2], e1 / e2, 0.15 * c[2])
    end)
  end

  it("van der Pol: F~ = eps F1 + eps^2 F2 + O(eps^3) with the corrected F2, not with the printed one (erratum)", function()
    local Q, Pv = 1.0, 0.7
    local R2 = Q * Q + Pv * Pv
    local function F1() return { -(R2 - 4) * Q / 8, -(R2 - 4) * Pv / 8 } end
    local function F2c()
      return { -Pv * (5 * R2 * R2 - 24 * R2 - 32 + 16 * (Q * Q - 2) ^ 2) / 256,
               Q * (5 * R2 * R2 + 40 * R2 - 224 + 16 * (Q * Q - 4) ^ 2) / 256 }
    end
    local function F2p()
      return { -Pv * (5 * R2 + 16 * R2 * R2 - 48 + 16 * (Q * Q - 2) ^ 2) / 256,
               Q * (5 * R2 + 80 * R2 * R2 + 16 + 16 * (Q * Q - 4) ^ 2) / 256 }
    end
    local res = { c = {}, p = {} }
    for i, eps in ipairs { 0.04, 0.02, 0.01 } do
      local mi = sam.micro(sam.vdp(eps), "rk4")
      local F = sam.force(mi, { n = 512, diff = "central4" }, { Q, Pv })
      local f1, fc, fp = F1(), F2c(), F2p()
      res.c[i] = math.sqrt((F[1] - eps * f1[1] - eps ^ 2 * fc[1]) ^ 2 + (F[2] - eps * f1[2] - eps ^ 2 * fc[2]) ^ 2)
      res.p[i] = math.sqrt((F[1] - eps * f1[1] - eps ^ 2 * fp[1]) ^ 2 + (F[2] - eps * f1[2] - eps ^ 2 * fp[2]) ^ 2)
    end
    assert.is_true(res.c[2] / res.c[3] > 6.5, "corrected residual ratio " .. res.c[2] / res.c[3])
    assert.is_near(4, res.p[2] / res.p[3], 0.4)
    assert.is_true(res.p[3] > 100 * res.c[3])
  end)

  it("micro-integrations start at t0 whatever the macro time: exact stroboscopic values of a t0-dependent problem", function()
    -- y1' = cos t, y2' = y1: Psi_t0 maps (a, b) to (a, b + 2 pi (a - sin t0)), so the averaged
    -- field is (0, y1 - sin t0) and SAM must reproduce y at t0 + 2 pi k.
    local ls = lua_sys(2, function(t, y, dy) dy[0] = math.cos(t); dy[1] = y[0] end)
    for _, t0 in ipairs { 0, 1 } do
      local F = kz.vec(2)
      kz.call("kz_sam_force", ls.c, params { t0 = t0, n = 256 }, kz.vec(2, { 0.3, 2 }), F, kz.report())
      assert.is_near(0, F[0], 1e-12)
      assert.is_near(0.3 - math.sin(t0), F[1], 1e-7)
      local m = ffi.new("kz_macro", { C.KZ_MACRO_FIXED, RK4, 3 * twopi, 0, 0, 0 })
      local yout = kz.vec(4)
      kz.call("kz_sam_run", ls.c, params { t0 = t0, n = 256 }, m, kz.vec(2, { 0.3, 2 }), 2,
              kz.vec(2, { t0 + 3 * twopi, t0 + 6 * twopi }), yout, nil, nil, 0, nil, kz.report())
      for k, K in ipairs { 3, 6 } do
        assert.is_near(0.3, yout[2 * (k - 1)], 1e-10)
        assert.is_near(2 + K * twopi * (0.3 - math.sin(t0)), yout[2 * (k - 1) + 1], 1e-7)
      end
    end
  end)
end)

describe("multirevolution RK4 (32) #asan", function()
  it("has coefficients summing to 1 that tend to classical RK4 as M grows", function()
    local b, a = kz.vec(4), kz.vec(16)
    kz.call("kz_mr_coefficients", 16, b, a, kz.report())
    assert.is_near(1, b[0] + b[1] + b[2] + b[3], 1e-15)
    kz.call("kz_mr_coefficients", 1e9, b, a, kz.report())
    local rk4b = { 1 / 6, 1 / 3, 1 / 3, 1 / 6 }
    for i = 1, 4 do assert.is_near(rk4b[i], b[i - 1], 1e-8) end
    assert.is_near(0.5, a[4], 1e-8)
    assert.is_near(0.5, a[9], 1e-8)
    assert.is_near(1, a[14], 1e-8)
  end)

  it("is the composition (30)-(31) of one-period micro-integrations from t0, bit for bit; a failure restores y", function()
    local mi = sam.micro(sam.kepler(2^-8), "strang")
    local p, M, N = params { n = 16, t0 = 0.25 }, 8, 3
    local b, a = kz.vec(4), kz.vec(16)
    kz.call("kz_mr_coefficients", M, b, a, kz.report())
    local y = { 0.9, 0.1, -0.05, 1.1 }
    local y0 = { y[1], y[2], y[3], y[4] }
    for _ = 1, N do
      local D = {}
      for i = 1, 4 do
        local Z = {}
        for c = 1, 4 do
          local acc = 0
          for j = 1, i - 1 do acc = acc + a[(i - 1) * 4 + j - 1] * D[j][c] end
          Z[c] = y[c] + M * acc
        end
        local psi = kz.vec(4, Z)
        kz.call("kz_micro_run", mi.c, 0.25, twopi / 16, 16, psi, kz.report())
        D[i] = {}
        for c = 1, 4 do D[i][c] = psi[c - 1] - Z[c] end
      end
      for c = 1, 4 do y[c] = y[c] + M * (b[0] * D[1][c] + b[1] * D[2][c] + b[2] * D[3][c] + b[3] * D[4][c]) end
    end
    local yc, r = kz.vec(4, y0), kz.report()
    kz.call("kz_mr_run", mi.c, p, M, N, yc, r)
    for c = 1, 4 do assert.are.equal(y[c], yc[c - 1]) end
    assert.are.equal(4 * 16 * N, tonumber(r.micro_steps))
    assert.are.equal(N, tonumber(r.macro_steps))
    -- from a hyperbolic state the Kepler flow refuses the first micro-step: y as it was, step named
    local yh = kz.vec(4, { 1, 0, 0, 2 })
    local m = errmsg(kz.call, "kz_mr_run", mi.c, p, M, N, yh, kz.report())
    assert.truthy(m:find("'kepler energy'", 1, true) and m:find("at step 0", 1, true), m)
    assert.are.equal(2, yh[3])
  end)

  it("is fourth order: one step of M = 16 periods has local error ratio -> 32 as eps halves", function()
    local errs = {}
    for i, eps in ipairs { 0.001, 0.0005, 0.00025 } do
      local ls = lua_sys(1, function(_, y, dy) dy[0] = eps * y[0] * y[0] end)
      local y, r = kz.vec(1, { 1 }), kz.report()
      kz.call("kz_mr_run", ls.c, params { n = 64 }, 16, 1, y, r)
      errs[i] = math.abs(y[0] - 1 / (1 - 16 * twopi * eps))
      assert.are.equal(4 * 64, tonumber(r.micro_steps))
      assert.are.equal(1, tonumber(r.macro_steps))
    end
    assert.is_true(errs[1] / errs[2] > errs[2] / errs[3], "ratios " .. errs[1] / errs[2] .. " " .. errs[2] / errs[3])
    assert.is_true(errs[2] / errs[3] > 28 and errs[2] / errs[3] < 40, "ratio " .. errs[2] / errs[3])
  end)
end)

describe("SAM work counts #asan", function()
  it("RK4 macro: 8Nn micro-steps and N macro-steps; DP5 constant: (1 + 6N) 2n; LISP like SAM; MR 4Nn", function()
    local mi = sam.micro(sam.kepler(2^-8), "rk4")
    local L = math.pi / 8 * 2^8
    for _, n in ipairs { 32, 64 } do
      local _, c = sam.sam(mi, { n = n, H = L / 4, y0 = sam.kepler_y0, tout = { L / 2, L } })
      assert.are.equal(8 * 4 * n, c.micro_steps)
      assert.are.equal(4, c.macro_steps)
      local _, cl = sam.sam(mi, { n = n, H = L / 4, y0 = sam.kepler_y0, tout = { L }, diff = "lisp" })
      assert.are.equal(8 * 4 * n, cl.micro_steps)
      local _, cd = sam.sam(mi, { n = n, H = L / 4, y0 = sam.kepler_y0, tout = { L }, macro = "dp5" })
      assert.are.equal((1 + 6 * 4) * 2 * n, cd.micro_steps)
      local _, cmr = sam.mr(mi, { n = n, M = 8, N = 2, y0 = sam.kepler_y0 })
      assert.are.equal(4 * 2 * n, cmr.micro_steps)
    end
  end)

  it("ode45 macro records its accepted steps, which tile the interval", function()
    local mi = sam.micro(sam.vdp(2^-6), "strang")
    local T = 32 * math.pi * 2^6
    local _, c, hist = sam.sam(mi, { n = 32, macro = "ode45", rtol = 1e-4, atol = 1e-4, y0 = { 0.5, 0.5 }, tout = { T }, hist = true })
    assert.are.equal(#hist.h, c.macro_steps)
    local s = 0
    for _, h in ipairs(hist.h) do s = s + h end
    assert.is_near(T, s, 1e-9 * T)
    assert.are.equal(0, c.micro_steps % 64)
  end)
end)

describe("bad input is a clear error naming the function and parameter; nothing is written #asan", function()
  local mod = sam.kepler(2^-8)
  local mi = sam.micro(mod, "rk4")
  local L = math.pi / 8 * 2^8

  local function sam_call(over)
    local o = { micro = mi.c, p = params { n = 32 }, mac = ffi.new("kz_macro", { C.KZ_MACRO_FIXED, RK4, L / 2, 0, 0, 0 }),
                y0 = kz.vec(4, sam.kepler_y0), nout = 1, tout = kz.vec(1, { L }), cap = 0 }
    for k, v in pairs(over) do o[k] = v end
    local function nz(x) if x == false then return nil end return x end -- false stands for NULL
    local yout = kz.vec(4, { 7, 7, 7, 7 })
    local msg = errmsg(kz.call, "kz_sam_run", nz(o.micro), o.p, o.mac, nz(o.y0), o.nout, o.tout, yout, o.ht, o.hh, o.cap, nil, kz.report())
    for i = 0, 3 do assert.are.equal(7, yout[i]) end
    assert.truthy(msg:find("kz_sam_run", 1, true), msg)
    return msg
  end

  it("kz_sam_run", function()
    assert.truthy(sam_call { micro = false }:find("'micro'", 1, true))
    local bad = ffi.new("kz_micro", { sys = mod.sys })
    assert.truthy(sam_call { micro = bad }:find("'micro.type'", 1, true))
    local nosys = ffi.new("kz_micro", { RK4, nil })
    assert.truthy(sam_call { micro = nosys }:find("'micro.sys'", 1, true))
    -- Strang on a system without sub-flows: the stepper cannot integrate it
    local flowless = ffi.new("kz_sys", { 4, mod.sys.rhs, mod.sys.par })
    local nosplit = ffi.new("kz_micro", { STRANG, flowless })
    assert.truthy(sam_call { micro = nosplit }:find("'micro.type'", 1, true))
    -- a macro stepper that needs the second-order form cannot drive the averaged field
    assert.truthy(sam_call { mac = ffi.new("kz_macro", { C.KZ_MACRO_FIXED, kz.stepper("verlet"), L / 2, 0, 0, 0 }) }:find("'macro.type'", 1, true))
    assert.truthy(sam_call { mac = ffi.new("kz_macro", { kind = C.KZ_MACRO_FIXED, H = L / 2 }) }:find("'macro.type'", 1, true))
    assert.truthy(sam_call { p = params { n = 0 } }:find("'n'", 1, true))
    assert.truthy(sam_call { p = params { period = -1 } }:find("'period'", 1, true))
    assert.truthy(sam_call { p = params { period = 0 / 0 } }:find("'period'", 1, true))
    assert.truthy(sam_call { p = params { diff = 9 } }:find("'diff'", 1, true))
    assert.truthy(sam_call { mac = ffi.new("kz_macro", { 5, RK4, 1, 0, 0, 0 }) }:find("'macro.kind'", 1, true))
    assert.truthy(sam_call { mac = ffi.new("kz_macro", { C.KZ_MACRO_FIXED, RK4, 0, 0, 0, 0 }) }:find("'macro.H'", 1, true))
    assert.truthy(sam_call { mac = ffi.new("kz_macro", { kind = C.KZ_MACRO_ODE45, rtol = -1, atol = 1 }) }:find("'macro.rtol'", 1, true))
    assert.truthy(sam_call { mac = ffi.new("kz_macro", { C.KZ_MACRO_FIXED, RK4, L / 3.5, 0, 0, 0 }) }:find("'tout'", 1, true))
    assert.truthy(sam_call { tout = kz.vec(1, { -1 }) }:find("'tout'", 1, true))
    assert.truthy(sam_call { nout = 2, tout = kz.vec(2, { L, L / 2 }) }:find("'tout'", 1, true))
    assert.truthy(sam_call { nout = 0 }:find("'nout'", 1, true))
    assert.truthy(sam_call { y0 = kz.vec(4, { 1, 0, 0 / 0, 1 }) }:find("'y0'", 1, true))
    assert.truthy(sam_call { y0 = false }:find("'y0'", 1, true))
    -- a hyperbolic initial state: the Kepler right-hand side refuses it, named at the step
    local m = sam_call { y0 = kz.vec(4, { 1, 0, 0, 2 }) }
    assert.truthy(m:find("outside its domain", 1, true), m)
    -- history buffer too small
    local m2 = sam_call { ht = kz.vec(1), hh = kz.vec(1), cap = 1 }
    assert.truthy(m2:find("'hist_cap'", 1, true), m2)
  end)

  it("kz_sam_force, kz_mr_run, kz_micro_run", function()
    local F = kz.vec(4, { 7, 7, 7, 7 })
    local m = errmsg(kz.call, "kz_sam_force", mi.c, params { n = -3 }, kz.vec(4, sam.kepler_y0), F, kz.report())
    assert.truthy(m:find("kz_sam_force", 1, true) and m:find("'n'", 1, true), m)
    m = errmsg(kz.call, "kz_sam_force", mi.c, params {}, kz.vec(4, sam.kepler_y0), nil, kz.report())
    assert.truthy(m:find("'F'", 1, true), m)
    for i = 0, 3 do assert.are.equal(7, F[i]) end
    local y = kz.vec(4, sam.kepler_y0)
    m = errmsg(kz.call, "kz_mr_run", mi.c, params {}, 4, 2, y, kz.report())
    assert.truthy(m:find("kz_mr_run", 1, true) and m:find("'M'", 1, true), m)
    m = errmsg(kz.call, "kz_mr_run", mi.c, params {}, 16, -1, y, kz.report())
    assert.truthy(m:find("'nmacro'", 1, true), m)
    m = errmsg(kz.call, "kz_micro_run", mi.c, 0, 0 / 0, 3, y, kz.report())
    assert.truthy(m:find("kz_micro_run", 1, true) and m:find("'h'", 1, true), m)
    for i = 1, 4 do assert.are.equal(sam.kepler_y0[i], y[i - 1]) end
    -- a failing run leaves the state as it was
    local yh = kz.vec(4, { 1, 0, 0, 2 })
    m = errmsg(kz.call, "kz_micro_run", mi.c, 0, 0.1, 3, yh, kz.report())
    assert.are.equal(2, yh[3])
    m = errmsg(kz.call, "kz_micro_run", sam.micro(mod, "strang").c, 0, 0.1, 3, yh, kz.report())
    assert.truthy(m:find("'kepler energy'", 1, true), m)
    assert.are.equal(2, yh[3])
  end)

  it("kz_ode45_run, kz_run, kz_kepler_flow, model constructors", function()
    local yout = kz.vec(2, { 7, 7 })
    local vdp = sam.vdp(0.1)
    local p = ffi.new("kz_ode45_params", { -1, 1e-6, 1e-6, 0 })
    local m = errmsg(kz.call, "kz_ode45_run", vdp.sys, p, 0, kz.vec(2, { 1, 0 }), 1, kz.vec(1, { 1 }), yout, nil, nil, 0, nil, kz.report())
    assert.truthy(m:find("kz_ode45_run", 1, true) and m:find("'h'", 1, true), m)
    p = ffi.new("kz_ode45_params", { 0, 1e-6, 0, 0 })
    m = errmsg(kz.call, "kz_ode45_run", vdp.sys, p, 0, kz.vec(2, { 1, 0 }), 1, kz.vec(1, { 1 }), yout, nil, nil, 0, nil, kz.report())
    assert.truthy(m:find("'atol'", 1, true), m)
    p = ffi.new("kz_ode45_params", { 0, 1e-6, 1e-6, 0 })
    m = errmsg(kz.call, "kz_ode45_run", vdp.sys, p, 0, kz.vec(2, { 1, 0 }), 1, kz.vec(1, { 0 }), yout, nil, nil, 0, nil, kz.report())
    assert.truthy(m:find("'tout'", 1, true), m)
    m = errmsg(kz.call, "kz_ode45_run", vdp.sys, p, 0, kz.vec(2, { 1, 0 }), 1, kz.vec(1, { 1 }), yout, kz.vec(1), nil, 1, nil, kz.report())
    assert.truthy(m:find("'hist_cap'", 1, true), m)
    for i = 0, 1 do assert.is_true(yout[i] == 7) end
    m = errmsg(kz.call, "kz_run", STRANG, vdp.sys, 0, 0.1, -2, kz.vec(2, { 1, 0 }), kz.report())
    assert.truthy(m:find("kz_run", 1, true) and m:find("'n'", 1, true), m)
    m = errmsg(kz.call, "kz_kepler_flow", kz.vec(4, { 1, 0, 0, 1.5 }), 1, kz.vec(4), kz.report())
    assert.truthy(m:find("'kepler energy'", 1, true), m)
    m = errmsg(sam.kepler, 0 / 0)
    assert.truthy(m:find("kepler.eps", 1, true), m)
    local par = ffi.new("kz_vdp", { -1 })
    m = errmsg(kz.call, "kz_vdp_sys", ffi.new("kz_sys"), par, kz.report())
    assert.truthy(m:find("kz_vdp_sys", 1, true) and m:find("'eps'", 1, true), m)
    m = errmsg(sam.micro, sam.vdp(0.1), "euler")
    assert.truthy(m:find("sam.micro", 1, true), m)
  end)
end)
