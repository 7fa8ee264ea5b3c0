-- papers_models_spec.lua -- the papers' models, written once (lib/models/<name>.c with its model file
-- <name>.lua), give the frozen numbers to the last bit both ways they are built: through the
-- library's C API constructors (kz_pendulum_sys, kz_ste_vib, kz_top_slow, kz_vmi_fpu_model, ...)
-- and from the model files (lib/lua/kapitza/models.lua, the path a user's model takes). The runs are the
-- cases of tests/papers_models_cases.lua (every method family each model has, its helpers, the C
-- API's own functions, the vectorised ensembles), compared as bit patterns (a NaN or the sign of a
-- zero counts) with tests/papers_models_ref.tsv, frozen from the build before the models' two
-- copies were made one: a change of one operation's order in a model fails here.
local kz = require "kapitza"
local models = require "kapitza.models"
local K = require "papers_models_cases"
local U = require "testutil"

local frozen = K.read(U.root .. "/tests/papers_models_ref.tsv")

describe("the papers' models give the frozen numbers bit for bit, through the C API and from the model files", function()
  it("marks them as the library's and builds them from lib/models/", function()
    local m = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e3 }
    assert.are.equal(models.path("pendulum"), m.library)
    assert.are.equal("c", m.how)
    for _, name in ipairs { "pendulum", "ste", "kepler", "vdp", "dpend", "top", "fpu", "ring" } do
      assert.are.equal(name, models.spec(name).name)
    end
  end)

  it("the reference file holds every case, and nothing else", function()
    local names = {}
    for _, c in ipairs(K.cases) do
      assert.is_truthy(frozen[c.name], c.name)
      names[c.name] = true
    end
    for name in pairs(frozen) do assert.is_true(names[name], "a frozen case no longer run: " .. name) end
  end)

  for _, c in ipairs(K.cases) do
    local ways = c.kind == "both" and { "capi", "file" } or { c.kind == "ens" and "capi" or c.kind }
    for _, way in ipairs(ways) do
      it(c.name .. (c.kind ~= "both" and "" or way == "capi" and " (C API)" or " (model file)"), function()
        local vals = c.run(K[way])
        -- the ensembles' numbers depend on the vector width of the machine (8 members together on
        -- AVX-512, 4 on AVX2, 2 on the baseline, libmvec's variant for each): frozen at one width
        -- (tests/ensemble_spec.lua bounds every width against the scalar runs)
        if c.kind == "ens" and K.bits(vals[1]) ~= frozen[c.name].values[1] then
          return pending(string.format("frozen at a vector width of %s doubles, this machine's is %d",
                                       tostring(K.number(frozen[c.name].values[1])), vals[1]))
        end
        local msg = K.check(frozen, c.name, vals)
        assert(msg == nil, msg)
      end)
    end
  end

  it("a changed bit is found (the comparison can fail)", function()
    local vals = K.cases[1].run(K.capi)
    assert.is_nil(K.check(frozen, K.cases[1].name, vals))
    vals[#vals - 1] = vals[#vals - 1] + vals[#vals - 1] * 2 ^ -52
    assert.truthy((K.check(frozen, K.cases[1].name, vals) or ""):find("value " .. (#vals - 1) .. " is", 1, true))
    local long
    for _, c in ipairs(K.cases) do if frozen[c.name].n > K.KEEP and c.kind == "both" then long = c break end end
    vals = long.run(K.capi)
    vals[20] = -vals[20] -- not among the sampled values: the digest finds it
    assert.truthy((K.check(frozen, long.name, vals) or ""):find("digest", 1, true))
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
    -- the initial states the files compute equal the C API's kz_dpend_state and kz_top_constants
    local dp = MF.load(models.path("dpend"), { "a1=0.3" })
    local b = K.capi.dpend { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4, omega = 1e4 }
    assert.are.same(K.line("y0", b.state { 0.3, 0, 0, 0 }), K.line("y0", dp.y0))
    local top = MF.load(models.path("top"), { "spin=1000", "Pi1=0.001" })
    assert.are.same(K.line("y0", K.capi.top {}.x0(1000, 0.001, 0.2)), K.line("y0", top.y0))
  end)

  it("checks the parameters as the C constructors do, naming the parameter", function()
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
    local r = kz.report()
    assert.are.equal(kz.C.KZ_EDOMAIN, kz.C.kz_pendulum_sys(kz.ffi.new("kz_sys"), kz.ffi.new("kz_pendulum", { 0, 9.8, 4, 1, 0 }), r))
    assert.are.equal("l", kz.ffi.string(r.param))
  end)
end)
