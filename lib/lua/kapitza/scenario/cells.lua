-- scenario_cells.lua -- a scenario's compute cells: the work of one point of a run (one method
-- run at one omega and H, one atlas run at one stiffness and knob), named so that a sweep can
-- compute it in one process and a merge can judge it in another. Installed into the scenario
-- class by scenario.lua: require("kapitza.scenario.cells")(M, U).
--
--   local Q, work = sc:cell("hmm", { omega = omega, H = H }, function() return hmm.run(...) end)
--
-- In a normal run sc:cell just calls the function: nothing is recorded, nothing is written, the
-- outputs are those the scenario always wrote. The modes (environment, set by scripts/sweep.lua):
--  * KZ_CELLS_RECORD=1 (a sweep's shard): the cells' values are also kept, exactly (every double
--    by its 64 bits), and written with the run's other files to DIR/cells/<id>.cells;
--  * KZ_CELLS_REPLAY=SHARDS (sweep merge): every cell is served from the values the shards
--    SHARDS/*/cells/<id>.cells recorded, and the function is not called. The merge runs the scenario
--    with the union of the shards' list values, so that its data, tables, claims and figure come
--    from the scenario's own judging code on the same numbers as a single run's: equal to it, byte
--    for byte, by construction. A cell no shard recorded stops the run (exit status 3, the point
--    named); two shards that recorded one cell differently stop it too (exit 2).
-- A cell's key is its point (its entries; a list parameter named there stands for the one value
-- of that list the cell is at) together with every other parameter of the run as it is (whole
-- lists included) and --quick, unless the cell says it does not depend on it (o.ignore = {names}):
-- a cell computed by a shard at other values of anything it depends on is never served for it.
-- A cell's function returns numbers, strings, booleans, nil, 64-bit integers (cdata) and tables
-- of them (no metatables, no functions, no cycles): anything else is an error when recording.
return function(M, U)
local ffi = require "ffi"
local F = require "kapitza.files"

local bits = ffi.new("union { double d; uint32_t w[2]; }")
local LE = ffi.abi("le")
local function hex_of(x)
  bits.d = x
  local hi, lo = bits.w[LE and 1 or 0], bits.w[LE and 0 or 1]
  return bit.tohex(hi, 8) .. bit.tohex(lo, 8)
end
local function of_hex(s)
  local hi, lo = tonumber(s:sub(1, 8), 16), tonumber(s:sub(9, 16), 16)
  if not hi or not lo then return nil end
  bits.w[LE and 1 or 0], bits.w[LE and 0 or 1] = hi, lo
  return bits.d
end

local i64, u64 = ffi.typeof("int64_t"), ffi.typeof("uint64_t")

-- The encoding: n<16 hex digits> a double; s<len>:<bytes> a string; T, F, Z true, false, nil;
-- i<digits>, u<digits> an int64_t, uint64_t; t<count>{<key><value>...} a table, keys sorted
-- (numbers first, ascending, then strings), so that equal values encode to equal text.
local function encode(v, out, seen, where)
  local t = type(v)
  if t == "number" then out[#out + 1] = "n" .. hex_of(v)
  elseif t == "string" then out[#out + 1] = "s" .. #v .. ":" .. v
  elseif t == "boolean" then out[#out + 1] = v and "T" or "F"
  elseif t == "nil" then out[#out + 1] = "Z"
  elseif t == "cdata" and ffi.istype(i64, v) then out[#out + 1] = "i" .. tostring(v):gsub("LL$", "")
  elseif t == "cdata" and ffi.istype(u64, v) then out[#out + 1] = "u" .. tostring(v):gsub("ULL$", "")
  elseif t == "table" then
    if getmetatable(v) ~= nil then error(where .. ": a table with a metatable cannot be recorded", 0) end
    if seen[v] then error(where .. ": a table that contains itself cannot be recorded", 0) end
    seen[v] = true
    local nums, strs = {}, {}
    for k in pairs(v) do
      if type(k) == "number" then nums[#nums + 1] = k
      elseif type(k) == "string" then strs[#strs + 1] = k
      else error(where .. ": a table key of type " .. type(k) .. " cannot be recorded", 0) end
    end
    table.sort(nums)
    table.sort(strs)
    out[#out + 1] = "t" .. (#nums + #strs) .. "{"
    for _, ks in ipairs { nums, strs } do
      for _, k in ipairs(ks) do
        encode(k, out, seen, where)
        encode(v[k], out, seen, where .. "." .. tostring(k))
      end
    end
    out[#out + 1] = "}"
    seen[v] = nil
  else
    error(where .. ": a value of type " .. (t == "cdata" and tostring(ffi.typeof(v)) or t) .. " cannot be recorded", 0)
  end
end

--- The exact text of a value (M.cell_encode) and the value of such a text (M.cell_decode: nil
-- and the reason for a text that is not one).
function M.cell_encode(v, where)
  local out = {}
  encode(v, out, {}, where or "value")
  return table.concat(out)
end

local function decode(s, pos)
  local c = s:sub(pos, pos)
  if c == "n" then
    local x = of_hex(s:sub(pos + 1, pos + 16))
    if not x or not s:sub(pos + 1, pos + 16):match("^%x+$") or #s < pos + 16 then error("a number", 0) end
    return x, pos + 17
  elseif c == "s" then
    local len, colon = s:match("^(%d+)():", pos + 1)
    if not len then error("a string", 0) end
    len = tonumber(len)
    if colon + len > #s + 1 then error("a string", 0) end
    return s:sub(colon + 1, colon + len), colon + 1 + len
  elseif c == "T" then return true, pos + 1
  elseif c == "F" then return false, pos + 1
  elseif c == "Z" then return nil, pos + 1
  elseif c == "i" or c == "u" then
    local d, nxt = s:match("^(%-?%d+)()", pos + 1)
    if not d then error("an integer", 0) end
    local v = c == "i" and ffi.new(i64, 0) or ffi.new(u64, 0)
    local neg = d:sub(1, 1) == "-"
    for ch in d:gmatch("%d") do v = v * 10 + (ch:byte() - 48) end
    if neg then v = -v end
    return v, nxt
  elseif c == "t" then
    local n, open = s:match("^(%d+)(){", pos + 1)
    if not n then error("a table", 0) end
    local t, p = {}, open + 1
    for _ = 1, tonumber(n) do
      local k, v
      k, p = decode(s, p)
      if k == nil or k ~= k then error("a table key", 0) end
      v, p = decode(s, p)
      t[k] = v
    end
    if s:sub(p, p) ~= "}" then error("a table's end", 0) end
    return t, p + 1
  end
  error("a value", 0)
end

function M.cell_decode(s)
  local ok, v, nxt = pcall(decode, s, 1)
  if not ok then return nil, "not a value: " .. tostring(v) .. " expected" end
  if nxt ~= #s + 1 then return nil, "not a value: text after its end" end
  return true, v
end

local HEAD = "kapitza cells 1 "
local function pack(...) return { n = select("#", ...), ... } end

-- the mode of this process: nil, "record" or "replay" (with the shards' folder)
local function mode()
  if os.getenv("KZ_CELLS_REPLAY") and os.getenv("KZ_CELLS_REPLAY") ~= "" then return "replay", os.getenv("KZ_CELLS_REPLAY") end
  if os.getenv("KZ_CELLS_RECORD") == "1" then return "record" end
end

-- A cell's key: the point, every other parameter as this run has it (unless ignored), --quick.
local function key_of(sc, name, point, ignore, P)
  local k, skip = {}, {}
  for _, n in ipairs(ignore or {}) do skip[n] = true end
  local names = {}
  for pn, v in pairs(point) do k[pn] = v; names[#names + 1] = pn end
  table.sort(names)
  P = P or sc.P or {}
  for _, p in ipairs(sc.params or {}) do
    local pn = p[1]
    if point[pn] == nil and not skip[pn] then k[pn] = P[pn] end
  end
  return M.cell_encode({ cell = name, at = k, point = names, quick = P.quick and true or false }, "the key of cell " .. name)
end

local function point_words(point, only)
  local names, t = {}, {}
  for k in pairs(point) do names[#names + 1] = k end
  table.sort(names)
  names = only or names
  for i, k in ipairs(names) do
    local v = point[k]
    t[i] = k .. " = " .. (type(v) == "number" and string.format("%.10g", v) or tostring(v))
  end
  return table.concat(t, ", ")
end

--- Parse the text of a cells file: the scenario id and a list of { key, value } (encoded); nil
-- and the reason for a damaged one.
function M.cells_parse(text)
  local id, pos = text:match("^" .. HEAD:gsub("%p", "%%%0") .. "([^\n]+)\n()")
  if not id then return nil, "not a cells file" end
  local list = {}
  while pos <= #text do
    local kl, vl, body = text:match("^cell (%d+) (%d+)\n()", pos)
    if not kl then return nil, "damaged at byte " .. pos end
    kl, vl = tonumber(kl), tonumber(vl)
    if body + kl + vl > #text + 1 or text:sub(body + kl + vl, body + kl + vl) ~= "\n" then return nil, "cut short" end
    list[#list + 1] = { text:sub(body, body + kl - 1), text:sub(body + kl, body + kl + vl - 1) }
    pos = body + kl + vl + 1
  end
  return id, list
end

-- The replay's table of recorded cells, read once: key -> { value, shard }.
local function load_replay(sc, dir)
  local map = {}
  local es, err = F.entries(dir)
  if not es then error("cells: cannot read the shards' folder " .. tostring(err), 0) end
  for _, e in ipairs(es) do
    local path = dir .. "/" .. e.name .. "/cells/" .. sc.id .. ".cells"
    local text = F.read(path)
    if text then
      local id, list = M.cells_parse(text)
      if not id then error(string.format("cells: %s is damaged (%s): rerun that point", path, list), 0) end
      if id ~= sc.id then error(string.format("cells: %s holds the cells of %s, not of %s", path, id, sc.id), 0) end
      for _, kv in ipairs(list) do
        local had = map[kv[1]]
        if had and had.value ~= kv[2] then
          local _, k = M.cell_decode(kv[1])
          U.die(sc.id, string.format("the shards %s and %s recorded cell '%s' at %s differently (a computation that is not " ..
                                     "deterministic, or shards of different builds)", had.shard, e.name, k and k.cell or "?",
                                     k and point_words(k.at, k.point) or "?"))
        end
        map[kv[1]] = had or { value = kv[2], shard = e.name }
      end
    end
  end
  return map
end

-- Why no shard recorded the cell: the parameters in which the shards' cells of that name differ
-- from the one wanted (a cell that depends on more of a swept list than its point), each
-- candidate's set, fewest first ("N or Nmax").
local function why_missing(replay, name, want)
  local diffs = {}
  for key in pairs(replay) do
    local ok, k = M.cell_decode(key)
    if ok and k.cell == name then
      local d = {}
      for pn, v in pairs(want.at) do
        local w = k.at[pn]
        if M.cell_encode(w) ~= M.cell_encode(v) then d[#d + 1] = pn end
      end
      for pn in pairs(k.at) do if want.at[pn] == nil then d[#d + 1] = pn end end
      table.sort(d)
      if #d > 0 then diffs[table.concat(d, ", ")] = true end
    end
  end
  local sets = {}
  for d in pairs(diffs) do sets[#sets + 1] = d end
  table.sort(sets, function(a, b) return #a < #b or (#a == #b and a < b) end)
  return #sets > 0 and table.concat(sets, " or ", 1, math.min(3, #sets)) or nil
end

--- A compute cell (see the head of this file): fn() in a normal run; also recorded in a sweep's
-- shard; served from the shards in a merge. point: the point's values by name; o.ignore: names of
-- parameters the cell does not depend on; o.P: the parameters in effect where they are not the
-- run's (a study that reruns a part at other values). Returns what fn returns.
-- fn() with M.in_cell raised: what the library says in an error message about the run as a
-- whole (kapitza.lua's changed_keys: the keys the command line changed) is left out of a cell's
-- values, which must depend on the cell's key alone (the run's own one-line message still says it).
local function call(fn)
  M.in_cell = (M.in_cell or 0) + 1
  local r = pack(pcall(fn))
  M.in_cell = M.in_cell - 1
  if not r[1] then
    -- an error that leaves the cell is the run's again: the library's message gets its keys back
    local e = r[2]
    if type(e) == "string" and e:find("kz_[%w_]+: ") and not e:find("keys changed from the defaults", 1, true) then
      local ok, kz = pcall(require, "kapitza")
      if ok and kz.changed_keys then e = e .. kz.changed_keys() end
    end
    error(e, 0)
  end
  return unpack(r, 2, r.n)
end

function M:cell(name, point, fn, o)
  local how, dir = mode()
  if not how then return call(fn) end
  local key = key_of(self, name, point, o and o.ignore, o and o.P)
  if how == "replay" then
    self.cells_replay = self.cells_replay or load_replay(self, dir)
    local got = self.cells_replay[key]
    if not got then
      local _, want = M.cell_decode(key)
      local d = why_missing(self.cells_replay, name, want)
      if M.current then M.current:discard() end
      io.stderr:write(string.format("%s: no shard recorded cell '%s' at %s%s\n", self.id, name, point_words(point),
                                    d and (": the shards' cells of that name differ from this run in " .. d ..
                                           " (the cell depends on more of the swept lists than its point)") or ""))
      os.exit(3)
    end
    local ok, v = M.cell_decode(got.value)
    if not ok then error(string.format("cells: shard %s: cell '%s': %s", got.shard, name, v), 0) end
    return unpack(v, 1, v.n)
  end
  local r = pack(call(fn))
  local text = M.cell_encode(r, self.id .. ": cell '" .. name .. "'")
  local rec = self.cells_rec or { order = {}, map = {} }
  self.cells_rec = rec
  local had = rec.map[key]
  if had and had ~= text then
    error(string.format("cell '%s' at %s gave two different values in one run: it is not a function of its key", name, point_words(point)), 0)
  end
  if not had then
    rec.order[#rec.order + 1] = key
    rec.map[key] = text
  end
  return unpack(r, 1, r.n)
end

--- In a recording run (KZ_CELLS_RECORD=1), the cells file cells/<id>.cells with the run's other
-- files (called by commit; a run without cells writes one without any).
function M:cells_flush()
  if mode() ~= "record" or self.cells_flushed then return end
  self.cells_flushed = true
  local out = { HEAD .. self.id .. "\n" }
  local rec = self.cells_rec or { order = {}, map = {} }
  for _, key in ipairs(rec.order) do
    local v = rec.map[key]
    out[#out + 1] = string.format("cell %d %d\n", #key, #v) .. key .. v .. "\n"
  end
  self:write_text("cells/" .. self.id .. ".cells", table.concat(out))
end

return M
end
