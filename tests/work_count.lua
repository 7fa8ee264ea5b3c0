-- work_count.lua SCENARIO [ARGS...]: run a scenario and, when it exits, print to stderr one line
-- "work_count <force evaluations>": the sum of the force_evals counters of every report the run
-- made through kapitza.report() (every C call that counts work is given one). Used by
-- tests/scenario_exit_spec.lua to check the scenarios' work estimates against what a run does.
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/../lib/lua/?.lua;" .. package.path
local kz = require "kapitza"
local made, report = {}, kz.report
kz.report = function()
  local r = report()
  made[#made + 1] = r
  return r
end
local script = table.remove(arg, 1)
local argv = { [0] = script }
for i, v in ipairs(arg) do argv[i] = v end
arg = argv
local exit = os.exit
os.exit = function(...)
  local n = 0
  for _, r in ipairs(made) do n = n + tonumber(r.force_evals) end
  io.stderr:write(string.format("work_count %.17g\n", n))
  return exit(...)
end
dofile(script)
