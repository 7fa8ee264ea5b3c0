-- Sharp, Tsai & Engquist (seed 002): the model and its reconstruction, the scaling rule of row 3,
-- the phase modes, and the scenarios' command line (bad input for every key class, a user's run
-- at new parameters with its own figure). The claims of notes Sec. 7 are asserted through the
-- claims tables (tests/claims_spec.lua) that the regression spec keeps equal to fresh runs.
local kz = require "kapitza"
local models = require "kapitza.models"
local ste = require "kapitza.papers.ste"
local U = require "testutil"
local S = require "kapitza.scenario"
local ffi, C = kz.ffi, kz.C

describe("the inverted pendulum of Sharp, Tsai & Engquist #asan", function()
  local m = models.ste { eps = 1e-6, g = 0.1, l = 0.05 }

  it("has the averaged force, potential and reconstruction of (3.2), Sec. 4 and (3.4)", function()
    assert.is_near(-0.5890695, m.averaged_force(0.2), 1e-7)
    -- l Theta'' = -V'(Theta): central difference of the potential
    local d = 1e-6
    for _, th in ipairs { 0.1, 0.7, -1.2 } do
      local dV = (m.potential(th + d) - m.potential(th - d)) / (2 * d)
      assert.is_near(-dV / 0.05, m.averaged_force(th), 1e-7)
    end
    -- (3.4): omega_n = Omega_n - sin(Theta_n) cos(theta_n) / (2 pi l)
    local Y, y = kz.vec(2, { 0.3, -0.2 }), kz.vec(2)
    assert.are.equal(0, m.vib.reconstruct(m.vib.par, 0.7, Y, y))
    assert.are.equal(0.3, y[0])
    assert.is_near(-0.2 - math.sin(0.3) * math.cos(0.7) / (2 * math.pi * 0.05), y[1], 1e-15)
    assert.is_near(2 * math.pi / 1e-6, m.vib.omega, 1e-6)
    assert.are.equal(0, m.vib.even_in_theta)
  end)

  it("its time form takes the phase 2 pi frac(t/eps): the micro force equals the fast form's", function()
    local a1, a2 = kz.vec(1), kz.vec(1)
    local q = kz.vec(1, { 0.4 })
    m.sys.accel(m.sys.par, 10 + 0.25e-6, q, a1) -- a quarter period past a multiple of eps
    m.vib.accel(m.vib.par, math.pi / 2, q, a2)
    assert.is_near(a2[0], a1[0], 1e-6 * math.abs(a2[0]))
  end)

  it("refuses bad parameters, naming them", function()
    local r = kz.report()
    for _, c in ipairs { { { 0, 0.1, 0.05 }, "eps" }, { { 1e-6, 0 / 0, 0.05 }, "g" }, { { 1e-6, 0.1, -1 }, "l" } } do
      local p = ffi.new("kz_ste", c[1])
      assert.are_not.equal(0, C.kz_ste_sys(ffi.new("kz_sys"), p, r))
      assert.are.equal(c[2], ffi.string(r.param))
    end
    assert.are.equal(C.KZ_ENULL, C.kz_ste_averaged_sys(nil, ffi.new("kz_ste", { 1e-6, 0.1, 0.05 }), r))
    assert.is_true(C.kz_ste_averaged_force(nil, 0.1) ~= C.kz_ste_averaged_force(nil, 0.1))
    assert.is_false(pcall(models.ste, { eps = 1e-6, g = 0.1 }))
  end)

  it("the phase modes: exact and rounded-once agree, the absolute-time phase adds noise (A13)", function()
    local P = { kernel = "exponential", kernel_constant = 0, phase = "exact", recon = "model" }
    local o = { micro = "rk4", eta = 50e-6, h = 1e-6 / 50 }
    local exact = m.averaged_force(0.2)
    local F = {}
    for _, ph in ipairs { "exact", "naive", "time" } do
      o.phase = ph
      F[ph] = ste.force(m, P, o, 10, 0.2, 0.1)
    end
    assert.is_true(math.abs(F.exact - exact) < 1e-6)
    assert.is_true(math.abs(F.naive - F.exact) < 1e-9)
    assert.is_true(math.abs(F.time - exact) > 10 * math.abs(F.exact - exact))
  end)
end)

describe("the scaling rule of Table 1, row 3 (reading A6-A7)", function()
  local eta, h = 50e-6, 1e-6 / 50
  it("is the fixed run at the anchors H = 1 and 0.1, and scales h like (H/H_a)^(s/r)", function()
    for _, c in ipairs { { "V", "v" }, { "V", "rk4" }, { "FE", "v" } } do
      for _, Ha in ipairs { 1, 0.1 } do
        local e2, h2 = ste.scaled { macro = c[1], micro = c[2], H = Ha, eta = eta, h = h }
        assert.are.equal(eta, e2)
        assert.are.equal(h, h2)
      end
    end
    local _, hv = ste.scaled { macro = "V", micro = "v", H = 0.05, eta = eta, h = h }
    assert.is_near(1e-6 / 100, hv, 1e-20)
    local _, hr = ste.scaled { macro = "V", micro = "rk4", H = 0.05, eta = eta, h = h }
    -- (1/2)^(1/2) eps/50, rounded to a whole number of steps in eta/2 = 25 eps
    assert.is_near(25e-6 / math.floor(25 * 50 * math.sqrt(2) + 0.5), hr, 1e-20)
    local ef = ste.scaled { macro = "V", micro = "v", H = 0.01, eta = eta, h = h, q = 2 }
    assert.is_near(eta * 10, ef, 1e-18) -- finite q: eta (H_a/H)^(s/q)
  end)
end)

describe("ste scenarios: command line", function()
  local function refused(id, args, key)
    local dir = U.tmpdir()
    local st, _, err = U.run(string.format("luajit scenarios/%s.lua --out %s %s", id, dir, args))
    assert.are.equal(2, st, id .. " " .. args .. ": " .. err)
    assert.truthy(err:find(key, 1, true), id .. " " .. args .. ": " .. err)
    assert.is_nil(err:find("traceback", 1, true), err)
    assert.are.equal(0, #U.files(dir), "nothing written")
    U.rmdir(dir)
  end
  it("refuses every class of bad value with one line naming the key, exit 2, nothing written", function()
    refused("ste-fig3.2", "eps=0", "'eps'")
    refused("ste-fig3.2", "eps=1", "'eps'")
    refused("ste-fig3.2", "H=0.07", "'H'")
    refused("ste-fig3.2", "H=0.1,-1", "'H'")
    refused("ste-fig3.2", "eta_eps=3 h_per_eps=7", "'eta_eps'")
    refused("ste-fig3.1", "micro=euler", "'micro'")
    refused("ste-fig3.1", "phase=sloppy", "'phase'")
    refused("ste-force", "kernel_constant=-1", "'kernel_constant'")
    refused("ste-force", "Theta=nan", "'Theta'")
    refused("ste-constants", "n_kernel=1.5", "'n_kernel'")
    refused("ste-fig3.4", "ref_dt=0", "'ref_dt'")
  end)

  it("a run at new parameters writes its data and draws its own figure", function()
    local dir = U.tmpdir()
    local st, _, err = U.run("KZ_QUIET=1 luajit scenarios/ste-fig3.1.lua --out " .. dir .. " T=4 H=0.02 eps=1e-5 stride=1")
    assert.are.equal(0, st, err)
    local rows, _, comments = S.read_table(dir .. "/data/ste-fig3.1.tsv")
    assert.are.equal(201, #rows)
    assert.truthy(comments[1]:find("eps = 1e-05", 1, true), comments[1])
    local f = io.open(dir .. "/figures/ste-fig3.1.svg")
    assert.truthy(f, "figure drawn")
    local svg = f:read("*a")
    f:close()
    assert.truthy(svg:find("H = 0.02", 1, true), "the caption is the run's")
    U.rmdir(dir)
  end)
end)
