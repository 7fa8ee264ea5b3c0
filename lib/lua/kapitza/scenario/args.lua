-- scenario_args.lua -- a scenario's command line (lib/lua/kapitza/scenario.lua documents it): the
-- number grammar, the parameters' conversion and checks, --help and --params, the work limit, the
-- protected run (one-line messages, exit status) and a benchmark's command line. Installed into the
-- scenario class by scenario.lua: require("kapitza.scenario.args")(M, U), U the helpers the parts share.
return function(M, U)

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
-- The value must be finite (1/0, 1e400 are refused), and a literal other than zero must not round
-- to zero (1e-400 is refused). The word 'inf' (with a sign) is read by convert, only for a key
-- whose default is infinite. Nesting too deep for the parser (a few thousand parentheses) is
-- refused like any other unreadable text.
local function parse_number(s)
  local pos, value = 1, nil
  local function float()
    local a, b = s:find("^%d+%.?%d*", pos)
    if not a then a, b = s:find("^%.%d+", pos) end
    if not a then return nil end
    local _, e = s:find("^[eE][%+%-]?%d+", b + 1)
    b = e or b
    local text = s:sub(pos, b)
    local v = tonumber(text)
    pos = b + 1
    -- a literal too small for a double (1e-400) is refused, not read as 0 (omega=1e-400 would be
    -- "no forcing")
    if v == 0 and text:match("^[^eE]*[1-9]") then return nil end
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
  local ok, v = pcall(parse_number, s) -- a Lua stack overflow on deep nesting: unreadable, not a crash
  return ok and v or nil
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
-- estimated force evaluations of a run and what they are, for refusing runs that would not finish;
-- spec.command (optional): the command line --help shows (default luajit scenarios/<id>.lua).
function M.new(spec)
  assert(spec.id and spec.params, "scenario needs id and params")
  local sc = setmetatable({ id = spec.id, title = spec.title or spec.id, params = spec.params,
                            quick = spec.quick or {}, byname = {} }, M)
  for _, p in ipairs(spec.params) do
    sc.byname[p[1]] = p
    default_range(p)
  end
  sc.work = spec.work
  sc.command = spec.command -- how --help names the command (default: luajit scenarios/<id>.lua)
  M.current = sc
  return sc
end

function M:usage()
  local out = { string.format("usage: %s [--out DIR] [--quick] [--force] [key=value ...]",
                              self.command or ("luajit scenarios/" .. self.id .. ".lua")), "", self.title, "",
                "parameters (key=value; lists comma-separated):" }
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
              or msg:match("^(usermodel '[%w_]+': .*)$") -- a user model's own fault, named (lib/lua/kapitza/usermodel)
  -- a method's refusal names the keys this run changed (the kz_ ones do already, kz.fail)
  if lib and not lib:find("keys changed from the defaults", 1, true) then
    local ok, kz = pcall(require, "kapitza")
    if ok and kz.changed_keys then lib = lib .. kz.changed_keys() end
  end
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

--- Run body() protected, as the main script of a run: every exit (the script's own os.exit, a
-- one-line refusal) discards the staging folder; when body returns, the current scenario's staged
-- files are committed and the process exits 0; an error raised anywhere becomes one line
-- "<label>: <message>" (label: o.label, default the current scenario's id), exit status 2 for a
-- status of the library and 1 otherwise, and nothing is written. Never returns. M:parse runs a
-- scenario file this way; a driver module running a scenario for its file (lib/lua/kapitza/atlas/run.lua)
-- calls it directly, and its sc:parse then parses for real.
function M.protected(body, o)
  o = o or {}
  M.protecting = true
  -- Every exit of the script discards the staging folder (a scenario's own one-line refusals
  -- call os.exit directly): the output directory is left as it was.
  local real_exit = os.exit
  os.exit = function(code, close)
    local cur = M.current
    if cur and cur.stage then cur:discard() end
    return real_exit(code, close)
  end
  local ok, err = xpcall(body, function(m) return { msg = m, tb = debug.traceback() } end)
  local sc = M.current
  if ok and sc and sc.stage then
    ok, err = xpcall(function() sc:commit() end, function(m) return { msg = m, tb = debug.traceback() } end)
  end
  if ok then
    -- o.status(): the exit status of a run whose outputs are written (default 0)
    real_exit(o.status and o.status() or 0, true) -- close the Lua state: finalizers run (KZ_PROFILE writes its totals)
  end
  if sc then sc:discard() end
  real_exit(report(o.label or (sc and sc.id) or o.id or "kapitza", err), true)
end

--- Is the chunk `level` levels up the stack (1: the caller of this function) the main script
-- (arg[0]), loaded under its own name? (A tool that loads a scenario under another chunk name,
-- scripts/sweep.lua's check of a point, thereby gets a parse without a protected run.)
function M.is_main(level)
  local src = debug.getinfo(level + 1, "S").source
  return not M.protecting and arg ~= nil and arg[0] ~= nil and src == "@" .. arg[0]
end

--- The work limit of a run, in force evaluations: KZ_MAX_WORK, or M.default_max_work; nil and a
-- one-line reason when KZ_MAX_WORK is not a positive finite number. (Scenarios, `kapitza atlas`,
-- `kapitza solve` and the ensemble sweep refuse, before anything runs, work beyond it.)
function M.work_limit()
  local env = os.getenv("KZ_MAX_WORK")
  if not env then return M.default_max_work end
  local v = M.number(env)
  if not v or not (v > 0) or v == math.huge then
    return nil, string.format("KZ_MAX_WORK='%s': not a positive finite number (the work limit, default %.2g)", env, M.default_max_work)
  end
  return v
end

--- Parse the command line; returns the parameter table (with .out, .quick, .force).
--
-- The first call runs the whole script again, protected (M.protected): the scenario file (arg[0])
-- is loaded and called; inside it this function parses for real and the script goes on. When the
-- protected run returns, its staged files are committed (or discarded after an error) and the
-- process exits, so the unprotected first pass never gets past this call.
function M:parse(argv)
  if M.is_main(2) then -- the main script only
    local chunk, lerr = loadfile(arg[0])
    if not chunk then die(self.id, "cannot reload " .. tostring(arg[0]) .. ": " .. tostring(lerr)) end
    M.protected(function() return chunk(unpack(arg)) end, { id = self.id })
  end
  argv = argv or {}
  local P, given = { out = "paper", quick = false, force = false }, {}
  local out_given = false
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
    elseif a == "--out" or a:match("^%-%-out=") then
      -- one output directory: a second --out is refused, as a key given twice is
      if out_given then die(self.id, "--out is given twice") end
      out_given = true
      if a == "--out" then
        if not argv[i + 1] then die(self.id, "--out needs a directory") end
        P.out = argv[i + 1]
        i = i + 1
      else
        P.out = a:sub(7)
      end
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
  local limit, lerr = M.work_limit()
  if not limit then die(self.id, lerr) end
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
  require("kapitza.files").no_sigxfsz() -- a file size limit: an error in one line, not a death midway
  self:open_stage()
  return P
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

U.die = die
end
