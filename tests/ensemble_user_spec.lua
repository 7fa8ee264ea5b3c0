-- ensemble_user_spec.lua -- ensembles of a model of your own given as C source (ensemble.lua's
-- ens.user, the kzu_ens_* wrappers lib/lua/kapitza/usermodel.lua generates): every member equals the scalar
-- run of the same user model (direct RK4 on 1 and 3 threads, the HMM with the reconstruction, a
-- first-order model without 'omega'), up to libmvec's rounding (bounds and measured values below);
-- the width is reported; a Lua-function model is refused with the way to run it.
local kz = require "kapitza"
local hmm = require "kapitza.hmm"
local ens = require "kapitza.ensemble"
local um = require "kapitza.usermodel"

local root = debug.getinfo(1, "S").source:match("^@(.*)/tests/[^/]*$") or "."
local spec = dofile(root .. "/tests/usermodel_pendulum.lua")
-- the bounds on |member - scalar| / max(1, |scalar|): libmvec (<= 4 ulp) against libm (<= 1 ulp)
-- along a run. Measured (every member, every node): direct RK4 2.0e-15, the first-order model 0
-- (exp), the HMM 9.5e-12 (P) and 1.5e-12 (Q): there the user's force takes cos(theta) of the shared
-- phase per member through libmvec (the built-in takes it once through libm), and the HMM's
-- micro runs over thousands of fast periods amplify those ulps.
local TOL, TOL_HMM = 1e-12, 1e-10

local function with(base, extra)
  local t = {}
  for k, v in pairs(base) do t[k] = v end
  for k, v in pairs(extra) do t[k] = v end
  return t
end

local function agree(a, b, what, tol)
  local d = math.abs(a - b) / math.max(1, math.abs(b))
  assert.is_true(d <= (tol or TOL), string.format("%s: ensemble %.17g, scalar %.17g (rel %.2e)", what, a, b, d))
end

describe("ensembles of a user C model", function()
  local amps, oms, q0s = {}, {}, {}
  for m = 1, 37 do
    amps[m] = 0.5 + 0.1 * m
    oms[m] = 40 + 3 * m
    q0s[m] = 0.05 + 0.01 * m
  end

  it("direct RK4: every member equals kz_run on the same user model, on 1 and 3 threads; the width", function()
    local e = ens.user(spec, { l = 0.2, g = 9.8, vmax = amps, omega = oms, theta0 = 0.1 })
    assert.are.equal(37, e.M)
    assert.is_false(e.phase) -- the members' omegas differ
    assert.is_true(e.width == 1 or e.width == 2 or e.width == 4 or e.width == 8)
    for _, th in ipairs { 1, 3 } do
      local q, v, failed = ens.run(e, { stepper = "rk4", h = 1e-4, n = 500, q0 = q0s, v0 = 0.2, threads = th })
      for m = 1, 37 do
        local sm = um.model(spec, { l = 0.2, g = 9.8, vmax = amps[m], omega = oms[m], theta0 = 0.1 }, "c")
        local y = kz.vec(2, { q0s[m], 0.2 })
        kz.call("kz_run", kz.stepper("rk4"), sm.sys, 0, 1e-4, 500, y, kz.report())
        assert.are.equal(0, failed[m])
        agree(q[m], y[0], "q member " .. m)
        agree(v[m], y[1], "v member " .. m)
      end
    end
  end)

  it("the HMM (shared omega, the user's reconstruction): every member equals hmm.run", function()
    local e = ens.user(um.model(spec, { l = 0.2, g = 9.8, vmax = 1, omega = 1e4 }, "c"),
                       { l = 0.2, g = 9.8, vmax = amps, omega = 1e4 })
    assert.is_true(e.phase)
    local o = { preset = "cs1", kernel = "exp2", H = 1 / 20, T = 0.5, eta = 4 * 2 * math.pi / 1e4,
                h = 2 * math.pi / 1e4 / 16, micro = "rk4", recon = "model" }
    local Q, P, failed = ens.hmm(e, with(o, { Q0 = q0s, P0 = 0, threads = 2 }))
    for m = 1, 37 do
      local sm = um.model(spec, { l = 0.2, g = 9.8, vmax = amps[m], omega = 1e4 }, "c")
      local Qs, Ps = hmm.run(sm, with(o, { Q0 = q0s[m], P0 = 0 }))
      assert.are.equal(0, failed[m])
      for n = 1, #Qs do
        agree(Q[n][m], Qs[n], "Q member " .. m .. " node " .. n, TOL_HMM)
        agree(P[n][m], Ps[n], "P member " .. m .. " node " .. n, TOL_HMM)
      end
    end
  end)

  it("a first-order model without omega (time form only)", function()
    local vdp = { name = "ens_vdp", dim = 2, params = { "mu" }, c = { rhs = "f", source = [[
static int f(const kz_par *p, double t, const double *y, double *d)
{
  (void)t;
  d[0] = y[1];
  d[1] = p->mu * (1 - y[0] * y[0]) * y[1] - y[0] + 0.1 * exp(-y[0] * y[0]);
  return KZ_OK;
}]] } }
    local mus = { 0.5, 1, 2, 3, 4 }
    local e = ens.user(vdp, { mu = mus })
    assert.is_false(e.phase)
    local cols, _, failed = ens.run(e, { stepper = "rk4", h = 1e-3, n = 2000, y0 = { 2, 0 } })
    for m = 1, 5 do
      local sm = um.model(vdp, { mu = mus[m] }, "c")
      local y = kz.vec(2, { 2, 0 })
      kz.call("kz_run", kz.stepper("rk4"), sm.sys, 0, 1e-3, 2000, y, kz.report())
      assert.are.equal(0, failed[m])
      agree(cols[1][m], y[0], "y1 member " .. m)
      agree(cols[2][m], y[1], "y2 member " .. m)
    end
  end)

  it("refuses a Lua-function model and bad values, naming them", function()
    local function fails(pat, f, ...)
      local ok, err = pcall(f, ...)
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find(pat, 1, true), tostring(err))
    end
    fails("Lua-function models run member by member", ens.user,
          um.model(spec, { l = 0.2, g = 9.8, vmax = 1, omega = 50 }, "lua"), { vmax = { 1, 2 } })
    fails("other lists have", ens.user, spec, { l = 0.2, g = 9.8, vmax = { 1, 2 }, omega = { 1, 2, 3 } })
    fails("member 2", ens.user, spec, { l = { 0.2, 0 / 0 }, g = 9.8, vmax = 1, omega = 3 })
    fails("the lists have 2 values, members = 3", ens.user, spec, { l = 0.2, g = 9.8, vmax = { 1, 2 }, omega = 3 }, 3)
    fails("members must be a whole number", ens.user, spec, { l = 0.2, g = 9.8, vmax = 1, omega = 3 }, 2.5)
    -- members given: an ensemble whose members differ only in their initial states
    local e = ens.user(spec, { l = 0.2, g = 9.8, vmax = 1, omega = 50 }, 3)
    assert.are.equal(3, e.M)
    local q = ens.run(e, { stepper = "rk4", h = 1e-3, n = 10, q0 = { 0.1, 0.2, 0.3 } })
    assert.are.equal(3, #q)
    assert.is_true(q[1] ~= q[3])
  end)
end)
