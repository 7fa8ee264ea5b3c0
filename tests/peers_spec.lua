-- The optional peers (build/libkzpeers.so: GSL, SUNDIALS) through lib/lua/kapitza/peers.lua. Without their
-- libraries every peer must report itself unavailable with the package to install; with them, each
-- must integrate the library's own systems to the accuracy its tolerance asks for.
local peers = require "kapitza.peers"
local models = require "kapitza.models"
local E = require "kapitza.experiment"

describe("peers", function()
  it("each peer is available or says which package is missing", function()
    for _, n in ipairs(peers.names) do
      if not peers.available(n) then
        local why = peers.why(n)
        assert.is_truthy(why:match("not installed %(sudo apt%-get install lib[a-z]+%-dev") or why:match("not built"), why)
        local r, msg = peers.integrate(n, models.vdp(0.1).sys, 0, { 1, 0 }, 1, 1e-6)
        assert.is_nil(r)
        assert.is_string(msg)
      else
        assert.is_nil(peers.why(n))
      end
    end
  end)

  it("the pendulum (omega = 100): error falls with the tolerance, counts are honest", function()
    local pd = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 100 }
    local ref = E.richardson(pd.sys, { 0.5, 0 }, 1, 1, 4096)[1]
    for _, n in ipairs(peers.names) do
      if peers.available(n) and n ~= "arkode-mri" then
        local a = assert(peers.integrate(n, pd.sys, 0, { 0.5, 0 }, 1, 1e-4, { ref = ref, nerr = 1 }))
        local b = assert(peers.integrate(n, pd.sys, 0, { 0.5, 0 }, 1, 1e-9, { ref = ref, nerr = 1 }))
        local msg = string.format("%s: errors %.3g, %.3g; evaluations %d, %d", n, a.error, b.error, a.rhs_evals, b.rhs_evals)
        assert.is_true(b.error < 1e-4 and b.error < a.error, msg)
        assert.is_true(b.rhs_evals > a.rhs_evals and a.steps > 0 and a.rhs_evals >= a.steps, msg)
        assert.is_true(math.abs(b.y[1] - ref[1]) == b.error, msg)
        if n == "gsl-rk4imp" or n == "cvode-bdf" then assert.is_true(b.jac_evals > 0, msg) end
      end
    end
  end)

  it("the FPU chain of the variational integrators (kz_vmi_sys) with rk8pd and CVODE Adams", function()
    local V = require "kapitza.vmi"
    local fpu = V.fpu()
    local ref = V.reference(fpu, 1e-5, 50000, 1) -- RK4, h = 1e-5, to t = 0.5
    local yref = {}
    for i = 1, 12 do yref[i] = ref[50000 * 12 + i - 1] end
    for _, n in ipairs { "gsl-rk8pd", "cvode-adams" } do
      if peers.available(n) then
        local r = assert(peers.integrate(n, fpu.sys, 0, fpu.y0, 0.5, 1e-10, { ref = yref }))
        assert.is_true(r.error < 1e-6, string.format("%s: %.3g", n, r.error))
      end
    end
  end)

  it("arkode-mri on Kepler (fast: the unperturbed field, slow: the perturbation); bad arguments refused", function()
    if not peers.available("arkode-mri") then pending(peers.why("arkode-mri")) return end
    local kep, fast = models.kepler(2 ^ -6), models.kepler(0)
    local T = 2 * math.pi * 4
    local ref = E.richardson(kep.sys, { 1, 0, 0, 1 }, T, 1, 4 * 2048)[1]
    local r = assert(peers.integrate("arkode-mri", kep.sys, 0, { 1, 0, 0, 1 }, T, 1e-10, { ref = ref, fast = fast.sys,
                                                                                            H = 2 * math.pi / 64 }))
    assert.is_true(r.error < 1e-5 and r.fast_steps > r.steps and r.steps >= 4 * 64 and r.steps <= 4 * 64 + 1, string.format("%.3g %d %d", r.error, r.steps, r.fast_steps))
    assert.is_nil((peers.integrate("arkode-mri", kep.sys, 0, { 1, 0, 0, 1 }, T, 1e-8, { H = 1 })))      -- no fast part
    assert.is_nil((peers.integrate("arkode-mri", kep.sys, 0, { 1, 0, 0, 1 }, T, 1e-8, { fast = fast.sys, H = 0.3 }))) -- T/H
    assert.is_nil((peers.integrate("gsl-rk8pd", kep.sys, 0, { 1, 0, 0, 1 }, -1, 1e-8)))               -- t1 < t0
  end)
end)
