-- ensemble_spec.lua -- ensembles (lib/methods/kz_ens.c, lib/models/kz_pendulum_ens.c, lib/lua/kapitza/ensemble.lua): every
-- member equals its own scalar run (direct RK4 and Verlet, the HMM of both pendulums, SAM), on
-- one thread and on several; a member that blows up is flagged and the others go on; bad input
-- is refused naming the parameter.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local ens = require "kapitza.ensemble"

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

-- What each part of the ensembles guarantees, one property at a time (issue 28, item 5): written
-- against one-token mutants of kz_ens.c, kz_ens_models.c (scripts/mutate.lua).
describe("ensembles: every parameter, every chunk, every failure #asan", function()
  local um = require "kapitza.usermodel"
  local M = 150 -- three chunks: members 1-56, 57-104, 105-150
  local ls, gs, amps, oms, th0, q0s = {}, {}, {}, {}, {}, {}
  for m = 1, M do
    ls[m], gs[m], amps[m] = 0.15 + 0.001 * m, 9.5 + 0.004 * m, 0.4 + 0.03 * m
    oms[m], th0[m], q0s[m] = 40 + 0.7 * m, 0.01 * (m % 13), 0.05 + 0.004 * m
  end
  local function chunk_end(k) -- the last member (1-based) of chunk k (0-based)
    local m0 = ffi.new("long long[1]")
    local n = C.kz_ens_chunk(M, k, m0)
    return tonumber(m0[0]) + n
  end
  local function pick() -- members to compare: both ends of every chunk and some between
    local t = { 1, 2, chunk_end(0), chunk_end(0) + 1, chunk_end(1), chunk_end(1) + 1, M - 1, M }
    for m = 5, M, 17 do t[#t + 1] = m end
    return t
  end

  it("the vibrated pendulum: l, g, vmax, omega and theta0 each varied per member, direct and SAM", function()
    assert.are.equal(56, chunk_end(0))
    local e = ens.pendulum { l = ls, g = gs, vmax = amps, omega = oms, theta0 = th0 }
    local q, v = ens.run(e, { h = 1e-4, n = 400, q0 = q0s, v0 = 0.2, threads = 2 })
    for _, m in ipairs(pick()) do
      local s = models.pendulum { l = ls[m], g = gs[m], vmax = amps[m], omega = oms[m], theta0 = th0[m] }
      local y = kz.vec(2, { q0s[m], 0.2 })
      kz.call("kz_run", kz.stepper("rk4"), s.sys, 0, 1e-4, 400, y, kz.report())
      agree(q[m], y[0], "q member " .. m)
      agree(v[m], y[1], "v member " .. m)
    end
    local es = ens.pendulum { l = ls, g = gs, vmax = amps, omega = 60, theta0 = th0 }
    local ys = ens.sam(es, { n = 16, period = 2 * math.pi / 60, H = 0.05, tout = { 0.1 }, q0 = q0s, v0 = 0.1, threads = 3 })
    for _, m in ipairs(pick()) do
      local mi = sam.micro(models.pendulum { l = ls[m], g = gs[m], vmax = amps[m], omega = 60, theta0 = th0[m] }, "rk4")
      local ss = sam.sam(mi, { n = 16, period = 2 * math.pi / 60, H = 0.05, tout = { 0.1 }, y0 = { q0s[m], 0.1 } })
      agree(ys[1][1][m], ss[1][1], "SAM q member " .. m)
      agree(ys[1][2][m], ss[1][2], "SAM v member " .. m)
    end
  end)

  it("the vibrated pendulum's HMM: l, g, vmax varied, one omega and a theta0 that is not 0", function()
    local e = ens.pendulum { l = ls, g = gs, vmax = amps, omega = 1e4, theta0 = 0.7 }
    assert.is_true(e.phase)
    assert.are.equal(1e4, e.c.omega)
    assert.are.equal(0.7, e.c.theta0)
    local o = { preset = "cs1", kernel = "exp2", H = 1 / 20, T = 0.25, eta = 4 * 2 * math.pi / 1e4,
                h = 2 * math.pi / 1e4 / 16, micro = "rk4", recon = "model" }
    local Q, P, failed = ens.hmm(e, with(o, { Q0 = q0s, P0 = 0.1, threads = 2 }))
    for _, m in ipairs { 1, 56, 57, 104, 105, 150 } do
      local s = models.pendulum { l = ls[m], g = gs[m], vmax = amps[m], omega = 1e4, theta0 = 0.7 }
      local Qs, Ps = hmm.run(s, with(o, { Q0 = q0s[m], P0 = 0.1 }))
      assert.are.equal(0, failed[m])
      agree(Q[#Q][m], Qs[#Qs], "HMM Q member " .. m)
      agree(P[#P][m], Ps[#Ps], "HMM P member " .. m)
    end
  end)

  it("the inverted pendulum: eps, g and l each varied per member (direct); g, l with one eps (HMM, SAM)", function()
    local eps = {}
    for m = 1, M do eps[m] = 1e-3 * (1 + 0.002 * m) end
    local e = ens.ste { eps = eps, g = gs, l = ls }
    assert.is_false(e.phase)
    local q, v = ens.run(e, { stepper = "verlet", h = 2e-5, n = 300, q0 = q0s, v0 = 0.1 })
    for _, m in ipairs(pick()) do
      local s = models.ste { eps = eps[m], g = gs[m], l = ls[m] }
      local y = kz.vec(2, { q0s[m], 0.1 })
      kz.call("kz_run", kz.stepper("verlet"), s.sys, 0, 2e-5, 300, y, kz.report())
      agree(q[m], y[0], "ste q member " .. m)
      agree(v[m], y[1], "ste v member " .. m)
    end
    local e1 = ens.ste { eps = 1e-3, g = gs, l = ls }
    assert.is_true(e1.phase)
    assert.is_true(math.abs(e1.c.omega - 2 * math.pi / 1e-3) < 1e-9)
    local o = { preset = "ste", kernel = "cosine", H = 0.05, T = 0.2, eta = 4e-3, h = 1e-3 / 32, micro = "verlet" }
    local Q, P = ens.hmm(e1, with(o, { Q0 = q0s, P0 = 0.1 }))
    local ys = ens.sam(e1, { n = 32, period = 1e-3, H = 0.01, tout = { 0.02 }, q0 = q0s, v0 = 0 })
    for _, m in ipairs { 1, 56, 57, 150 } do
      local s = models.ste { eps = 1e-3, g = gs[m], l = ls[m] }
      local Qs, Ps = hmm.run(s, with(o, { Q0 = q0s[m], P0 = 0.1 }))
      agree(Q[#Q][m], Qs[#Qs], "ste HMM Q member " .. m)
      agree(P[#P][m], Ps[#Ps], "ste HMM P member " .. m)
      local ss = sam.sam(sam.micro(s, "rk4"), { n = 32, period = 1e-3, H = 0.01, tout = { 0.02 }, y0 = { q0s[m], 0 } })
      agree(ys[1][1][m], ss[1][1], "ste SAM q member " .. m)
    end
  end)

  it("one omega with different theta0 (or one theta0 with different omegas) is not one shared phase", function()
    local e = ens.pendulum { l = 0.2, g = 9.8, vmax = 1, omega = 50, theta0 = { 0, 0.1 } }
    assert.is_false(e.phase)
    assert.is_true(e.c.phase_accel == nil and e.c.reconstruct == nil)
    local ok, err = pcall(ens.hmm, e, { H = 0.1, T = 1, Q0 = 0.1 })
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("one shared phase", 1, true))
    local p = hmm.params { preset = "cs1", kernel = "exp2", H = 0.1, T = 0.2, eta = 0.2, h = 0.01 }
    local r = kz.report()
    assert.are.equal(C.KZ_EMODEL, C.kz_ens_hmm_run(e.c, p, kz.vec(4), kz.vec(12), 3, ffi.new("int[2]"), nil, 0, nil, r))
    assert.are.equal("phase_accel", ffi.string(r.param))
    -- SAM with no output time is refused
    local sp, mac = ffi.new("kz_sam_params"), ffi.new("kz_macro")
    sp.period, sp.n = 1, 8
    mac.kind, mac.type, mac.H = C.KZ_MACRO_FIXED, kz.stepper("rk4"), 0.1
    assert.are.equal(C.KZ_EDOMAIN, C.kz_ens_sam_run(kz.stepper("rk4"), e.c, sp, mac, kz.vec(4), 0, kz.vec(1), kz.vec(4),
                                                    ffi.new("int[2]"), nil, 0, nil, r))
    assert.are.equal("nout", ffi.string(r.param))
    assert.is_false(ens.pendulum { l = 0.2, g = 9.8, vmax = 1, omega = { 50, 51 }, theta0 = 0.3 }.phase)
    assert.is_false(ens.pendulum { l = 0.2, g = 9.8, vmax = 1, omega = { 50, 50, 51 } }.phase)
    assert.is_true(ens.pendulum { l = 0.2, g = 9.8, vmax = { 1, 2 }, omega = 50, theta0 = 0.3 }.phase)
    assert.is_false(ens.ste { eps = { 1e-3, 2e-3 }, g = 1, l = 1 }.phase)
  end)

  it("a member whose velocity, not its position, starts non-finite or beyond the bound: flag 1, the others bit-identical", function()
    local e = ens.pendulum { l = ls, g = gs, vmax = amps, omega = oms, theta0 = th0 }
    local function run(vbad, bound, th)
      e.c.bound = bound or 0
      local y = kz.vec(2 * M)
      for m = 0, M - 1 do y[m], y[M + m] = q0s[m + 1], 0.1 end
      for m, v in pairs(vbad) do y[M + m - 1] = v end
      local f = ffi.new("int[?]", M)
      kz.call("kz_ens_run", kz.stepper("rk4"), e.c, 0, 1e-4, 100, y, f, nil, 0, ens.pool(th or 1), kz.report())
      e.c.bound = 0
      return y, f
    end
    local y0, f0 = run({})
    local y1, f1 = run({ [56] = 0 / 0, [150] = 1e101, [57] = 1 / 0 }, nil, 3)
    local y2, f2 = run({ [104] = 2e5 }, 1e5) -- a bound of 1e5: the velocity beyond it, the position within
    for m = 1, M do
      local bad1 = m == 56 or m == 150 or m == 57
      assert.are.equal(bad1 and 1 or 0, f1[m - 1], "member " .. m)
      assert.are.equal(m == 104 and 1 or 0, f2[m - 1], "member " .. m)
      assert.are.equal(0, f0[m - 1])
      for i = 0, 1 do
        local k = i * M + m - 1
        if bad1 then assert.is_true(y1[k] ~= y1[k]) else assert.are.equal(y0[k], y1[k]) end
        if m == 104 then assert.is_true(y2[k] ~= y2[k]) end
      end
    end
  end)

  it("a member that fails alone at the end of a chunk, in its last component: the others bit-identical", function()
    -- a first-order model whose third component grows at rate c: past the bound at once (c beyond
    -- it: its force) or later (its state)
    local spec = { name = "ens_grow3", dim = 3, params = { "c" }, c = { rhs = "f", source = [[
static int f(const kz_par *p, double t, const double *y, double *d)
{
  d[0] = -y[1] + 0.1 * sin(t);
  d[1] = y[0];
  d[2] = p->c;
  return KZ_OK;
}]] } }
    local function run(cs, every, th)
      local e = ens.user(spec, { c = cs })
      e.c.bound = 100
      local cols, _, failed, _, ob = ens.run(e, { h = 1e-2, n = 300, y0 = { 1, 0, 0 }, threads = th,
        observe = every and { every = every, max = { "y1", "y3" }, sample = { "y3", every = every } } or nil })
      return cols, failed, ob
    end
    local cs, bad = {}, {}
    for m = 1, M do cs[m] = 0.01 * m end
    for m = 1, M do bad[m] = cs[m] end
    bad[56], bad[104], bad[150] = 150, 50, 40 -- at once; y3 = 100 at t = 2; at t = 2.5
    for _, every in ipairs { false, 7 } do
      local c0, f0, o0 = run(cs, every or nil, 1)
      local c1, f1, o1 = run(bad, every or nil, 3)
      for m = 1, M do
        local want = (m == 56 or m == 104 or m == 150) and 2 or 0
        assert.are.equal(want, f1[m], "member " .. m)
        assert.are.equal(0, f0[m])
        for i = 1, 3 do
          if want == 2 then assert.is_true(c1[i][m] ~= c1[i][m]) else assert.are.equal(c0[i][m], c1[i][m]) end
        end
        if every then
          if want == 2 then assert.is_true(o1.max.y1[m] ~= o1.max.y1[m]) else assert.are.equal(o0.max.y1[m], o1.max.y1[m]) end
        end
      end
      if every then
        -- the samples of the member that left the bound at t = 2: finite before, NaN from the first check after
        local s = o1.sample.y3
        for j, t in ipairs(o1.sample.t) do
          if t < 1.99 then assert.is_true(s[j][104] == s[j][104], "t " .. t) end
          if t > 2.01 then assert.is_true(s[j][104] ~= s[j][104], "t " .. t) end
        end
      end
    end
  end)

  it("a member stopped by an observer stays at the state where it crossed; the others are untouched", function()
    local e = ens.pendulum { l = ls, g = gs, vmax = amps, omega = oms, theta0 = th0 }
    local h, n, every = 2e-4, 700, 7
    local o = { h = h, n = n, q0 = q0s, v0 = 0, threads = 2 }
    local q0, v0 = ens.run(e, o)
    local q, v, failed, w, ob = ens.run(e, with(o, { observe = { every = every, sample = true, final = "hamiltonian",
      cross = { "q", level = 0.45, abs = true, stop = true } } }))
    assert.are.equal(4 * n, w.force_evals) -- a chunk ran to the end
    local stopped = 0
    for m = 1, M do
      if failed[m] == 3 then
        stopped = stopped + 1
        local tc = ob.cross.q[m]
        local j = math.floor(tc / (every * h) + 0.5) -- the check it stopped at
        assert.are.equal(ob.sample.q[j + 1][m], q[m])
        assert.are.equal(ob.sample.v[j + 1][m], v[m])
        assert.is_true(math.abs(q[m]) >= 0.45)
        if j > 0 then assert.is_true(math.abs(ob.sample.q[j][m]) < 0.45) end
        for jj = j + 1, #ob.sample.t do assert.are.equal(q[m], ob.sample.q[jj][m]) end
        -- that state is the scalar run's at that check; the invariant is taken there
        local s = models.pendulum { l = ls[m], g = gs[m], vmax = amps[m], omega = oms[m], theta0 = th0[m] }
        local y = kz.vec(2, { q0s[m], 0 })
        kz.call("kz_run", kz.stepper("rk4"), s.sys, 0, h, j * every, y, kz.report())
        agree(q[m], y[0], "stopped q member " .. m)
        agree(v[m], y[1], "stopped v member " .. m)
        local H = 0.5 * v[m] ^ 2 + (gs[m] + amps[m] * oms[m] * math.cos(oms[m] * tc + th0[m])) * math.cos(q[m]) / ls[m]
        agree(ob.final.hamiltonian[m], H, "H at the stop, member " .. m)
      else
        assert.are.equal(0, failed[m])
        assert.are.equal(q0[m], q[m])
        assert.are.equal(v0[m], v[m])
      end
    end
    assert.is_true(stopped >= 10 and stopped <= M - 10, "stopped " .. stopped)
    -- every member of a chunk stopped: the chunk takes no more steps (counts of the busiest chunk)
    local _, _, f2, w2 = ens.run(e, with(o, { observe = { cross = { "q", level = 0.01, abs = true, stop = true } } }))
    assert.are.equal(0, w2.force_evals)
    for m = 1, M do assert.are.equal(3, f2[m]) end
  end)

  it("a model error of one member reaches the call's status, at exactly the step where it happened", function()
    local spec = { name = "ens_fails_at", nq = 1, params = { "c", "qmax" }, c = { accel = "force", source = [[
static int force(const kz_par *p, double t, const double *q, double *a)
{
  if (q[0] > p->qmax) return KZ_EDOMAIN;
  a[0] = p->c + 0.5 * sin(3 * t) * q[0];
  return KZ_OK;
}]] } }
    local cs, qmax = {}, {}
    for m = 1, M do cs[m], qmax[m] = 1 + 0.01 * m, 1e9 end
    qmax[56], qmax[120] = 0.3, 0.05 -- member 120 (chunk 2) fails first in time; chunk 0's is reported
    local e = ens.user(spec, { c = cs, qmax = qmax })
    local s = um.model(spec, { c = cs[56], qmax = 0.3 }, "c", { probe = false })
    local ys, rs = kz.vec(2, { 0, 0 }), kz.report()
    assert.are.equal(C.KZ_EDOMAIN, C.kz_run(kz.stepper("rk4"), s.sys, 0, 1e-3, 2000, ys, rs))
    local step, time = tonumber(rs.fail_step), rs.fail_time
    assert.is_true(step > 100 and step < 2000, tostring(step))
    for _, every in ipairs { 0, 7, 1000 } do
      for _, th in ipairs { 1, 2, 3 } do
        local y, f, r = kz.vec(2 * M), ffi.new("int[?]", M), kz.report()
        local o, no = nil, 0
        if every > 0 then
          o = ffi.new("kz_obs[1]")
          o[0].kind, o[0].comp, o[0].every, o[0].out, o[0].nout = C.KZ_OBS_MAX, 0, every, kz.vec(M), M
          no = 1
        end
        local st = C.kz_ens_run(kz.stepper("rk4"), e.c, 0, 1e-3, 2000, y, f, o, no, ens.pool(th), r)
        assert.are.equal(C.KZ_EDOMAIN, st)
        assert.are.equal("accel", ffi.string(r.param))
        assert.are.equal(step, tonumber(r.fail_step), "every " .. every .. ", threads " .. th)
        assert.are.equal(time, r.fail_time)
        for k = 0, 2 * M - 1 do assert.are.equal(0, y[k]) end -- the states as they were
      end
    end
    local ok, err = pcall(ens.run, e, { h = 1e-3, n = 2000, q0 = 0 })
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("accel", 1, true), tostring(err))
  end)

  it("the slow-variable ensemble flags a member that fails (2) apart from one that starts bad (1)", function()
    local top = models.top {}
    local x0s = {}
    for m = 1, 5 do x0s[m] = top.x0(1e3, 1e-3 * m, 0.2 + 0.01 * m) end
    local n, d = 5, 6
    local X0 = kz.vec(n * d)
    for m = 1, n do for i = 1, d do X0[(i - 1) * n + m - 1] = x0s[m][i] end end
    X0[2 * n + 1] = 1e200 -- member 2 (its third component) overflows during the run
    X0[5 * n + 3] = 0 / 0 -- member 4 (its last component) starts not finite
    local p = hmm.slow_params { H = 0.01 / 40, T = 0.01 / 8, eta = 1e-4, h = 1e-5 }
    local out, f, r = kz.vec(6 * d * n), ffi.new("int[5]"), kz.report()
    local o = ffi.new("kz_obs[1]") -- one observer: the largest |x_1| over the rows
    o[0].kind, o[0].comp, o[0].every, o[0].out, o[0].nout = C.KZ_OBS_MAX, 0, 1, kz.vec(n), n
    kz.call("kz_ens_slow_run", top.vib, top.slow["32"], p, n, X0, out, 6, f, o, 1, ens.pool(2), r)
    assert.are.same({ 0, 2, 0, 1, 0 }, { f[0], f[1], f[2], f[3], f[4] })
    for row = 0, 5 do
      assert.is_true(out[(row * d + 2) * n + 1] ~= out[(row * d + 2) * n + 1])
      assert.is_true(out[(row * d + 2) * n + 2] == out[(row * d + 2) * n + 2])
    end
    -- the counts per member and the observer are the scalar run's
    local xs, _, cs = hmm.slow_run(top, { set = "32", H = 0.01 / 40, T = 0.01 / 8, eta = 1e-4, h = 1e-5, x0 = x0s[3] })
    for _, k in ipairs { "micro_steps", "force_evals", "macro_steps", "jac_evals" } do
      assert.are.equal(cs[k], tonumber(r[k]), k)
    end
    local mx = 0
    for j = 1, 6 do mx = math.max(mx, math.abs(xs[1][j])) end
    assert.are.equal(mx, o[0].out[2])
    assert.is_true(o[0].out[1] ~= o[0].out[1] and o[0].out[3] ~= o[0].out[3]) -- failed: NaN
    -- no member, or a set-up error that fails every member, is the call's error
    local r0 = kz.report()
    assert.are.equal(C.KZ_EDOMAIN, C.kz_ens_slow_run(top.vib, top.slow["32"], p, 0, X0, out, 6, f, nil, 0, nil, r0))
    assert.are.equal("M", ffi.string(r0.param))
    local bad = hmm.slow_params { H = 0.01 / 40, T = 0.01 / 8, eta = 1e-4, h = 3e-5 } -- (eta/2)/h not whole
    local rb = kz.report()
    local st = C.kz_ens_slow_run(top.vib, top.slow["32"], bad, n, X0, out, 6, f, nil, 0, nil, rb)
    assert.are.equal(C.KZ_EGRID, st)
    assert.is_truthy(rb.param ~= nil)
  end)

  it("pieces between checks keep one run's clock and force chain: observers change no bit, nor the counts", function()
    local e = ens.pendulum { l = ls, g = gs, vmax = amps, omega = oms, theta0 = th0 }
    for _, st in ipairs { "rk4", "verlet", "dp5", "leapfrog" } do
      local o = { stepper = st, h = 1e-4, n = 301, q0 = q0s, v0 = 0.3, t = 0.25 }
      local q0, v0, _, w0 = ens.run(e, o)
      local q1, v1, _, w1, ob = ens.run(e, with(o, { observe = { every = 7, max = "q", sample = { "q", every = 43 } } }))
      assert.are.equal(w0.force_evals, w1.force_evals, st)
      assert.are.equal(301 * tonumber(kz.steppers[st].evals) + (tonumber(kz.steppers[st].fsal) ~= 0 and 1 or 0), w1.force_evals)
      for m = 1, M do
        assert.are.equal(q0[m], q1[m], st .. " member " .. m)
        assert.are.equal(v0[m], v1[m], st .. " member " .. m)
      end
      assert.are.equal(8, #ob.sample.t)
      assert.are.equal(0.25 + 301 * 1e-4 - 301 % 43 * 1e-4, ob.sample.t[8])
    end
  end)
end)

describe("ensembles: the edges of the bound and of the parameters #asan", function()
  it("a force or a state equal to the bound is within it; just beyond, the member is flagged", function()
    local spec = { name = "ens_grow3", dim = 3, params = { "c" }, c = { rhs = "f", source = [[
static int f(const kz_par *p, double t, const double *y, double *d)
{
  d[0] = -y[1] + 0.1 * sin(t);
  d[1] = y[0];
  d[2] = p->c;
  return KZ_OK;
}]] } }
    local cs, y3 = {}, {}
    for m = 1, 70 do cs[m], y3[m] = 0.01 * m, 0 end
    cs[10] = 100                     -- its force is the bound: fine (its y3 stays below it)
    cs[20], y3[20] = 0, 100          -- its state is the bound: fine
    cs[30] = 100 * (1 + 2 ^ -40)     -- just beyond: 2 (and the guard's slow path runs for all)
    y3[40] = 100 * (1 + 2 ^ -40)     -- starts just beyond: 1
    cs[64] = 100                     -- in the second chunk, the same as member 10
    local e = ens.user(spec, { c = cs })
    e.c.bound = 100
    local cols, _, failed = ens.run(e, { h = 1e-2, n = 50, y0 = { 1, 0, y3 }, threads = 2 })
    for m = 1, 70 do
      assert.are.equal((m == 30 and 2) or (m == 40 and 1) or 0, failed[m], "member " .. m)
    end
    assert.are.equal(100, cols[3][20])
    agree(cols[3][10], 50, "y3 of member 10")
  end)

  it("the pendulums take every finite g, vmax and theta0 (zero and negative too) and refuse l, omega, eps <= 0", function()
    local g, vm, th = { 0, -9.8, 9.8, 1 }, { 1, 0, 2, -1 }, { 0.3, -0.5, 0, 2 }
    local e = ens.pendulum { l = 0.3, g = g, vmax = vm, omega = 30, theta0 = th }
    local q, v = ens.run(e, { h = 1e-3, n = 200, q0 = 0.2 })
    for m = 1, 4 do
      local s = models.pendulum { l = 0.3, g = g[m], vmax = vm[m], omega = 30, theta0 = th[m] }
      local y = kz.vec(2, { 0.2, 0 })
      kz.call("kz_run", kz.stepper("rk4"), s.sys, 0, 1e-3, 200, y, kz.report())
      agree(q[m], y[0], "q member " .. m)
      agree(v[m], y[1], "v member " .. m)
    end
    local es = ens.ste { eps = 1e-2, g = { 0, -1 }, l = 1 }
    assert.are.equal(2, es.M)
    for _, bad in ipairs { { "l", { l = 0, g = 9.8, vmax = 1, omega = 3 } }, { "omega", { l = 1, g = 9.8, vmax = 1, omega = 0 } } } do
      local ok, err = pcall(ens.pendulum, bad[2])
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find("'" .. bad[1] .. "'", 1, true), tostring(err))
    end
    for _, bad in ipairs { { "eps", { eps = 0, g = 1, l = 1 } }, { "l", { eps = 1, g = 1, l = 0 } } } do
      local ok, err = pcall(ens.ste, bad[2])
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find("'" .. bad[1] .. "'", 1, true), tostring(err))
    end
  end)

  it("the inverted pendulum's Hamiltonian at the end equals the formula on each member's scalar state", function()
    local eps, gs, ls = {}, {}, {}
    for m = 1, 70 do eps[m], gs[m], ls[m] = 1e-2 * (1 + 0.01 * m), 0.5 + 0.01 * m, 0.8 + 0.003 * m end
    local e = ens.ste { eps = eps, g = gs, l = ls }
    local T = 0.0137
    local q, v, _, _, ob = ens.run(e, { h = T / 100, n = 100, q0 = 0.3, v0 = 0.1, observe = { final = "hamiltonian" } })
    for _, m in ipairs { 1, 2, 35, 64, 65, 70 } do
      local s = models.ste { eps = eps[m], g = gs[m], l = ls[m] }
      local y = kz.vec(2, { 0.3, 0.1 })
      kz.call("kz_run", kz.stepper("rk4"), s.sys, 0, T / 100, 100, y, kz.report())
      agree(q[m], y[0], "q member " .. m)
      local c = 100 * (T / 100) / eps[m]
      local H = 0.5 * y[1] ^ 2 + (gs[m] + math.sin(2 * math.pi * (c - math.floor(c))) / eps[m]) * math.cos(y[0]) / ls[m]
      agree(ob.final.hamiltonian[m], H, "H member " .. m)
    end
  end)
end)

describe("ensembles: a frozen first-order member under SAM #asan", function()
  it("blows up in its last component: flagged, frozen (every component of its force), the call and the others go on", function()
    local um = require "kapitza.usermodel"
    local spec = { name = "ens_blowup2", dim = 2, params = { "c" }, c = { rhs = "f", source = [[
static int f(const kz_par *p, double t, const double *y, double *d)
{
  d[0] = y[1];
  d[1] = -y[0] + 0.1 * cos(6.283185307179586 * t) + p->c * y[1] * fabs(y[1]);
  return KZ_OK;
}]] } }
    local cs = {}
    for m = 1, 70 do cs[m] = 0 end
    cs[56] = 1e3 -- the last member of the first chunk blows up within the first period
    local e = ens.user(spec, { c = cs })
    local tout = { 0.5, 1 }
    local ys, failed = ens.sam(e, { n = 16, period = 1, H = 0.25, tout = tout, y0 = { 1, 1 }, threads = 2 })
    local s = um.model(spec, { c = 0 }, "c")
    local ss = sam.sam(sam.micro(s, "rk4"), { n = 16, period = 1, H = 0.25, tout = tout, y0 = { 1, 1 } })
    for m = 1, 70 do
      assert.are.equal(m == 56 and 2 or 0, failed[m], "member " .. m)
      if m ~= 56 then
        agree(ys[2][1][m], ss[2][1], "y1 member " .. m)
        agree(ys[2][2][m], ss[2][2], "y2 member " .. m)
      else
        assert.is_true(ys[2][2][m] ~= ys[2][2][m])
      end
    end
  end)
end)

describe("ensembles: where frozen members are parked #asan", function()
  it("a member that starts bad at the origin, a stopped one where it stopped, at rest: the model is fine there", function()
    -- a model that refuses q > qmax: an ensemble call fails if it is evaluated beyond
    local spec = { name = "ens_fails_at", nq = 1, params = { "c", "qmax" }, c = { accel = "force", source = [[
static int force(const kz_par *p, double t, const double *q, double *a)
{
  if (q[0] > p->qmax) return KZ_EDOMAIN;
  a[0] = p->c + 0.5 * sin(3 * t) * q[0];
  return KZ_OK;
}]] } }
    local M = 70
    local cs, qmax, q0, v0 = {}, {}, {}, {}
    for m = 1, M do cs[m], qmax[m], q0[m], v0[m] = 1, 1e9, 0, 0 end
    q0[3], qmax[3] = 0.3, 0.05           -- starts bad (its velocity): parked at the origin
    q0[60], v0[60], qmax[60] = 0.5, 5, 0.51 -- stops at the start, moving: parked at rest
    qmax[64] = 0.31                     -- stops when q >= 0.3 during the run, then parked
    local e = ens.user(spec, { c = cs, qmax = qmax })
    local y, f, r = kz.vec(2 * M), ffi.new("int[?]", M), kz.report()
    for m = 1, M do y[m - 1], y[M + m - 1] = q0[m], v0[m] end
    y[M + 2] = 0 / 0
    local stop = ffi.new("kz_obs[1]")
    stop[0].kind, stop[0].comp, stop[0].every, stop[0].level, stop[0].stop = C.KZ_OBS_CROSS, 0, 1, 0.3, 1
    stop[0].out, stop[0].nout = kz.vec(M), M
    kz.call("kz_ens_run", kz.stepper("verlet"), e.c, 0, 1e-3, 1000, y, f, stop, 1, ens.pool(2), r)
    assert.are.equal(1, f[2])
    assert.are.equal(3, f[59])
    assert.are.equal(0.5, y[59])
    assert.are.equal(5, y[M + 59])          -- its state as it was when it stopped (at the start)
    assert.are.equal(3, f[63])
    assert.is_true(y[63] >= 0.3 and y[63] < 0.31)
    -- SAM too parks the member that starts bad at the origin (the fast period 1, no stop)
    local y0 = kz.vec(2 * M)
    for m = 1, M do y0[m - 1], y0[M + m - 1] = 0, 0 end
    y0[2], y0[M + 2] = 0.3, 0 / 0
    local p = ffi.new("kz_sam_params")
    p.period, p.n, p.diff = 1, 8, C.KZ_SAM_CENTRAL2
    local mac = ffi.new("kz_macro")
    mac.kind, mac.type, mac.H = C.KZ_MACRO_FIXED, kz.stepper("rk4"), 0.02
    local fs, qm = ffi.new("int[?]", M), {}
    for m = 1, M do qm[m] = m == 3 and 0.05 or 1e9 end
    local es = ens.user(spec, { c = cs, qmax = qm })
    kz.call("kz_ens_sam_run", kz.stepper("rk4"), es.c, p, mac, y0, 1, kz.vec(1, { 0.04 }), kz.vec(2 * M), fs, nil, 0, nil, kz.report())
    assert.are.equal(1, fs[2])
    -- a bound below 1 is a bound too; one that is not a number >= 0, or no member at all, is refused
    local eb = ens.user(spec, { c = { 1, 1, 1 }, qmax = 1e9 })
    eb.c.bound = 0.5
    local qb, _, fb = ens.run(eb, { stepper = "rk4", h = 1e-3, n = 10, q0 = { 0, 0.6, 0 } })
    assert.are.same({ 2, 1, 2 }, fb) -- their force (1) is beyond it at once; 0.6 from the start
    assert.is_true(qb[1] ~= qb[1])
    eb.c.M = 0
    local r0 = kz.report()
    assert.are.equal(C.KZ_EDOMAIN, C.kz_ens_run(kz.stepper("rk4"), eb.c, 0, 1e-3, 1, kz.vec(6), ffi.new("int[3]"), nil, 0, nil, r0))
    assert.are.equal("M", ffi.string(r0.param))
    for _, b in ipairs { -1, 0 / 0 } do
      e.c.bound = b
      local r2 = kz.report()
      assert.are.equal(C.KZ_EDOMAIN, C.kz_ens_run(kz.stepper("rk4"), e.c, 0, 1e-3, 1, kz.vec(2 * M), ffi.new("int[?]", M), nil, 0, nil, r2))
      assert.are.equal("bound", ffi.string(r2.param))
    end
  end)
end)
