-- papers_models_spec.lua -- the papers' models written as model files (lib/models/*.lua, the path a
-- user's model takes, built by lib/lua/kapitza/models.lua) against the built-in C constructors they replace
-- (lib/lua/kapitza/models_c.lua): a short run of every method family each model has, side by side, results
-- equal to the last bit (compared as bit patterns, so that a NaN or the sign of a zero counts),
-- and the work counts equal (Newton iterations included: Kepler's flows count theirs through
-- kz_iteration()).
local kz = require "kapitza"
local ffi = kz.ffi
local models = require "kapitza.models"
local builtin = require "kapitza.models_c"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local vmi = require "kapitza.vmi"

local twopi = 2 * math.pi

local function bits(x)
  local d = ffi.new("double[1]", x)
  return ffi.cast("uint64_t *", d)[0]
end

-- a and b (numbers, Lua arrays or n numbers behind pointers) equal bit for bit
local function same(a, b, what, n)
  if type(a) == "number" then a, b = { a }, { b } end
  local base = n and 0 or 1
  n = n or #a
  assert.are.equal(n, n and n or #b)
  for i = base, base + n - 1 do
    if bits(a[i]) ~= bits(b[i]) then
      error(string.format("%s: entry %d differs: %.17g (model file) vs %.17g (built-in)", what, i, a[i], b[i]), 2)
    end
  end
end

local function same_counts(a, b, what)
  for _, k in ipairs { "force_evals", "micro_steps", "macro_steps", "newton_iters", "jac_evals" } do
    assert.are.equal(b[k], a[k], what .. ": " .. k)
  end
end

-- registry steppers on sys of both (time form)
local function steppers(mf, mb, names, h, N, y0, what)
  for _, s in ipairs(names) do
    local ya, ca = kz.run(mf.sys, s, 0, h, N, y0)
    local yb, cb = kz.run(mb.sys, s, 0, h, N, y0)
    same(ya, yb, what .. " " .. s)
    same_counts(ca, cb, what .. " " .. s)
  end
end

describe("the papers' models as model files give the built-in numbers bit for bit", function()
  it("marks them as the library's and builds them from lib/models/", function()
    local m = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e3 }
    assert.are.equal(models.path("pendulum"), m.library)
    assert.are.equal("c", m.how)
    for _, name in ipairs { "pendulum", "ste", "kepler", "vdp", "dpend", "top", "fpu", "ring" } do
      assert.are.equal(name, models.spec(name).name)
    end
  end)

  it("pendulum (Calvo & Sanz-Serna (2.2), (2.9), (2.7), (2.5)): steppers, HMM Algorithms 1-2, SAM, the averaged force", function()
    local v = { l = 0.2, g = 9.8, vmax = 4, omega = 1e3, theta0 = 0.3 }
    local mf, mb = models.pendulum(v), builtin.pendulum(v)
    steppers(mf, mb, { "rk4", "verlet", "dp5", "leapfrog", "symeuler" }, 1e-5, 2000, { 0.5, 0.1 }, "pendulum")
    steppers({ sys = mf.avg }, { sys = mb.avg }, { "rk4" }, 1e-3, 200, { 0.5, 0 }, "pendulum avg")
    local per = twopi / 1e3
    for _, preset in ipairs { "cs1", "cs2" } do
      local o = { preset = preset, kernel = "exponential", H = 0.01, T = 0.05, eta = 10 * per, h = per / 20, Q0 = 0.5, P0 = 0,
                  micro = "verlet" }
      local Qa, Pa, ca = hmm.run(mf, o)
      local Qb, Pb, cb = hmm.run(mb, o)
      same(Qa, Qb, "pendulum HMM " .. preset); same(Pa, Pb, "pendulum HMM P " .. preset); same_counts(ca, cb, "HMM")
    end
    local o = { n = 16, period = per, y0 = { 0.5, 0 }, tout = { 64 * per }, macro = "rk4", H = 8 * per }
    local ya, ca = sam.sam(sam.micro(mf, "rk4"), o)
    local yb, cb = sam.sam(sam.micro(mb, "rk4"), o)
    same(ya[1], yb[1], "pendulum SAM"); same_counts(ca, cb, "SAM")
    same(mf.averaged_force(0.7), mb.averaged_force(0.7), "averaged force")
  end)

  it("ste (Sharp, Tsai & Engquist (1.1), (3.4), (3.2)): the reduced phase of the time form, HMM with (3.4), helpers", function()
    local v = { eps = 1e-3, g = 0.1, l = 0.05 }
    local mf, mb = models.ste(v), builtin.ste(v)
    assert.are.equal(bits(mb.vib.omega), bits(mf.vib.omega))
    assert.are.equal(0, mf.vib.even_in_theta)
    steppers(mf, mb, { "rk4", "verlet", "dp5" }, 1e-5, 20000, { 0.1, -0.4 }, "ste") -- 200 periods
    local o = { preset = "ste", H = 0.01, T = 0.05, eta = 5e-3, h = 2e-5, Q0 = 0.1, P0 = -0.4 }
    local Qa, _, ca = hmm.run(mf, o)
    local Qb, _, cb = hmm.run(mb, o)
    same(Qa, Qb, "ste HMM"); same_counts(ca, cb, "ste HMM")
    same({ mf.averaged_force(0.3), mf.potential(0.3), mf.energy(0.3, 0.2) },
         { mb.averaged_force(0.3), mb.potential(0.3), mb.energy(0.3, 0.2) }, "ste helpers")
  end)

  it("kepler (CCMS (19)) and vdp (17): field, Strang splitting, SAM/LISP/MR with both micro-solvers, Newton counts", function()
    for _, name in ipairs { "kepler", "vdp" } do
      local mf, mb = models[name](2 ^ -10), builtin[name](2 ^ -10)
      assert.are.equal(mb.eps, mf.eps); assert.are.equal(mb.period, mf.period)
      local y0 = name == "vdp" and { 0.5, 0.5 } or { 1, 0, 0, 1 }
      steppers(mf, mb, { "rk4", "strang", "dp5" }, twopi / 32, 32 * 16, y0, name)
      for _, micro in ipairs { "rk4", "strang" } do
        local mia, mib = sam.micro(mf, micro), sam.micro(mb, micro)
        local o = { n = 16, period = twopi, y0 = y0, tout = { twopi * 64 }, macro = "rk4", H = twopi * 8 }
        local ya, ca = sam.sam(mia, o)
        local yb, cb = sam.sam(mib, o)
        same(ya[1], yb[1], name .. " SAM " .. micro); same_counts(ca, cb, name .. " SAM " .. micro)
        o.diff = "lisp"
        ya, ca = sam.sam(mia, o)
        yb, cb = sam.sam(mib, o)
        same(ya[1], yb[1], name .. " LISP " .. micro); same_counts(ca, cb, name .. " LISP " .. micro)
        local za, da = sam.mr(mia, { n = 16, period = twopi, M = 8, N = 8, y0 = y0 })
        local zb, db = sam.mr(mib, { n = 16, period = twopi, M = 8, N = 8, y0 = y0 })
        same(za, zb, name .. " MR " .. micro); same_counts(da, db, name .. " MR " .. micro)
        if name == "kepler" and micro == "strang" then assert.is_true(ca.newton_iters > 0) end
      end
    end
    -- a refused flow names its cause as the built-in does (eps = 0.5, h = 0.5: no contraction)
    local mf, mb = models.kepler(0.5), builtin.kepler(0.5)
    local ya, yb, ra, rb = kz.vec(4, { 1, 0, 0, 1 }), kz.vec(4, { 1, 0, 0, 1 }), kz.report(), kz.report()
    assert.are.equal(kz.C.KZ_ENOCONV, mf.sys.flow_a(mf.sys.par, 0.25, 0.5, ya, ra))
    assert.are.equal(kz.C.KZ_ENOCONV, mb.sys.flow_a(mb.sys.par, 0.25, 0.5, yb, rb))
    assert.are.equal("kepler midpoint", ffi.string(ra.param))
    assert.are.equal(ffi.string(rb.param), ffi.string(ra.param))
    assert.are.equal(rb.fail_time, ra.fail_time); assert.are.equal(rb.fail_step, ra.fail_step)
    assert.are.equal(rb.newton_iters, ra.newton_iters)
  end)

  it("dpend (Calvo & Sanz-Serna (4.3); CCMS Sec. 6.2): SHAKE, RATTLE, HERK3, the constrained HMMs, SAM on the DAE, the angle ODEs", function()
    local v = { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4, omega = 200, theta0 = 0.1 }
    local mf, mb = models.dpend(v), builtin.dpend(v)
    assert.are.equal(bits(mb.con.tol), bits(mf.con.tol)); assert.are.equal(mb.con.max_iter, mf.con.max_iter)
    local y0 = mb.state { 0.5, 0, 0.1, -0.2 }
    same(mf.state { 0.5, 0, 0.1, -0.2 }, y0, "dpend state")
    same({ mf.angles(kz.vec(8, y0)) }, { mb.angles(kz.vec(8, y0)) }, "dpend angles")
    same({ mf.residual(y0) }, { mb.residual(y0) }, "dpend residual")
    steppers(mf, mb, { "shake", "rattle", "herk3" }, 1e-4, 500, y0, "dpend")
    steppers({ sys = mf.lagrange }, { sys = mb.lagrange }, { "rk4" }, 1e-4, 500, { 0.5, 0, 0.1, 0 }, "dpend lagrange")
    steppers({ sys = mf.avg }, { sys = mb.avg }, { "rk4" }, 1e-3, 200, { 0.5, 0, 0.1, 0 }, "dpend avg")
    local per = twopi / 200
    for _, scheme in ipairs { "shake-shake", "rattle-shake" } do
      local o = { preset = scheme, H = 0.01, T = 0.05, eta = per, h = per / 20, kernel = "uniform" }
      local Ya, La, ca = hmm.dae_run(mf, o, y0)
      local Yb, Lb, cb = hmm.dae_run(mb, o, y0)
      same(Ya[#Ya], Yb[#Yb], "dpend HMM " .. scheme); same(La[#La], Lb[#Lb], "dpend HMM lambda " .. scheme)
      same_counts(ca, cb, "dpend HMM " .. scheme)
    end
    local w = { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4, omega = 1e4 }
    local ma, mc = models.dpend(w), builtin.dpend(w)
    local z0, tend = mc.state { 0.5, 0, 0, 0 }, 199 * math.pi / 625
    local o = { n = 4, period = twopi * 1e-4, H = tend / 200, y0 = z0, tout = { tend } }
    local ya, _, ca = sam.dae(ma, o)
    local yb, _, cb = sam.dae(mc, o)
    same(ya[1], yb[1], "dpend SAM DAE"); same_counts(ca, cb, "dpend SAM DAE")
  end)

  it("top (Fredbo (23)/(31), (38), (41), (48)): the forcings, the averaged equation, the slow-variable HMM on (32), (37), (40), invariants", function()
    for _, f in ipairs { { forcing = "free" }, { forcing = "transverse", amp = 50, nu = 50 },
                         { forcing = "vertical", amp = 3, nu = 100, avg = "printed" }, { forcing = "vertical", amp = 3, nu = 100 } } do
      local mf, mb = models.top(f), builtin.top(f)
      local what = "top " .. f.forcing .. " " .. (f.avg or "")
      for k, x in pairs(mb.constants) do assert.are.equal(bits(x), bits(mf.constants[k]), what .. " constant " .. k) end
      local x0 = mb.x0(100, 0.01, 0.2)
      same(mf.x0(100, 0.01, 0.2), x0, what .. " x0")
      steppers(mf, mb, { "rk4", "dp5" }, 1e-5, 300, x0, what)
      steppers({ sys = mf.avg }, { sys = mb.avg }, { "rk4" }, 1e-5, 300, x0, what .. " avg")
      local y = kz.run(mb.sys, "rk4", 0, 1e-5, 300, x0)
      local ia, ib, da, db = mf.invariants(y), mb.invariants(y), mf.drift(y, x0), mb.drift(y, x0)
      for k, x in pairs(ib) do assert.are.equal(bits(x), bits(ia[k]), what .. " invariant " .. k) end
      for k, x in pairs(db) do assert.are.equal(bits(x), bits(da[k]), what .. " drift " .. k) end
      local sets = { "32", "37" }
      if f.forcing == "transverse" then sets[3] = "40" else assert.is_nil(mf.slow["40"]) end
      for _, set in ipairs(sets) do
        local o = { H = 1e-3, T = 4e-3, eta = 1e-3, h = 1e-5, x0 = x0, set = set, macro = "LF", micro = "rk4", kernel = "exp2" }
        local Xa, ca = hmm.slow_run(mf, o)
        local Xb, cb = hmm.slow_run(mb, o)
        same(Xa[#Xa], Xb[#Xb], what .. " slow HMM " .. set); same_counts(ca, cb, what .. " slow HMM " .. set)
      end
    end
  end)

  it("fpu and ring (Ober-Bloebaum et al. Sec. 6): the variational multirate schemes, the Hamiltonian equations, energies", function()
    for _, case in ipairs { { "fpu", { l = 3, omega = 50 } }, { "fpu", { l = 4, omega = 100 } }, { "ring", {} } } do
      local name, v = case[1], case[2]
      local mf = vmi[name](v)
      local mb = builtin[name](name == "ring" and { g_sign = 1 } or v)
      local y0 = kz.vec(mf.d, mf.y0)
      for _, scheme in ipairs { "MM", "TM", "TT", "TMh" } do
        local o = { p = 4, dT = name == "ring" and 0.01 or 0.05, N = 10, tol = 1e-12, y0 = mf.y0 }
        local ra = vmi.run(mf, scheme, o)
        local rb = vmi.run(mb, scheme, o)
        same(ra.out, rb.out, name .. " " .. scheme, 11 * mf.d)
        same_counts(ra.counts, rb.counts, name .. " " .. scheme)
      end
      same(vmi.total_energy(mf, y0, 1), vmi.total_energy(mb, y0, 1), name .. " energy")
      -- the potentials called directly: gradients into one array or both, Hessians, added onto
      -- what the arrays hold (vmi.accumulate)
      local ns, nf, n = mf.ns, mf.nf, mf.ns + mf.nf
      for _, want in ipairs { { true, true, false }, { true, false, false }, { false, true, false }, { false, false, true } } do
        local out = {}
        for k, m in ipairs { mf.model, mb.model } do
          local gs, gf, H = kz.vec(ns), kz.vec(nf), kz.vec(n * n)
          for i = 0, ns - 1 do gs[i] = 0.25 * i end
          for i = 0, nf - 1 do gf[i] = -0.5 * i end
          for i = 0, n * n - 1 do H[i] = 0.125 * i end
          assert.are.equal(0, m.V(m.par, y0, y0 + ns, nil, want[1] and gs or nil, want[2] and gf or nil, want[3] and H or nil))
          assert.are.equal(0, m.W(m.par, y0 + ns, nil, want[2] and gf or nil, nil))
          out[k] = { gs, gf, H }
        end
        same(out[1][1], out[2][1], name .. " V gradient (slow)", ns)
        same(out[1][2], out[2][2], name .. " V + W gradient (fast)", nf)
        same(out[1][3], out[2][3], name .. " V Hessian", n * n)
      end
      same(vmi.reference(mf, 0.01, 5, 4), vmi.reference(mb, 0.01, 5, 4, mf.y0), name .. " RK4", 6 * mf.d)
    end
  end)

  it("load as model files (lib/lua/kapitza/modelfile.lua, the path of kapitza check and atlas): the paper's case, overrides", function()
    local MF = require "kapitza.modelfile"
    local dims = { pendulum = 2, ste = 2, kepler = 4, vdp = 2, dpend = 8, top = 6, fpu = 12, ring = 36 }
    for name, dim in pairs(dims) do
      local mf = MF.load(models.path(name))
      assert.are.equal(dim, #mf.y0, name)
      assert.is_true(mf.T > 0, name)
      if name == "top" then assert.is_nil(mf.period) else assert.is_true(mf.period > 0, name) end -- the free top: nu = 0
    end
    local kep = MF.load(models.path("kepler"), { "eps=2^-10" })
    assert.are.equal(math.pi / 8 * 2 ^ 10, kep.T); assert.are.equal(2 * math.pi, kep.period)
    local ste = MF.load(models.path("ste"), { "eps=1e-4" })
    assert.are.equal(2 * math.pi / 1e-4, ste.model.omega) -- derived
    local ok, err = pcall(MF.load, models.path("ste"), { "omega=5" })
    assert.is_false(ok); assert.truthy(err:find("derived", 1, true), err)
    local fpu = MF.load(models.path("fpu"), { "l=4", "omega=100" })
    assert.are.same({ 1, 0, 0, 0, 0.01, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 }, fpu.y0)
    local dp = MF.load(models.path("dpend"), { "a1=0.3" })
    local b = builtin.dpend { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4, omega = 1e4 }
    same(dp.y0, b.state { 0.3, 0, 0, 0 }, "dpend y0")
    local top = MF.load(models.path("top"), { "spin=1000", "Pi1=0.001" })
    same(top.y0, builtin.top {}.x0(1000, 0.001, 0.2), "top y0")
  end)

  it("checks the parameters as the C constructors did, naming the parameter", function()
    for _, c in ipairs { { models.pendulum, { l = 0, g = 9.8, vmax = 4, omega = 1 }, "pendulum.l" },
                         { models.pendulum, { l = 0.2, g = 9.8, vmax = 0 / 0, omega = 1 }, "pendulum.vmax" },
                         { models.ste, { eps = -1, g = 0.1, l = 0.05 }, "pendulum.eps" },
                         { models.kepler, -1, "kepler.eps" }, { models.vdp, 0 / 0, "vdp.eps" },
                         { models.dpend, { m1 = 1, m2 = 0, l1 = 1, l2 = 1, g = 1, vmax = 1, omega = 1 }, "dpend.m2" },
                         { models.top, { I3 = 0 }, "top.I3" }, { models.top, { forcing = "vertical", amp = 1 }, "top.nu" },
                         { models.fpu, { l = 2.5 }, "fpu.l" }, { models.ring, { g_sign = 0 }, "ring.g_sign" } } do
      local ok, err = pcall(c[1], c[2])
      assert.is_false(ok)
      assert.truthy(tostring(err):find(c[3], 1, true), err)
    end
  end)
end)
