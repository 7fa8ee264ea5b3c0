-- The referee's findings on the vmi scenarios (issue 27, item 6): each case reruns a scenario off
-- the paper's parameters (small, about a second each) and checks the verdict or text a referee
-- rejected before the fix. The commands are those of the referee's report.
local U = require "testutil"
local V = require "kapitza.papers.vmi_convergence"

local q = U.q -- shell quoting

-- Run scenarios/<id>.lua with the arguments (a list) into a temporary directory; returns its
-- claims rows by key.
local function claims(id, args)
  local dir = U.tmpdir()
  local a = {}
  for i, x in ipairs(args) do a[i] = q(x) end
  local st, _, err = U.run(string.format("KZ_QUIET=1 timeout 120 luajit scenarios/%s.lua --out %s %s", id, q(dir), table.concat(a, " ")))
  assert.are.equal(0, st, id .. ": " .. tostring(err))
  local by = {}
  for _, t in ipairs(U.claims_tables(dir)) do
    for _, r in ipairs(t.rows) do by[r.claim] = r end
  end
  U.rmdir(dir)
  return by
end

describe("referee (vmi): statements the paper makes of some schemes only", function()
  it("vmi-fig6.3 scheme=TM: the midpoint-midpoint statements are n/a, naming the scheme", function()
    local c = claims("vmi-fig6.3", { "omega=100", "T=300", "p=1,5", "scheme=TM" })
    for _, k in ipairs { "amplitude_same", "exchange_faster" } do
      assert.are.equal("n/a", c[k].holds, k)
      assert.truthy(c[k].reproduced:find("midpoint%-midpoint"), k)
    end
  end)
  it("vmi-fig6.4 scheme=MM: 'the amplitude decreases' (a trapezoidal statement) is n/a, not yes", function()
    local c = claims("vmi-fig6.4", { "scheme=MM", "T=100" })
    assert.are.equal("n/a", c.amplitude_decreases.holds)
  end)
  it("vmi-fig6.5 scheme=TM: 'I2 is zero later for larger p' (the TT figure's) is n/a", function()
    local c = claims("vmi-fig6.5", { "scheme=TM" })
    assert.are.equal("n/a", c.I2_zero_later.holds)
    assert.are.equal("yes", c.amplitude_decreases.holds) -- a statement of both trapezoidal schemes
  end)
  it("vmi-fig6.8 scheme=MM: the ordering MM < TM < TT is n/a (it compared MM with itself)", function()
    local c = claims("vmi-fig6.8", { "T=2", "scheme=MM" })
    assert.are.equal("n/a", c.ordering.holds)
    assert.falsy(c.ordering.reproduced:find("MM / TM / MM", 1, true))
  end)
end)

describe("referee (vmi): premises and parameters", function()
  it("vmi-fig6.5 dT=0.02: 'ΔT = 0.03 is near the instability' is compared only at ΔT = 0.03", function()
    local c = claims("vmi-fig6.5", { "dT=0.02", "p=2,5", "T=60" })
    assert.are.equal("n/a", c.single_rate_stability.holds)
    assert.truthy(c.single_rate_stability.at:find("dT = 0.03", 1, true))
  end)
  it("vmi-fig6.9 g=0: L1, L2 are conserved without gravity, so 'not conserved' is n/a, not no", function()
    local c = claims("vmi-fig6.9", { "T=5", "g=0" })
    assert.are.equal("n/a", c.L1_L2_vary.holds)
    assert.are.equal("yes", c.L3_conserved.holds)
  end)
  it("vmi-fig6.9 TT p=1: a drift already 1e-4 of the tolerance cannot fall with it: n/a, not no", function()
    local c = claims("vmi-fig6.9", { "T=10", "p=1", "tol_study=1e-10", "scheme=TT" })
    assert.are.equal("n/a", c.L3_follows_tolerance.holds)
    local d = claims("vmi-fig6.9", { "T=5", "p=2,20", "tol=1e-6", "tol_study=1e-7,1e-9,1e-11" })
    assert.are.equal("yes", d.L3_follows_tolerance.holds) -- p = 20 not judged (3.1e-11 at tolerance 1e-6)
    assert.truthy(d.L3_follows_tolerance.reproduced:find("not judged", 1, true))
  end)
  it("vmi-fig6.12 with ΔT a factor 5 apart: 'rates between 1 and 2' is n/a, not no", function()
    local c = claims("vmi-fig6.12", { "p=5", "dT=0.1,0.02,0.005,0.001,0.0002,5e-05,2e-05", "T=0.2", "href=1e-6" })
    assert.are.equal("n/a", c.p_mac_between.holds)
    assert.are.equal("yes", c.q_mic_2_to_1.holds)
  end)
  it("a failed 'settled' premise never reads as if it held (0.1008 is not '0.10, at most 0.1')", function()
    assert.are.equal(3, V.against(0.10084, 0.1))
    assert.are.equal(2, V.against(0.23, 0.1))
    assert.are.equal(2, V.against(0.004, 0.1))
    local c = claims("vmi-fig6.16", { "--quick" })
    assert.are.equal("n/a", c.order1_q_mic.holds)
    assert.truthy(c.order1_q_mic.reproduced:find("differ by 0.101, at most 0.1", 1, true))
  end)
end)

describe("referee (vmi): counts of the work study", function()
  it("vmi-fig6.18 with the Verlet guess: schemes with no Newton iteration are not counted as failures", function()
    local c = claims("vmi-fig6.18", { "p=1,2,4", "T=1", "stab_p=100", "stab_T=20", "dt=0.01", "predictor=verlet", "stab_predictor=drift" })
    assert.are.equal("yes", c.newton_total_falls.holds)
    assert.are.equal("2 of 2 steps in p", c.newton_total_falls.evidence:match("^%d+ of %d+ steps in p"))
  end)
  it("vmi-fig6.18 p=50,5: the counts are labelled with their p (sorted), not the list's order", function()
    local c = claims("vmi-fig6.18", { "p=50,5", "T=2", "stab_p=500", "stab_T=20", "dt=0.002", "schemes=MM" })
    assert.truthy(c.newton_total_falls.reproduced:find("p = 5 / 50: MM: 381 / 42", 1, true), c.newton_total_falls.reproduced)
  end)
  it("vmi-fig6.19 p=200,20,50, Verlet first: range p = 20..200, TM and TT (no assembly) not judged", function()
    local c = claims("vmi-fig6.19", { "p=200,20,50", "T=2", "predictors=verlet,drift", "fit_pmin=20" })
    assert.are.equal("yes", c.t_jacobi_linear.holds)
    assert.truthy(c.t_jacobi_linear.reproduced:find("over p = 20..200", 1, true))
  end)
end)

describe("referee (vmi): Fig. 5.1 texts", function()
  it("pmax=1: no 'p = 2..1' range; the p = 2 bound is not called the infimum over p ≥ 2", function()
    local c = claims("vmi-fig5.1", { "pmax=1" })
    assert.falsy(c.lemma51_mid.reproduced:find("2..1", 1, true))
    assert.falsy(c.stated_mid_p2.reproduced:find("infimum", 1, true))
    assert.truthy(c.stated_mid_p3.reproduced:find("infimum over p ≥ 3", 1, true))
  end)
end)
