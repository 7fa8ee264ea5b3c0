-- options.lua -- the option tables of the Lua API checked as strictly as the command line (issue
-- 18, item 6): an unknown key, a value of the wrong kind, a non-integer count, a non-finite number
-- or an array of the wrong length for the model is a one-line error naming the function and the
-- option, before anything runs. Used by the entry points of hmm.lua, sam.lua and vmi.lua.
--
--   local O = require "kapitza.options"
--   O.check(o, { n = "count", H = "positive", y0 = "vector", diff = "string" }, "sam.sam")
--   local y0 = O.vector(o.y0, model.dim, "sam.sam", "y0")
local M = {}

local function finite(x) return type(x) == "number" and x == x and x ~= math.huge and x ~= -math.huge end

-- kind -> test(v) and what it must be
M.kinds = {
  number = { finite, "a finite number" },
  real = { function(v) return type(v) == "number" end, "a number" }, -- the C side checks its range
  positive = { function(v) return finite(v) and v > 0 end, "a finite number > 0" },
  nonneg = { function(v) return finite(v) and v >= 0 end, "a finite number >= 0" },
  count = { function(v) return finite(v) and v >= 1 and v == math.floor(v) end, "a whole number >= 1" },
  whole = { function(v) return finite(v) and v >= 0 and v == math.floor(v) end, "a whole number >= 0" },
  boolean = { function(v) return type(v) == "boolean" end, "true or false" },
  string = { function(v) return type(v) == "string" end, "a string" },
  list = { function(v)
    if type(v) ~= "table" or #v < 1 then return false end
    for i = 1, #v do if not finite(v[i]) then return false end end
    return true
  end, "a non-empty list of finite numbers" },
  -- a state: a number (one component) or a list (length checked with M.vector), or cdata
  vector = { function(v) return finite(v) or type(v) == "table" or type(v) == "cdata" end, "a number or a list of numbers" },
  table = { function(v) return type(v) == "table" end, "a table" },
  any = { function() return true end, "anything" },
}

local function keys_of(schema)
  local t = {}
  for k in pairs(schema) do t[#t + 1] = k end
  table.sort(t)
  return t
end

-- The key of schema closest to `word` (within two edits), for "did you mean".
local function nearest(word, schema)
  local best, bd
  for k in pairs(schema) do
    local a, b = word:lower(), k:lower()
    local prev = {}
    for j = 0, #b do prev[j] = j end
    for i = 1, #a do
      local cur = { [0] = i }
      for j = 1, #b do cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a:byte(i) == b:byte(j) and 0 or 1)) end
      prev = cur
    end
    local d = prev[#b]
    if d <= 2 and d < #k and (not bd or d < bd or (d == bd and k < best)) then best, bd = k, d end
  end
  return best
end

--- Check the option table o against schema (key -> kind of M.kinds); who names the function in
-- the message. Raises a one-line error at `level` (default: the caller of the caller).
function M.check(o, schema, who, level)
  level = (level or 2) + 1
  if type(o) ~= "table" then error(string.format("%s: the options must be a table (got %s)", who, type(o)), level) end
  for k, v in pairs(o) do
    local kind = type(k) == "string" and schema[k] or nil
    if kind == nil then
      local near = type(k) == "string" and nearest(k, schema)
      error(string.format("%s: unknown option '%s' (%s)", who, tostring(k),
                          near and ("did you mean '" .. near .. "'?") or ("options: " .. table.concat(keys_of(schema), ", "))), level)
    end
    local test = M.kinds[kind]
    if not test then error("options: unknown kind '" .. tostring(kind) .. "'", 2) end
    if not test[1](v) then
      error(string.format("%s: option '%s' must be %s (got %s)", who, k, test[2], type(v) == "number" and string.format("%.17g", v) or tostring(v)), level)
    end
  end
  return o
end

--- The union of schemas (later ones win).
function M.merge(...)
  local t = {}
  for _, s in ipairs { ... } do for k, v in pairs(s) do t[k] = v end end
  return t
end

--- A state option as a Lua array of exactly n finite numbers: v a number (n = 1), a list or a
-- cdata pointer (read as n numbers); `what` names the option, `model` describes the size.
function M.vector(v, n, who, what, size, level)
  level = (level or 2) + 1
  local out = {}
  if type(v) == "number" then
    if n ~= 1 then error(string.format("%s: option '%s' must list %d numbers (%s; got one number)", who, what, n, size or ("size " .. n)), level) end
    out[1] = v
  elseif type(v) == "table" then
    if #v ~= n then
      error(string.format("%s: option '%s' must list %d numbers (%s; got %d)", who, what, n, size or ("size " .. n), #v), level)
    end
    for i = 1, n do out[i] = v[i] end
  elseif type(v) == "cdata" then
    for i = 1, n do out[i] = tonumber(v[i - 1]) end
  else
    error(string.format("%s: option '%s' is missing (%d numbers: %s)", who, what, n, size or ("size " .. n)), level)
  end
  for i = 1, n do
    if not finite(out[i]) then
      error(string.format("%s: option '%s' has a non-finite component %d (%s)", who, what, i, tostring(out[i])), level)
    end
  end
  return out
end

return M
