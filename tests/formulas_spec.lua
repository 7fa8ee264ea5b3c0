-- formulas_spec.lua -- formulas pinned by what they mean, not by frozen numbers (issue 21, item 9).
-- Mutation testing found seven C formulas that only the checked-in outputs caught (a one-token
-- bug followed by `make figures` and a commit would have passed every spec). Each gets a property
-- here that any correct implementation satisfies and the plausible bugs break:
--   1. the fused legs' (Verlet, rk4) velocity (and force) average = the same steps taken one by
--      one, to the last bit; the HMM window's two legs run together (one degree of freedom, no
--      observable) = the legs one after the other, to the last bit, and the same on a failure;
--   2. the exact phase on the macro grid (index n) = the naive phase omega t_n + theta0 while
--      omega t_n is small enough for the naive one to be exact;
--   3. the observable's phase = the phase of the plain force average (identity observable);
--   4. the Heun start of the leapfrog slow-variable HMM = x0 + H/2 (delta(x0) + delta(x0 + H delta(x0)));
--   5. central differences of the slow variables (fd_step > 0, on every set, (40) included) =
--      the analytic gradients, to the differences' own accuracy;
--   6. the FPU (and ring, harmonic) potentials: gradients = differences of the values, Hessians =
--      differences of the gradients (the 1/4 of the quartic soft springs);
--   7. ode45's step after a first rejection = max(0.1, 0.8 (rtol/err)^(1/5)) times the rejected
--      one, err from the Dormand-Prince pair's stability polynomials on y' = lambda y.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local vmi = require "kapitza.vmi"
local um = require "kapitza.usermodel"

local function rel(a, b) return math.abs(a - b) / math.max(math.abs(a), math.abs(b), 1e-300) end

describe("the fused legs of the registry steppers #asan", function()
  -- a one- and a two-degree-of-freedom forced oscillator (second order, accel)
  local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 50, theta0 = 0.3 }
  local two = um.model({
    name = "formulas_two", nq = 2, params = { "k", "c" },
    lua = { accel = function(p, t, q, a)
      a[0] = -p.k * q[0] + p.c * math.sin(q[1]) * math.cos(3 * t)
      a[1] = -q[1] - p.c * q[0] * q[0]
    end },
  }, { k = 2, c = 0.7 }, "lua")

  -- n steps of T from (t, y) one by one: the weighted sums of f_k[lo .. lo + cnt) for k = 1..n
  local function by_steps(T, sys, t, h, n, y0, w, lo, cnt)
    local d = sys.dim
    local y, f, g = kz.vec(d, y0), kz.vec(d), kz.vec(d)
    local work = kz.vec(math.max(1, tonumber(T.work(d))))
    local r = kz.report()
    assert.are.equal(0, C.kz_sys_eval(sys, t, y, f, r))
    local acc = {}
    for i = 1, cnt do acc[i] = 0 end
    for k = 0, n - 1 do
      assert.are.equal(0, T.apply(sys, t + k * h, h, y, f, g, work, r))
      for i = 1, cnt do acc[i] = acc[i] + w[k + 2] * g[lo + i - 1] end -- w is 1-based: w[k + 2] = C's w[k + 1]
      f, g = g, f
    end
    return y, acc, r
  end

  local function by_leg(T, sys, t, h, n, y0, w, lo, cnt)
    local d = sys.dim
    local y, f = kz.vec(d, y0), kz.vec(d)
    local work = kz.vec(math.max(1, tonumber(T.work(d))))
    local r = kz.report()
    assert.are.equal(0, C.kz_sys_eval(sys, t, y, f, r))
    local wv, acc = kz.vec(n + 1, w), kz.vec(math.max(cnt, 1))
    for i = 0, cnt - 1 do acc[i] = 0 end
    assert.are.equal(0, T.leg(sys, t, 0, h, n, y, f, wv, lo, cnt, acc, work, r))
    local a = {}
    for i = 1, cnt do a[i] = acc[i - 1] end
    return y, a, r
  end

  it("average the velocity and the force exactly as the steps taken one by one", function()
    local n, h = 37, 1e-3
    local w = {}
    for k = 0, n do w[k + 1] = 1 + 0.5 * math.sin(0.3 * k) end -- an arbitrary quadrature
    local legs = 0
    for i = 0, C.kz_step_count() - 1 do
      local T = C.kz_step_at(i)
      local name = ffi.string(T.name)
      -- every stepper of a second-order system: the accel ones, and the rhs ones (rk4) through
      -- its first-order form (v, a)
      if T.leg ~= nil and (T.needs == 0 or T.needs == C.KZ_NEEDS_ACCEL or T.needs == C.KZ_NEEDS_RHS) then
        for _, case in ipairs {
          { pend.sys, { 0.4, -0.3 }, { { 0, 1 }, { 1, 1 }, { 0, 2 } } },  -- nq = 1: the scalar loop
          { two.sys, { 0.4, -0.3, 0.2, 0.5 }, { { 0, 2 }, { 2, 2 }, { 1, 3 }, { 0, 4 } } },
        } do
          local sys, y0 = case[1], case[2]
          for _, lc in ipairs(case[3]) do
            local lo, cnt = lc[1], lc[2]
            local ys, as, rs = by_steps(T, sys, 0.1, h, n, y0, w, lo, cnt)
            local yl, al, rl = by_leg(T, sys, 0.1, h, n, y0, w, lo, cnt)
            -- and the same cost counted
            assert.are.equal(tonumber(rs.force_evals), tonumber(rl.force_evals), name .. " force_evals")
            assert.are.equal(tonumber(rs.micro_steps), tonumber(rl.micro_steps), name .. " micro_steps")
            -- the same operations in the same order: equal to the last bit
            for j = 0, sys.dim - 1 do
              assert.are.equal(ys[j], yl[j], string.format("%s y[%d]", name, j))
            end
            for j = 1, cnt do
              assert.are.equal(as[j], al[j],
                             string.format("%s lo=%d cnt=%d sum %d: %.17g vs %.17g", name, lo, cnt, j, as[j], al[j]))
            end
            legs = legs + 1
          end
        end
      end
    end
    assert.is_true(legs >= 14, "fused legs checked: " .. legs) -- verlet and rk4: both shapes, every (lo, cnt)
  end)
end)

describe("the HMM's phase #asan", function()
  local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 60, theta0 = 0.25 }
  local P = { preset = "cs2", kernel = "exp2", H = 0.05, T = 1, eta = 2 * 2 * math.pi / 60,
              h = 2 * math.pi / 60 / 64, Q0 = 0.5, P0 = 0.2, micro = "rk4", recon = "model", half_window = false }

  it("exact on the macro grid equals omega t_n + theta0 where that is exact (small omega t)", function()
    local Qe, Pe = hmm.run(pend, setmetatable({ phase = "exact" }, { __index = P }))
    local Qn, Pn = hmm.run(pend, setmetatable({ phase = "naive" }, { __index = P }))
    assert.are.equal(#Qe, 21)
    for n = 1, #Qe do
      assert.is_true(math.abs(Qe[n] - Qn[n]) < 1e-11, string.format("Q at n = %d: %.17g vs %.17g", n - 1, Qe[n], Qn[n]))
      assert.is_true(math.abs(Pe[n] - Pn[n]) < 1e-10, string.format("P at n = %d", n - 1))
    end
    -- and the phase matters: a run with the phase reset to zero is far from both
    local Qz = hmm.run(pend, setmetatable({ phase = "zero" }, { __index = P }))
    assert.is_true(math.abs(Qz[#Qz] - Qe[#Qe]) > 1e-3)
  end)

  it("of an observable is the phase the micro system sees at that node", function()
    local o = {}
    for k, v in pairs(P) do if k ~= "Q0" and k ~= "P0" then o[k] = v end end
    local p = hmm.params(o)
    p.phase = C.KZ_PHASE_NAIVE
    local t, y0 = 0.37, kz.vec(2, { 0.5, 0.2 })
    local plain, viaobs, r = kz.vec(2), kz.vec(3), kz.report()
    kz.call("kz_hmm_average", pend.vib, p, t, y0, nil, nil, 0, plain, r)
    -- the observable: f itself, and f's force minus the model's force at the phase it is given
    -- (zero at every node when that phase is the micro system's)
    local a = kz.vec(1)
    local obs = ffi.cast("kz_observe_fn", function(_, theta, y, f, out)
      pend.vib.accel(pend.vib.par, theta, y, a)
      out[0], out[1], out[2] = f[0], f[1], math.abs(f[1] - a[0])
      return 0
    end)
    kz.call("kz_hmm_average", pend.vib, p, t, y0, obs, nil, 3, viaobs, r)
    obs:free()
    for i = 0, 1 do
      assert.is_true(rel(plain[i], viaobs[i]) < 1e-12, string.format("component %d: %.17g vs %.17g", i, plain[i], viaobs[i]))
    end
    assert.is_true(viaobs[2] <= 1e-9 * math.abs(plain[1]) + 1e-12, string.format("force at a wrong phase: %.3g", viaobs[2]))
  end)

  it("without an observable (both legs at once) is the legs one after the other, to the last bit", function()
    -- kz_hmm_window runs the two legs of a one-degree-of-freedom window as two interleaved chains
    -- (kz_verlet_legs2, kz_rk4_legs2); with an observable it steps them one after the other
    local t, y0 = 0.37, kz.vec(2, { 0.5, 0.2 })
    for _, micro in ipairs { "rk4", "verlet" } do
      local o = {}
      for k, v in pairs(P) do if k ~= "Q0" and k ~= "P0" then o[k] = v end end
      o.micro, o.recon = micro, "identity"
      local p = hmm.params(o)
      local plain, viaobs, F = kz.vec(2), kz.vec(2), kz.vec(1)
      local r1, r2, r3 = kz.report(), kz.report(), kz.report()
      kz.call("kz_hmm_average", pend.vib, p, t, y0, nil, nil, 0, plain, r1)
      kz.call("kz_hmm_force", pend.vib, p, t, y0, F, nil, r3) -- the force alone: lo = 1, cnt = 1
      local obs = ffi.cast("kz_observe_fn", function(_, _, _, f, out)
        out[0], out[1] = f[0], f[1]
        return 0
      end)
      kz.call("kz_hmm_average", pend.vib, p, t, y0, obs, nil, 2, viaobs, r2)
      obs:free()
      assert.are.equal(viaobs[0], plain[0], micro .. " velocity average")
      assert.are.equal(viaobs[1], plain[1], micro .. " force average")
      assert.are.equal(tonumber(r2.force_evals), tonumber(r1.force_evals), micro .. " force_evals")
      assert.are.equal(tonumber(r2.micro_steps), tonumber(r1.micro_steps), micro .. " micro_steps")
      assert.is_true(tonumber(r1.micro_steps) > 100, micro .. " micro_steps")
      assert.are.equal(viaobs[1], F[0], micro .. " kz_hmm_force")
    end
  end)

  it("fails as the legs one after the other do when a force evaluation fails", function()
    -- a force that refuses phases below theta_s - 1 (late in the backward leg): the interleaved
    -- legs give up and the window is stepped again one leg after the other, so the status, the
    -- diagnostics and the counters are those of the sequential legs (fail_step aside: a fused leg
    -- says which of its steps failed, apply does not)
    local theta_s = 0.3
    local acc = ffi.cast("kz_phase_accel_fn", function(_, theta, q, a)
      if theta < theta_s - 1 then return C.KZ_EDOMAIN end
      a[0] = -(1 + 0.5 * math.cos(theta)) * math.sin(q[0])
      return 0
    end)
    local m = ffi.new("kz_vib", { dim = 2, nq = 1, omega = 40, theta0 = theta_s, accel = acc })
    for _, micro in ipairs { "rk4", "verlet" } do
      local o = {}
      for k, v in pairs(P) do if k ~= "Q0" and k ~= "P0" then o[k] = v end end
      o.micro, o.recon, o.phase, o.eta, o.h = micro, "identity", "naive", 0.2, 0.2 / 64
      local p = hmm.params(o)
      local y0, out = kz.vec(2, { 0.5, 0.2 }), kz.vec(2)
      local r1, r2 = kz.report(), kz.report()
      local s1 = C.kz_hmm_average(m, p, 0, y0, nil, nil, 0, out, r1)
      local obs = ffi.cast("kz_observe_fn", function(_, _, _, f, o2)
        o2[0], o2[1] = f[0], f[1]
        return 0
      end)
      local s2 = C.kz_hmm_average(m, p, 0, y0, obs, nil, 2, out, r2)
      obs:free()
      assert.are.equal(C.KZ_EDOMAIN, s1, micro)
      assert.are.equal(s2, s1, micro)
      assert.are.equal(ffi.string(r2.param), ffi.string(r1.param), micro)
      assert.are.equal(r2.fail_time, r1.fail_time, micro)
      assert.are.equal(tonumber(r2.force_evals), tonumber(r1.force_evals), micro)
      assert.are.equal(tonumber(r2.micro_steps), tonumber(r1.micro_steps), micro)
      assert.is_true(tonumber(r1.micro_steps) > 32, micro .. " the forward leg ran")
    end
    acc:free()
  end)
end)

describe("the slow-variable HMM", function()
  local om = 1e3
  local tr = models.top { forcing = "transverse", amp = om, nu = om }
  local x0 = { 1 / om, 0, om * tr.constants.Pi3hat, 0, math.sin(0.2), math.cos(0.2) }

  it("starts the leapfrog with Heun: x1 = x0 + H/2 (delta(x0) + delta(x0 + H delta(x0)))", function()
    local H = 1e-3
    local o = { set = "32", eta = 1e-4, h = 1e-5, phase = "naive" }
    local _, d0 = hmm.slow_force(tr, o, 0, x0)
    local xt = {}
    for j = 1, 6 do xt[j] = x0[j] + H * d0[j] end
    local _, d1 = hmm.slow_force(tr, o, H, xt)
    local run = setmetatable({ macro = "LF", start = "heun", H = H, T = H, x0 = x0 }, { __index = o })
    local x = hmm.slow_run(tr, run)
    for j = 1, 6 do
      local want = x0[j] + 0.5 * H * (d0[j] + d1[j])
      assert.is_true(math.abs(x[j][2] - want) <= 1e-12 * math.max(1, math.abs(want)),
                     string.format("x%d: %.17g vs %.17g", j, x[j][2], want))
    end
    -- and it is not the FE start
    local fe = hmm.slow_run(tr, setmetatable({ start = "FE" }, { __index = run }))
    local moved = 0
    for j = 1, 6 do moved = math.max(moved, math.abs(fe[j][2] - x[j][2])) end
    assert.is_true(moved > 1e-9, tostring(moved))
  end)

  it("with fd_step > 0 (central differences) agrees with the analytic gradients on (32), (37), (40)", function()
    local x = { 2e-3, -1.5e-3, 4202.1423, 0.08, 0.17, 0.98 }
    x[6] = math.sqrt(1 - x[4] ^ 2 - x[5] ^ 2)
    -- (32) and (40): truncation O(fd_step^2), measured 1e-10 and 3e-9 at fd_step = 1e-4. (37): the
    -- differences' round-off eps |xi| / step is multiplied by the O(omega Pi3) fast field (the
    -- reason kz_hmm_slow.c gives for its long windows); measured 0.3 % at fd_step = 1e-3.
    for _, c in ipairs { { "32", 1e-4, 1e-7 }, { "40", 1e-4, 1e-7 }, { "37", 1e-3, 2e-2 } } do
      local set, step, tol = c[1], c[2], c[3]
      local o = { set = set, eta = 2e-5, h = 1e-6, phase = "naive" }
      local a_xi, a_delta = hmm.slow_force(tr, o, 0.3, x)
      o.fd_step = step
      local f_xi, f_delta = hmm.slow_force(tr, o, 0.3, x)
      for k = 1, #a_xi do
        assert.is_true(math.abs(a_xi[k] - f_xi[k]) <= tol * math.max(1, math.abs(a_xi[k])),
                       string.format("set %s dxi%d: %.10g vs %.10g", set, k, a_xi[k], f_xi[k]))
      end
      for j = 1, 6 do
        assert.is_true(math.abs(a_delta[j] - f_delta[j]) <= tol * math.max(1, math.abs(a_delta[j])),
                       string.format("set %s delta%d: %.10g vs %.10g", set, j, a_delta[j], f_delta[j]))
      end
    end
  end)
end)

describe("the variational multirate potentials #asan", function()
  local function check(o, label)
    local ns, nf = o.ns, o.nf
    local n = ns + nf
    local m = o.model
    local qs, qf = kz.vec(math.max(ns, 1)), kz.vec(math.max(nf, 1))
    local base = {}
    for i = 1, n do base[i] = (o.y0 and o.y0[i] or 0.3) + 0.05 * math.sin(i) end
    local function set(q)
      for i = 1, ns do qs[i - 1] = q[i] end
      for i = 1, nf do qf[i - 1] = q[ns + i] end
    end
    -- total potential V + W, its gradient and Hessian (ADDED by the model functions)
    local function eval(q)
      set(q)
      local v, w = kz.vec(1), kz.vec(1)
      local gs, gf, hess = kz.vec(math.max(ns, 1)), kz.vec(math.max(nf, 1)), kz.vec(n * n)
      for i = 0, math.max(ns, 1) - 1 do gs[i] = 0 end
      for i = 0, math.max(nf, 1) - 1 do gf[i] = 0 end
      for i = 0, n * n - 1 do hess[i] = 0 end
      v[0], w[0] = 0, 0
      assert.are.equal(0, m.V(m.par, qs, qf, v, gs, gf, hess))
      local wh = kz.vec(math.max(nf * nf, 1))
      for i = 0, math.max(nf * nf, 1) - 1 do wh[i] = 0 end
      if m.W ~= nil and nf > 0 then assert.are.equal(0, m.W(m.par, qf, w, gf, wh)) end
      local g, H = {}, {}
      for i = 1, ns do g[i] = gs[i - 1] end
      for i = 1, nf do g[ns + i] = gf[i - 1] end
      for i = 1, n do
        H[i] = {}
        for j = 1, n do
          H[i][j] = hess[(i - 1) * n + (j - 1)]
          if i > ns and j > ns then H[i][j] = H[i][j] + wh[(i - ns - 1) * nf + (j - ns - 1)] end
        end
      end
      return v[0] + w[0], g, H
    end
    local _, g, H = eval(base)
    for j = 1, n do
      local d = 1e-5 * math.max(1, math.abs(base[j]))
      local qp, qm = {}, {}
      for i = 1, n do qp[i], qm[i] = base[i], base[i] end
      qp[j], qm[j] = base[j] + d, base[j] - d
      local vp, gp = eval(qp)
      local vm, gm = eval(qm)
      local fd = (vp - vm) / (2 * d)
      assert.is_true(math.abs(fd - g[j]) <= 1e-6 * math.max(1, math.abs(g[j])),
                     string.format("%s gradient %d: %.12g vs differences %.12g", label, j, g[j], fd))
      for i = 1, n do
        local fh = (gp[i] - gm[i]) / (2 * d)
        assert.is_true(math.abs(fh - H[i][j]) <= 1e-5 * math.max(1, math.abs(H[i][j])),
                       string.format("%s Hessian (%d,%d): %.12g vs differences %.12g", label, i, j, H[i][j], fh))
      end
    end
  end

  it("FPU: gradients and Hessians are the derivatives of the values", function()
    check(vmi.fpu { omega = 7 }, "fpu")
  end)
  it("ring and harmonic oscillator: likewise", function()
    check(vmi.ring {}, "ring")
    check(vmi.harmonic { nf = 1, omega_s = 1.3, omega_f = 9 }, "harmonic")
  end)
end)

describe("ode45's controller #asan", function()
  -- Dormand & Prince 5(4) (J. Comput. Appl. Math. 6 (1980)): the tableau, the 5th-order weights b
  -- and the differences e = b - bhat of the embedded 4th-order ones (the FSAL 7th stage).
  local A = {
    {},
    { 1 / 5 },
    { 3 / 40, 9 / 40 },
    { 44 / 45, -56 / 15, 32 / 9 },
    { 19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729 },
    { 9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656 },
    { 35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84 },
  }
  local E = { 71 / 57600, 0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40 }
  -- one step of size h on y' = lam y from y: the new y and ode45's scaled error norm
  local function attempt(lam, y, h)
    local z, Y = lam * h, {}
    for i = 1, 7 do
      local s = 0
      for j = 1, i - 1 do s = s + A[i][j] * Y[j] end
      Y[i] = y + z * s -- stage values: k_i = lam Y_i
    end
    local e = 0
    for i = 1, 7 do e = e + E[i] * lam * Y[i] end
    local ynew = Y[7]
    return ynew, math.abs(e) * h / math.max(math.abs(y), math.abs(ynew))
  end

  it("shrinks a first rejected step by max(0.1, 0.8 (rtol/err)^(1/5)), then grows by 1/max(0.2, 1.25 (err/rtol)^(1/5))", function()
    local lam, rtol, h0 = -1.0, 1e-6, 1.0
    local sys = um.model({ name = "formulas_decay", dim = 1, params = { "lam" },
                           lua = { rhs = function(p, _, y, f) f[0] = p.lam * y[0] end } }, { lam = lam }, "lua").sys
    local p = ffi.new("kz_ode45_params")
    p.h, p.rtol, p.atol, p.hmax = h0, rtol, 1e-14, 5
    local tout = kz.vec(1, { 10 })
    local yout, ht, hh, nh, r = kz.vec(1), kz.vec(1000), kz.vec(1000), ffi.new("long long[1]"), kz.report()
    kz.call("kz_ode45_run", sys, p, 0, kz.vec(1, { 1 }), 1, tout, yout, ht, hh, 1000, nh, r)
    local _, err0 = attempt(lam, 1, h0)
    assert.is_true(err0 > rtol, "the first attempt must be rejected: err = " .. err0)
    local h1 = h0 * math.max(0.1, 0.8 * (rtol / err0) ^ 0.2)
    local y1, err1 = attempt(lam, 1, h1)
    assert.is_true(err1 <= rtol, "the second attempt is accepted")
    assert.is_true(rel(hh[0], h1) < 1e-12, string.format("first step %.17g, the controller's %.17g", hh[0], h1))
    assert.is_true(tonumber(r.rejected) >= 1)
    -- no failure in that step: the next one is scaled by 1 / max(0.2, 1.25 (err/rtol)^(1/5)), but
    -- a step with a failure does not grow (ode45: growth only after a step without failure)
    local _, err2 = attempt(lam, y1, hh[1])
    assert.is_true(err2 <= rtol)
    assert.is_true(rel(hh[1], h1) < 1e-12, string.format("after the rejected step h stays %.17g, got %.17g", h1, hh[1]))
    local temp = 1.25 * (err2 / rtol) ^ 0.2
    local h3 = temp > 0.2 and hh[1] / temp or 5 * hh[1]
    assert.is_true(rel(hh[2], h3) < 1e-9, string.format("third step %.17g, the controller's %.17g", hh[2], h3))
  end)
end)
