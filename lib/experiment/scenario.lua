-- scenario.lua -- what every scenario shares: the command line, output files, progress, and the
-- published-vs-reproduced comparison.
--
--   local S = require "scenario"
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
-- positive number, or a run whose estimated work (spec.work, lib/experiment/work.lua) is beyond KZ_MAX_WORK
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

-- The runner's system calls (lib/core/kz_runner.c): a signal guard for the staging folder, removal
-- without a shell, a lock on the output directory, whether a process is alive. An older build of
-- the library without them (KZ_LIB) still runs, with a shell's rm and without guard or lock.
local runner
do
  local kz = package.loaded.kapitza
  if kz and pcall(function() return kz.C.kz_runner_guard, kz.C.kz_runner_alive end) then
    local ffi = require "ffi"
    pcall(ffi.cdef, "char *strerror(int errnum);")
    runner = { C = kz.C, ffi = ffi }
  end
end

local function die(id, msg)
  if M.current then M.current:discard() end
  io.stderr:write(string.format("%s: %s\n", id, msg))
  os.exit(2)
end

-- Numbers are read by this grammar and nothing else (no spaces anywhere; no '+' or '-' between
-- terms, so '1--2' and '0 .2' are refused):
--   value   := [sign] product          sign := '+' | '-'
--   product := power { ('*' | '/') power }
--   power   := atom [ '^' [sign] atom ]
--   atom    := float | 'pi' | '(' value ')'
--   float   := digits ['.' [digits]] [exp] | '.' digits [exp]     exp := ('e' | 'E') [sign] digits
-- The value must be finite (1/0, 1e400 are refused). The word 'inf' (with a sign) is read by
-- convert, only for a key whose default is infinite.
local function parse_number(s)
  local pos, value = 1, nil
  local function float()
    local a, b = s:find("^%d+%.?%d*", pos)
    if not a then a, b = s:find("^%.%d+", pos) end
    if not a then return nil end
    local _, e = s:find("^[eE][%+%-]?%d+", b + 1)
    b = e or b
    local v = tonumber(s:sub(pos, b))
    pos = b + 1
    return v
  end
  local function atom()
    if s:sub(pos, pos + 1) == "pi" then pos = pos + 2; return math.pi end
    if s:sub(pos, pos) == "(" then
      pos = pos + 1
      local v = value()
      if not v or s:sub(pos, pos) ~= ")" then return nil end
      pos = pos + 1
      return v
    end
    return float()
  end
  local function signed(f)
    local c, sign = s:sub(pos, pos), 1
    if c == "+" or c == "-" then pos = pos + 1; sign = c == "-" and -1 or 1 end
    local v = f()
    return v and sign * v
  end
  local function power()
    local v = atom()
    if v and s:sub(pos, pos) == "^" then
      pos = pos + 1
      local e = signed(atom)
      v = e and v ^ e
    end
    return v
  end
  local function product()
    local v = power()
    while v do
      local op = s:sub(pos, pos)
      if op ~= "*" and op ~= "/" then break end
      pos = pos + 1
      local w = power()
      if not w then return nil end
      if op == "*" then v = v * w else v = v / w end
    end
    return v
  end
  value = function() return signed(product) end
  local v = value()
  if not v or pos <= #s or v ~= v or v == math.huge or v == -math.huge then return nil end
  return v
end

--- Parse a number written as a decimal, 1e5, a/b, a^b, or with pi (e.g. 2*pi, pi/4), by the
-- strict grammar above; nil for anything else.
function M.number(s)
  if type(s) == "number" then return s end
  if type(s) ~= "string" then return nil end
  return parse_number(s)
end
M.number_forms = "e.g. 0.2, -3, 1e-3, 1/160, 2^-10, pi/4"

-- A numeric parameter that declares no range gets one around its default, so that no value is
-- accepted that is wildly off (1e300, 1e-300): |x| <= 1e6 max(1, |default|), and for a positive
-- one x >= 1e-6 min(1, smallest default). Scenarios declare their own ranges where the physics or
-- the cost says more (spec.work refuses what would not finish).
local function default_range(p)
  local d = type(p[2]) == "table" and p[2] or { p[2] }
  if type(d[1]) ~= "number" then return end
  local big, small = 1, 1
  for _, x in ipairs(d) do
    if x == x and math.abs(x) ~= math.huge then big = math.max(big, math.abs(x)) end
    if x > 0 and x ~= math.huge then small = math.min(small, x) end
  end
  if not p.max and not p.unbounded then p.max = 1e6 * big end
  if not p.min and not p.unbounded then p.min = p.positive and 1e-6 * small or -1e6 * big end
end

--- A new scenario description. spec.params: list of {name, default, unit, help, choices=...,
-- integer=true, min=, max=, positive=true, unbounded=true}; spec.work(P) (optional): the
-- estimated force evaluations of a run and what they are, for refusing runs that would not finish.
function M.new(spec)
  assert(spec.id and spec.params, "scenario needs id and params")
  local sc = setmetatable({ id = spec.id, title = spec.title or spec.id, params = spec.params,
                            quick = spec.quick or {}, byname = {} }, M)
  for _, p in ipairs(spec.params) do
    sc.byname[p[1]] = p
    default_range(p)
  end
  sc.work = spec.work
  M.current = sc
  return sc
end

function M:usage()
  local out = { string.format("usage: luajit scenarios/%s.lua [--out DIR] [--quick] [--force] [key=value ...]",
                              self.id), "", self.title, "", "parameters (key=value; lists comma-separated):" }
  for _, p in ipairs(self.params) do
    local d = p[2]
    if type(d) == "table" then
      local t = {}
      for i, v in ipairs(d) do t[i] = tostring(v) end
      d = table.concat(t, ",")
    end
    local unit = (p[3] and p[3] ~= "") and (" [" .. p[3] .. "]") or ""
    local ch = p.choices and (" (one of " .. table.concat(p.choices, ", ") .. ")") or ""
    local rg = ""
    if p.min or p.max or p.positive then
      rg = string.format("; allowed: %s%s%s", p.min and (">= " .. tostring(p.min)) or (p.positive and "> 0" or ""),
                         (p.max and (p.min or p.positive)) and " and " or "", p.max and ("<= " .. tostring(p.max)) or "")
    end
    if p.integer then rg = rg .. ", whole" end
    for _, x in ipairs(type(p[2]) == "table" and p[2] or { p[2] }) do
      if x == math.huge or x == -math.huge then rg = rg .. ", or " .. tostring(x) break end
    end
    out[#out + 1] = string.format("  %-12s %s%s%s\n  %12s default: %s%s", p[1], p[4] or "", unit, ch, "", d, rg)
  end
  out[#out + 1] = ""
  out[#out + 1] = "  --out DIR    output root (default: paper): DIR/data, DIR/tables"
  local changes = ""
  if next(self.quick) then
    local q = {}
    for k in pairs(self.quick) do q[#q + 1] = k end
    table.sort(q)
    changes = " (changes: " .. table.concat(q, ", ") .. ")"
  end
  out[#out + 1] = "  --quick      a smaller run for smoke tests" .. changes
  out[#out + 1] = string.format("  --force      run even when the estimated work is beyond the limit (KZ_MAX_WORK, default %.2g)",
                                M.default_max_work)
  if self.work then
    local P = { quick = false, force = false, out = "paper" }
    for _, p in ipairs(self.params) do P[p[1]] = p[2] end
    local ok, n, what = pcall(self.work, P)
    if ok and type(n) == "number" then
      out[#out + 1] = string.format("               (estimated work at the defaults: about %.2g %s)", n, what or "force evaluations")
    end
  end
  return table.concat(out, "\n")
end

--- The parameters, machine-readable (--params; for generated tests and tools): a header line,
-- then per parameter its key, whether it is a list (1/0), whether an optional list may be
-- emptied by 'key=' (1/0), whether its values are whole numbers (1/0), its range (min, max:
-- empty when none; a positive key without a min has min 0), its default and its --quick value
-- (empty when --quick keeps the default), values comma-separated as key=value takes them back
-- (M.fmt: %.17g).
function M:params_tsv()
  local function show(v)
    if v == nil then return "" end
    local t = {}
    for i, x in ipairs(type(v) == "table" and v or { v }) do t[i] = M.fmt(x) end
    return table.concat(t, ",")
  end
  local out = { "key\tlist\toptional\tinteger\tmin\tmax\tdefault\tquick" }
  for _, p in ipairs(self.params) do
    out[#out + 1] = table.concat({ p[1], type(p[2]) == "table" and 1 or 0, p.optional and 1 or 0, p.integer and 1 or 0,
                                   show(p.min or (p.positive and 0 or nil)), show(p.max), show(p[2]),
                                   show(self.quick[p[1]]) }, "\t")
  end
  return table.concat(out, "\n") .. "\n"
end

--- Are two parameter values the same: numbers equal to 1e-12 relative (1/10 and 0.1), lists
-- item by item, anything else by ==.
function M.same(a, b)
  if type(a) == "number" and type(b) == "number" then return a == b or math.abs(a - b) <= 1e-12 * math.max(math.abs(a), math.abs(b)) end
  if type(a) == "table" and type(b) == "table" then
    if #a ~= #b then return false end
    for i = 1, #a do if not M.same(a[i], b[i]) then return false end end
    return true
  end
  return a == b
end

--- The first value of a list that repeats an earlier one (M.same), or nil.
function M.repeated(list)
  for i = 2, #list do
    for j = 1, i - 1 do
      if M.same(list[i], list[j]) then return list[i] end
    end
  end
end

--- The message refusing a list parameter that repeats a value (a repeated run would write
-- duplicate rows and fit slopes through coincident points).
function M.repeat_message(key, v)
  return string.format("parameter '%s': the value %s is given twice", key, type(v) == "number" and string.format("%.6g", v) or tostring(v))
end

local function convert(sc, p, raw)
  local d = p[2]
  local function one(s)
    if type(d) == "string" or (type(d) == "table" and type(d[1]) == "string") then
      if p.choices then
        for _, c in ipairs(p.choices) do if c == s then return s end end
        die(sc.id, string.format("parameter '%s': '%s' is not one of %s", p[1], s,
                                 table.concat(p.choices, ", ")))
      end
      return s
    end
    local v = M.number(s)
    local word = s:lower():match("^([%+%-]?)inf$") or s:lower():match("^([%+%-]?)infinity$")
    if word then -- an infinite value only where the key's default is that infinity
      local inf = word == "-" and -math.huge or math.huge
      for _, x in ipairs(type(d) == "table" and d or { d }) do
        if x == inf then return inf end
      end
      die(sc.id, string.format("parameter '%s': '%s' is not allowed here (a finite number, %s)", p[1], s, M.number_forms))
    end
    if v == nil then
      die(sc.id, string.format("parameter '%s': cannot read '%s' as a number (%s)", p[1], s, M.number_forms))
    end
    if p.integer and v ~= math.floor(v) then
      die(sc.id, string.format("parameter '%s': '%s' is not a whole number", p[1], s))
    end
    local function range()
      local lo = p.min and (">= " .. tostring(p.min)) or (p.positive and "> 0")
      local hi = p.max and ("<= " .. tostring(p.max))
      return "allowed: " .. ((lo and hi) and (lo .. " and " .. hi) or lo or hi or "any finite number")
    end
    if p.min and v < p.min then die(sc.id, string.format("parameter '%s': %s is below %s (%s)", p[1], s, p.min, range())) end
    if p.max and v > p.max then die(sc.id, string.format("parameter '%s': %s is above %s (%s)", p[1], s, p.max, range())) end
    if p.positive and not (v > 0) then die(sc.id, string.format("parameter '%s': %s must be > 0 (%s)", p[1], s, range())) end
    return v
  end
  if type(d) == "table" then
    local t = {}
    for item in (raw .. ","):gmatch("([^,]*),") do
      if item == "" then die(sc.id, string.format("parameter '%s': empty list item in '%s'", p[1], raw)) end
      t[#t + 1] = one(item)
    end
    local r = M.repeated(t)
    if r ~= nil then die(sc.id, M.repeat_message(p[1], r)) end
    return t
  end
  return one(raw)
end

--- Refuse a parameter combination the scenario cannot run (checked before any computation): a
-- one-line message naming the key and what is allowed, exit status 2, nothing written.
function M:fail(msg) die(self.id, msg) end

-- One line for an error raised during the run; exit status 2 for a status of the library (its
-- message starts with the C function's name), 1 otherwise.
local function report(id, err)
  local msg = type(err) == "table" and err.msg or err
  msg = tostring(msg):gsub("\n.*", "")
  -- a failure the library reports (a C status through the binding, "kz_...: ...", or a method
  -- binding's own one-line refusal, "vmi.run: ...", "hmm.run: ...") is the run's answer to its
  -- parameters: exit 2 without the Lua position; anything else is a bug, exit 1
  local lib = msg:match("^[^:]*:%d+: (kz_.*)$") or msg:match("^(kz_.*)$")
              or msg:match("^[^:]*/lib/[%w_/]+%.lua:%d+: ([%w_]+%.[%w_]+: .*)$")
  io.stderr:write(string.format("%s: %s\n", id, lib or msg))
  if os.getenv("KZ_DEBUG") and type(err) == "table" then io.stderr:write(err.tb, "\n") end
  return lib and 2 or 1
end

--- Call f(...) and return its results; an error (e.g. a user model's C source that does not
-- compile, or a Lua error inside its callback) becomes the same one-line message and exit
-- status 2 as sc:fail (the first line of the message, no traceback).
function M:try(f, ...)
  local r = { pcall(f, ...) }
  if not r[1] then die(self.id, (tostring(r[2]):match("^[^\n]*"))) end
  return unpack(r, 2, table.maxn(r))
end

--- Parse the command line; returns the parameter table (with .out, .quick, .force).
--
-- The first call runs the whole script again, protected: the scenario file (arg[0]) is loaded
-- and called under xpcall; inside it this function parses for real and the script goes on. When
-- the protected run returns, its staged files are committed (or discarded after an error) and the
-- process exits, so the unprotected first pass never gets past this call.
function M:parse(argv)
  local caller = debug.getinfo(2, "S").source
  if not M.protecting and arg and arg[0] and caller == "@" .. arg[0] then -- the main script only
    M.protecting = true
    local chunk, lerr = loadfile(arg[0])
    if not chunk then die(self.id, "cannot reload " .. tostring(arg[0]) .. ": " .. tostring(lerr)) end
    -- Every exit of the script discards the staging folder (a scenario's own one-line refusals
    -- call os.exit directly): the output directory is left as it was.
    local real_exit = os.exit
    os.exit = function(code, close)
      local cur = M.current
      if cur and cur.stage then cur:discard() end
      return real_exit(code, close)
    end
    local ok, err = xpcall(function() return chunk(unpack(arg)) end,
                           function(m) return { msg = m, tb = debug.traceback() } end)
    local sc = M.current
    if ok and sc and sc.stage then
      ok, err = xpcall(function() sc:commit() end, function(m) return { msg = m, tb = debug.traceback() } end)
    end
    if ok then
      real_exit(0, true) -- close the Lua state: finalizers run (KZ_PROFILE writes its totals)
    end
    if sc then sc:discard() end
    real_exit(report(sc and sc.id or self.id, err), true)
  end
  argv = argv or {}
  local P, given = { out = "paper", quick = false, force = false }, {}
  local i = 1
  while i <= #argv do
    local a = argv[i]
    if a == "--help" or a == "-h" then
      io.stdout:write(self:usage(), "\n")
      os.exit(0)
    elseif a == "--params" then
      io.stdout:write(self:params_tsv())
      os.exit(0)
    elseif a == "--quick" then
      P.quick = true
    elseif a == "--force" then
      P.force = true
    elseif a == "--out" then
      if not argv[i + 1] then die(self.id, "--out needs a directory") end
      P.out = argv[i + 1]
      i = i + 1
    elseif a:match("^%-%-out=") then
      P.out = a:sub(7)
    elseif a:match("^[%w_]+=") then
      local k, v = a:match("^([%w_]+)=(.*)$")
      local p = self.byname[k]
      if not p then die(self.id, string.format("unknown parameter '%s' (see --help)", k)) end
      if v == "" then die(self.id, string.format("parameter '%s' has no value", k)) end
      if given[k] ~= nil then die(self.id, string.format("parameter '%s' is given twice", k)) end
      given[k] = convert(self, p, v)
    else
      die(self.id, string.format("unknown argument '%s' (see --help)", a))
    end
    i = i + 1
  end
  if P.out == "" then die(self.id, "--out needs a directory") end
  for _, p in ipairs(self.params) do
    local v = p[2]
    if P.quick and self.quick[p[1]] ~= nil then v = self.quick[p[1]] end
    if given[p[1]] ~= nil then v = given[p[1]] end
    P[p[1]] = v
  end
  self.P = P
  local limit = M.default_max_work
  local env = os.getenv("KZ_MAX_WORK")
  if env then
    limit = M.number(env)
    if not limit or not (limit > 0) then
      die(self.id, string.format("KZ_MAX_WORK='%s': not a positive finite number (the work limit, default %.2g)",
                                 env, M.default_max_work))
    end
  end
  if self.work then -- refuse runs that would not finish, with the estimate
    local n, what = self.work(P)
    assert(type(n) == "number", self.id .. ": the work estimate is not a number")
    if not (n <= limit) and not P.force then
      -- name the keys this run sets: among them is what to reduce
      local keys = {}
      for _, p in ipairs(self.params) do if given[p[1]] ~= nil then keys[#keys + 1] = "'" .. p[1] .. "'" end end
      die(self.id, string.format("the run would take about %.2g %s (limit %.2g, KZ_MAX_WORK; about %.2g min at 20 ns each): " ..
        "reduce %s, or pass --force", n, what or "force evaluations", limit, n * 20e-9 / 60,
        #keys > 0 and ("the parameters given (" .. table.concat(keys, ", ") .. ")") or "the parameters"))
    end
  end
  self:open_stage()
  return P
end

---------------------------------------------------------------------------------------------------
-- Files
---------------------------------------------------------------------------------------------------

-- Directories are created once per process, without a shell: mkdir(2) through the FFI on each
-- missing component (EEXIST is fine), `mkdir -p` only if the FFI declaration is unavailable.
local made = {}
local ffi_ok, ffi = pcall(require, "ffi")
local sys_mkdir = ffi_ok and pcall(ffi.cdef, "int kz_sc_mkdir(const char *path, unsigned int mode) __asm__(\"mkdir\");")
local function mkdir_p(dir)
  if dir == "" or made[dir] then return end
  if sys_mkdir then
    local path = dir:sub(1, 1) == "/" and "" or "."
    for part in dir:gmatch("[^/]+") do
      path = path .. "/" .. part
      if not made[path] then
        ffi.C.kz_sc_mkdir(path, tonumber("755", 8))
        made[path] = true
      end
    end
    local f = io.open(dir .. "/.", "r")
    if not f then error("cannot create directory " .. dir, 0) end
    f:close()
  else
    local ok = os.execute(string.format("mkdir -p '%s'", dir:gsub("'", "'\\''")))
    if ok ~= 0 and ok ~= true then error("cannot create directory " .. dir, 0) end
  end
  made[dir] = true
end

--- The command line of a benchmark (scripts/bench-*.lua), which has no keys: --out DIR (default
-- ROOT/paper) and, where `accepts` lists them, --quick, --only a,b,c (a set of names), the script's
-- own flags (accepts.flags = { ["--write-before"] = "before" }: field set to true) and valued
-- options (accepts.values = { ["--reps"] = "reps" }: field set to the string). Anything else is one
-- line on stderr naming the script, and exit status 2.
function M.bench_args(name, argv, root, accepts)
  accepts = accepts or {}
  local o, flags, values = { out = root .. "/paper", quick = false }, accepts.flags or {}, accepts.values or {}
  local i = 1
  while argv[i] do
    local a, v = argv[i], argv[i + 1]
    if a == "--out" and v then o.out = v; i = i + 1
    elseif a == "--quick" and accepts.quick then o.quick = true
    elseif a == "--only" and v and accepts.only then
      o.only = {}
      for k in v:gmatch("[^,]+") do o.only[k] = true end
      i = i + 1
    elseif flags[a] then o[flags[a]] = true
    elseif values[a] and v then o[values[a]] = v; i = i + 1
    else
      io.stderr:write(string.format("%s: unknown argument '%s' (or a missing value)\n", name, a))
      os.exit(2)
    end
    i = i + 1
  end
  return o
end

-- The reason of an I/O error message ("path: No space left on device" -> "No space left on device").
local function reason(err) return (tostring(err):match("([^:]+)$") or tostring(err)):gsub("^%s+", "") end

--- Write `text` to `path` atomically (temporary name in the same folder, then rename). A failure
-- (a full disk, a folder that cannot be written) is an error naming `name` (default: path), and
-- leaves no temporary file.
function M.write_atomic(path, text, name)
  name = name or path
  mkdir_p(path:match("^(.*)/[^/]*$") or "")
  local tmp = path .. ".tmp"
  local f, err = io.open(tmp, "wb")
  if not f then error("cannot write " .. name .. ": " .. reason(err), 0) end
  local ok, werr = f:write(text)
  local cok, cerr = f:close()
  if not ok or not cok then
    os.remove(tmp)
    error("cannot write " .. name .. ": " .. reason(werr or cerr), 0)
  end
  local rok, rerr = os.rename(tmp, path)
  if not rok then
    os.remove(tmp)
    error("cannot write " .. name .. ": " .. reason(rerr), 0)
  end
end

local function pid()
  local ffi = require "ffi"
  if not pcall(function() return ffi.C.getpid end) then ffi.cdef "int getpid(void);" end
  return ffi.C.getpid()
end

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- Remove a folder and everything in it (no shell when the runner is there).
local function remove_tree(path)
  if runner then
    local err = runner.ffi.new("int[1]")
    return runner.C.kz_runner_remove(path, err) == 0
  end
  local st = os.execute("rm -rf -- " .. sh_quote(path))
  return st == 0 or st == true
end

local function list(dir)
  local t = {}
  local p = io.popen(string.format("ls -A %s 2>/dev/null", sh_quote(dir)))
  for l in p:lines() do t[#t + 1] = l end
  p:close()
  return t
end

-- Lua pattern of a literal string.
local function literal(s) return (s:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0")) end

--- The staging folder DIR/.kz-stage-<id>-<pid>: checks that --out can be written before any
-- computation (called by parse). Staging folders of this scenario left by a run that was killed
-- (their process is gone) are removed first. The folder is made new (a folder of that name
-- already there is removed: its process is gone, it had our pid), and a signal (SIGINT, SIGTERM,
-- SIGHUP) from now on removes it before the process dies (lib/core/kz_runner.c).
function M:open_stage()
  local out = self.P.out
  self.created_out = not io.open(out .. "/.", "rb") -- (a directory opens for reading on Linux)
  local ok = pcall(mkdir_p, out)
  local me = pid()
  if ok and runner then
    local pat = "^%.kz%-stage%-" .. literal(self.id) .. "%-(%d+)$"
    for _, name in ipairs(list(out)) do
      local other = tonumber(name:match(pat))
      if other and other ~= me and runner.C.kz_runner_alive(other) == 0 then remove_tree(out .. "/" .. name) end
    end
  end
  local stage = string.format("%s/.kz-stage-%s-%d", out, self.id, me)
  local ok2 = false
  if ok and sys_mkdir then
    for _ = 1, 2 do
      if ffi.C.kz_sc_mkdir(stage, tonumber("755", 8)) == 0 then ok2 = true; break end
      remove_tree(stage)
    end
  elseif ok then
    ok2 = pcall(mkdir_p, stage)
  end
  self.stage = ok2 and stage or nil
  if self.stage and runner then runner.C.kz_runner_guard(stage, self.created_out and out or nil) end
  local probe = ok2 and io.open(stage .. "/.probe", "wb")
  if not probe then
    if not ok2 and self.created_out then os.remove(out) end
    die(self.id, string.format("--out %s: cannot create or write that directory", out))
  end
  probe:close()
  os.remove(stage .. "/.probe")
  made[stage] = true
  self.written = {}
end

--- Path under the output root where this run writes (the staging folder while it runs).
function M:path(rel) return (self.stage or self.P.out) .. "/" .. rel end

-- the files of this scenario in DIR/sub: <id>.<ext> or <id>-<anything>
local function owned(id, name)
  local stem = name:gsub("%.[^.]*$", "")
  return stem == id or name:sub(1, #id + 1) == id .. "-"
end

--- Move the staged files into DIR and remove this scenario's files that the run did not write.
-- Concurrent runs into one DIR: each commit holds an exclusive lock on DIR itself (flock; no lock
-- file), so the files of one run are moved in and the stale ones removed as one step; the run that
-- commits last leaves a complete set of its own files, never a mix. SIGINT, SIGTERM and SIGHUP are
-- held meanwhile (delivered after the commit).
function M:commit()
  local out = self.P.out
  local fd
  if runner then
    runner.C.kz_runner_hold_signals(1)
    local pfd, err = runner.ffi.new("int[1]"), runner.ffi.new("int[1]")
    if runner.C.kz_runner_lock(out, pfd, err) == 0 then
      fd = pfd[0]
    else
      io.stderr:write(string.format("%s: cannot lock --out %s (%s): files moved in without a lock\n", self.id, out,
                                    runner.ffi.string(runner.ffi.C.strerror(err[0]))))
    end
  end
  local ok, err = pcall(function()
    for rel in pairs(self.written) do
      local dst = out .. "/" .. rel
      mkdir_p(dst:match("^(.*)/[^/]*$") or out)
      local rok, rerr = os.rename(self.stage .. "/" .. rel, dst)
      if not rok then error("cannot move " .. rel .. " into " .. out .. ": " .. reason(rerr), 0) end
    end
    for _, sub in ipairs { "data", "tables", "figures" } do
      for _, name in ipairs(list(out .. "/" .. sub)) do
        if owned(self.id, name) and not self.written[sub .. "/" .. name] then os.remove(out .. "/" .. sub .. "/" .. name) end
      end
    end
  end)
  if fd then runner.C.kz_runner_unlock(fd) end
  if ok then self.committed = true end
  remove_tree(self.stage)
  -- a signal that came meanwhile is delivered now, to the guard (the process dies of it, DIR complete)
  if runner then runner.C.kz_runner_hold_signals(0) end
  self:discard()
  if not ok then error(err, 0) end
end

--- Remove the staging folder and whatever is in it.
function M:discard()
  if not self.stage then return end
  remove_tree(self.stage)
  if runner then runner.C.kz_runner_unguard() end
  self.stage = nil
  -- an --out folder this run created and left empty goes too (remove() takes empty folders only)
  if self.created_out and not self.committed then os.remove(self.P.out) end
end

-- A gnuplot string literal (single quotes doubled).
local function gp_quote(s) return "'" .. tostring(s):gsub("'", "''") .. "'" end

-- The exit code of os.execute's result (LuaJIT: the raw wait status; Lua 5.2 mode: true/nil,
-- "exit"/"signal", code) and the signal that killed the command (a shell reports it as 128 + n).
local function exit_status(a, b, c)
  if type(a) == "number" then
    if a % 256 ~= 0 then return -1, a % 128 end
    local code = math.floor(a / 256)
    return code, code > 128 and code < 160 and code - 128 or nil
  end
  if b == "signal" then return -1, c end
  local code = c or (a and 0 or 1)
  return code, code > 128 and code < 160 and code - 128 or nil
end

local function file_size(path)
  local f = io.open(path, "rb")
  if not f then return 0 end
  local n = f:seek("end")
  f:close()
  return n or 0
end

-- Is there a gnuplot that runs at all (cached per process)?
local gnuplot_runs
local function gnuplot_usable()
  if gnuplot_runs == nil then
    gnuplot_runs = exit_status(os.execute("gnuplot --version >/dev/null 2>&1")) == 0
  end
  return gnuplot_runs
end

--- Draw figures/<name>.gp into DIR/figures/<name>.svg from the data this run wrote. The script
-- receives root (the repository, for the style file), datadir and tabledir (this run's DIR/data
-- and DIR/tables) and outfile, plus `vars`: what the run was (series lists as space-separated
-- strings, ranges, labels), so that legends and ranges come from the data, never from the
-- script. Written under a temporary name and renamed. Without a gnuplot that runs (none on the
-- PATH, or one that fails even `gnuplot --version`) the figure is skipped with a message on
-- stderr and the data are written; a working gnuplot that fails on the script, or writes no
-- figure, is an error of the run. Returns true when the figure was drawn. The script: `script`
-- when given, else <name>.gp beside the running scenario file (one kept outside the repository),
-- else the library's figures/<name>.gp.
function M:figure(name, vars, script)
  local kz = require "kapitza"
  local beside = arg and arg[0] and ((arg[0]:match("^(.*)/[^/]*$") or ".") .. "/" .. name .. ".gp")
  local bf = beside and io.open(beside, "rb")
  if bf then bf:close() end
  script = script or (bf and beside) or (kz.root .. "/figures/" .. name .. ".gp")
  local out = self:path("figures/" .. name .. ".svg")
  mkdir_p(self:path("figures"))
  local assigns = { "root=" .. gp_quote(kz.root), "datadir=" .. gp_quote(self:path("data")),
                    "tabledir=" .. gp_quote(self:path("tables")), "outfile=" .. gp_quote(out .. ".tmp") }
  local keys = {}
  for k in pairs(vars or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = vars[k]
    if type(v) == "table" then
      local t = {}
      for i, x in ipairs(v) do t[i] = M.fmt(x) end
      v = table.concat(t, " ")
    end
    assigns[#assigns + 1] = k .. "=" .. (type(v) == "number" and M.fmt(v) or gp_quote(v))
  end
  -- gnuplot's messages go to a file in the staging folder (ours; a temporary file without one)
  local log = self.stage and (self.stage .. "/.gnuplot-" .. name .. ".log") or os.tmpname()
  local cmd = string.format("gnuplot -e %s %s >%s 2>&1", sh_quote(table.concat(assigns, "; ")), sh_quote(script),
                            sh_quote(log))
  local t0 = kz.prof and kz.prof.now()
  local code, sig = exit_status(os.execute(cmd))
  if kz.prof then kz.prof.external(kz.prof.now() - t0) end
  local f = io.open(log, "rb")
  local msg = f and f:read("*a") or ""
  if f then f:close() end
  os.remove(log)
  if code == 0 and file_size(out .. ".tmp") > 0 then
    local rok, rerr = os.rename(out .. ".tmp", out)
    if not rok then error(string.format("cannot write %s/figures/%s.svg: %s", self.P.out, name, reason(rerr)), 0) end
    if self.written then self.written["figures/" .. name .. ".svg"] = true end
    return true
  end
  os.remove(out .. ".tmp")
  if sig == 2 or sig == 15 or sig == 1 then -- gnuplot was interrupted (system() ignores SIGINT meanwhile)
    local ffi = require "ffi"
    pcall(ffi.cdef, "int raise(int sig);")
    ffi.C.raise(sig)
  end
  local first = (msg:match("[^\n]*%S[^\n]*") or ""):gsub("^%s+", "")
  local shown = script:sub(1, #kz.root + 1) == kz.root .. "/" and script:sub(#kz.root + 2) or script
  if not gnuplot_usable() then
    io.stderr:write(string.format("%s: figure %s skipped (%s), the data are written\n", self.id, name,
                                  code == 127 and "gnuplot not found" or ("gnuplot does not run: " .. first)))
    return false
  end
  if code == 0 then
    error(string.format("gnuplot wrote no figure from %s%s", shown, first ~= "" and (": " .. first) or ""), 0)
  end
  error(string.format("gnuplot failed on %s: %s", shown, first ~= "" and first or ("exit status " .. code)), 0)
end

--- Format a value for a data or table file: integers as integers, other numbers %.17g.
function M.fmt(v)
  if type(v) == "number" then
    if v == math.floor(v) and math.abs(v) < 2^53 then return string.format("%d", v) end
    return string.format("%.17g", v)
  end
  return tostring(v)
end

--- Tab-separated text: header line then one row per entry (rows: arrays, or tables keyed by column).
function M.tsv(columns, rows, comments)
  local out = {}
  for _, c in ipairs(comments or {}) do out[#out + 1] = "# " .. c end
  out[#out + 1] = table.concat(columns, "\t")
  for _, row in ipairs(rows) do
    local cells = {}
    for j, c in ipairs(columns) do
      local v = row[c]
      if v == nil then v = row[j] end
      cells[j] = M.fmt(v)
    end
    out[#out + 1] = table.concat(cells, "\t")
  end
  return table.concat(out, "\n") .. "\n"
end

function M:write_tsv(rel, columns, rows, comments)
  self:write_text(rel, M.tsv(columns, rows, comments))
end

function M:write_text(rel, text)
  M.write_atomic(self:path(rel), text, (self.P and self.P.out or ".") .. "/" .. rel)
  if self.written then self.written[rel] = true end
end

--- Read a whitespace- or tab-separated file with a header line ('#' lines skipped).
-- Returns rows keyed by column name (numbers converted where possible), the columns, and the
-- comment lines (without '# ').
function M.read_table(path)
  local f = io.open(path, "rb")
  if not f then return nil, "cannot open " .. path end
  local cols, rows, comments = nil, {}, {}
  for line in f:lines() do
    if line:match("^#") then
      comments[#comments + 1] = line:gsub("^#%s?", "")
    elseif line:match("%S") then
      local cells = {}
      for c in line:gmatch("[^\t]+") do cells[#cells + 1] = c end
      if #cells == 1 then
        cells = {}
        for c in line:gmatch("%S+") do cells[#cells + 1] = c end
      end
      if not cols then
        cols = cells
      else
        local row = {}
        for j, c in ipairs(cols) do row[c] = tonumber(cells[j]) or cells[j] end
        rows[#rows + 1] = row
      end
    end
  end
  f:close()
  return rows, cols, comments
end

--- The published reference table paper/reference/<id>.tsv (always read from the repository,
-- whatever --out says).
function M:reference(name)
  local kz = require "kapitza"
  return M.read_table(kz.root .. "/paper/reference/" .. (name or self.id) .. ".tsv")
end

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

local sys_isatty = ffi_ok and pcall(ffi.cdef, "int kz_sc_isatty(int fd) __asm__(\"isatty\");")
local function isatty()
  if sys_isatty then return ffi.C.kz_sc_isatty(2) == 1 end
  local ok = os.execute("test -t 2")
  return ok == 0 or ok == true
end

function M:progress_start(total, label)
  self.pg = { total = total, done = 0, t0 = os.clock(), wall0 = os.time(), label = label or self.id,
              tty = isatty(), next_report = 0.25, quiet = os.getenv("KZ_QUIET") ~= nil }
end

function M:progress(what)
  local pg = self.pg
  if not pg then return end
  pg.done = pg.done + 1
  if pg.quiet then return end
  local frac = pg.done / pg.total
  local el = os.clock() - pg.t0
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
