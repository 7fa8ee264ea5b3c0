-- The defects the vmi referee left (issue 27, item 6, second round; /work/issues/left/vmi.md): each
-- case reruns a scenario off the paper's parameters (small, about a second each) with the referee's
-- command and checks the verdict a referee rejected before the fix.
local U = require "testutil"

local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- Run scenarios/<id>.lua with the arguments (a list) into a temporary directory; returns its
-- claims rows by key and the directory's summary table rows (tables/<id>.tsv, when asked).
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

describe("fix (vmi) 1: a Newton tolerance below the residual's round-off floor", function()
  it("vmi-fig6.9 T=5 tol=1e-12 tol_study=1e-6,1e-13: n/a naming the floor, not 'no'", function()
    local c = claims("vmi-fig6.9", { "T=5", "tol=1e-12", "tol_study=1e-6,1e-13" })
    assert.are.equal("n/a", c.L3_follows_tolerance.holds)
    assert.truthy(c.L3_follows_tolerance.reproduced:find("round-off floor", 1, true))
  end)
  it("a p whose floor lies above the smallest tolerance is not judged; the others are", function()
    local c = claims("vmi-fig6.9", { "T=5", "p=1,10", "tol_study=1e-6,5e-13" })
    assert.are.equal("yes", c.L3_follows_tolerance.holds)
    assert.truthy(c.L3_follows_tolerance.reproduced:find("below the round-off floor: p = 10", 1, true))
  end)
  it("the floor is m ulp(q)/Δt of the initial state (spring ring: m = 2, |q| up to 2.4, Δt = ΔT/p)", function()
    local V = require "kapitza.papers.vmi_claims"
    local m = V.model("SR", {})
    assert.are.equal(2 * 2 ^ -51 / 0.001, V.residual_floor(m, 0.01, 10))
    assert.are.equal(2 * 2 ^ -51 / 0.01, V.residual_floor(m, 0.01, 1))
  end)
end)
