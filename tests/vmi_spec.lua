-- Variational multirate integrators (Ober-Bloebaum, Wenger, Gail & Leyendecker): the C API's
-- bad-input handling, the schemes against the paper's explicit (p, q) forms, symplecticity,
-- Lemma 5.1, the structured vs dense solver, work counts and the orders of Lemma 4.5 / Table 2.
local kz = require "kapitza"
local V = require "kapitza.papers.vmi_convergence"
local ffi, C = kz.ffi, kz.C

local function fpu_grad(l, s, f) -- an independent Lua gradient of the FPU V (1-based arrays)
  local gs, gf = {}, {}
  for i = 1, l do gs[i], gf[i] = 0, 0 end
  local d = s[1] - f[1]
  gs[1], gf[1] = gs[1] + d ^ 3, gf[1] - d ^ 3
  for i = 1, l - 1 do
    d = s[i + 1] - f[i + 1] - s[i] - f[i]
    local c = d ^ 3
    gs[i + 1], gf[i + 1], gs[i], gf[i] = gs[i + 1] + c, gf[i + 1] - c, gs[i] - c, gf[i] - c
  end
  d = s[l] + f[l]
  gs[l], gf[l] = gs[l] + d ^ 3, gf[l] + d ^ 3
  return gs, gf
end

local function step(model, scheme, o, y)
  local P = V.params(scheme, o)
  local yy = kz.vec(model.d)
  for i = 0, model.d - 1 do yy[i] = y[i + 1] end
  local micro = kz.vec((o.p + 1) * 2 * model.nf)
  local r = kz.report()
  kz.call("kz_vmi_step", model.model, P, 0, yy, micro, nil, r)
  local out = {}
  for i = 0, model.d - 1 do out[i + 1] = yy[i] end
  return out, micro, r
end

describe("vmi C API: bad input #asan", function()
  local fpu = V.fpu()
  local function attempt(fn, ...)
    local ok, err = pcall(kz.call, fn, ...)
    assert.is_false(ok)
    return err
  end
  it("kz_arrow_work_size at the int limits: refused, no signed overflow (UBSan in the #asan run; issue 25)", function()
    local big = 2147483647
    local nw, niw = ffi.new("long long[1]"), ffi.new("long long[1]")
    for _, c in ipairs { { big, big, 1 }, { big, 1, big }, { 1, big, big }, { big, big, big }, { big, 2, 0 } } do
      for _, solver in ipairs { C.KZ_VMI_STRUCTURED, C.KZ_VMI_DENSE } do
        local st = C.kz_arrow_work_size(c[1], c[2], c[3], solver, nw, niw, kz.report())
        assert.are.equal(C.KZ_EDOMAIN, st, table.concat(c, ","))
      end
    end
    assert.are.equal(0, C.kz_arrow_work_size(3, 2, 1, C.KZ_VMI_STRUCTURED, nw, niw, kz.report()))
    assert.are.equal(0, C.kz_arrow_work_size(big, 1, 0, C.KZ_VMI_STRUCTURED, nw, niw, kz.report())) -- n = 2^31 - 1 fits
    assert.are.equal(big, tonumber(niw[0]))
  end)

  it("names the function and the parameter, and writes nothing", function()
    local good = { p = 3, dT = 0.1, tol = 1e-10 }
    local cases = {
      { "alpha_V", function(P) P.alpha_V = 1.5 end }, { "gamma_W", function(P) P.gamma_W = -0.1 end },
      { "gamma_V", function(P) P.gamma_V = 0 / 0 end }, { "'p'", function(P) P.p = 0 end },
      { "dT", function(P) P.dT = 0 end }, { "dT", function(P) P.dT = math.huge end },
      { "tol", function(P) P.tol = -1 end }, { "max_iter", function(P) P.max_iter = 0 end },
      { "solver", function(P) P.solver = 7 end },
    }
    for _, c in ipairs(cases) do
      local P = V.params("MM", good)
      c[2](P)
      local out = kz.vec(4 * 12)
      for i = 0, 47 do out[i] = -12345 end
      local err = attempt("kz_vmi_run", fpu.model, P, 3, kz.vec(12, fpu.y0), out, 4, nil, 0, nil, kz.report())
      assert.matches("kz_vmi_run", err)
      assert.matches(c[1], err, 1, true)
      for i = 0, 47 do assert.are.equal(-12345, out[i]) end
    end
    local P = V.params("MM", good)
    assert.matches("'N'", attempt("kz_vmi_run", fpu.model, P, -1, kz.vec(12, fpu.y0), kz.vec(12), 1, nil, 0, nil, kz.report()))
    assert.matches("'out'", attempt("kz_vmi_run", fpu.model, P, 3, kz.vec(12, fpu.y0), kz.vec(36), 3, nil, 0, nil, kz.report()))
    assert.matches("'micro'", attempt("kz_vmi_run", fpu.model, P, 3, kz.vec(12, fpu.y0), kz.vec(48), 4, kz.vec(6), 1, nil, kz.report()))
    local y0 = kz.vec(12, fpu.y0)
    y0[5] = 0 / 0
    assert.matches("'y0'", attempt("kz_vmi_run", fpu.model, P, 3, y0, kz.vec(48), 4, nil, 0, nil, kz.report()))
    assert.matches("'model'", attempt("kz_vmi_run", nil, P, 3, kz.vec(12, fpu.y0), kz.vec(48), 4, nil, 0, nil, kz.report()))
    assert.matches("'params'", attempt("kz_vmi_step", fpu.model, nil, 0, kz.vec(12, fpu.y0), nil, nil, kz.report()))
    -- models
    local m = ffi.new("kz_vmi_model")
    assert.matches("'omega'", attempt("kz_vmi_fpu_model", m, ffi.new("kz_vmi_fpu", { 3, -1 }), kz.report()))
    assert.matches("'l'", attempt("kz_vmi_fpu_model", m, ffi.new("kz_vmi_fpu", { 0, 50 }), kz.report()))
    assert.matches("'g_sign'", attempt("kz_vmi_ring_model", m, ffi.new("kz_vmi_ring", { 3, 2, 5, 2, 4000, 9.81, 0 }), kz.report()))
    assert.matches("'mass'", attempt("kz_vmi_ring_model", m, ffi.new("kz_vmi_ring", { 3, 0, 5, 2, 4000, 9.81, 1 }), kz.report()))
    assert.matches("'nf'", attempt("kz_vmi_harmonic_model", m, ffi.new("kz_vmi_harmonic", { 2, 1, 0 }), kz.report()))
    -- linear algebra
    local A = kz.vec(4, { 1, 2, 2, 4 })
    assert.matches("kz_lu_factor.*'matrix'", attempt("kz_lu_factor", 2, A, ffi.new("int[2]"), kz.report()))
    assert.matches("'solver'", attempt("kz_arrow_solve", ffi.new("kz_arrow", { 1, 1, 1, kz.vec(3), kz.vec(1), kz.vec(1), kz.vec(1) }),
                                      5, kz.vec(2), kz.vec(10), ffi.new("int[4]"), kz.report()))
  end)

  it("reports a Newton failure with the step and time, leaving the state unchanged", function()
    local P = V.params("MM", { p = 5, dT = 0.3, tol = 1e-300, max_iter = 2 })
    local y = kz.vec(12, fpu.y0)
    local r = kz.report()
    local ok, err = pcall(kz.call, "kz_vmi_step", fpu.model, P, 1.5, y, nil, nil, r)
    assert.is_false(ok)
    assert.matches("did not converge %(parameter 'newton'%) at step 0 at t = 1.5", err)
    for i = 1, 12 do assert.are.equal(fpu.y0[i], y[i - 1]) end
    -- in a run: converges for a while with a loose cap, then fails at a later step
    P = V.params("MM", { p = 5, dT = 0.3, tol = 1e-10, max_iter = 1 })
    local out = kz.vec(101 * 12)
    r = kz.report()
    ok, err = pcall(kz.call, "kz_vmi_run", fpu.model, P, 100, kz.vec(12, fpu.y0), out, 101, nil, 0, nil, r)
    assert.is_false(ok)
    assert.matches("'newton'", err)
    assert.are.equal(tonumber(r.fail_step) * 0.3, r.fail_time)
  end)

  it("counts macro steps, micro steps, Newton iterations and Jacobians", function()
    local res = V.run(fpu, "MM", { p = 4, dT = 0.05, N = 10, tol = 1e-10, predictor = "drift" })
    assert.are.equal(10, res.counts.macro_steps)
    assert.are.equal(40, res.counts.micro_steps)
    assert.are.equal(res.counts.newton_iters, res.counts.jac_evals)
    -- Newton with the exact Jacobian: residual ~1e-4 after one iteration, ~1e-12 after two
    -- (the doubled slow-row block of an earlier version needed 3 per step here)
    assert.is_true(res.counts.newton_iters >= 10 and res.counts.newton_iters <= 20, res.counts.newton_iters)
    -- one gradient evaluation of V and one of W per micro interval per residual evaluation
    assert.are.equal(2 * 4 * (res.counts.newton_iters + 10), res.counts.force_evals)
    -- the alpha = 1/2 trapezoid in V has two quadrature points, W (midpoint) one
    res = V.run(fpu, "TMh", { p = 4, dT = 0.05, N = 10, tol = 1e-10, predictor = "drift" })
    assert.are.equal(3 * 4 * (res.counts.newton_iters + 10), res.counts.force_evals)
    -- the Verlet predictor adds one gradient of V and of W at the first node, then per march (1 to 4)
    -- one at each node 0..p (node p only when V's quadrature puts weight on it: midpoint yes)
    res = V.run(fpu, "MM", { p = 4, dT = 0.05, N = 10, tol = 1e-10 })
    local base = 2 * 4 * (res.counts.newton_iters + 10)
    assert.is_true(res.counts.force_evals >= base + 10 * 2 * (1 + 5) and res.counts.force_evals <= base + 10 * 2 * (1 + 4 * 5),
                   tostring(res.counts.force_evals))
    -- measuring energies is not work of the method: kz_vmi_energy counts nothing
    local r = kz.report()
    kz.call("kz_vmi_energy", fpu.model, kz.vec(12, fpu.y0), kz.vec(3), r)
    for k, v in pairs(kz.counts(r)) do assert.are.equal(0, v, k) end
  end)

  it("a failed step leaves y and the micro buffer as they were (Newton failure, overflow)", function()
    local P = V.params("MM", { p = 5, dT = 0.3, tol = 1e-300, max_iter = 2 })
    local micro = kz.vec(6 * 6)
    for i = 0, 35 do micro[i] = -777 end
    local ok = pcall(kz.call, "kz_vmi_step", fpu.model, P, 0, kz.vec(12, fpu.y0), micro, nil, kz.report())
    assert.is_false(ok)
    for i = 0, 35 do assert.are.equal(-777, micro[i]) end
    -- A step whose residual vanishes but whose new momentum overflows: nf = 1, ns = 0, V = -1e308 q,
    -- right rectangle rule, dt = 1, p^f = 1e308: the momentum equation gives p^f - dt V' = inf.
    local cb = ffi.cast("kz_vmi_slow_fn", function(_, _, qf, v, _, gf, _)
      if v ~= nil then v[0] = -1e308 * qf[0] end
      if gf ~= nil then gf[0] = gf[0] - 1e308 end
      return 0
    end)
    local m = ffi.new("kz_vmi_model")
    m.ns, m.nf, m.mass_s, m.mass_f, m.V = 0, 1, 1, 1, cb
    P = V.params({ alpha_V = 1, gamma_V = 0, alpha_W = 1, gamma_W = 0 }, { p = 1, dT = 1 })
    local y, mic = kz.vec(2, { 0, 1e308 }), kz.vec(4, { -7, -7, -7, -7 })
    local err = attempt("kz_vmi_step", m, P, 0, y, mic, nil, kz.report())
    cb:free()
    assert.matches("non%-finite %(parameter 'y'%)", err)
    assert.are.same({ 0, 1e308, -7, -7, -7, -7 }, { y[0], y[1], mic[0], mic[1], mic[2], mic[3] })
  end)

  it("the dense solver's size cap (p nf + ns <= 2e4) does not apply to the structured one", function()
    local nw, ni = ffi.new("long long[1]"), ffi.new("long long[1]")
    kz.call("kz_arrow_work_size", 100000, 3, 3, C.KZ_VMI_STRUCTURED, nw, ni, kz.report())
    assert.are.equal(100000 * 3 * 4 + 9 + 3 + 3, tonumber(nw[0]))
    assert.matches("'p'", attempt("kz_arrow_work_size", 100000, 3, 3, C.KZ_VMI_DENSE, nw, ni, kz.report()))
    -- one FPU step with 3 * 7000 + 3 = 21003 unknowns (dt = 1e-4)
    local P = V.params("MM", { p = 7000, dT = 0.7, tol = 1e-9 })
    local y = kz.vec(12, fpu.y0)
    kz.call("kz_vmi_step", fpu.model, P, 0, y, nil, nil, kz.report())
    assert.is_true(y[0] ~= 1 and y[0] == y[0])
    P.solver = C.KZ_VMI_DENSE
    assert.matches("'p'", attempt("kz_vmi_step", fpu.model, P, 0, y, nil, nil, kz.report()))
  end)
end)

-- The max-norm residual after k Newton iterations of the first step from y0, read through the
-- public API: the smallest tolerance at which kz_vmi_step succeeds with max_iter = k (bisection
-- on log10 tol; the residuals decrease, so success is monotone in tol).
local function residual_after(model, scheme, o, k)
  local function ok(lt)
    local P = V.params(scheme, { p = o.p, dT = o.dT, tol = 10 ^ lt, max_iter = k, predictor = "drift" })
    return C.kz_vmi_step(model.model, P, 0, kz.vec(model.d, model.y0), nil, nil, nil) == 0
  end
  local lo, hi = -300, 10
  assert(ok(hi) and not ok(lo), "residual probe out of range")
  for _ = 1, 50 do
    local m = 0.5 * (lo + hi)
    if ok(m) then hi = m else lo = m end
  end
  return 10 ^ hi
end

describe("vmi Newton converges quadratically (exact Jacobian) #asan", function()
  it("residuals r_k after k iterations: convergence order log(r3/r2)/log(r2/r1) near 2, not 1", function()
    -- Spring ring, dT = 0.05, from the standard initial guess: r1 ~ 1..10, r2 ~ 1e-3, r3 ~ 1e-9.
    -- A Jacobian that is wrong in one block (the slow row, counted twice in an earlier version)
    -- gives linear convergence, order ~ 0.9 and r3 ~ 3e-5 here.
    local ring = V.ring()
    for _, sch in ipairs { "MM", "TM", "TT", "TTh" } do
      for _, p in ipairs { 5, 50 } do
        local r1 = residual_after(ring, sch, { p = p, dT = 0.05 }, 1)
        local r2 = residual_after(ring, sch, { p = p, dT = 0.05 }, 2)
        local r3 = residual_after(ring, sch, { p = p, dT = 0.05 }, 3)
        local order = math.log(r3 / r2) / math.log(r2 / r1)
        local msg = string.format("%s p=%d: r = %.3g %.3g %.3g, order %.2f", sch, p, r1, r2, r3, order)
        assert.is_true(r1 > 1e-2 and r2 < 1e-1 * r1, msg)
        assert.is_true(order > 1.5, msg)
        assert.is_true(r3 < 1e-8, msg)
      end
    end
  end)

  it("the Verlet predictor: FPU, dt = 0.001, tol 1e-9: at most 1.2 iterations per step for p = 1..1000, " ..
     "where the drift guess needs 4.5 at p = 1000; the runs agree to 1e-7", function()
    local fpu = V.fpu()
    for _, sch in ipairs { "MM", "TM", "TT" } do
      for _, p in ipairs { 1, 10, 100, 1000 } do
        local N = math.min(10, math.floor(10 / (0.001 * p) + 0.5))
        local a = V.run(fpu, sch, { p = p, dT = 0.001 * p, N = N, tol = 1e-9 })
        local b = V.run(fpu, sch, { p = p, dT = 0.001 * p, N = N, tol = 1e-9, predictor = "drift" })
        local msg = string.format("%s p=%d: %d iterations in %d steps (drift %d)", sch, p, a.counts.newton_iters, N,
                                  b.counts.newton_iters)
        assert.is_true(a.counts.newton_iters <= 1.2 * N, msg)
        if p == 1000 then assert.is_true(b.counts.newton_iters >= 4 * N, msg) end
        for i = 0, (N + 1) * 12 - 1 do assert.is_true(math.abs(a.out[i] - b.out[i]) < 1e-7, msg) end
      end
    end
  end)

  it("FPU, dt = 0.001: one iteration per step at p = 1, at most two at p = 50 (tol 1e-9)", function()
    local fpu = V.fpu()
    for _, c in ipairs { { "MM", 1, 1 }, { "TM", 1, 1 }, { "TT", 1, 1 }, { "MM", 5, 2 }, { "MM", 50, 2 }, { "TT", 50, 2 } } do
      local res = V.run(fpu, c[1], { p = c[2], dT = 0.001 * c[2], N = math.floor(400 / c[2]), tol = 1e-9 })
      assert.is_true(res.counts.newton_iters <= c[3] * res.N, string.format("%s p=%d: %d iterations in %d steps",
        c[1], c[2], res.counts.newton_iters, res.N))
    end
  end)
end)

describe("vmi schemes against the paper's (p, q) forms #asan", function()
  local fpu = V.fpu()
  local l, om2 = 3, 2500
  it("midpoint-midpoint satisfies (3.23)-(3.26) on every micro node", function()
    local p, dT = 4, 0.2
    local dt = dT / p
    local y1, micro = step(fpu, "MM", { p = p, dT = dT, tol = 1e-13 }, fpu.y0)
    local qs0, ps0 = { 1, 0, 0 }, { 1, 0, 0 }
    local qs1, ps1 = { y1[1], y1[2], y1[3] }, { y1[7], y1[8], y1[9] }
    local sum_all, sum_w = { 0, 0, 0 }, { 0, 0, 0 }
    for m = 0, p - 1 do
      local f0, f1, pf0, pf1 = {}, {}, {}, {}
      for i = 1, l do
        f0[i], f1[i] = micro[m * 6 + i - 1], micro[(m + 1) * 6 + i - 1]
        pf0[i], pf1[i] = micro[m * 6 + 3 + i - 1], micro[(m + 1) * 6 + 3 + i - 1]
      end
      local sb, fb = {}, {}
      for i = 1, l do
        sb[i] = qs0[i] + (2 * m + 1) / (2 * p) * (qs1[i] - qs0[i])
        fb[i] = 0.5 * (f0[i] + f1[i])
      end
      local gs, gf = fpu_grad(l, sb, fb)
      for i = 1, l do
        assert.is_true(math.abs(f1[i] - (f0[i] + dt * (pf0[i] + pf1[i]) / 2)) < 1e-12)               -- (3.25)
        assert.is_true(math.abs(pf1[i] - (pf0[i] - dt * gf[i] - dt * om2 * fb[i])) < 1e-9)          -- (3.26)
        sum_all[i] = sum_all[i] + gs[i]
        sum_w[i] = sum_w[i] + (1 - (2 * m + 1) / p) * gs[i]
      end
    end
    for i = 1, l do
      assert.is_true(math.abs(ps1[i] - (ps0[i] - dt * sum_all[i])) < 1e-9)                           -- (3.24)
      assert.is_true(math.abs(qs1[i] - (qs0[i] + dT / 2 * (ps0[i] + ps1[i] - dt * sum_w[i]))) < 1e-12) -- (3.23)
    end
  end)

  it("trapezoidal-trapezoidal (left rectangle) equals the explicit form of (3.49)-(3.53) with alpha = 1", function()
    local p, dT = 5, 0.02
    local dt = dT / p
    local y1, micro = step(fpu, "TT", { p = p, dT = dT, tol = 1e-13 }, fpu.y0)
    local qs0, ps0, qs1 = { 1, 0, 0 }, { 1, 0, 0 }, { y1[1], y1[2], y1[3] }
    local f, pf = { 0.02, 0, 0 }, { 1, 0, 0 }
    local sumq, sump = { 0, 0, 0 }, { 0, 0, 0 }
    for m = 0, p - 1 do
      local sm = {}
      for i = 1, l do sm[i] = qs0[i] + m / p * (qs1[i] - qs0[i]) end
      local gs, gf = fpu_grad(l, sm, f)
      for i = 1, l do
        sump[i] = sump[i] + gs[i]
        sumq[i] = sumq[i] + (m == 0 and 1 or (p - m) / p) * gs[i]
        pf[i] = pf[i] - dt * (gf[i] + om2 * f[i])
        f[i] = f[i] + dt * pf[i]
        assert.is_true(math.abs(f[i] - micro[(m + 1) * 6 + i - 1]) < 1e-12)
        assert.is_true(math.abs(pf[i] - micro[(m + 1) * 6 + 3 + i - 1]) < 1e-9)
      end
    end
    for i = 1, l do
      assert.is_true(math.abs(qs1[i] - (qs0[i] + dT * (ps0[i] - dt * sumq[i]))) < 1e-12)
      assert.is_true(math.abs(y1[6 + i] - (ps0[i] - dt * sump[i])) < 1e-10)
    end
  end)

  it("Table 1: (4.8) gives one left and one right rectangle rule for two (alpha, gamma) pairs each", function()
    local o = { p = 3, dT = 0.05, tol = 1e-13 }
    local function run(aV, gV, aW, gW) return (step(fpu, { alpha_V = aV, gamma_V = gV, alpha_W = aW, gamma_W = gW }, o, fpu.y0)) end
    local function same(a, b) for i = 1, #a do assert.is_true(math.abs(a[i] - b[i]) < 1e-12 * (1 + math.abs(a[i]))) end end
    same(run(1, 1, 1, 1), run(0, 0, 0, 0))           -- left rectangle
    same(run(1, 0, 1, 0), run(0, 1, 0, 1))           -- right rectangle (b1 = 1, c1 = 1; the printed b1 = 0 is a typo)
    same(run(0.2, 0.5, 0.9, 0.5), run(1, 0.5, 0, 0.5)) -- midpoint: alpha irrelevant
    local a, b = run(1, 1, 1, 1), run(1, 0, 1, 0)
    assert.is_true(math.abs(a[7] - b[7]) > 1e-6)      -- and left differs from right
  end)
end)

describe("vmi geometric properties #asan", function()
  it("the one-step map is symplectic (finite-difference Jacobian, to 1e-7)", function()
    local fpu = V.fpu()
    local n = 6
    for _, sch in ipairs { "MM", "TM", "TT", { alpha_V = 0.3, gamma_V = 0.8, alpha_W = 0.6, gamma_W = 0.1 } } do
      local o = { p = 3, dT = 0.1, tol = 1e-14 }
      local J, h = {}, 1e-5
      for j = 1, 2 * n do
        local yp, ym = {}, {}
        for i = 1, 2 * n do yp[i], ym[i] = fpu.y0[i], fpu.y0[i] end
        yp[j], ym[j] = yp[j] + h, ym[j] - h
        local a, b = step(fpu, sch, o, yp), step(fpu, sch, o, ym)
        for i = 1, 2 * n do J[i] = J[i] or {}; J[i][j] = (a[i] - b[i]) / (2 * h) end
      end
      local worst = 0
      for a = 1, 2 * n do
        for b = 1, 2 * n do -- (J^T Omega J)_{ab} with Omega = [0 I; -I 0]
          local s = 0
          for k = 1, n do s = s + J[k][a] * J[k + n][b] - J[k + n][a] * J[k][b] end
          local omega = (b == a + n and 1) or (a == b + n and -1) or 0
          worst = math.max(worst, math.abs(s - omega))
        end
      end
      assert.is_true(worst < 1e-7, "symplecticity defect " .. worst)
    end
  end)

  it("structured and dense solvers give the same step (spring ring, p = 7)", function()
    local ring = V.ring()
    -- Both solvers get the same Jacobian, so their agreement alone cannot catch a wrong one: also
    -- compare with the converged step (tol near round-off) and check that each takes the two
    -- iterations of a quadratically convergent Newton (residual ~3e-3, then ~2e-12 < tol).
    local c = step(ring, "MM", { p = 7, dT = 0.01, tol = 1e-13, max_iter = 10 }, ring.y0)
    for _, sch in ipairs { "MM", "TT" } do
      local a, _, ra = step(ring, sch, { p = 7, dT = 0.01, tol = 1e-10, solver = "structured", predictor = "drift" }, ring.y0)
      local b, _, rb = step(ring, sch, { p = 7, dT = 0.01, tol = 1e-10, solver = "dense", predictor = "drift" }, ring.y0)
      for i = 1, 36 do assert.is_true(math.abs(a[i] - b[i]) < 1e-11 * (1 + math.abs(a[i]))) end
      assert.are.equal(2, tonumber(ra.newton_iters), sch)
      assert.are.equal(2, tonumber(rb.newton_iters), sch)
      if sch == "MM" then
        for i = 1, 36 do assert.is_true(math.abs(a[i] - c[i]) < 1e-12 * (1 + math.abs(c[i])), i) end
      end
    end
  end)

  it("the structured solver's workspace grows linearly in p, the dense one quadratically", function()
    local function size(p, solver)
      local nw, ni = ffi.new("long long[1]"), ffi.new("long long[1]")
      kz.call("kz_arrow_work_size", p, 3, 3, solver, nw, ni, kz.report())
      return tonumber(nw[0])
    end
    for _, p in ipairs { 100, 1000 } do
      local rs = size(2 * p, C.KZ_VMI_STRUCTURED) / size(p, C.KZ_VMI_STRUCTURED)
      local rd = size(2 * p, C.KZ_VMI_DENSE) / size(p, C.KZ_VMI_DENSE)
      assert.is_true(math.abs(rs - 2) < 0.05 and math.abs(rd - 4) < 0.05, rs .. " " .. rd)
    end
  end)

  it("Lemma 5.1: the implemented schemes' propagation matrices equal the printed ones", function()
    for _, p in ipairs { 1, 3, 5, 10 } do
      for _, ws in ipairs { 0.3, 1.1, 2.5 } do
        local dT = ws / 1 -- omega_s = 1
        local dt, x = dT / p, (dT / p) ^ 2
        local a, b, c, d = V.propagation("MM", 1, dT, p)
        local den = 12 + 2 * x * p * p + x
        local pm = { (12 - 4 * x * p * p + x) / den, 12 * p * dt / den,
                     (-12 * dt * p + dt ^ 3 * p ^ 3 - dt ^ 3 * p) / den, (12 - 4 * x * p * p + x) / den }
        for i, v in ipairs { a, b, c, d } do assert.is_true(math.abs(v - pm[i]) < 1e-12, "mid " .. i) end
        assert.is_true(math.abs(a * d - b * c - 1) < 1e-12)
        for _, al in ipairs { 0, 0.5, 1 } do
          local s = { alpha_V = al, gamma_V = 1, alpha_W = 0.5, gamma_W = 0.5 }
          a, b, c, d = V.propagation(s, 1, dT, p)
          local D = x * (p * p - 1) / 6 + 1
          local A = x * (p * p / 3 + (al - 0.5) * p + 1 / 6) - 1
          local pt = { -A / D, dt * p / D, dt * A * (p / 2 - al + 0.5) / D - dt * (al + p / 2 - 0.5),
                       1 - x * p * (p / 2 - al + 0.5) / D }
          for i, v in ipairs { a, b, c, d } do assert.is_true(math.abs(v - pt[i]) < 1e-12, "trap " .. i) end
          assert.is_true(math.abs(a * d - b * c - 1) < 1e-12)
          assert.is_true(math.abs((a + d) - (-2 * (2 * x * p * p + x - 6) / (x * p * p - x + 6))) < 1e-12)
        end
      end
    end
  end)

  it("Lemma 5.1: stable just below 12p^2/(p^2+2) and 12p^2/(p^2-1), unstable just above", function()
    for _, p in ipairs { 1, 2, 3, 5, 10 } do
      for _, rule in ipairs { { "TMh", V.bound_trap }, { "MM", V.bound_mid } } do
        local B = rule[2](p)
        if B < math.huge then
          local lo = V.spectral_radius(V.propagation(rule[1], 1, 0.99 * math.sqrt(B), p))
          local hi = V.spectral_radius(V.propagation(rule[1], 1, 1.01 * math.sqrt(B), p))
          assert.is_true(math.abs(lo - 1) < 1e-12, rule[1] .. " p=" .. p .. " below: " .. lo)
          assert.is_true(hi > 1 + 1e-3, rule[1] .. " p=" .. p .. " above: " .. hi)
        else -- p = 1 midpoint: unconditionally stable
          assert.is_true(math.abs(V.spectral_radius(V.propagation(rule[1], 1, 100, p)) - 1) < 1e-12)
        end
      end
    end
  end)
end)

describe("vmi orders (Lemma 4.5, Table 2), FPU", function()
  local function orders(scheme, p)
    local rows = V.convergence("FPU", scheme, { p = { p }, dT = { 0.004, 0.002, 0.001, 0.0005 }, T = 0.5,
                                                href = 0.0005 / 10, sub = 5, tol = 1e-12 })
    return V.fit_order(rows, p, "q_mac", 4), V.fit_order(rows, p, "p_mac", 4), rows
  end
  it("midpoint-midpoint is second order, micro errors equal macro errors", function()
    local q, p, rows = orders("MM", 5)
    assert.is_true(math.abs(q - 2) < 0.1 and math.abs(p - 2) < 0.1, q .. " " .. p)
    local r = rows[#rows]
    assert.is_true(r.q_mic / r.q_mac > 0.8 and r.q_mic / r.q_mac < 1.25)
  end)
  it("left-rectangle TT is first order, the alpha = 1/2 trapezoid second order", function()
    local q, p = orders("TT", 10)
    assert.is_true(math.abs(q - 1) < 0.15 and math.abs(p - 1) < 0.15, q .. " " .. p)
    q, p = orders("TTh", 5)
    assert.is_true(math.abs(q - 2) < 0.15 and math.abs(p - 2) < 0.15, q .. " " .. p)
  end)
  it("refining only the micro grid saturates (error model (4.14)-(4.18)), refining both does not", function()
    local fpu = V.fpu()
    local ref = V.reference(fpu, 0.5 / 400, 400, 100)
    local function err(p, dT)
      local res = V.run(fpu, "MM", { p = p, dT = dT, T = 0.5, tol = 1e-12 })
      return V.errors(fpu, res, ref, 0.5 / 400).q_mac
    end
    local e80, e160, e320 = err(80, 0.05), err(160, 0.05), err(320, 0.05)
    assert.is_true(e160 / e80 > 0.9 and e320 / e160 > 0.9, string.format("%g %g %g", e80, e160, e320))
    local both = err(80, 0.025) / e80 -- both grids halved: second order, ratio ~ 1/4
    assert.is_true(both > 0.2 and both < 0.3, both)
  end)

  it("left-rectangle TM: q first order, p between one and two", function()
    local q, p = orders("TM", 5)
    assert.is_true(math.abs(q - 1) < 0.15, q)
    assert.is_true(p > 1 and p < 2, p)
  end)
end)

describe("vmi errors (6.1)-(6.2) in C (kz_vmi_errors) #asan", function()
  it("equal the node-by-node definition and refuse nodes off the reference grid", function()
    local fpu = V.fpu()
    local href, n = 1e-3, 100
    local ref = V.reference(fpu, href, n, 2)
    local res = V.run(fpu, "MM", { p = 4, dT = 0.02, N = 5, tol = 1e-12, micro = true })
    local e = V.errors(fpu, res, ref, href, n + 1)
    -- the definition, node by node
    local want = { q_mac = 0, p_mac = 0, q_mic = 0, p_mic = 0 }
    for k = 0, res.N do
      local y, z = res.row(k), ref + math.floor(k * 0.02 / href + 0.5) * 12
      local sq, sp = 0, 0
      for i = 0, 5 do sq = sq + (y[i] - z[i]) * (y[i] - z[i]); sp = sp + (y[6 + i] - z[6 + i]) * (y[6 + i] - z[6 + i]) end
      want.q_mac, want.p_mac = math.max(want.q_mac, math.sqrt(sq)), math.max(want.p_mac, math.sqrt(sp))
      for m = 1, (k < res.N) and 3 or 0 do
        local u, zz = res.micro + (k * 4 + m) * 6, ref + math.floor((k * 0.02 + m * 0.005) / href + 0.5) * 12
        local a, b = 0, 0
        for i = 0, 2 do a = a + (u[i] - zz[3 + i]) ^ 2; b = b + (u[3 + i] - zz[9 + i]) ^ 2 end
        want.q_mic, want.p_mic = math.max(want.q_mic, math.sqrt(a)), math.max(want.p_mic, math.sqrt(b))
      end
    end
    for k, v in pairs(want) do
      assert.is_true(v > 0 and math.abs(e[k] - v) <= 1e-14 * v, string.format("%s %.17g vs %.17g", k, e[k], v))
    end
    assert.is_true(e.qs > 0 and e.q_mac >= e.qs and e.q_mac >= e.qf and e.p_mac >= e.pf)
    -- off the grid (href = 3e-3 does not divide 0.005), or past the reference's last row
    assert.has_error(function() V.errors(fpu, res, ref, 3e-3, n + 1) end, "kz_vmi_errors: " ..
      ffi.string(C.kz_strerror(C.KZ_EGRID)) .. " (parameter 'href')")
    local ok, err = pcall(V.errors, fpu, res, ref, href, 50)
    assert.is_false(ok)
    assert.matches("'ref'", err)
  end)
end)

describe("vmi energies of a run in one call (kz_vmi_energies) #asan", function()
  it("equal kz_vmi_energy node by node, bit for bit; bad arguments named", function()
    local ring = V.ring()
    local res = V.run(ring, "MM", { p = 3, dT = 0.01, N = 7, tol = 1e-10 })
    local e = kz.vec(3 * 8)
    kz.call("kz_vmi_energies", ring.model, 8, res.out, e, kz.report())
    for k = 0, 7 do
      local a, b, c = V.energy(ring, res.row(k))
      assert.is_true(e[3 * k] == a and e[3 * k + 1] == b and e[3 * k + 2] == c, "node " .. k)
    end
    assert.are.equal(C.KZ_EDOMAIN, C.kz_vmi_energies(ring.model, -1, res.out, e, nil))
    assert.are.equal(C.KZ_ENULL, C.kz_vmi_energies(ring.model, 2, nil, e, nil))
  end)
end)
