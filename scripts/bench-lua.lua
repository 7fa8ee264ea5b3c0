-- bench-lua.lua -- does Lua dominate any scenario? For every scenario (its default run, the one
-- `make figures` does), the share of the whole process spent outside the library's C functions.
--
-- Method (sound, and an upper bound on the Lua share): each scenario runs once as its own process,
--   KZ_QUIET=1 KZ_PROFILE=FILE luajit scenarios/<id>.lua --out TMP
-- timed from here on CLOCK_MONOTONIC (wall = the whole process: shell, exec, LuaJIT start-up,
-- loading the header and the library, the scenario, exit). Inside, lib/lua/kapitza/profile.lua times every
-- call into libkapitza (c) and every external program (gnuplot, ext) and writes the totals at
-- exit. Lua = wall - c - ext: everything else, i.e. the interpreter and JIT, string building, file
-- writing, the process start-up and the accounting's own closures. The share is Lua / wall; a
-- second share leaves out the fixed start-up (time before lib/lua/kapitza.lua finished loading and
-- after the script's end), which this also reports (`startup`: a bare `luajit -e` that loads
-- kapitza, median of 5). The clock pair costs ~60 ns and is charged half to C, half to Lua; its
-- total (calls x pair) is printed so that the bias can be bounded. Target (issue 12, item 4):
-- Lua < 2 % of every scenario's run.
--
-- The shares measured before the fixes of issue 12 (commit 6a917f6, same method) are kept in
-- paper/bench/lua-before.tsv and shown beside today's.
--   luajit scripts/bench-lua.lua [--out DIR] [--only id,id,...] [--write-before]
-- writes DIR/bench/lua.{tsv,md} (or, with --write-before, paper/bench/lua-before.tsv).
local root = arg[0]:match("^(.*)/scripts/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local prof = dofile(root .. "/lib/lua/kapitza/profile.lua") -- its clock (KZ_PROFILE is unset here: writes nothing)
local now = prof.now

local cli = S.bench_args("bench-lua", arg, root, { only = true, flags = { ["--write-before"] = "before" } })
local out, only, before_mode = cli.out, cli.only, cli.before or false

local function lines(cmd)
  local t, p = {}, io.popen(cmd)
  for l in p:lines() do t[#t + 1] = l end
  p:close()
  return t
end
local tmp = lines("mktemp -d")[1]
local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- Start-up alone: luajit, the header parsed, the library loaded.
local st = {}
for k = 1, 5 do
  local t0 = now()
  os.execute(string.format("cd %s && luajit -e 'package.path=\"lib/lua/?.lua;\"..package.path; require \"kapitza\"'", q(root)))
  st[k] = now() - t0
end
table.sort(st)
local startup = st[3]

local ids = {}
for _, f in ipairs(lines("ls -1 " .. q(root .. "/scenarios"))) do
  local id = f:match("^(.+)%.lua$")
  if id and (not only or only[id]) then ids[#ids + 1] = id end
end

local rows = {}
for _, id in ipairs(ids) do
  local dir, pf = tmp .. "/" .. id, tmp .. "/" .. id .. ".prof"
  local t0 = now()
  local ok = os.execute(string.format("cd %s && KZ_QUIET=1 KZ_PROFILE=%s luajit scenarios/%s.lua --out %s >/dev/null 2>&1",
                                      q(root), q(pf), id, q(dir)))
  local wall = now() - t0
  if not (ok == 0 or ok == true) then error("bench-lua: scenario " .. id .. " failed") end
  local p, fns = {}, {}
  for _, l in ipairs(lines("cat " .. q(pf))) do
    local k, v = l:match("^(%S+) (%S+)$")
    if k then p[k] = tonumber(v) end
    local name, calls, secs = l:match("^fn (%S+) (%d+) (%S+)$")
    if name then fns[#fns + 1] = { name = name, calls = tonumber(calls), t = tonumber(secs) } end
  end
  table.sort(fns, function(a, b) return a.t > b.t end)
  local span = p.lua_end - p.lua_start
  local lua = wall - p.c_seconds - p.ext_seconds
  local r = { id = id, wall = wall, c = p.c_seconds, ext = p.ext_seconds, lua = lua, lua_share = lua / wall,
              lua_share_run = (span - p.c_seconds - p.ext_seconds) / span, c_calls = p.c_calls,
              clock_bias = p.c_calls * p.clock_pair, top_c = fns[1] and fns[1].name or "" }
  rows[#rows + 1] = r
  io.stderr:write(string.format("bench-lua: %-14s wall %7.3f s  C %7.3f s  gnuplot %6.3f s  Lua %5.1f %% (%5.1f %% after start-up)\n",
                                id, wall, r.c, r.ext, 100 * r.lua_share, 100 * r.lua_share_run))
  os.execute("rm -rf " .. q(dir) .. " " .. q(pf))
end
os.execute("rm -rf " .. q(tmp))

local cols = { "id", "wall", "c", "ext", "lua", "lua_share", "lua_share_run", "c_calls", "clock_bias", "top_c" }
local comments = { "bench-lua: seconds of one default run per scenario (KZ_QUIET, its own process): wall = whole process,",
                   "c = inside libkapitza calls, ext = gnuplot, lua = wall - c - ext; lua_share = lua / wall; lua_share_run",
                   "leaves out process start-up and exit; clock_bias = c_calls x cost of a clock pair (bounds the accounting's bias)",
                   string.format("start-up alone (luajit + header + library): %.4f s", startup) }
if before_mode then
  S.write_atomic(root .. "/paper/bench/lua-before.tsv", S.tsv(cols, rows, comments))
  os.exit(0)
end
S.write_atomic(out .. "/bench/lua.tsv", S.tsv(cols, rows, comments))

local before = {}
for _, r in ipairs(S.read_table(root .. "/paper/bench/lua-before.tsv") or {}) do before[r.id] = r end
local md, worst, over = {}, 0, {}
for _, r in ipairs(rows) do
  local b = before[r.id]
  worst = math.max(worst, r.lua_share)
  if r.lua_share >= 0.02 then over[#over + 1] = r.id end
  md[#md + 1] = { r.id, string.format("%.3f", r.wall), string.format("%.3f", r.c), string.format("%.3f", r.ext),
                  b and string.format("%.1f %%", 100 * b.lua_share) or "–",
                  string.format("%.1f %%", 100 * r.lua_share), string.format("%.1f %%", 100 * r.lua_share_run),
                  tostring(r.c_calls) }
end
S.write_atomic(out .. "/bench/lua.md", "#### Lua never dominates: time outside C per scenario\n\n" ..
  "One default run of each scenario as its own process; C = time inside libkapitza calls (every FFI call timed, " ..
  "lib/lua/kapitza/profile.lua), gnuplot = figures a scenario draws itself, Lua = the rest of the whole process's wall time " ..
  "(interpreter, strings, files, start-up). Before = commit 6a917f6, same method.\n\n" ..
  S.md_table({ "scenario", "wall [s]", "C [s]", "gnuplot [s]", "Lua before", "Lua now", "Lua now, after start-up",
               "C calls" }, md) ..
  string.format("\nStart-up alone (luajit, header, library): %.1f ms. Largest Lua share now: %.1f %%%s.\n", 1e3 * startup,
                100 * worst, #over == 0 and " (every scenario under 2 %)" or
                (" (at or above 2 %: " .. table.concat(over, ", ") .. ")")))
