-- Calvo & Sanz-Serna Tables 2.1-2.3: the published cells, reproduced fresh (in-process, the same
-- sweep the scenarios run) and compared with paper/reference/ cell by cell.
local S = require "scenario"
local cs = require "cs_tables"

local function sweep(id, method)
  local sc = S.new { id = id, params = cs.params {
    { "omega", {}, "", "" }, { "H", {}, "", "" } } }
  local ref = assert(sc:reference())
  local P = sc:parse {}
  local oms, Hs, seen = {}, {}, {}
  for _, r in ipairs(ref) do
    if not seen["o" .. r.omega] then oms[#oms + 1], seen["o" .. r.omega] = r.omega, true end
    if not seen["H" .. r.H] then Hs[#Hs + 1], seen["H" .. r.H] = r.H, true end
  end
  P.omega, P.H = oms, Hs
  local rows = cs.run(setmetatable({ progress_start = function() end, progress = function() end },
                                   { __index = sc }), P, method)
  local by = {}
  for _, r in ipairs(rows) do by[string.format("%.12g|%.12g", r.H, r.omega)] = r end
  return ref, by
end

local function lastdigit(p) return 10 ^ (math.floor(math.log10(math.abs(p))) - 2) end

local function check(id, method, rtol_error)
  local ref, by = sweep(id, method)
  assert.is_true(#ref >= 12)
  for _, p in ipairs(ref) do
    local r = by[string.format("%.12g|%.12g", p.H, p.omega)]
    local where = string.format("%s H=%g omega=%g", id, p.H, p.omega)
    assert.are.equal(p.microsteps, r.microsteps, where .. " microsteps")
    assert.is_true(S.agrees_digits(r.averaged_error, p.averaged_error, 3),
                   string.format("%s Averaged: %.5e vs %.2e", where, r.averaged_error, p.averaged_error))
    if rtol_error then
      assert.is_true(math.abs(r.error - p.error) <= rtol_error * p.error,
                     string.format("%s: %.5e vs %.2e", where, r.error, p.error))
    else
      assert.is_true(math.abs(r.error - p.error) <= lastdigit(p.error) * (1 + 1e-9),
                     string.format("%s: %.5e vs %.2e (more than one unit of the 3rd digit)", where, r.error, p.error))
    end
  end
end

describe("published tables", function()
  it("Table 2.1 (synchronous): every cell within 5%, microsteps and Averaged exact", function()
    check("cs-table2.1", { preset = "cs1", kernel = "exponential", periods = 40 }, 0.05)
  end)
  it("Table 2.2 (asynchronous, exponential): every cell within one unit of its 3rd digit", function()
    check("cs-table2.2", { preset = "cs2", kernel = "exponential", periods = 40, half_window = true })
  end)
  it("Table 2.3 (asynchronous, simple filtering): every cell within one unit of its 3rd digit", function()
    check("cs-table2.3", { preset = "cs2", kernel = "uniform", periods = 1, half_window = true })
  end)
end)
