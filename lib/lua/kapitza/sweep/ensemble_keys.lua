-- sweep_ensemble_keys.lua -- the keys of an ensemble sweep (lib/lua/kapitza/sweep/ensemble.lua): what
-- a swept or fixed key is for a model (a parameter, the initial state, one component of it), the
-- state keys a model sweeps, and the refusal of two keys that name one component.
local M = {}

-- What a swept or fixed key is for this model: "param", "state" (q0/v0/y0, read by the model
-- file), "comp" (one component: returns its index in y), or nil and why not.
function M.kind(spec, nq, dim, k)
  local derived = type(spec.derived) == "table" and spec.derived or {}
  for _, p in ipairs(spec.params) do
    if p == k then
      if derived[k] ~= nil then return nil, string.format("parameter '%s' is derived from the others: sweep them, not it", k) end
      return "param"
    end
  end
  if (k == "q0" or k == "v0") and nq == 1 then return "state" end
  if k == "y0" and dim == 1 then return "state" end
  local base, i = k:match("^([qvy]0)_(%d+)$")
  i = tonumber(i)
  if base and i and i >= 1 then
    if base ~= "y0" and nq > 0 and i <= nq then return "comp", base == "q0" and i or nq + i end
    if base == "y0" and i <= dim then return "comp", i end
  end
  if k == "q0" or k == "v0" or k == "y0" then
    return nil, string.format("%s has several components: sweep one as %s_1 ... (%s)", k, k,
                              nq > 0 and (nq .. " of them") or (dim .. " of them"))
  end
  return nil, nil
end

function M.state_keys(nq, dim)
  if nq == 1 then return "q0, v0" end
  if nq > 1 then return string.format("q0_1..q0_%d, v0_1..v0_%d", nq, nq) end
  return dim == 1 and "y0" or string.format("y0_1..y0_%d", dim)
end

--- Die when two of the keys given (swept or fixed) name the same component of the initial state
-- (q0 and q0_1 of a one-degree model): the sweep would run both with one value.
function M.check_aliases(c, spec, nq, dim, die)
  local named = {}
  for _, k in ipairs(c.over) do named[#named + 1] = k.key end
  for _, f in ipairs(c.fixed) do named[#named + 1] = f.key end
  local at = {}
  for _, k in ipairs(named) do
    local kind, comp = M.kind(spec, nq, dim, k)
    if kind == "state" then comp = (k == "v0") and nq + 1 or 1 end
    if comp then
      if at[comp] then die(string.format("'%s' and '%s' name the same component of the initial state: give one", at[comp], k)) end
      at[comp] = k
    end
  end
end

return M
