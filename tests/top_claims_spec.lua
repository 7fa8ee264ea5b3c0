-- The claims of Fredbo's thesis (scenarios/top-*.lua) away from the printed parameters: every
-- scenario is run once at another parameter set (in a temporary directory); every claim then has a
-- verdict among yes/no/partly/n/a and evidence, an n/a names why (the parameter that differs, or
-- what is missing), nothing is "0 of 0 compared", and the claims that compare a printed number
-- say n/a instead of judging it. The trivial baselines (Pi = 0 for (40), the equilibrium for
-- Figure 6, ignoring the vibration for (48), the constant xi(0) for Figure 12) are checked in
-- tests/top_spec.lua and here on the runs. The checked-in tables (the printed parameters) are
-- checked by tests/claims_spec.lua: an n/a there only as a registered "not measurable".
local U = require "testutil"
local S = require "kapitza.scenario"

local function run(id, args)
  local dir = U.tmpdir()
  local st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --out %s %s", id, dir, args))
  assert.are.equal(0, st, id .. " " .. args .. ": " .. tostring(err))
  local rows = assert(S.read_table(dir .. "/tables/" .. id .. ".tsv"))
  local by = {}
  for _, r in ipairs(rows) do by[r.claim] = { holds = tostring(r.holds), text = tostring(r.reproduced) } end
  return rows, by, dir
end

-- the other parameter set of each scenario, and the claims that must then be n/a with a reason
-- mentioning `why` (nil: whatever the reason)
local cases = {
  { "top-fig3", "m=6", {} },
  { "top-fig5", "--quick omega=400 l=0.25", { q_wiggle = "omega = 400", p_relation = "omega = 400", omega = "omega = 400" } },
  { "top-fig6", "omega=1e4", { standard_operations = "omega = 1e4" } },
  { "top-fig11", "--quick omega=200 omegas_cost=100", { rk4_cost = "omegas_cost" } },
  { "top-fig12", "omega=2000", { rk4_operations = "omega = 2000" } },
  { "top-fig13", "--quick omega=2000", {} },
  { "top-fig14", "--quick omega=2000", { optimal_eta = "omega = 2000" } },
  { "top-fig15", "omega=2000", {} },
  { "top-fig16", "--quick omega=2000", { micro_steps = "N = 600", fe_diverges = "omega = 2000", heun_start = "omega = 2000",
                                          basic_lsq = "omega = 2000" } },
  { "top-fig17", "--quick omega=2000", { eta_300h_needed = "omega = 2000", eta_300h_needed_fd = "omega = 2000",
                                          ["h_1e-7_needed"] = "omega = 2000" } },
  { "top-fig18", "--quick omega=2000", { precession_smaller = "values of ω", nutation_increases = "values of ω" } },
  { "top-fig19", "omega=2000", { ranges = "omega = 2000" } },
  { "top-fig20", "omega=2000", { printed_H_runs = "omega = 2000", xi4_xi5_order = "omega = 2000" } },
  { "top-fig21", "omega=2000", { printed_H_runs = "omega = 2000", hmm_steps = "omega = 2000", rk4_operations = "omega = 2000" } },
  { "top-fig22", "--quick omega=200", {} },
  { "top-fig23", "--quick omega=2000 omega_low=3000", { first_order = "omega_low", reconstruction = "omega_low" } },
  { "top-table1", "omega=2000,20000", { steps = "printed (ω, H) cells", errors_not_larger = "printed (ω, H) cells", column_2000 = "a printed column",
                                        ["column_2e4"] = "a printed column", error_1e3_printed_H = "printed at 1000", rk4_1e3 = "printed at 1000",
                                        savings_1e5 = "printed at 1e5" } },
}

local runs = {}
describe("the top scenarios at other parameters", function()
  for _, c in ipairs(cases) do
    local id, args, na = c[1], c[2], c[3]
    it(id .. " " .. args .. ": four verdicts, evidence for each, n/a with its reason, nothing compared on nothing", function()
      local rows, by, dir = run(id, args)
      runs[id] = { by = by, dir = dir }
      assert.is_true(#rows > 0)
      for _, r in ipairs(rows) do
        local h, t = tostring(r.holds), tostring(r.reproduced)
        assert.truthy(h == "yes" or h == "no" or h == "partly" or h == "n/a", r.claim .. ": verdict " .. h)
        assert.truthy(t:match("%S"), r.claim .. ": no evidence")
        assert.is_nil(t:find("0 of 0", 1, true), r.claim .. ": " .. t)
        assert.is_nil(t:find("inf–-inf", 1, true), r.claim .. ": " .. t)
        if h == "n/a" then assert.truthy(#t > #"n/a: " + 10 and t:sub(1, 5) == "n/a: ", r.claim .. ": n/a without a reason: " .. t) end
      end
      for key, why in pairs(na) do
        assert.truthy(by[key], key .. " missing")
        assert.are.equal("n/a", by[key].holds, key .. ": " .. by[key].text)
        assert.truthy(by[key].text:find(why, 1, true), key .. ": the reason does not mention '" .. why .. "': " .. by[key].text)
      end
    end)
  end

  it("top-table1: 'eta = 10h suffices' is measured (relative errors across omega), not counted", function()
    local c = runs["top-table1"].by.micro_cost_constant
    assert.truthy(c.text:find("relative errors in ξ₃ at the finest H", 1, true), c.text)
    assert.are.equal("no", c.holds) -- 0.0034 at 2000 against 0.04 at 20000
  end)

  it("top-fig6: the savings are taken from the runs at 1e6 and 1e8 of the sweep; the HMM is judged against P = Q = 0", function()
    local by = runs["top-fig6"].by
    assert.truthy(by.savings_1e6.text:find("at ω = 1e6", 1, true), by.savings_1e6.text)
    assert.truthy(by.savings_1e8.text:find("at ω = 1e8", 1, true), by.savings_1e8.text)
    assert.truthy(by.follows_averaged.text:find("equilibrium P = Q = 0", 1, true))
    assert.are.equal("no", by.follows_averaged.holds)
    -- one omega in the sweep: nothing to compare, and no run at 1e8
    local _, one, d1 = run("top-fig6", "omegas=1e6")
    U.rmdir(d1)
    assert.are.equal("n/a", one.error_constant_in_omega.holds)
    assert.are.equal("n/a", one.savings_1e8.holds)
    assert.truthy(one.savings_1e8.text:find("ω = 1e8 run (omega, omegas)", 1, true), one.savings_1e8.text)
    assert.are.equal("yes", one.savings_1e6.holds)
  end)

  it("top-fig19: the unforced amplitude of Pi is measured (it halves when omega doubles), not typed in", function()
    local function amp(text) return tonumber(text:match("unforced amplitude max abs Π₁, Π₂ = ([%d.e+-]+)")) end
    local here = amp(runs["top-fig19"].by.large_force.text)
    local rows = S.read_table(U.root .. "/paper/tables/top-fig19.tsv")
    local printed
    for _, r in ipairs(rows) do if r.claim == "large_force" then printed = amp(tostring(r.reproduced)) end end
    assert.is_near(2, printed / here, 0.1)
    assert.is_true(printed > 5e-3) -- 0.0109, not sqrt(2e-6) = 1.4e-3
  end)

  it("top-fig20/21: a diverging run is a 'no' with the failure, not a crash", function()
    for _, id in ipairs { "top-fig20", "top-fig21" } do
      local c = runs[id].by[id == "top-fig20" and "xi2_xi3_good" or "xi2_xi3_long"]
      assert.are.equal("no", c.holds)
      assert.truthy(c.text:find("the HMM run fails", 1, true), c.text)
    end
  end)

  it("top-fig15: a diverging micro-solver is reported (NaN in the data, 'Diverged' in the table), the others still run", function()
    local dir = runs["top-fig15"].dir
    local rows = assert(S.read_table(dir .. "/data/top-fig15.tsv"))
    local nan = 0
    for _, r in ipairs(rows) do if r.error ~= r.error or r.error == "NaN" then nan = nan + 1 end end
    assert.is_true(nan >= 1)
    local f = assert(io.open(dir .. "/tables/top-fig15.md"))
    local md = f:read("*a")
    f:close()
    assert.truthy(md:find("Diverged", 1, true))
  end)

  it("top-fig5: the linearised slow period is computed from l, vmax, g (0.667 s at l = 0.25), not typed in; the run must span it", function()
    local t = runs["top-fig5"].by.slow_oscillation
    assert.are.equal("n/a", t.holds) -- --quick: T = 0.5 s, shorter than the period
    assert.truthy(t.text:find("period 0.667 s", 1, true), t.text)
  end)

  it("top-fig22/23: the notes' limits are not applied away from the print; the baseline decides", function()
    local by = runs["top-fig22"].by
    assert.are.equal("n/a", by.averaged_accurate_notes.holds)
    assert.truthy(by.averaged_accurate_notes.text:find("printed at", 1, true), by.averaged_accurate_notes.text)
    assert.truthy(by.averaged_accurate.text:find("of the errors of ignoring the vibration", 1, true), by.averaged_accurate.text)
  end)

  teardown(function()
    for _, r in pairs(runs) do U.rmdir(r.dir) end
  end)
end)
