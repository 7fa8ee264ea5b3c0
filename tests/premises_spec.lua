-- Runs whose results would be garbage say so (issue 17 items 7 and 9), through the real command
-- line: a violated premise of the paper is refused before anything runs (one line naming the key
-- and the premise, exit 2, nothing written); a claim the run cannot measure is `n/a` with the
-- reason, never nan; a published number is compared only at the paper's parameters.
local U = require "testutil"
local S = require "kapitza.scenario"

-- run a scenario --quick into a fresh folder: status, stderr, the folder
local function run(id, args)
  local dir = U.tmpdir()
  local st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --quick --out '%s/out' %s", id, dir, args))
  return st, err, dir .. "/out", dir
end

-- a refusal: exit 2, one line naming every key in `keys` and the phrase `why`, nothing written
local function refused(id, args, keys, why)
  local st, err, out, dir = run(id, args)
  assert.are.equal(2, st, err)
  assert.are.equal(1, select(2, err:gsub("\n", "")), err)
  for _, k in ipairs(keys) do assert.truthy(err:find("'" .. k .. "'", 1, true), err) end
  if why then assert.truthy(err:find(why, 1, true), err) end
  assert.are.equal(0, #U.files(out), out)
  U.rmdir(dir)
  return err
end

-- the claims of a run: key -> {holds, reproduced}; and whether any written table holds a nan
local function claims(out, name)
  local rows = assert(S.read_table(out .. "/tables/" .. name .. ".tsv"))
  local t = {}
  for _, r in ipairs(rows) do t[r.claim] = r end
  return t
end
local function has_nan(out)
  for _, f in ipairs(U.files(out)) do
    if f:match("%.tsv$") or f:match("%.md$") then
      local h = io.open(out .. "/" .. f)
      local s = h:read("*a"):lower()
      h:close()
      if s:find("%f[%w]nan%f[%W]") then return f end
    end
  end
end

describe("premises and unmeasurable claims", function()
  it("cs-table2.3 refuses vmax = 4e6 (a fast oscillation of 2e4 rad is not averaging) instead of errors of 1e13 rad", function()
    refused("cs-table2.3", "vmax=4e6", { "vmax", "omega" }, "averaging")
    -- at omega = 1e8 the amplitude is small, but the averaged motion is too fast for the reference
    refused("cs-table2.3", "vmax=4e6 omega=1e8", { "vmax" }, "reference")
    -- vmax = 40: the averaged pendulum oscillates at w_s = 141 s^-1, beyond leapfrog's H w_s < 2
    refused("cs-table2.3", "vmax=40", { "H", "vmax" }, "stability limit")
  end)

  it("cs tables compare printed cells only at the paper's parameters: vmax = 5 makes every claim n/a, naming vmax", function()
    local st, err, out, dir = run("cs-table2.3", "vmax=5")
    assert.are.equal(0, st, err)
    local c = claims(out, "cs-table2.3-claims")
    assert.is_true(next(c) ~= nil)
    for k, r in pairs(c) do
      assert.are.equal("n/a", r.holds, k)
      assert.truthy(r.reproduced:find("vmax = 5 (printed at 4)", 1, true), r.reproduced)
    end
    local h = io.open(out .. "/tables/cs-table2.3.md")
    local md = h:read("*a")
    h:close()
    assert.is_nil(md:find("%", 1, true), "a relative difference to a printed cell") -- no "(published, +x %)"
    U.rmdir(dir)
    -- at the paper's parameters the claims are compared (the quick run has two of the four H)
    st, err, out, dir = run("cs-table2.3", "")
    assert.are.equal(0, st, err)
    assert.are.equal("yes", claims(out, "cs-table2.3-claims")["column_omega_1e6"].holds)
    U.rmdir(dir)
  end)

  it("top-fig13 N=2,4: the order fit has no N >= fit_from, so fe_order is n/a (it wrote nan)", function()
    local st, err, out, dir = run("top-fig13", "N=2,4")
    assert.are.equal(0, st, err)
    assert.is_nil(has_nan(out))
    local c = claims(out, "top-fig13")
    assert.are.equal("n/a", c.fe_order.holds)
    assert.truthy(c.fe_order.reproduced:find("fit_from", 1, true), c.fe_order.reproduced)
    U.rmdir(dir)
    refused("top-fig13", "N=30,30", { "N" }, "twice")
  end)

  it("top-fig13 schemes=FE-nosuch is refused at parse time, naming the key and the valid schemes", function()
    local err = refused("top-fig13", "schemes=FE-nosuch", { "schemes" })
    assert.truthy(err:find("FE-rk4", 1, true) and err:find("LF-ve", 1, true), err)
    assert.is_nil(err:find("hmm.lua", 1, true), err)
  end)

  it("top-fig11 T=1e6 is refused naming T (it was 'bad argument #1 to vec'): the work estimate, or the point count", function()
    local err = refused("top-fig11", "T=1e6", { "T" }, "would take about")
    assert.is_nil(err:find("vec", 1, true), err)
    -- below the work limit the point count refuses it, naming T and h
    local err2 = refused("top-fig11", "T=10 h=1e-6 --force", { "T", "h" }, "grid points")
    assert.is_nil(err2:find("vec", 1, true), err2)
  end)

  it("top-fig11: a record too short for Gamma3's period gives n/a, not nan", function()
    local st, err, out, dir = run("top-fig11", "") -- --quick: T = 0.02 s, the nutation period is 0.047 s
    assert.are.equal(0, st, err)
    assert.is_nil(has_nan(out))
    assert.are.equal("n/a", claims(out, "top-fig11").gamma3_slow.holds)
    U.rmdir(dir)
  end)

  it("a claim whose measured text holds a nan is n/a and says 'undefined' (the safety net of experiment.Claims:add)", function()
    local E = require "kapitza.experiment"
    local cl = E.claims(nil)
    cl:claim { key = "slope", text = "order 2", published = "2", any = "x", measured = E.T("slope %.2f", 0 / 0), items = { true } }
    cl:claim { key = "ok", text = "order 2", published = "2", any = "x", measured = E.T("slope %.2f", 2.01), items = { true } }
    cl:claim { key = "ref", text = "period", published = "3.2", any = "x", measured = E.T("%.3f (reference)", 0 / 0), items = { true } }
    local _, rows = cl:tsv_rows()
    assert.are.equal("n/a", rows[1].holds)
    assert.truthy(rows[1].reproduced:find("slope undefined", 1, true), rows[1].reproduced)
    assert.are.equal("yes", rows[2].holds)
    assert.are.equal("n/a", rows[3].holds)
    assert.truthy(rows[3].reproduced:find("undefined (reference)", 1, true), rows[3].reproduced)
    assert.is_nil(cl:md():lower():find("nan", 1, true))
  end)

  it("a library failure at changed keys names them (top-fig13 I2 = 0.096: the HMM diverges)", function()
    local st, err, out, dir = run("top-fig13", "I2=0.0962419")
    assert.are.equal(2, st, err)
    assert.are.equal(1, select(2, err:gsub("\n", "")), err)
    assert.truthy(err:find("kz_slow_run", 1, true) and err:find("I2 = 0.0962419 (default 3.12)", 1, true), err)
    assert.are.equal(0, #U.files(out))
    U.rmdir(dir)
  end)

  it("the top needs M g l > 0, the ste pendulum 8 pi^2 g l < 1 and motion, ste-constants an oscillation", function()
    refused("top-fig14", "g=-1", { "g", "l" }, "M g l > 0")
    refused("ste-fig3.1", "g=914", { "g", "l" }, "upright")
    refused("ste-fig3.4", "Omega0=0", { "Theta0", "Omega0" }, "equilibrium")
    refused("ste-constants", "Omega0=5", { "Theta0", "Omega0" }, "oscillation")
  end)

  it("sam-fig3: too few micro-steps per period is named as such, not as the parameter 'rhs'", function()
    local err = refused("sam-fig3", "n=4,8", { "n" }, "left the bound Kepler orbits")
    assert.is_nil(err:find("'rhs'", 1, true), err)
    -- one n runs (issue 21 item 4): the claims that need two are n/a
    local st, err2, out, dir = run("sam-fig3", "n=16")
    assert.are.equal(0, st, err2)
    U.rmdir(dir)
  end)
end)
