-- scenario.lua -- what every scenario shares: the command line, output files, progress, and the
-- published-vs-reproduced comparison.
--
--   local S = require "kapitza.scenario"
--   local sc = S.new{ id = "cs-table2.2", title = "...", params = {
--       { "omega", {1e4, 1e6, 1e8}, "s^-1", "vibration frequencies (list)" },
--       { "H", {1/10, 1/20}, "s", "macro steps (list)" },
--       { "l", 0.2, "m", "rod length" },
--       { "scheme", "MM", "", "string parameter", choices = {"MM", "TM"} },
--     }, quick = { H = {1/10} } }
--   local P = sc:parse(arg)          -- P.omega, P.H, P.l ... ; P.out, P.quick
--   sc:write_tsv("tables/cs-table2.2.tsv", {"H", "omega"}, rows)
--
-- Command line: [--out DIR] [--quick] [--force] [--help] [--params] [key=value ...]. A list
-- parameter (its default is a table) takes comma-separated values; numbers are read strictly (see
-- M.number): 0.2, 1e5, 1/160, 2^-10, pi/4, and inf only for a key whose default is infinite. Bad
-- input never reaches a traceback: an unknown key, an unparsable, empty, duplicated or out-of-range
-- value, a list that repeats a value, an --out that cannot be written, a KZ_MAX_WORK that is not a
-- positive number, or a run whose estimated work (spec.work, lib/lua/kapitza/scenario/work.lua) is beyond KZ_MAX_WORK
-- (--force overrides) is a one-line message naming the key and what is allowed, exit status 2,
-- before anything is computed. The rest of the script then runs protected (see M:parse): every file
-- goes to a staging folder DIR/.kz-stage-<id>-<pid> and is moved into place only when the whole run
-- succeeded (under a lock on DIR, so concurrent runs never mix), after which this scenario's old
-- files that the run did not write again are removed; an error raised anywhere (a C status, a Lua
-- error, a full disk) becomes one line "<id>: <message>" (KZ_DEBUG=1 adds the traceback), exit
-- status 2 for a status of the library and 1 otherwise, and nothing is written. A scenario's own
-- os.exit, and SIGINT, SIGTERM, SIGHUP (lib/core/kz_runner.c: even inside a long C call), remove the
-- staging folder too; one left by a killed process (SIGKILL, a crash) is removed by the next run.
local M = {}
M.__index = M

-- A scenario's first require: when the C library cannot be loaded (not built yet), say so in
-- one line and stop, before the script's other modules raise it with a traceback.
do
  local ok, err = pcall(require, "kapitza")
  if not ok then
    io.stderr:write(tostring(err):gsub("\n.*", ""), "\n")
    os.exit(2)
  end
end

M.default_max_work = 2e10 -- force evaluations: about 7 min at 20 ns each

-- The parts of the class, each in its own module (U: the helpers they share).
local U = {}
require("kapitza.scenario.args")(M, U)   -- the command line, the protected run
require("kapitza.scenario.files")(M, U)  -- staging, commit, atomic files, tables
require("kapitza.scenario.figure")(M, U) -- gnuplot figures
require("kapitza.scenario.cells")(M, U)  -- compute cells: a sweep's shards record them, its merge replays them

---------------------------------------------------------------------------------------------------
-- Published vs reproduced
---------------------------------------------------------------------------------------------------

--- 10^e for a whole e, the same in LuaJIT's interpreter and its compiled traces. (Outputs must not
-- depend on whether a loop happened to be JIT-compiled: the interpreter computes x ^ k with pow(),
-- compiled code with repeated multiplication, which can differ in the last bit. So the Lua side
-- writes squares as x * x and decimal powers through this.)
function M.pow10(e) return tonumber(string.format("1e%d", e)) end

--- Round x to `digits` significant digits.
function M.round_sig(x, digits)
  if x == 0 or x ~= x then return x end
  local e = math.floor(math.log10(math.abs(x))) - digits + 1
  local s = M.pow10(e)
  return math.floor(x / s + 0.5) * s
end

--- Does the reproduced value agree with the published one to the printed digits?
function M.agrees_digits(repro, published, digits)
  local a = M.round_sig(repro, digits)
  return math.abs(a - published) <= 1e-9 * math.abs(published)
end

--- Relative difference (repro - published) / |published|.
function M.reldiff(repro, published)
  if published == 0 then return repro == 0 and 0 or math.huge end
  return (repro - published) / math.abs(published)
end

--- Least-squares slope of log(y) against log(x): the fitted order of a convergence curve.
function M.loglog_slope(xs, ys)
  local n, sx, sy, sxx, sxy = #xs, 0, 0, 0, 0
  assert(n >= 2 and #ys == n, "loglog_slope: need two or more (x, y) pairs")
  for i = 1, n do
    local x, y = math.log(xs[i]), math.log(ys[i])
    sx, sy, sxx, sxy = sx + x, sy + y, sxx + x * x, sxy + x * y
  end
  return (n * sxy - sx * sy) / (n * sxx - sx * sx)
end

--- Short scientific notation in the papers' style: 4.04e-01.
function M.sci(x, digits)
  if type(x) ~= "number" then return tostring(x) end
  return string.format("%." .. ((digits or 3) - 1) .. "e", x)
end

--- A Markdown table from a header and rows of strings.
function M.md_table(header, rows, align)
  local out = { "| " .. table.concat(header, " | ") .. " |" }
  local sep = {}
  for j = 1, #header do sep[j] = (align and align[j]) or "---" end
  out[#out + 1] = "|" .. table.concat(sep, "|") .. "|"
  for _, r in ipairs(rows) do out[#out + 1] = "| " .. table.concat(r, " | ") .. " |" end
  return table.concat(out, "\n") .. "\n"
end

---------------------------------------------------------------------------------------------------
-- Progress on stderr: a bar with ETA on a terminal, a few summary lines otherwise.
---------------------------------------------------------------------------------------------------

local ffi_ok, ffi = pcall(require, "ffi")
local sys_isatty = ffi_ok and pcall(ffi.cdef, "int kz_sc_isatty(int fd) __asm__(\"isatty\");")
local function isatty()
  if sys_isatty then return ffi.C.kz_sc_isatty(2) == 1 end
  local ok = os.execute("test -t 2")
  return ok == 0 or ok == true
end

-- elapsed and ETA in wall seconds (os.clock is the process's CPU time: threads would inflate it)
local wall = (function()
  local ok, Ti = pcall(require, "kapitza.timing")
  return ok and Ti.now or os.clock
end)()

function M:progress_start(total, label)
  self.pg = { total = total, done = 0, t0 = wall(), wall0 = os.time(), label = label or self.id,
              tty = isatty(), next_report = 0.25, quiet = os.getenv("KZ_QUIET") ~= nil }
end

function M:progress(what)
  local pg = self.pg
  if not pg then return end
  pg.done = pg.done + 1
  if pg.quiet then return end
  local frac = pg.done / pg.total
  local el = wall() - pg.t0
  local eta = frac > 0 and el * (1 - frac) / frac or 0
  if pg.tty then
    local w = 30
    local n = math.floor(frac * w + 0.5)
    io.stderr:write(string.format("\r%s [%s%s] %3d%% %s ETA %.0fs   ", pg.label, ("#"):rep(n),
                                  ("."):rep(w - n), math.floor(100 * frac), what or "", eta))
    if pg.done == pg.total then io.stderr:write("\n") end
  elseif frac >= pg.next_report or pg.done == pg.total then
    io.stderr:write(string.format("%s: %d/%d done (%.0f%%), %.1fs elapsed%s\n", pg.label, pg.done,
                                  pg.total, 100 * frac, el, what and (", " .. what) or ""))
    while pg.next_report <= frac do pg.next_report = pg.next_report + 0.25 end
  end
end
return M
