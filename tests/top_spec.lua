-- Fredbo's spinning top and the slow-variable HMM (lib/models/top.c, kz_top.c, kz_lsq.c,
-- kz_hmm_slow.c, kz_step_ve.c, the VE macro scheme of kz_hmm_macro.c): the model's equations,
-- invariants and constants; the 've' micro-scheme (35); the least-squares solves; the slow sets'
-- gradients; Algorithms 3-4 (estimates, orders, work counts, options); Algorithm 2's VE scheme;
-- and bad input for every entry point, C and Lua.
local kz = require "kapitza"
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local E = require "kapitza.experiment"
local top = require "kapitza.papers.top"
local U = require "testutil"
local ffi, C = kz.ffi, kz.C

local T0 = models.top {}

local function vec6(x) return { x[1], x[2], x[3], x[4], x[5], x[6] } end
local function rhs(model, t, x)
  local f = kz.vec(6)
  kz.call("kz_sys_eval", model.sys, t, kz.vec(6, x), f, kz.report())
  return { f[0], f[1], f[2], f[3], f[4], f[5] }
end
local function values(s, theta, x)
  local xi, g = kz.vec(s.r), kz.vec(s.r * s.dim)
  kz.call("kz_slow_values", s, theta, kz.vec(s.dim, x), xi, g, kz.report())
  local a, G = {}, {}
  for k = 1, s.r do
    a[k], G[k] = xi[k - 1], {}
    for j = 1, s.dim do G[k][j] = g[(k - 1) * s.dim + j - 1] end
  end
  return a, G
end

describe("the top (23)/(31), (38), (41), (48) #asan", function()
  it("has the right-hand side Pi x Omega + Mgl Gamma x chi, Gamma x Omega (checked against the cross products)", function()
    local x = { 0.3, -0.2, 4.0, 0.1, 0.25, 0.96 }
    local f = rhs(T0, 0, x)
    local O = { x[1] / 3.12, x[2] / 3.12, x[3] / 0.24 }
    local function cross(a, b) return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] } end
    local P, G = { x[1], x[2], x[3] }, { x[4], x[5], x[6] }
    local pO, gO, gc = cross(P, O), cross(G, O), cross(G, { 0, 0, 1 })
    local mgl = 5 * 9.81 * 0.75
    for i = 1, 3 do
      assert.is_near(pO[i] + mgl * gc[i], f[i], 1e-12)
      assert.is_near(gO[i], f[3 + i], 1e-12)
    end
  end)

  it("derived constants: Pi3^, Mgl, Theorem 2's threshold, the body rates (Sec. 4.3)", function()
    local k = T0.constants
    assert.is_near(4.2021423, k.Pi3hat, 1e-7)
    assert.is_near(36.7875, k.Mgl, 1e-12)
    assert.is_near(89.27836, k.threshold, 1e-4)
    assert.is_near(16.16209, k.lambda, 1e-5)
    assert.is_near(17.50893, k.spin, 1e-5)
    assert.is_near(1.346840, k.nutation, 1e-6)
    assert.is_near(k.spin - k.lambda, k.nutation, 1e-12)
    local I1, I3, l = top.cone(5, 1, 0.4)
    assert.is_near(3.12, I1, 1e-12); assert.is_near(0.24, I3, 1e-12); assert.is_near(0.75, l, 1e-12)
  end)

  it("drift = difference of the invariants, computed without cancellation", function()
    local x0 = T0.x0(1e3, 1e-3)
    local x = vec6(x0)
    x[1], x[2], x[4], x[6] = x[1] + 1e-4, 3e-4, 1e-3, x[6] - 1e-7
    local a, b, d = T0.invariants(x), T0.invariants(x0), T0.drift(x, x0)
    assert.is_near(a.PiGamma - b.PiGamma, d.PiGamma, 1e-9)
    assert.is_near(a.Gamma2 - b.Gamma2, d.Gamma2, 1e-15)
    assert.is_near(a.H - b.H, d.H, 1e-7 * math.abs(a.H)) -- H ~ 3.7e7: the difference itself is inexact
    local want = 0.5 * (x[1] * x[1] - x0[1] * x0[1]) / 3.12 + 0.5 * (x[2] * x[2]) / 3.12 - 36.7875 * 1e-7
    assert.is_near(want, d.H, 1e-9 * math.abs(want))
    assert.are.equal(0, d.Pi3)
  end)

  it("RK4 (h = 1e-7, omega = 1e3, T = 0.01) keeps H, Pi.Gamma, |Gamma|^2 to 1e-9 relative and Pi3 exactly (TOP-RHS)", function()
    local x0 = T0.x0(1e3, 1e-3)
    local cols = E.grid(T0.sys, 0.01, 0.001, x0, 1e-7)
    local inv = T0.invariants(x0)
    for n = 1, #cols[1] do
      local d = T0.drift({ cols[1][n], cols[2][n], cols[3][n], cols[4][n], cols[5][n], cols[6][n] }, x0)
      assert.is_true(math.abs(d.H) <= 1e-9 * inv.H and math.abs(d.PiGamma) <= 1e-9 * inv.PiGamma and math.abs(d.Gamma2) <= 1e-9,
                     string.format("n=%d: %g %g %g", n, d.H, d.PiGamma, d.Gamma2))
      assert.are.equal(x0[3], cols[3][n])
    end
  end)

  it("forcings: (38) adds amp cos(nu t) to dPi1/dt only; (41) replaces g by g + A nu cos(nu t); time and phase forms agree", function()
    local x = { 0.3, -0.2, 4.0, 0.1, 0.25, 0.96 }
    local tr = models.top { forcing = "transverse", amp = 7, nu = 50 }
    local vt = models.top { forcing = "vertical", amp = 3, nu = 50 }
    local t = 0.013
    local f0, ft, fv = rhs(T0, t, x), rhs(tr, t, x), rhs(vt, t, x)
    assert.is_near(f0[1] + 7 * math.cos(50 * t), ft[1], 1e-12)
    for i = 2, 6 do assert.are.equal(f0[i], ft[i]) end
    local a = 3 * 50 * math.cos(50 * t)
    assert.is_near(f0[1] + 5 * a * 0.75 * x[5], fv[1], 1e-12)
    assert.is_near(f0[2] - 5 * a * 0.75 * x[4], fv[2], 1e-12)
    for i = 3, 6 do assert.are.equal(f0[i], fv[i]) end
    local fp = kz.vec(6) -- the phase form at theta = nu t
    assert.are.equal(0, tr.vib.rhs(tr.vib.par, 50 * t, kz.vec(6, x), fp))
    for i = 1, 6 do assert.is_near(ft[i], fp[i - 1], 1e-12) end
    assert.are.equal(50, tr.vib.omega)
  end)

  it("(48): the corrected coefficient M^2 A^2 l^2 / 2, the printed M A / 2, none; A = 0 gives (23); Pi3 conserved", function()
    local x = { 0.3, -0.2, 4.0, 0.1, 0.25, 0.96 }
    for name, c in pairs { corrected = 703.125, printed = 25, none = 0 } do
      local m = models.top { forcing = "vertical", amp = 10, nu = 100, avg = name }
      assert.is_near(c, m.constants.avgcoef, 1e-12)
      local f = kz.vec(6)
      kz.call("kz_sys_eval", m.avg, 0, kz.vec(6, x), f, kz.report())
      local f0 = rhs(T0, 0, x)
      assert.is_near(f0[1] - c * x[5] * x[6] / 3.12, f[0], 1e-10)
      assert.is_near(f0[2] + c * x[4] * x[6] / 3.12, f[1], 1e-10)
      assert.are.equal(0, f[2])
    end
    local m0 = models.top { forcing = "vertical", amp = 0, nu = 100 }
    local f = kz.vec(6)
    kz.call("kz_sys_eval", m0.avg, 0, kz.vec(6, x), f, kz.report())
    local f0 = rhs(T0, 0, x)
    for i = 1, 6 do assert.are.equal(f0[i], f[i - 1]) end
  end)
end)

describe("the 've' micro-scheme (35) #asan", function()
  local VE, LF = kz.stepper("ve"), kz.stepper("leapfrog")

  it("is registered with order 1, not reversible, 3 evaluations per step", function()
    assert.are.equal(VE, C.kz_step_ve)
    assert.are.equal(1, VE.order)
    assert.are.equal(0, VE.reversible)
    assert.are.equal(3, VE.evals)
    local _, w = kz.run(T0.sys, VE, 0, 1e-6, 7, T0.x0(1e3, 1e-3))
    assert.are.equal(21, w.force_evals)
  end)

  it("is first order on the top (Pi self-coupling) and leaves Pi3 exactly unchanged", function()
    local x0 = T0.x0(0.25, 0.05)
    local ex = kz.run(T0.sys, "rk4", 0, 1 / 65536, 65536, x0)
    local hs, es = {}, {}
    for k = 0, 3 do
      local n = 64 * 2 ^ k
      local y = kz.run(T0.sys, VE, 0, 1 / n, n, x0)
      assert.are.equal(x0[3], y[3])
      hs[#hs + 1], es[#es + 1] = 1 / n, E.dist(y, ex)
    end
    assert.is_near(1, U.slope(hs, es), 0.1)
  end)

  it("is the drift-kick-drift leapfrog, bit for bit, on a separable second-order system (symmetric there)", function()
    local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 200 }
    local a = kz.run(pend.sys, VE, 0.1, 1e-3, 50, { 0.5, -0.3 })
    local b = kz.run(pend.sys, LF, 0.1, 1e-3, 50, { 0.5, -0.3 })
    assert.are.equal(a[1], b[1])
    assert.are.equal(a[2], b[2])
    local back = kz.run(pend.sys, VE, 0.15, -1e-3, 50, a)
    assert.is_near(0.5, back[1], 1e-13)
    assert.is_near(-0.3, back[2], 1e-12)
  end)

  it("its Gamma update is an explicit Euler rotation: |Gamma| grows like 1 + (Omega3 h)^2 / 2 per step", function()
    local x0 = T0.x0(1e3, 1e-3)
    local h, n = 1e-6, 100
    local y = kz.run(T0.sys, VE, 0, h, n, x0)
    local g2 = y[4] * y[4] + y[5] * y[5] + y[6] * y[6]
    local w = T0.constants.spin * 1e3 * h
    -- only Gamma1, Gamma2 (|.|^2 = sin^2 0.2) rotate at Omega3
    assert.is_near(math.sin(0.2) ^ 2 * ((1 + w * w) ^ n - 1), g2 - 1, 0.02 * math.sin(0.2) ^ 2 * n * w * w)
  end)
end)

describe("least squares (kz_lsq_solve) #asan", function()
  it("minimum norm: solves a consistent under-determined system with x in the row space", function()
    local J = { { 1, 2, 0, 1 }, { 0, 1, 3, -1 } }
    local b = { 3, 1 }
    local x, rank = hmm.lsq(J, b, "minnorm")
    assert.are.equal(2, rank)
    for i = 1, 2 do
      local s = 0
      for j = 1, 4 do s = s + J[i][j] * x[j] end
      assert.is_near(b[i], s, 1e-14)
    end
    -- x = J^T y: orthogonal to the null space spanned by n1, n2 (J n = 0)
    for _, nv in ipairs { { -2, 1, 0, 0 }, { -1 - 6, 3, -1, 0 } } do
      local Jn = { 0, 0 }
      for i = 1, 2 do for j = 1, 4 do Jn[i] = Jn[i] + J[i][j] * nv[j] end end
      if Jn[1] == 0 and Jn[2] == 0 then
        local d = 0
        for j = 1, 4 do d = d + x[j] * nv[j] end
        assert.is_near(0, d, 1e-13)
      end
    end
    -- equals J^T (J J^T)^-1 b
    local a11, a12, a22 = 0, 0, 0
    for j = 1, 4 do a11, a12, a22 = a11 + J[1][j] ^ 2, a12 + J[1][j] * J[2][j], a22 + J[2][j] ^ 2 end
    local det = a11 * a22 - a12 * a12
    local y1, y2 = (a22 * b[1] - a12 * b[2]) / det, (a11 * b[2] - a12 * b[1]) / det
    for j = 1, 4 do assert.is_near(J[1][j] * y1 + J[2][j] * y2, x[j], 1e-14) end
  end)

  it("minimum norm keeps its accuracy with a tiny row (row scaling, grad xi3 ~ 1e-5) and handles rank deficiency", function()
    local J = { { 1e-9, 3e-9, 0 }, { 0, 1, 1 } }
    local x = hmm.lsq(J, { 2e-9, 1 }, "minnorm")
    assert.is_near(2e-9, 1e-9 * x[1] + 3e-9 * x[2], 1e-22)
    assert.is_near(1, x[2] + x[3], 1e-15)
    local z, rank = hmm.lsq({ { 0, 0, 0 }, { 1, 0, 1 } }, { 0, 2 }, "minnorm")
    assert.are.equal(1, rank)
    assert.is_near(1, z[1], 1e-15); assert.are.equal(0, z[2]); assert.is_near(1, z[3], 1e-15)
  end)

  it("the basic solution (MATLAB's J\\b) solves the system with at most rank non-zero components, unlike minimum norm", function()
    local J = { { 1, 2, 0, 1 }, { 0, 1, 3, -1 } }
    local x, rank = hmm.lsq(J, { 3, 1 }, "basic")
    local nz = 0
    for j = 1, 4 do if x[j] ~= 0 then nz = nz + 1 end end
    assert.are.equal(2, rank)
    assert.is_true(nz <= 2)
    for i, bi in ipairs { 3, 1 } do
      local s = 0
      for j = 1, 4 do s = s + J[i][j] * x[j] end
      assert.is_near(bi, s, 1e-14)
    end
    local y = hmm.lsq(J, { 3, 1 }, "minnorm")
    assert.is_true(E.dist(x, { 0, 0, 0, 0 }) > E.dist(y, { 0, 0, 0, 0 }) + 1e-6)
    -- over-determined, inconsistent: both are the least-squares solution (full column rank)
    local A = { { 1, 0 }, { 0, 1 }, { 1, 1 } }
    local u, v = hmm.lsq(A, { 1, 1, 0 }, "minnorm"), hmm.lsq(A, { 1, 1, 0 }, "basic")
    assert.is_near(1 / 3, u[1], 1e-14); assert.is_near(1 / 3, v[2], 1e-14)
  end)

  it("refuses bad input, naming the parameter", function()
    local r, x, w = kz.report(), kz.vec(4), kz.vec(200)
    local J, b = kz.vec(8, { 1, 2, 0, 1, 0, 1, 3, -1 }), kz.vec(2, { 3, 1 })
    local function bad(st, param)
      assert.are_not.equal(0, st)
      assert.are.equal(param, ffi.string(r.param))
    end
    bad(C.kz_lsq_solve(7, 2, 4, J, b, x, nil, w, r), "kind")
    bad(C.kz_lsq_solve(0, 0, 4, J, b, x, nil, w, r), "m")
    bad(C.kz_lsq_solve(0, 2, 65, J, b, x, nil, w, r), "n")
    bad(C.kz_lsq_solve(0, 2, 4, kz.vec(8, { 0 / 0, 1, 1, 1, 1, 1, 1, 1 }), b, x, nil, w, r), "J")
    bad(C.kz_lsq_solve(0, 2, 4, J, kz.vec(2, { 1, 1 / 0 }), x, nil, w, r), "b")
    bad(C.kz_lsq_solve(0, 2, 4, J, b, nil, nil, w, r), "x")
    bad(C.kz_lsq_solve(1, 2, 4, J, b, x, nil, nil, r), "work")
    assert.are.equal(0, tonumber(C.kz_lsq_work(0, 3)))
    assert.are.equal(0, tonumber(C.kz_lsq_work(3, 100)))
    assert.is_false(pcall(hmm.lsq, { { 1, 2 } }, { 1 }, "qr"))
  end)
end)

describe("the slow-variable sets (32), (37), (40) #asan", function()
  local tr = models.top { forcing = "transverse", amp = 1e3, nu = 1e3 }
  local x = { 2e-3, -1.5e-3, 4202.1423, 0.08, 0.17, 0.98 }
  x[6] = math.sqrt(1 - x[4] ^ 2 - x[5] ^ 2)

  it("have the values of the thesis: (32) Gamma3, |Pi_perp|^2, |Gamma_perp|^2, Pi_perp.Gamma_perp; (37) via (29); (40)", function()
    local a = values(T0.slow["32"], 0, x)
    assert.are.equal(x[6], a[1])
    assert.is_near(x[1] ^ 2 + x[2] ^ 2, a[2], 1e-18)
    assert.is_near(x[4] ^ 2 + x[5] ^ 2, a[3], 1e-16)
    assert.is_near(x[1] * x[4] + x[2] * x[5], a[4], 1e-18)
    -- (37): Pi from the Euler-angle rates by (29) must give back Pi
    local b = values(T0.slow["37"], 0, x)
    local s = math.sqrt(x[4] ^ 2 + x[5] ^ 2)
    local phid, thd, psid = b[2], b[3], b[4]
    assert.is_near(x[1], 3.12 * (x[4] * phid + x[5] * thd / s), 1e-15)
    assert.is_near(x[2], 3.12 * (x[5] * phid - x[4] * thd / s), 1e-15)
    assert.is_near(x[3], 0.24 * (x[6] * phid + psid), 1e-9)
    local c = values(tr.slow["40"], 0.7, x)
    assert.is_near(x[1] - math.sin(0.7), c[1], 1e-15)
    assert.is_near(x[2] + math.cos(0.7), c[2], 1e-15)
    assert.is_near(math.acos(x[6]), c[4], 1e-15)
  end)

  it("have gradients equal to central differences, and (40)'s d xi / d theta enters the averaged derivative", function()
    for _, case in ipairs { { T0.slow["32"], 0 }, { T0.slow["37"], 0 }, { tr.slow["40"], 0.7 } } do
      local s, th = case[1], case[2]
      local _, G = values(s, th, x)
      for j = 1, 6 do
        -- xi is at most quadratic in Pi (central differences exact there); psi' = Pi3/I3 - ... ~ 17509
        -- needs steps large enough that its round-off stays small
        local d = 1e-4 * math.max(1, math.abs(x[j]))
        local xp, xm = vec6(x), vec6(x)
        xp[j], xm[j] = x[j] + d, x[j] - d
        local ap, am = values(s, th, xp), values(s, th, xm)
        for k = 1, 4 do
          local fd = (ap[k] - am[k]) / (2 * d)
          assert.is_near(fd, G[k][j], 1e-5 * math.max(1, math.abs(fd)), string.format("k=%d j=%d", k, j))
        end
      end
    end
    -- (40): the averaged derivative over a tiny window is grad xi . f + nu d xi / d theta
    local th, d = 0.7, 1e-6
    local ap, am = values(tr.slow["40"], th + d, x), values(tr.slow["40"], th - d, x)
    local _, G = values(tr.slow["40"], th, x)
    local f = kz.vec(6)
    assert.are.equal(0, tr.vib.rhs(tr.vib.par, th, kz.vec(6, x), f))
    local dxi = hmm.slow_force(tr, { set = "40", eta = 2e-10, h = 1e-10, phase = "naive" }, th / 1e3, x)
    for k = 1, 4 do
      local inst = 1e3 * (ap[k] - am[k]) / (2 * d)
      for j = 1, 6 do inst = inst + G[k][j] * f[j - 1] end
      assert.is_near(inst, dxi[k], 1e-4 * math.max(1, math.abs(inst)), "k=" .. k)
    end
  end)

  it("(37) is singular at Gamma1 = Gamma2 = 0; (40) belongs to the transverse forcing", function()
    local r = kz.report()
    assert.are.equal(C.KZ_EDOMAIN, C.kz_slow_values(T0.slow["37"], 0, kz.vec(6, { 0, 0, 1, 0, 0, 1 }), kz.vec(4), nil, r))
    assert.are.equal("slow", ffi.string(r.param))
    assert.is_nil(T0.slow["40"])
    -- the C API's constructor (models.top is built from the model file lib/models/top.lua)
    local free = ffi.new("kz_top", { 5, 9.81, 0.75, 3.12, 3.12, 0.24, C.KZ_TOP_FREE, 0, 0, C.KZ_TOP_AVG_CORRECTED })
    assert.are.equal(C.KZ_EMODEL, C.kz_top_slow(ffi.new("kz_slow"), free, C.KZ_TOP_XI40, r))
    assert.are.equal("set", ffi.string(r.param))
  end)
end)

describe("the slow-variable HMM (Algorithms 3-4) #asan", function()
  local om = 1e3
  local x0 = T0.x0(om, 1 / om)

  it("averages d/dt xi = grad xi . f: a short window gives the instantaneous derivative; delta solves J delta = dxi, Pi3 frozen", function()
    local x = { 2e-3, -1.5e-3, om * T0.constants.Pi3hat, 0.08, 0.17, 0.98 }
    x[6] = math.sqrt(1 - x[4] ^ 2 - x[5] ^ 2)
    local dxi, delta, w = hmm.slow_force(T0, { eta = 2e-9, h = 1e-9 }, 0, x)
    local _, G = values(T0.slow["32"], 0, x)
    local f = rhs(T0, 0, x)
    for k = 1, 4 do
      local inst = 0
      for j = 1, 6 do inst = inst + G[k][j] * f[j] end
      assert.is_near(inst, dxi[k], 1e-5 * math.abs(inst) + 1e-12)
      local jd = 0
      for j = 1, 6 do jd = jd + G[k][j] * delta[j] end
      assert.is_near(dxi[k], jd, 1e-9 * math.abs(dxi[k]) + 1e-15)
    end
    assert.are.equal(0, delta[3])
    assert.are.equal(2, w.micro_steps)
    -- the slow derivatives are all proportional to c = Pi1 Gamma2 - Pi2 Gamma1 (addendum 7)
    local c = x[1] * x[5] - x[2] * x[4]
    assert.is_near(2 * 36.7875 * c, dxi[2], 1e-6 * math.abs(dxi[2]))
  end)

  it("forward Euler is first order and leapfrog second order in H (omega = 1e3, tiny windows)", function()
    local T = 0.004
    local _, rxi = top.reference(T0, "32", T, T / 320, x0, 1e-7)
    for mac, want in pairs { FE = { 1, { 80, 160, 320 } }, LF = { 2, { 40, 80, 160 } } } do
      local es = {}
      for i, N in ipairs(want[2]) do
        local _, xi = hmm.slow_run(T0, { macro = mac, H = T / N, T = T, eta = 2e-8, h = 1e-8, x0 = x0 })
        es[i] = top.maxerr(xi[2], rxi[2], 320 / N)
      end
      assert.is_near(want[1], -U.slope(want[2], es), 0.15, mac)
    end
  end)

  it("counts exactly N windows of eta/h steps (+1 window for the Heun start) and their evaluations", function()
    local o = { H = 0.01 / 60, T = 0.01, eta = 1e-5, h = 1e-6, x0 = x0 }
    local _, _, w = hmm.slow_run(T0, o)
    assert.are.equal(600, w.micro_steps)
    assert.are.equal(60 * (1 + 4 * 10), w.force_evals)
    assert.are.equal(60, w.macro_steps)
    assert.are.equal(60, w.jac_evals)
    o.start = "heun"
    local _, _, wh = hmm.slow_run(T0, o)
    assert.are.equal(610, wh.micro_steps)
    assert.are.equal(61, wh.jac_evals)
    o.start, o.micro, o.macro = nil, "ve", "FE"
    local _, _, wv = hmm.slow_run(T0, o)
    assert.are.equal(60 * (1 + 3 * 10), wv.force_evals)
  end)

  it("final = true returns only the last node, the same numbers as the whole trajectory's last", function()
    local o = { H = 0.01 / 60, T = 0.01, eta = 1e-5, h = 1e-6, x0 = x0 }
    local x, xi = hmm.slow_run(T0, o)
    o.final = true
    local xf, xif = hmm.slow_run(T0, o)
    for i = 1, #x do
      assert.are.equal(1, #xf[i])
      assert.are.equal(x[i][#x[i]], xf[i][1])
    end
    for k = 1, #xi do assert.are.equal(xi[k][#xi[k]], xif[k][1]) end
  end)

  it("options change what they should: normalised vs raw weights, literal predictor (A3), basic least squares", function()
    local T, N = 0.01, 160
    local _, rxi = top.reference(T0, "32", T, T / N, x0, 1e-7)
    local function err(o)
      local t = { H = T / N, T = T, eta = 1e-4, h = 1e-5, x0 = x0 }
      for k, v in pairs(o) do t[k] = v end
      local _, xi = hmm.slow_run(T0, t)
      return top.maxerr(xi[2], rxi[2])
    end
    local base = err {}
    assert.is_near(7.747e-7, base, 0.005e-7) -- Table 1, omega = 1e3, H = T/160 (addendum 6)
    assert.is_true(err { predictor = "literal" } > 10 * base)
    local raw = err { kernel_constant = C.kz_kernel_constant(C.KZ_KERNEL_EXP2) }
    assert.is_true(math.abs(raw / base - 1) > 0.1, tostring(raw))
    assert.is_near(base, err { lsq = "basic" }, 0.01 * base)
  end)

  it("a diverging run stops with KZ_EDIVERGED-class status, naming step and time, rows before it valid", function()
    local tr = models.top { forcing = "transverse", amp = om, nu = om }
    local x, _, _, nvalid, msg = hmm.slow_run(tr, { set = "40", H = 0.02 / 300, T = 0.02, eta = 6e-7, h = 1e-7, x0 = x0, allow_fail = true })
    assert.truthy(msg)
    assert.is_true(nvalid > 5 and nvalid < 301)
    for n = 1, nvalid do for i = 1, 6 do assert.is_true(x[i][n] == x[i][n]) end end
    local ok, err = pcall(hmm.slow_run, tr, { set = "40", H = 0.02 / 300, T = 0.02, eta = 6e-7, h = 1e-7, x0 = x0 })
    assert.is_false(ok)
    assert.truthy(err:find("kz_slow_run", 1, true))
  end)

  it("refuses bad input with the parameter named", function()
    local p = hmm.slow_params { H = 1e-3, T = 1e-2, eta = 1e-5, h = 1e-6 }
    local s = T0.slow["32"]
    local X, XI, X0 = kz.vec(6 * 20), kz.vec(4 * 20), kz.vec(6, x0)
    local function try(field, value, st, param, m, slow, x)
      local q = ffi.new("kz_slow_params", p)
      if field then q[field] = value end
      local r = kz.report()
      local got = C.kz_slow_run(m or T0.vib, slow or s, q, x or X0, X, 20, XI, r)
      assert.are.equal(st, got, tostring(field) .. " " .. tostring(param))
      if param then assert.are.equal(param, ffi.string(r.param)) end
    end
    try(nil, nil, C.KZ_OK)
    try("macro", 5, C.KZ_EDOMAIN, "macro")
    try("start", 3, C.KZ_EDOMAIN, "start")
    try("lsq", 4, C.KZ_EDOMAIN, "lsq")
    try("predictor", 2, C.KZ_EDOMAIN, "predictor")
    try("time_update", 9, C.KZ_EDOMAIN, "time_update")
    try("fd_step", -1, C.KZ_EDOMAIN, "fd_step")
    try("micro", nil, C.KZ_ENULL, "micro")
    try("kernel", 17, C.KZ_EDOMAIN, "kernel")
    try("eta", 3e-6, C.KZ_EGRID, "eta")
    try("h", 0, C.KZ_EDOMAIN, "h")
    try("H", -1, C.KZ_EDOMAIN, "H")
    try("T", 1.05e-2, C.KZ_EGRID, "T")
    try("T", 1e-4, C.KZ_EDOMAIN, "T")
    try("H", 1e-4, C.KZ_EBUFFER, "x_out")
    try(nil, nil, C.KZ_ENONFINITE, "x0", nil, nil, kz.vec(6, { 0 / 0, 0, 0, 0, 0, 1 }))
    local bad = ffi.new("kz_slow", s)
    bad.r = 7
    try(nil, nil, C.KZ_EDOMAIN, "r", nil, bad)
    bad.r, bad.dim = 4, 5
    try(nil, nil, C.KZ_EDOMAIN, "dim", nil, bad)
    local r = kz.report()
    assert.are.equal(C.KZ_ENULL, C.kz_slow_run(nil, s, p, X0, X, 20, XI, r))
    assert.are.equal(C.KZ_ENULL, C.kz_slow_run(T0.vib, s, nil, X0, X, 20, XI, r))
    assert.are.equal(C.KZ_ENULL, C.kz_slow_run(T0.vib, s, p, X0, nil, 20, XI, r))
    assert.are.equal(C.KZ_ENONFINITE, C.kz_slow_force(T0.vib, s, p, 0 / 0, X0, kz.vec(4), nil, r))
    assert.are.equal("t", ffi.string(r.param))
    assert.are.equal(C.KZ_ENULL, C.kz_slow_force(T0.vib, s, p, 0, X0, nil, nil, r))
    assert.are.equal("dxi", ffi.string(r.param))
    assert.are.equal(C.KZ_ENONFINITE, C.kz_slow_values(s, 1 / 0, X0, kz.vec(4), nil, r))
    assert.are.equal("theta", ffi.string(r.param))
    assert.are.equal(C.KZ_ENULL, C.kz_slow_values(nil, 0, X0, kz.vec(4), nil, r))
    -- Lua: names and choices
    assert.is_false(pcall(hmm.slow_run, T0, { set = "99", H = 1e-3, T = 1e-2, eta = 1e-5, h = 1e-6, x0 = x0 }))
    local ok, err = pcall(hmm.slow_params, { macro = "RK9" })
    assert.is_false(ok)
    assert.truthy(err:find("FE, LF", 1, true), err)
    ok, err = pcall(hmm.slow_params, { micro = "nope" })
    assert.is_false(ok)
    assert.truthy(err:find("unknown stepper", 1, true), err)
  end)
end)

describe("the top's constructors and measurements refuse bad input #asan", function()
  it("names the parameter (C) and the key (Lua)", function()
    local r = kz.report()
    local function par(o)
      local p = ffi.new("kz_top", { 5, 9.81, 0.75, 3.12, 3.12, 0.24, 0, 0, 0, 0 })
      for k, v in pairs(o or {}) do p[k] = v end
      return p
    end
    local s, m = ffi.new("kz_sys"), ffi.new("kz_vib")
    local function bad(st, param, got)
      assert.are.equal(st, got, param)
      assert.are.equal(param, ffi.string(r.param))
    end
    bad(C.KZ_ENULL, "system", C.kz_top_sys(nil, par(), r))
    bad(C.KZ_ENULL, "top", C.kz_top_sys(s, nil, r))
    bad(C.KZ_EDOMAIN, "M", C.kz_top_sys(s, par { M = 0 }, r))
    bad(C.KZ_ENONFINITE, "g", C.kz_top_averaged_sys(s, par { g = 0 / 0 }, r))
    bad(C.KZ_EDOMAIN, "I3", C.kz_top_vib(m, par { I3 = -1 }, r))
    bad(C.KZ_EDOMAIN, "forcing", C.kz_top_vib(m, par { forcing = 3 }, r))
    bad(C.KZ_EDOMAIN, "nu", C.kz_top_vib(m, par { forcing = 1, nu = 0 }, r))
    bad(C.KZ_EDOMAIN, "avg", C.kz_top_sys(s, par { avg = 5 }, r))
    bad(C.KZ_ENULL, "model", C.kz_top_vib(nil, par(), r))
    bad(C.KZ_ENULL, "c", C.kz_top_constants(par(), nil, r))
    bad(C.KZ_EDOMAIN, "l", C.kz_top_constants(par { l = 0 }, kz.vec(7), r))
    bad(C.KZ_ENONFINITE, "x", C.kz_top_invariants(par(), kz.vec(6, { 0, 0, 1, 0, 0 / 0, 1 }), kz.vec(4), r))
    bad(C.KZ_ENULL, "inv", C.kz_top_invariants(par(), kz.vec(6), nil, r))
    bad(C.KZ_ENULL, "x0", C.kz_top_drift(par(), kz.vec(6), nil, kz.vec(4), r))
    bad(C.KZ_EDOMAIN, "set", C.kz_top_slow(ffi.new("kz_slow"), par(), 3, r))
    bad(C.KZ_ENULL, "slow", C.kz_top_slow(nil, par(), 0, r))
    local ok, err = pcall(models.top, { forcing = "sideways" })
    assert.is_false(ok)
    assert.truthy(err:find("top.forcing", 1, true), err)
    ok, err = pcall(models.top, { M = 0 / 0 })
    assert.is_false(ok)
    assert.truthy(err:find("top.M", 1, true), err)
    ok, err = pcall(models.top, { I1 = -3 })
    assert.is_false(ok)
    assert.truthy(err:find("I1", 1, true), err)
  end)
end)

describe("lib/lua/kapitza/papers/top.lua and the slow-HMM binding refuse bad input, naming it #asan", function()
  it("errors name the function and the argument", function()
    local function fails(pat, f, ...)
      local ok, err = pcall(f, ...)
      assert.is_false(ok)
      assert.truthy(tostring(err):find(pat, 1, true), tostring(err))
    end
    fails("slow set '99'", top.xi, T0, "99", { {}, {}, {}, {}, {}, {} })
    fails("state components", top.xi, T0, "32", { {} })
    fails("reference has 3 rows", top.maxerr, { 1, 2, 3 }, { 1, 2, 3 }, 2)
    fails("stride", top.maxerr, { 1 }, { 1 }, 0.5)
    fails("radius", top.cone, 5, 1, -0.4)
    fails("I1", top.euler, { { 1 }, { 1 }, { 1 }, { 1 } }, 0, 1)
    fails("dt", top.euler, { { 1 }, { 1 }, { 1 }, { 1 } }, 3.12, 0)
    fails("slow set", hmm.slow_force, T0, { set = "41", eta = 2e-6, h = 1e-6 }, 0, T0.x0(1e3, 1e-3))
    fails("parameter 'eta'", hmm.slow_force, T0, { eta = 3e-6, h = 1e-6 }, 0, T0.x0(1e3, 1e-3))
    fails("least-squares solution", hmm.slow_params, { lsq = "qr" })
  end)
end)

describe("Algorithm 2: the VE macro scheme of the general HMM #asan", function()
  local pend = models.pendulum { l = 0.2, g = 9.81, vmax = 4, omega = 1e6 }
  local per = 2 * math.pi / 1e6

  it("takes T/H + 1 microsimulations (72,600 micro-steps for Figure 6)", function()
    local _, _, w = hmm.run(pend, { macro = "VE", micro = "verlet", kernel = "exponential", phase = "exact", recon = "model",
                                    H = 1 / 20, T = 6, eta = 40 * per, h = per / 15, Q0 = 0, P0 = -5 })
    assert.are.equal(121 * 600, w.micro_steps)
    assert.are.equal(120, w.macro_steps)
  end)

  it("is second order in H against the averaged equation (13) (rk4 micro, fine window)", function()
    local es, Hs = {}, {}
    for i, H in ipairs { 1 / 20, 1 / 40, 1 / 80 } do
      local Q, P = hmm.run(pend, { macro = "VE", micro = "rk4", kernel = "exponential", phase = "exact", recon = "model",
                                   H = H, T = 1, eta = 40 * per, h = per / 30, Q0 = 0, P0 = -5 })
      local ref = E.grid(pend.avg, 1, H, { 0, -5 }, 1e-4)
      es[i], Hs[i] = E.max_norm({ Q, P }, ref), H
    end
    assert.is_near(2, U.slope(Hs, es), 0.15)
  end)

  it("differs from Verlet (V) only through the predictor P_n + H F_n of the end estimate", function()
    local pd = models.pendulum { l = 0.2, g = 9.81, vmax = 4, omega = 1e4 }
    local p = 2 * math.pi / 1e4
    local function step(macro, P0)
      local q = hmm.params { macro = macro, micro = "verlet", kernel = "exponential", phase = "exact", recon = "model",
                             H = 0.05, T = 1, eta = 40 * p, h = p / 15 }
      local Y = kz.vec(2, { 0.3, P0 })
      kz.call("kz_hmm_step", pd.vib, q, 0, Y, kz.report())
      return Y[0], Y[1]
    end
    local q1, p1 = step("VE", -5)
    local q2, p2 = step("V", -5)
    assert.are.equal(q1, q2) -- the drift uses P_{n+1/2} in both
    assert.is_true(p1 ~= p2 and math.abs(p1 - p2) < 1e-3)
  end)
end)

describe("claims away from the printed case: n/a, the printed case, the trivial baselines", function()
  it("E.verdict_of counts the evidence; a claim off its printed parameters is n/a naming them; E.na refuses an empty reason", function()
    assert.are.same({ "yes", "partly", "no", "n/a" }, { E.verdict_of(2, 2), E.verdict_of(1, 2), E.verdict_of(0, 2), E.verdict_of(0, 0) })
    local cl = E.claims({ id = "x", P = { omega = 2 }, byname = { omega = { "omega", 1 } }, reference = function() return {} end })
    assert.are.equal("n/a", cl:claim { key = "a", text = "claim a", published = "1", at = { omega = 1 } })
    assert.are.equal("n/a: the published value is for other parameters: this run has omega = 2 (printed at 1)", cl.rows[1].measured)
    assert.are.equal("n/a", cl:claim { key = "b", text = "claim b", published = "1", at = { omega = 1 }, shown = "measured 3" })
    assert.are.equal("measured 3 — n/a: the published value is for other parameters: this run has omega = 2 (printed at 1)", cl.rows[2].measured)
    assert.has_error(function() E.na("") end)
    assert.has_error(function() E.na(nil) end)
  end)

  it("top.off_print names each key that differs from the scenario's defaults (lists too), skips the free keys", function()
    local sc = { params = { { "omega", { 1e3, 1e4 } }, { "T", 0.01 }, { "ref_h", 1e-4 }, { "micro", "rk4" } } }
    sc.byname = {}
    for _, p in ipairs(sc.params) do sc.byname[p[1]] = p end
    local P = { omega = { 1e3, 1e4 }, T = 0.01, ref_h = 1e-4, micro = "rk4" }
    assert.is_nil(top.off_print(sc, P))
    P.ref_h = 1e-5
    assert.is_nil(top.off_print(sc, P, nil, { "ref_h" }))
    assert.are.equal("not the printed case: ref_h = 1e-05 (printed 0.0001)", top.off_print(sc, P))
    P.omega, P.micro = { 1e3 }, "ve"
    assert.are.equal("not the printed case: omega = 1000 (printed 1000,10000), micro = ve (printed rk4)",
                     top.off_print(sc, P, nil, { "ref_h" }))
    assert.are.equal("not the printed case: micro = ve (printed rk4)", top.off_print(sc, P, { "T", "micro" }))
    assert.has_error(function() top.off_print(sc, P, { "nope" }) end)
  end)

  it("top.xi40_baseline: the HMM must beat Pi1 = Pi2 = 0 by half (partly) and be within 2 % (yes)", function()
    local nu, H, N = 1000, 1e-4, 60
    local rxi, base = { {}, {} }, { {}, {} }
    for n = 1, N + 1 do
      local t = (n - 1) * H
      base[1][n], base[2][n] = -math.sin(nu * t), math.cos(nu * t)
      rxi[1][n], rxi[2][n] = base[1][n] + 0.06 * math.cos(16 * nu * t), base[2][n] + 0.12 * math.sin(16 * nu * t)
    end
    local function shifted(f)
      local x = { {}, {} }
      for n = 1, N + 1 do for k = 1, 2 do x[k][n] = base[k][n] + f * (rxi[k][n] - base[k][n]) end end
      return x
    end
    local function verdict(r) return E.verdict_of(E.count(r.items)) end
    local r = top.xi40_baseline(base, rxi, 1, nu, H) -- the baseline itself: no better than it
    assert.are.equal("no", verdict(r))
    assert.is_near(1, r.e[1] / r.base[1], 1e-12)
    assert.is_near(0, r.pi_hmm[2], 1e-15)
    assert.truthy(r.text.s:find("not through the HMM", 1, true))
    assert.are.equal("partly", verdict(top.xi40_baseline(shifted(0.7), rxi, 1, nu, H))) -- error 0.3 of the baseline's, 1.8-3.6 % of the amplitude
    assert.are.equal("yes", verdict(top.xi40_baseline(shifted(0.99), rxi, 1, nu, H)))
    local f = top.xi40_baseline(base, rxi, 1, nu, H, "diverged at step 3")
    assert.are.equal("no", verdict(f))
    assert.truthy(f.text.s:find("diverged at step 3", 1, true))
  end)

  it("top.xi40_params/setup/run: Figures 20-21's keys, reference grid and HMM runs", function()
    local params = top.xi40_params({ T = 1e-4, N = 4 }, { "ref_sub", 2, "", "reference samples", integer = true, min = 1 })
    local P, names = {}, {}
    for i, p in ipairs(params) do P[p[1]], names[p[1]] = p[2], i end
    assert.are.equal(names.ref_h + 1, names.ref_sub) -- ref_sub after the forcing keys, before the method's
    assert.are.equal(names.ref_sub + 1, names.macro)
    assert.are.equal(300, P.N_printed)
    local X = top.xi40_setup(P, false)
    assert.are.equal(8, X.Nref)
    assert.are.equal(P.T / 8, X.dt)
    assert.are.equal(9, #X.rxi[1])
    assert.is_nil(X.delta)
    local xi, w, msg = top.xi40_run(X, P, P.N)
    assert.is_nil(msg)
    assert.are.equal(5, #xi[1])
    assert.is_near(X.rxi[1][1], xi[1][1], 1e-15) -- the same start
    local _, w2 = top.xi40_run(X, P, P.N, { eta_h = 20 })
    assert.is_true(w2.micro_steps > w.micro_steps) -- the override reaches the run
  end)

end)
