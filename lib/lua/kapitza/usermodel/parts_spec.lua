-- modelparts_spec.lua -- the declarations of a user's model's optional parts (lib/lua/kapitza/usermodel.lua
-- documents the spec): the top-level keys (misspellings refused), each part's declaration (a
-- splitting, constraints, slow-variable sets, the vmi split, invariants) checked, the functions of
-- one way (lua or c) each part needs, and the declared values (parameters, initial state, T,
-- period) resolved at a parameter struct. Building the parts into the model: lib/lua/kapitza/usermodel/parts.lua.

local P = {}
local tostring = require("kapitza.usermodel.guard").text -- a user's values worded safely

---------------------------------------------------------------------------------------------------
-- Declarations
---------------------------------------------------------------------------------------------------

-- The spec's top-level keys; a key one or two edits away from one of them is refused as a
-- misspelling, other keys are left to the user.
local KNOWN = { "name", "nq", "dim", "params", "even_in_theta", "lua", "c", "values", "q0", "v0", "p0", "y0", "T",
                "period", "constraints", "slow", "vmi", "description", "derived", "helpers", "atlas" }
local known = {}
for _, k in ipairs(KNOWN) do known[k] = true end

--- Edit distance of two short strings (Levenshtein), for "did you mean".
function P.distance(a, b)
  local prev = {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = { [0] = i }
    for j = 1, #b do
      local cost = a:byte(i) == b:byte(j) and 0 or 1
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev = cur
  end
  return prev[#b]
end

--- The entry of `list` closest to `word` within two edits (and shorter than the word), or nil.
function P.nearest(word, list)
  local best, bd
  for _, k in ipairs(list) do
    local d = P.distance(word, k)
    if d <= 2 and d < #k and (not bd or d < bd) then best, bd = k, d end
  end
  return best
end

local C_KEYWORDS = {}
for w in ([[auto break case char const continue default do double else enum extern float for goto
  if inline int long register restrict return short signed sizeof static struct switch typedef
  union unsigned void volatile while]]):gmatch("%a+") do C_KEYWORDS[w] = true end
local function is_ident(s) return type(s) == "string" and s:match("^[%a_][%w_]*$") and not C_KEYWORDS[s] and not s:match("^kz") end

local function whole(x, lo) return type(x) == "number" and x == math.floor(x) and x >= lo and x < 2 ^ 31 end

-- A value the spec may give as a number, a parameter name, a list of them (n entries) or a
-- function(p) returning one of those: checked for its shape here, resolved in P.resolve.
local function check_value(spec, L, bad, v, what, n, allow_list)
  local tv = type(v)
  if tv == "number" or tv == "function" then return end
  if tv == "string" then
    if not L.index[v] then bad(spec, string.format("%s: '%s' is not a parameter (the model has %s)", what, v, table.concat(L.params, ", "))) end
    return
  end
  if tv == "table" and allow_list then
    if #v ~= n then bad(spec, string.format("%s must list %d entries (got %d)", what, n, #v)) end
    for i = 1, n do check_value(spec, L, bad, v[i], string.format("%s[%d]", what, i), 1, false) end
    return
  end
  bad(spec, string.format("%s must be %s (got %s)", what, allow_list and ("a number, a parameter name, a list of " .. n ..
      " of them or a function(p)") or "a number, a parameter name or a function(p)", tv))
end

--- The size of a model with a vmi part and no nq/dim: 2 (ns + nf).
function P.vmi_size(spec, bad)
  local v = spec.vmi
  if type(v) ~= "table" then bad(spec, "vmi must be a table { ns = ..., nf = ..., mass_s = ..., mass_f = ... }") end
  if not whole(v.ns, 0) then bad(spec, "vmi.ns (slow positions) must be a whole number >= 0") end
  if not whole(v.nf, 0) then bad(spec, "vmi.nf (fast positions) must be a whole number >= 0") end
  if v.ns + v.nf < 1 then bad(spec, "vmi: ns + nf must be at least 1") end
  return 2 * (v.ns + v.nf)
end

--- Check the spec's parts and data (not their functions) once; fills L.parts.
function P.declare(spec, L, bad)
  for k in pairs(spec) do
    if type(k) == "string" and not known[k] then
      local near = P.nearest(k, KNOWN)
      if near then bad(spec, string.format("unknown entry '%s' (did you mean '%s'?)", k, near)) end
    end
  end
  local parts = {}
  L.parts = parts
  local function keys_of(t, allowed, what)
    for k in pairs(t) do
      if not allowed[k] then
        local list = {}
        for a in pairs(allowed) do list[#list + 1] = a end
        table.sort(list)
        bad(spec, string.format("%s.%s: unknown entry (one of %s)", what, tostring(k), table.concat(list, ", ")))
      end
    end
  end
  if spec.vmi ~= nil then
    P.vmi_size(spec, bad)
    local v = spec.vmi
    keys_of(v, { ns = true, nf = true, mass_s = true, mass_f = true, accumulate = true }, "vmi")
    if v.accumulate ~= nil and type(v.accumulate) ~= "boolean" then bad(spec, "vmi.accumulate must be true or false") end
    if v.mass_s ~= nil then check_value(spec, L, bad, v.mass_s, "vmi.mass_s", v.ns, true) end
    if v.mass_f ~= nil then check_value(spec, L, bad, v.mass_f, "vmi.mass_f", v.nf, true) end
    parts.vmi = { ns = v.ns, nf = v.nf, accumulate = v.accumulate == true }
  end
  if spec.constraints ~= nil then
    local c = spec.constraints
    if type(c) ~= "table" then bad(spec, "constraints must be a table { m = ..., mass = ... }") end
    keys_of(c, { m = true, mass = true, minv = true, tol = true, max_iter = true }, "constraints")
    if L.dim % 2 ~= 0 then bad(spec, "constraints need a mechanical state y = (q, v) (nq, or an even dim)") end
    local nq = L.dim / 2
    if not whole(c.m, 1) or c.m > nq then bad(spec, string.format("constraints.m (the number of constraints) must be a whole number in 1..%d", nq)) end
    if (c.mass == nil) == (c.minv == nil) then bad(spec, "constraints: give the diagonal mass matrix as mass = ... or its inverse as minv = ... (one of them)") end
    check_value(spec, L, bad, c.mass or c.minv, c.mass and "constraints.mass" or "constraints.minv", nq, true)
    if c.tol ~= nil then
      if type(c.tol) == "number" and not (c.tol > 0 and c.tol < math.huge) then bad(spec, "constraints.tol must be a number > 0") end
      check_value(spec, L, bad, c.tol, "constraints.tol", 1, false)
    end
    if c.max_iter ~= nil and not whole(c.max_iter, 1) then bad(spec, "constraints.max_iter must be a whole number >= 1") end
    parts.constraints = { m = c.m, nq = nq }
  end
  if spec.slow ~= nil then
    if type(spec.slow) ~= "table" or next(spec.slow) == nil then bad(spec, "slow must be a table of sets { <name> = { r = ... }, ... }") end
    if not L.vibrated then bad(spec, "slow variables need a fast-forced model (a parameter 'omega'): the slow-variable HMM averages over the fast phase") end
    local sets = { names = {} }
    for name, s in pairs(spec.slow) do
      if not is_ident(name) then bad(spec, string.format("slow set name '%s' must be a C identifier", tostring(name))) end
      if type(s) ~= "table" then bad(spec, "slow." .. name .. " must be a table { r = ..., frozen = ... }") end
      keys_of(s, { r = true, frozen = true }, "slow." .. name)
      if not whole(s.r, 1) or s.r > L.dim then bad(spec, string.format("slow.%s.r (the number of slow variables) must be a whole number in 1..%d", name, L.dim)) end
      if s.frozen ~= nil then
        if type(s.frozen) ~= "table" then bad(spec, "slow." .. name .. ".frozen must list state indices (1-based)") end
        for _, i in ipairs(s.frozen) do
          if not whole(i, 1) or i > L.dim then bad(spec, string.format("slow.%s.frozen: %s is not a state index in 1..%d", name, tostring(i), L.dim)) end
        end
      end
      sets[name] = { r = s.r, frozen = s.frozen }
      sets.names[#sets.names + 1] = name
    end
    table.sort(sets.names)
    parts.slow = sets
  end
  -- data: values, initial state, end time, period
  if spec.values ~= nil then
    if type(spec.values) ~= "table" then bad(spec, "values must be a table of default parameter values") end
    for k, v in pairs(spec.values) do
      if not L.index[k] then bad(spec, string.format("values.%s: not a parameter (the model has %s)", tostring(k), table.concat(L.params, ", "))) end
      if type(v) ~= "number" then bad(spec, string.format("values.%s must be a number", k)) end
    end
  end
  local nq, n = L.nq, L.dim
  if parts.vmi then nq = parts.vmi.ns + parts.vmi.nf end
  local function state(key, len)
    local v = spec[key]
    if v == nil or type(v) == "function" then return end
    if type(v) ~= "table" or #v ~= len then bad(spec, string.format("%s must list %d numbers (or be a function(p))", key, len)) end
    for i = 1, len do
      if type(v[i]) ~= "number" then bad(spec, string.format("%s[%d] must be a number", key, i)) end
    end
  end
  if spec.y0 ~= nil then
    if spec.q0 ~= nil or spec.v0 ~= nil or spec.p0 ~= nil then bad(spec, "give the initial state as y0 or as q0 with v0 (p0), not both") end
    state("y0", n)
  else
    if nq == 0 and (spec.q0 ~= nil or spec.v0 ~= nil) then bad(spec, "a first-order model (dim) takes its initial state as y0") end
    if spec.p0 ~= nil and not parts.vmi then bad(spec, "p0 (initial momenta) belongs to a model with a vmi part; give v0") end
    if spec.v0 ~= nil and parts.vmi then bad(spec, "a vmi model's state holds momenta: give p0, not v0") end
    if (spec.v0 ~= nil or spec.p0 ~= nil) and spec.q0 == nil then bad(spec, "v0 (p0) needs q0") end
    state("q0", nq)
    state(parts.vmi and "p0" or "v0", nq)
  end
  if spec.T ~= nil and type(spec.T) ~= "function" and not (type(spec.T) == "number" and spec.T > 0 and spec.T < math.huge) then
    bad(spec, "T (the default end time) must be a number > 0 or a function(p)")
  end
  if spec.period ~= nil then
    if L.vibrated then bad(spec, "period: a fast-forced model's period is 2 pi / omega (drop period)") end
    check_value(spec, L, bad, spec.period, "period", 1, false)
  end
end

---------------------------------------------------------------------------------------------------
-- The functions of one way (lua or c)
---------------------------------------------------------------------------------------------------

P.FN_KEYS = { flows = true, constraints = true, slow = true, vmi = true, invariants = true }

local ROLES = {
  flows = { req = { "a", "b" }, opt = {} },
  constraints = { req = { "g" }, opt = { "jacobian" } },
  vmi = { req = { "V" }, opt = { "V_gradient", "V_hessian", "W", "W_gradient", "W_hessian" } },
  slow = { req = { "xi" }, opt = { "gradient", "dtheta" } },
}

--- The part functions of spec[how] (t): { flows = {a, b}, constraints = {g, jacobian},
-- slow = { <set> = {xi, gradient, dtheta} }, vmi = {V, ...}, invariants = { <name> = f } }
-- (Lua functions or C function names). Errors are one-line messages naming the entry.
function P.functions(spec, L, how, t, bad)
  local fp = {}
  local function fn(v, path)
    if how == "lua" and type(v) ~= "function" then bad(spec, path .. " must be a function") end
    if how == "c" and not is_ident(v) then bad(spec, path .. " must name a C function (not kz...)") end
  end
  local function roles(x, role, path)
    if type(x) ~= "table" then bad(spec, path .. " must be a table") end
    local out, ok = {}, {}
    for _, k in ipairs(role.req) do
      if x[k] == nil then bad(spec, string.format("%s.%s is missing", path, k)) end
      ok[k] = true
    end
    for _, k in ipairs(role.opt) do ok[k] = true end
    for k, v in pairs(x) do
      if not ok[k] then
        local all = {}
        for _, r in ipairs(role.req) do all[#all + 1] = r end
        for _, r in ipairs(role.opt) do all[#all + 1] = r end
        bad(spec, string.format("%s.%s: unknown entry (one of %s)", path, tostring(k), table.concat(all, ", ")))
      end
      fn(v, path .. "." .. k)
      out[k] = v
    end
    return out
  end
  local parts = L.parts
  if t.flows ~= nil then fp.flows = roles(t.flows, ROLES.flows, how .. ".flows") end
  for _, key in ipairs { "constraints", "vmi" } do
    if t[key] ~= nil then
      if not parts[key] then
        bad(spec, string.format("%s.%s: the spec declares no %s (%s)", how, key, key,
                                key == "vmi" and "vmi = { ns = ..., nf = ... }" or "constraints = { m = ..., mass = ... }"))
      end
      fp[key] = roles(t[key], ROLES[key], how .. "." .. key)
    elseif parts[key] then
      bad(spec, string.format("%s.%s is missing (the spec declares %s)", how, key, key))
    end
  end
  if t.slow ~= nil or parts.slow then
    if t.slow == nil then bad(spec, string.format("%s.slow is missing (the spec declares slow sets)", how)) end
    if not parts.slow then bad(spec, how .. ".slow: the spec declares no slow sets (slow = { <name> = { r = ... } })") end
    if type(t.slow) ~= "table" then bad(spec, how .. ".slow must be a table of sets") end
    fp.slow = {}
    for name in pairs(t.slow) do
      if not parts.slow[name] or name == "names" then bad(spec, string.format("%s.slow.%s: the spec declares no slow set '%s'", how, tostring(name), tostring(name))) end
    end
    for _, name in ipairs(parts.slow.names) do
      if t.slow[name] == nil then bad(spec, string.format("%s.slow.%s is missing (the spec declares the set)", how, name)) end
      fp.slow[name] = roles(t.slow[name], ROLES.slow, how .. ".slow." .. name)
    end
  end
  if t.invariants ~= nil then
    if type(t.invariants) ~= "table" then bad(spec, how .. ".invariants must be a table { <name> = ... }") end
    fp.invariants, fp.invariant_names = {}, {}
    for name, f in pairs(t.invariants) do
      if not is_ident(name) then bad(spec, string.format("invariant name '%s' must be a C identifier", tostring(name))) end
      fn(f, how .. ".invariants." .. name)
      fp.invariants[name] = f
      fp.invariant_names[#fp.invariant_names + 1] = name
    end
    table.sort(fp.invariant_names)
  end
  return fp
end

---------------------------------------------------------------------------------------------------
-- Values, initial state, resolved numbers
---------------------------------------------------------------------------------------------------

--- The parameter values: spec.values overlaid with `values` (either may be nil).
function P.values(spec, values)
  local out = {}
  if type(spec.values) == "table" then for k, v in pairs(spec.values) do out[k] = v end end
  if values ~= nil then
    if type(values) ~= "table" then return values end -- new_par reports it
    for k, v in pairs(values) do out[k] = v end
  end
  return out
end

-- A declared value (number, parameter name, list, function(p)) at the parameter struct Pp:
-- a number (n = nil) or a list of n numbers, each finite (and > 0 when positive).
local function resolve(spec, bad, v, Pp, what, n, positive)
  if type(v) == "function" then
    local ok, r = require("kapitza.usermodel.watch").pcall(string.format("usermodel '%s': %s (a function of the parameters)",
                                                                          tostring(spec.name), what), v, Pp)
    if not ok then bad(spec, string.format("%s raised an error: %s", what, tostring(r))) end
    v = r
  end
  local function one(x, w)
    if type(x) == "string" then -- a parameter's name (a function may return one too)
      local name, known = x, false
      for _, p in ipairs(type(spec.params) == "table" and spec.params or {}) do known = known or p == name end
      if not known then bad(spec, string.format("%s: '%s' is not a number nor a parameter of the model", w, name)) end
      x = Pp[name]
    end
    if type(x) ~= "number" or x ~= x or x == math.huge or x == -math.huge then
      bad(spec, string.format("%s must be a finite number (got %s)", w, tostring(x)))
    end
    if positive and not (x > 0) then bad(spec, string.format("%s must be > 0 (got %.17g)", w, x)) end
    return x
  end
  if n == nil then return one(v, what) end
  local out = {}
  if type(v) == "table" then
    if #v ~= n then bad(spec, string.format("%s must list %d numbers (got %d)", what, n, #v)) end
    for i = 1, n do out[i] = one(v[i], string.format("%s[%d]", what, i)) end
  else
    local x = one(v, what)
    for i = 1, n do out[i] = x end
  end
  return out
end

--- The initial state of a model (a Lua array, or nil when the spec gives none).
local function initial_state(spec, L, bad, Pp)
  local parts = L.parts
  if spec.y0 ~= nil then return resolve(spec, bad, spec.y0, Pp, "y0", L.dim) end
  if spec.q0 == nil then return nil end
  local nq = parts.vmi and (parts.vmi.ns + parts.vmi.nf) or L.nq
  local q = resolve(spec, bad, spec.q0, Pp, "q0", nq)
  local vk = parts.vmi and "p0" or "v0"
  local v = spec[vk] ~= nil and resolve(spec, bad, spec[vk], Pp, vk, nq) or nil
  local y = {}
  for i = 1, nq do y[i], y[nq + i] = q[i], v and v[i] or 0 end
  return y
end

P.resolve, P.initial_state = resolve, initial_state

return P
