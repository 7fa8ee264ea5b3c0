-- The referee pass of issue 27 (item 6) on Calvo, Chartier, Murua & Sanz-Serna (sam-fig3, sam-fig4,
-- sam-fig5): each defect found at off-paper parameters, through the real command line, with the
-- verdict or text a careful referee would accept. Every run is --quick or small (about 1 s here).
local U = require "testutil"

local run = U.run_scenario -- into a fresh directory (the caller removes it)

local claims = U.claims_table -- claim key -> row, and the rows

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

describe("referee sam-fig3/sam-fig4", function()
  it("diff=central4: the printed 8Nn counts the two periods of (25), so the work claims are n/a, with the measured 16Nn", function()
    local dir = run("sam-fig4", "--quick diff=central4")
    local t = claims(dir, "sam-fig4")
    assert.are.equal("n/a", t.sam_work_formula.holds, t.sam_work_formula.reproduced)
    assert.truthy(t.sam_work_formula.reproduced:find("work = 16 × 16 × n", 1, true), t.sam_work_formula.reproduced)
    assert.truthy(t.sam_work_formula.reproduced:find("diff = central4", 1, true), t.sam_work_formula.reproduced)
    assert.are.equal("n/a", t.sam_work_per_n.holds, t.sam_work_per_n.reproduced)
    assert.truthy(t.sam_work_per_n.reproduced:find("256n", 1, true), t.sam_work_per_n.reproduced)
    U.rmdir(dir)
    -- with (25) the same claims hold, their texts measured
    dir = run("sam-fig4", "--quick")
    t = claims(dir, "sam-fig4")
    assert.are.equal("yes", t.sam_work_formula.holds)
    assert.are.equal("work = 8 × 16 × n at every ε and n", t.sam_work_formula.reproduced)
    assert.are.equal("128n", t.sam_work_per_n.reproduced)
    U.rmdir(dir)
  end)

  it("fig4 n=4,...,64: the pre-asymptotic n = 4 (local order 6.65) is left out of the fitted slope: yes, not no", function()
    local dir = run("sam-fig4", "eps=2.44140625e-04,1.220703125e-04 n=4,8,16,32,64 refm=256 eps_bottom=9.765625e-4 N_bottom=2,4")
    local t = claims(dir, "sam-fig4")
    local c = t.sam_ratio_n_doubling
    assert.are.equal("yes", c.holds, c.reproduced)
    assert.truthy(c.reproduced:find("pre-asymptotic ε = 2^-12 n = 4", 1, true), c.reproduced)
    U.rmdir(dir)
  end)

  it("fig4 n up to 128: SAM's error is 0.40 of the conventional one there (the macro error shows): the micro order is n/a, and the printed bending N (read at n = 32→64) too", function()
    local dir = run("sam-fig4", "eps=2.44140625e-04 n=16,32,64,128 refm=256 N_bottom=4,8")
    local t = claims(dir, "sam-fig4")
    assert.are.equal("n/a", t.sam_ratio_n_doubling.holds, t.sam_ratio_n_doubling.reproduced)
    assert.truthy(t.sam_ratio_n_doubling.reproduced:find("the macro error shows", 1, true), t.sam_ratio_n_doubling.reproduced)
    assert.are.equal("n/a", t.bend.holds, t.bend.reproduced)
    assert.truthy(t.bend.reproduced:find("printed finest n, 32→64", 1, true), t.bend.reproduced)
    -- off the paper's parameters the note shows none of the paper's typed numbers
    local md = read(dir .. "/tables/sam-fig4.md")
    assert.is_nil(md:find("2·10⁻⁶", 1, true), md)
    U.rmdir(dir)
  end)

  it("fig3 n=16,32: the errors at n = 16 are O(1) (1.1 and 2.8): no order can be read, n/a, not no; ε quartered is named with its expected ratio", function()
    local dir = run("sam-fig3", "n=16,32 eps=2.44140625e-04,6.103515625e-05 refm=256 eps_bottom=9.765625e-4")
    local t = claims(dir, "sam-fig3")
    assert.are.equal("n/a", t.sam_ratio_n_doubling.holds, t.sam_ratio_n_doubling.reproduced)
    assert.truthy(t.sam_ratio_n_doubling.reproduced:find("saturated", 1, true), t.sam_ratio_n_doubling.reproduced)
    assert.truthy(t.sam_ratio_eps_halving.reproduced:find("(ε ×0.25: expected 4)", 1, true), t.sam_ratio_eps_halving.reproduced)
    U.rmdir(dir)
  end)
end)

describe("referee sam-fig5", function()
  it("eps=2^-8,2^-9: different ode45 step counts (41, 40); the step sequences are compared as step functions of t = eps tau (item 16 of the second round: not a 'no' on the counts alone)", function()
    local dir = run("sam-fig5", "eps=3.90625e-03,1.953125e-03 refm=64")
    local t = claims(dir, "sam-fig5")
    assert.are.equal("partly", t.step_sequence_same.holds, t.step_sequence_same.reproduced)
    assert.truthy(t.step_sequence_same.evidence:find("^54 of 78 step midpoints"), t.step_sequence_same.evidence)
    U.rmdir(dir)
  end)

  it("tol=2^-20: the note gives this run's tolerance and error ratio, not the paper's 2⁻¹⁶ and 'a few times'", function()
    local dir = run("sam-fig5", "eps=1.953125e-03 tol=9.5367431640625e-07 refm=64")
    local md = read(dir .. "/tables/sam-fig5.md")
    assert.is_nil(md:find("2⁻¹⁶", 1, true), md)
    assert.is_nil(md:find("a few times", 1, true), md)
    assert.truthy(md:find("tol = 2⁻²⁰ ≈ 9.5·10⁻⁷", 1, true), md)
    U.rmdir(dir)
  end)
end)
