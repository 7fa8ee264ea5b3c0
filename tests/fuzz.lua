-- fuzz.lua -- the scenario contract under random and extreme values (used by tests/fuzz_spec.lua;
-- also runnable alone to explore: luajit tests/fuzz.lua [cases] [seed] [timeout] [id-pattern]).
--
-- Every scenario's keys are read from its --help (two lines per key: "  key  help ... (one of
-- a, b)" then "  default: d; allowed: >= lo and <= hi, whole"). A case gives ONE key one value
-- (huge, tiny, negative, zero, nan, inf, garbage text, empty, a list where one number is
-- expected, lists of the wrong length or with an empty item, the allowed extremes, a random
-- value in the allowed range) in --quick, into a fresh --out holding one sentinel file, and the
-- contract is checked:
--   exit 0: every file the scenario writes at its defaults (its files in paper/data,
--           paper/tables, paper/figures) is there, no `nan` in any table or data file, no cell
--           that is inf, no staging folder;
--   exit 2: exactly one line on stderr, naming the key; --out holds only the sentinel;
--   anything else (a traceback's exit 1, a signal, the time limit) breaks the contract.
-- The cases run with KZ_MAX_WORK = M.max_work, so a scenario with a work estimate refuses a
-- long run at once; one without runs into the time limit.
local M = {}

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/../lib/lua/?.lua;" .. here .. "/?.lua;" .. package.path
local U = require "testutil"

local q = U.q -- shell quoting

--- The work limit of the cases (KZ_MAX_WORK, force evaluations): 4 times the largest estimate of
-- a --quick run at its defaults (atlas-pendulum, 5.2e7), so that a value making a run long is
-- refused by the scenario's work estimate within the time limit instead of running for minutes.
M.max_work = 2e8

--- The scenario ids (scenarios/*.lua), sorted.
function M.scenarios()
  local t = {}
  for _, f in ipairs(U.files(U.root .. "/scenarios")) do
    if f:match("^[^/]+%.lua$") then t[#t + 1] = f:gsub("%.lua$", "") end
  end
  return t
end

--- The keys of a --help text: {name, default (string), list (bool), numeric (bool), choices
-- (list or nil), min, max, positive, integer}. Tolerant: a key is a line "  name  text" followed
-- by a line "  default: ..."; lines that are not such a pair are skipped.
function M.keys(help)
  local lines, keys = {}, {}
  for l in (help .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = l end
  for i = 1, #lines - 1 do
    local name, text = lines[i]:match("^%s+([%a_][%w_]*)%s+(.*)$")
    local rest = lines[i + 1]:match("^%s+default:%s*(.*)$")
    if not name then name, text = lines[i]:match("^%s+([%a_][%w_]*)%s*$"), "" end
    if name and rest then
      local d = rest:match("^(.-);%s*allowed:") or rest:match("^(.-),%s*whole%s*$") or rest
      local k = { name = name, default = d, text = text }
      local choices = text:match("%(one of ([^)]*)%)")
      if choices then
        k.choices = {}
        for c in choices:gmatch("[^,%s]+") do k.choices[#k.choices + 1] = c end
      end
      k.list = d:find(",", 1, true) ~= nil or text:find("(list", 1, true) ~= nil
      k.numeric = not k.choices
      for item in (d .. ","):gmatch("([^,]*),") do
        if not tonumber(item) then k.numeric = false end
      end
      local allowed = rest:match("allowed:%s*(.*)$") or ""
      k.min = tonumber(allowed:match(">=%s*(%S+)") and allowed:match(">=%s*([^%s,;]+)"))
      k.max = tonumber(allowed:match("<=%s*([^%s,;]+)"))
      k.positive = allowed:match("^>%s*0") ~= nil
      k.integer = rest:find("whole", 1, true) ~= nil
      keys[#keys + 1] = k
    end
  end
  return keys
end

-- A small deterministic generator (the same cases on every LuaJIT build).
local function rng(seed)
  local s = (seed or 1) % 2147483647
  if s <= 0 then s = s + 2147483646 end
  return function(n) -- 1..n, or [0, 1) without n
    s = (s * 48271) % 2147483647
    if n then return 1 + s % n end
    return s / 2147483647
  end
end

local function num(x, integer)
  if integer then x = math.floor(x + 0.5) end
  if x == math.floor(x) and math.abs(x) < 1e15 then return string.format("%d", x) end
  return string.format("%.6g", x)
end

--- The candidate values of one key: {class, value} pairs.
function M.values(k, rand)
  local v = {}
  local function add(class, val) v[#v + 1] = { class = class, value = val } end
  add("empty", "")
  add("garbage", "banana")
  if k.numeric then
    local first = k.default:match("^[^,]*")
    for _, x in ipairs { "1e300", "1e-300", "-1", "0", "nan", "inf", "-inf", "1e-320", "0x10", "1..2", "2*", "1,,2" } do
      add(x:match("^%-?%d") and "number " .. x or "text " .. x, x)
    end
    if not k.list then add("list for a number", first .. "," .. first) end
    if k.list then
      add("one-item list", first)
      add("repeated items", first .. "," .. first)
      local long = {}
      for i = 1, 12 do long[i] = first end
      add("long list", table.concat(long, ","))
      local items = {}
      for item in k.default:gmatch("[^,]+") do table.insert(items, 1, item) end
      if #items > 1 then add("reversed list", table.concat(items, ",")) end
    end
    local lo, hi = k.min, k.max
    if k.positive and not lo then lo = 1e-6 end
    if lo then add("allowed minimum", num(lo, k.integer)) end
    if hi then add("allowed maximum", num(hi, k.integer)) end
    if lo and hi then
      local x
      if lo > 0 then x = math.exp(math.log(lo) + rand() * (math.log(hi) - math.log(lo)))
      else x = lo + rand() * (hi - lo) end
      add("random allowed", num(x, k.integer))
      add("random allowed", num(tonumber(first) * (0.5 + rand()), k.integer))
    end
  elseif k.choices then
    add("unknown choice", "nosuch")
    add("valid choice", k.choices[rand(#k.choices)])
    if not k.list then add("two choices", k.choices[1] .. "," .. k.choices[#k.choices]) end
  else
    add("garbage in a name", k.default:gsub("[^,]+$", "%0-nosuch"))
    add("garbage in a name", "x" .. k.default)
  end
  return v
end

--- The files the scenario writes at its defaults: its own files in paper/{data,tables,figures}
-- (<id>.<ext> or <id>-<anything>, as lib/lua/kapitza/scenario.lua's commit owns them).
function M.expected(id, with_figures)
  local t = {}
  for _, sub in ipairs { "data", "tables", "figures" } do
    if sub ~= "figures" or with_figures then
      local p = io.popen(string.format("ls -A %s 2>/dev/null", q(U.root .. "/paper/" .. sub)))
      for name in p:lines() do
        local stem = name:gsub("%.[^.]*$", "")
        if stem == id or name:sub(1, #id + 1) == id .. "-" then t[#t + 1] = sub .. "/" .. name end
      end
      p:close()
    end
  end
  return t
end

--- Every case of every scenario (ids: list), in a fixed order: {id, key, class, value}.
function M.all_cases(ids, seed)
  local rand = rng(seed)
  local cases = {}
  for _, id in ipairs(ids) do
    local _, help = U.run("luajit scenarios/" .. id .. ".lua --help")
    for _, k in ipairs(M.keys(help)) do
      for _, v in ipairs(M.values(k, rand)) do
        cases[#cases + 1] = { id = id, key = k.name, class = v.class, value = v.value }
      end
    end
  end
  return cases
end

-- Value classes that a scenario should refuse at once (or accept quickly): most cases are drawn
-- from them; the accepted extremes and random allowed values may run the whole --quick sweep.
local slow_class = { ["allowed maximum"] = true, ["random allowed"] = true, ["long list"] = true }

--- A deterministic subset: per scenario, `per` cases drawn with the seed (all if fewer), of which
-- at most `slow` (default per/3) from the classes that run rather than refuse.
function M.pick(cases, per, seed, slow)
  slow = slow or math.floor(per / 3)
  local rand = rng(seed + 7)
  local by, order = {}, {}
  for _, c in ipairs(cases) do
    if not by[c.id] then by[c.id] = {}; order[#order + 1] = c.id end
    table.insert(by[c.id], c)
  end
  local out = {}
  for _, id in ipairs(order) do
    local list = by[id]
    for i = #list, 2, -1 do -- Fisher-Yates with the generator
      local j = rand(i)
      list[i], list[j] = list[j], list[i]
    end
    local taken, nslow = 0, 0
    for _, c in ipairs(list) do
      if taken >= per then break end
      local isslow = slow_class[c.class]
      if not isslow or nslow < slow then
        out[#out + 1], taken = c, taken + 1
        if isslow then nslow = nslow + 1 end
      end
    end
  end
  return out
end

local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

-- A file name's shape: its digits and the digits' neighbours folded, so that files named after a
-- list's values (vmi-fig6.3-p10.tsv for p = 10) match whatever values the run was given.
local function shape(f) return (f:gsub("%d[%d.e+-]*", "#")) end

-- What is wrong with the written outputs of a successful run (nil when nothing).
local function check_outputs(dir, id, with_figures, allow_nan)
  local files, have, shapes = U.files(dir), {}, {}
  for _, f in ipairs(files) do have[f], shapes[shape(f)] = true, true end
  for _, f in ipairs(M.expected(id, with_figures)) do
    if not have[f] and not shapes[shape(f)] then return "missing output " .. f end
  end
  for _, f in ipairs(files) do
    if f:match("^%.kz%-stage") or f:match("/%.kz%-stage") then return "staging folder left: " .. f end
    if f:match("%.tsv$") or f:match("%.md$") then
      local s = slurp(dir .. "/" .. f) or ""
      local lower = s:lower()
      if lower:find("%f[%w]nan%f[%W]") and not (allow_nan and allow_nan(f)) then return "nan in " .. f end
      if f:match("%.tsv$") then
        for line in s:gmatch("[^\n]+") do
          if not line:match("^#") then
            for cell in line:gmatch("[^\t]+") do
              if cell == "inf" or cell == "-inf" then return "inf cell in " .. f end
            end
          end
        end
      end
    end
  end
end

--- Run one case and check the contract; returns nil when it holds, else {class, detail}.
function M.run(c, opts)
  opts = opts or {}
  local dir = U.tmpdir()
  local out = dir .. "/out"
  os.execute(string.format("mkdir %s && : > %s", q(out), q(out .. "/sentinel")))
  local cmd = string.format("KZ_QUIET=1 KZ_MAX_WORK=%g timeout -s KILL %d luajit scenarios/%s.lua --quick --out %s %s",
                            opts.max_work or M.max_work, opts.timeout or 10, c.id, q(out), q(c.key .. "=" .. c.value))
  local st, _, err = U.run(cmd)
  local res
  local lines = {}
  for l in err:gmatch("[^\n]+") do lines[#lines + 1] = l end
  if st == 0 then
    local files = {}
    for _, f in ipairs(U.files(out)) do if f ~= "sentinel" then files[#files + 1] = f end end
    local bad = check_outputs(out, c.id, opts.figures, opts.allow_nan)
    if bad then res = { class = "exit 0, " .. bad:match("^(%S+ %S+)"), detail = bad } end
  elseif st == 2 then
    local left = {}
    for _, f in ipairs(U.files(out)) do if f ~= "sentinel" then left[#left + 1] = f end end
    local stage = io.popen("ls -A " .. q(out)):read("*a")
    if #lines ~= 1 then
      res = { class = "exit 2, not one line", detail = table.concat(lines, " | ") }
    elseif not (lines[1]:find("'" .. c.key .. "'", 1, true) or lines[1]:find("%f[%w_]" .. c.key .. "%f[^%w_]")) then
      res = { class = "exit 2, key not named", detail = lines[1] }
    elseif #left > 0 or stage:find(".kz-stage", 1, true) then
      res = { class = "exit 2, files left", detail = (left[1] or "") .. " " .. stage:gsub("\n", " ") }
    end
  elseif st == 137 or st == 124 then
    res = { class = "time limit", detail = string.format("killed after %d s", opts.timeout or 10) }
  else
    res = { class = "exit " .. st, detail = table.concat(lines, " | "):sub(1, 300) }
  end
  U.rmdir(dir)
  return res
end

-- Exploration from the command line: every failure, one line each.
if arg and arg[0] and arg[0]:match("fuzz%.lua$") then
  local n, seed, tmo, pat = tonumber(arg[1]) or 5, tonumber(arg[2]) or 17, tonumber(arg[3]) or 10, arg[4]
  local ids = {}
  for _, id in ipairs(M.scenarios()) do if not pat or id:match(pat) then ids[#ids + 1] = id end end
  local cases = M.pick(M.all_cases(ids, seed), n, seed)
  local figs = U.run("command -v gnuplot >/dev/null") == 0
  local nbad = 0
  for i, c in ipairs(cases) do
    local r = M.run(c, { timeout = tmo, figures = figs })
    if r then
      nbad = nbad + 1
      print(string.format("FAIL\t%s\t%s=%s\t[%s]\t%s\t%s", c.id, c.key, c.value, c.class, r.class, r.detail))
    end
    if i % 50 == 0 then io.stderr:write(i, "/", #cases, "\n") end
  end
  print(string.format("%d cases, %d failures", #cases, nbad))
end

return M
