-- claims.lua -- the claims table of a scenario: one row per statement of a paper, what the run
-- measured beside it, and a verdict (yes, no, partly, n/a). lib/lua/kapitza/experiment.lua
-- re-exports it (E.claims, E.T, E.premise, ...), the names the scenarios use.
--
-- A claim is data, and the table evaluates it in a fixed order, so that no scenario skips a step
-- (GUIDE §9):
--   1. `at`: a claim that compares with a number the paper printed names the parameters at which
--      it was printed; on a run off them it is n/a, saying which keys differ.
--   2. `premises`: the conditions under which the statement is about this run (its parameters,
--      and the reach of its measurement: events inside [0, T], enough points in the asymptotic
--      regime, a resolution finer than the tolerance, a baseline that differs from the method);
--      the first one that fails gives n/a with its text. A claim with neither premises nor `at`
--      says in `any` that it holds at any parameters, and why.
--   3. `judge` (evaluated only now, so that nothing is computed outside its premises): the
--      measured text and the evidence, the items checked (cells, members, curves, H values): all of
--      a non-empty set -> yes, some -> partly, none -> no, an empty set -> n/a.
--   4. the texts are formatted from the values the claim was given (E.T("slope %.2f", s)): the
--      values go into the table beside the text, and a number in a text that is not one of them is
--      a typed number (tests/claims_structure_spec.lua finds it).
--
--   local cl = E.claims(sc)
--   cl:claim { key = "order", text = "second order in H", published = "2",
--              any = "an order of convergence is a property of the method",
--              premises = { E.premise(#Hs >= 3, "three or more H values (this run: %d)", #Hs) },
--              judge = function()
--                local s = E.slope(Hs, errs)
--                return { measured = E.T("fitted slope %.3f (accept %v ± %v)", s, 2, 0.1),
--                         items = { math.abs(s - 2) <= 0.1 }, what = "fitted slope", values = { slope = s } }
--              end }
--   cl:write()                                                   -- tables/<id>.{md,tsv}
local S = require "kapitza.scenario"

local M = {}

---------------------------------------------------------------------------------------------------
-- Texts that carry their values
---------------------------------------------------------------------------------------------------

local Text = {}
Text.__index = Text

local function is_text(x) return getmetatable(x) == Text end
M.is_text = is_text

--- A number as given: the shortest decimal or exponent form that reads back as the same double
-- (5e-5 stays 5e-5, 0.00625 stays 0.00625, 1e6 is 1e6, 256000 stays 256000): never rounded to a
-- decade or to fewer digits.
function M.show(x)
  if type(x) ~= "number" then return tostring(x) end
  if x ~= x then return "nan" end
  if x == math.huge then return "inf" elseif x == -math.huge then return "-inf" end
  if x == math.floor(x) and math.abs(x) < 1e15 then
    local d = string.format("%d", x)
    local sign, m, z = d:match("^(%-?)([1-9])(0000+)$")
    if m then return sign .. m .. "e" .. #z end
    return d
  end
  local function norm(g) return (g:gsub("e%+?(%-?)0*(%d)", "e%1%2")) end
  local best
  for p = 1, 17 do
    local g = string.format("%." .. p .. "g", x)
    if tonumber(g) == x then
      best = norm(g)
      local e = norm(string.format("%." .. (p - 1) .. "e", x))
      if tonumber(e) == x and #e < #best then best = e end
      break
    end
  end
  return best or string.format("%.17g", x)
end

local function show_list(v)
  if type(v) ~= "table" then return M.show(v) end
  local t = {}
  for i, x in ipairs(v) do t[i] = M.show(x) end
  return table.concat(t, ",")
end
M.show_list = show_list

local function add_values(into, v)
  if type(v) == "number" then into[#into + 1] = v
  elseif type(v) == "table" and not is_text(v) then for _, x in ipairs(v) do add_values(into, x) end end
end

--- A text formatted from values: E.T(fmt, ...) with the directives of string.format, and %v: a
-- number (or a list of numbers, comma-separated) as given (M.show). A text argument of %s keeps
-- its values. The numbers formatted are kept with the text (t.values), so that every number the
-- text shows can be traced to one the claim was given. Texts concatenate with .. (values kept;
-- a plain string adds none).
function M.T(fmt, ...)
  local args, n, vals, out = { ... }, select("#", ...), {}, {}
  local i, pos = 0, 1
  while true do
    local a, b, spec, conv = fmt:find("%%([%-%+ #0]*%d*%.?%d*)([%a%%])", pos)
    if not a then out[#out + 1] = fmt:sub(pos) break end
    out[#out + 1] = fmt:sub(pos, a - 1)
    pos = b + 1
    if conv == "%" then
      out[#out + 1] = "%"
    else
      i = i + 1
      if i > n then error("claims.T: too few arguments for '" .. fmt .. "'", 2) end
      local v = args[i]
      if conv == "v" then
        out[#out + 1] = show_list(v)
        add_values(vals, v)
      elseif conv == "s" then
        if is_text(v) then
          out[#out + 1] = v.s
          for _, x in ipairs(v.values) do vals[#vals + 1] = x end
        else
          if type(v) == "number" then vals[#vals + 1] = v end
          out[#out + 1] = string.format("%" .. spec .. "s", tostring(v))
        end
      else
        if type(v) ~= "number" then error(string.format("claims.T: argument %d of '%s' is not a number (%s)", i, fmt, tostring(v)), 2) end
        out[#out + 1] = string.format("%" .. spec .. conv, v)
        vals[#vals + 1] = v
      end
    end
  end
  return setmetatable({ s = table.concat(out), values = vals }, Text)
end

function Text.__tostring(t) return t.s end
function Text.__concat(a, b)
  local function parts(x)
    if is_text(x) then return x.s, x.values end
    return tostring(x), {}
  end
  local sa, va = parts(a)
  local sb, vb = parts(b)
  local v = {}
  for _, x in ipairs(va) do v[#v + 1] = x end
  for _, x in ipairs(vb) do v[#v + 1] = x end
  return setmetatable({ s = sa .. sb, values = v }, Text)
end

--- Join texts (or strings) with a separator, keeping the values.
function M.join(list, sep)
  local t = M.T("")
  for i, x in ipairs(list) do t = (i > 1 and (t .. sep) or t) .. x end
  return t
end

--- A message the run produced (a library's failure, "... at step 1746, t = 0.291") as a text
-- whose values are the numbers in it: it is measured output, not typed.
function M.quote(msg)
  local t = setmetatable({ s = tostring(msg), values = {} }, Text)
  for _, tok in ipairs(M.numbers(t.s)) do t.values[#t.values + 1] = tok.value end
  return t
end

-- A text from a text, a {fmt, ...} table, a string, or nil.
local function text(x)
  if x == nil then return nil end
  if is_text(x) then return x end
  if type(x) == "table" then return M.T(unpack(x, 1, table.maxn(x))) end
  return setmetatable({ s = tostring(x), values = {} }, Text)
end
M.text = text

---------------------------------------------------------------------------------------------------
-- Numbers in texts (for the structural test, tests/claims_structure_spec.lua)
---------------------------------------------------------------------------------------------------

local refwords = { "Lemma", "Sec%.", "Section", "Fig%.", "Figs%.", "Figure", "Figures", "Table", "Tables", "Theorem", "Thm",
                   "Algorithm", "Alg%.", "§", "eq%.", "Eq%.", "equation", "item", "addendum", "Chapter", "Example", "seed", "row", "rows" }

local supd = { ["⁰"] = "0", ["¹"] = "1", ["²"] = "2", ["³"] = "3", ["⁴"] = "4", ["⁵"] = "5", ["⁶"] = "6",
               ["⁷"] = "7", ["⁸"] = "8", ["⁹"] = "9", ["⁻"] = "-" }

--- The numbers a text shows: a list of {text = the token, value = its value (absolute), digits =
-- its significant digits}. A number is a run of digits not glued to a name before it (rk4, q1,
-- A2s, a Greek letter), with a decimal part and an exponent (1.5e-3, 2.1·10⁻³, 10^-4, 10⁻⁴,
-- 2⁻¹⁴), and a fraction a/b or π/b read as one value; an order symbol O(1/ω) is no number.
function M.numbers(s)
  s = tostring(s or "")
  -- superscript exponents as ^e
  -- (a superscript after a digit is an exponent: 10⁻⁴, 2⁻¹⁴; after a name it is a power in a
  -- formula, l², not a number)
  s = s:gsub("(%d)(⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)", function(d, x)
    return d .. "^" .. x:gsub("[\194-\244][\128-\191]*", function(c) return supd[c] or c end)
  end)
  -- an order symbol O(1/ω), O(ε²) names a rate, not a number
  s = s:gsub("%f[%w]O%b()", "O(…)")
  local out, pos = {}, 1
  local times = { "·10^", "×10^", " × 10^", " · 10^", "x10^" }
  while true do
    local a, b = s:find("%d+%.?%d*", pos)
    if not a then break end
    if s:sub(b, b) == "." then b = b - 1 end -- a full stop, not a decimal point
    pos = b + 1
    local prev = a > 1 and s:sub(a - 1, a - 1) or ""
    local lead = a > 2 and s:byte(a - 2) or 0
    local before = s:sub(math.max(1, a - 14), a - 1)
    local ref = false -- a reference to the paper (Lemma 5.1, Sec. 6.2, Fig. 4.1, §6.1, eq. (2.5)), not a number
    for _, w in ipairs(refwords) do if before:find(w .. "%s?$") then ref = true break end end
    if ref then
      local _, e = s:find("^[%d%.%-–,]*%d", pos)
      pos = (e or b) + 1
    elseif prev:match("[%w_%.]") or (prev:byte() and prev:byte() >= 128 and (lead == 0xCE or lead == 0xCF)) or before:find("√$")
           or before:find("%a%($") -- a name's argument or label: exp(2), K(0)
           or ((before:find("[%s–%-]%($") or before == "(") and s:sub(b + 1, b + 1) == ")") -- an equation number: (13), (2.5)
           or s:sub(b + 1, b + 2) == "π" then -- a multiple of π in a formula: 2π/ω
      local _, e = s:find("^[eE][%+%-]?%d+", pos) -- the rest of the number, and of a name it is glued to
      if e then pos = e + 1 end
      _, e = s:find("^[%w_]*", pos)
      pos = e + 1
    else
      local mant = s:sub(a, b)
      local tok, v = mant, tonumber(mant)
      local _, e, ex = s:find("^[eE]([%+%-]?%d+)", pos)
      if e then tok, v, pos = tok .. s:sub(pos, e), v * 10 ^ tonumber(ex), e + 1 end
      local powered = e ~= nil
      -- an exponent: {k}, (k) or k (not a bracket that is not the exponent's)
      local function expo(at)
        for _, pat in ipairs { "^%{([%+%-]?%d+)%}", "^%(([%+%-]?%d+)%)", "^([%+%-]?%d+)" } do
          local _, ee, ex_ = s:find(pat, at)
          if ee then return ee, ex_ end
        end
      end
      for _, t in ipairs(times) do
        if s:sub(pos, pos + #t - 1) == t then
          local e2, ex2 = expo(pos + #t)
          if e2 then tok, v, pos, powered = tok .. s:sub(pos, e2), v * 10 ^ tonumber(ex2), e2 + 1, true end
          break
        end
      end
      if not powered and s:sub(pos, pos) == "^" then
        local e3, ex3 = expo(pos + 1)
        if e3 then tok, v, pos, powered = tok .. s:sub(pos, e3), v ^ tonumber(ex3), e3 + 1, true end
      end
      local over_pi = s:sub(math.max(1, a - 3), a - 1) == "π/"
      if over_pi then v, tok = math.pi / v, "π/" .. tok end
      local _, e4, den = s:find("^/(%d+)", pos)
      if e4 and not powered and not s:sub(e4 + 1, e4 + 1):match("[%w_%.]") then
        out[#out + 1] = { text = tok .. "/" .. den, value = math.abs(v / tonumber(den)), digits = 17, alt = { v, tonumber(den) } }
        pos = e4 + 1
      else
        local digits = #(mant:gsub("%.", ""):gsub("^0+", ""))
        out[#out + 1] = { text = tok, value = math.abs(v), digits = math.max(1, digits), alt = over_pi and { tonumber(mant) } or nil }
      end
    end
  end
  return out
end

--- Does the token (M.numbers) show one of the values, to its printed digits?
function M.shows(tok, values)
  local function near(t, d, v)
    v = math.abs(v)
    if t == v then return true end
    if t == 0 then return v < 0.5 end
    local unit = 10 ^ (math.floor(math.log10(t)) - d + 1)
    return math.abs(v - t) <= 0.5 * unit * (1 + 1e-6) + 1e-12 * t
  end
  for _, v in ipairs(values) do
    if near(tok.value, tok.digits, v) then return true end
    if tok.alt and (near(tok.alt[1], 17, v) or (tok.alt[2] and near(tok.alt[2], 17, v))) then return true end
  end
  return false
end

--- The numbers of a text that are not among the values it was given: a list of tokens.
function M.typed(s, values)
  local t = {}
  for _, tok in ipairs(M.numbers(s)) do
    if not M.shows(tok, values) then t[#t + 1] = tok.text end
  end
  return t
end

---------------------------------------------------------------------------------------------------
-- Premises
---------------------------------------------------------------------------------------------------

--- A premise: ok (a boolean) and its text (format and values, as E.T), the condition in words
-- with the values that decide it: "the return of I₂ (t ≈ 150) inside [0, T], T = 50".
function M.premise(ok, fmt, ...) return { ok = ok and true or false, text = M.T(fmt, ...) } end

--- "at least k <what> (this run: n)".
function M.at_least(n, k, what) return M.premise(n >= k, "at least %d %s (this run: %d)", k, what, n) end

--- An event at time t inside the span [0, T].
function M.inside(t, T, what) return M.premise(t <= T, "%s at t = %v inside the run's span [%v, T], T = %v", what, t, 0, T) end

--- A resolution (a grid step, a frequency spacing) small against the quantity it measures:
-- step <= factor * quantity.
function M.resolves(step, quantity, factor, what)
  return M.premise(step <= factor * quantity, "%s: resolution %.3g at most %v of the quantity %.3g", what, step, factor, quantity)
end

---------------------------------------------------------------------------------------------------
-- The parameters of a published number
---------------------------------------------------------------------------------------------------

local same = S.same

--- The defaults (the paper's parameters) of the keys given, as an `at` table; keys = nil: every
-- key whose default is not a list, but those in `except` (a set).
function M.paper_at(sc, keys, except)
  local at = {}
  if keys then
    for _, k in ipairs(keys) do at[k] = assert(sc.byname[k], "claims.paper_at: no parameter " .. tostring(k))[2] end
  else
    for _, p in ipairs(sc.params) do
      if type(p[2]) ~= "table" and not (except and except[p[1]]) then at[p[1]] = p[2] end
    end
  end
  return at
end

-- Does the run's value v of a key meet the printed w? A number w against a list v: one of its
-- items; a list against a list: the same list.
local function meets(v, w)
  if type(w) ~= "table" and type(v) == "table" then
    for _, x in ipairs(v) do if same(x, w) then return true end end
    return false
  end
  return same(v, w)
end
M.meets = meets

local function sorted_keys(t)
  local k = {}
  for x in pairs(t) do k[#k + 1] = x end
  table.sort(k)
  return k
end

-- "k = v, ..." of an `at` table (values as given).
local function at_text(at)
  local t = {}
  for _, k in ipairs(sorted_keys(at)) do t[#t + 1] = k .. " = " .. show_list(at[k]) end
  return table.concat(t, ", ")
end
M.at_text = at_text

--- nil when the run's values of `keys` are the scenario's defaults (the paper's parameters),
-- else the text "this run has key = value (paper: default), ..." for an n/a reason.
function M.off_paper(sc, P, keys)
  local t = {}
  for _, k in ipairs(keys) do
    local p = assert(sc.byname[k], "experiment.off_paper: no parameter " .. tostring(k))
    if not same(P[k], p[2]) then t[#t + 1] = string.format("%s = %s (paper: %s)", k, show_list(P[k]), show_list(p[2])) end
  end
  if #t == 0 then return nil end
  return "this run has " .. table.concat(t, ", ")
end

--- Refuse (one line, exit status 2, before any computation) a list parameter of `keys` that
-- repeats a value: a repeated run would write duplicate rows.
function M.no_repeats(sc, P, keys)
  for _, k in ipairs(keys) do
    local r = S.repeated(P[k] or {})
    if r ~= nil then sc:fail(S.repeat_message(k, r)) end
  end
end

---------------------------------------------------------------------------------------------------
-- The claims table
---------------------------------------------------------------------------------------------------

local Claims = {}
Claims.__index = Claims

--- A claims table for scenario sc; pub maps claim keys to the published values typed into
-- paper/reference/<id>.tsv (column `claim` and `published`), when that file exists.
function M.claims(sc)
  local pub = {}
  local rows = sc and sc.reference and sc:reference()
  for _, r in ipairs(rows or {}) do if r.claim then pub[r.claim] = r.published end end
  return setmetatable({ sc = sc, rows = {}, pub = pub, keys = {} }, Claims)
end

--- A verdict for a part of a claim that the run cannot measure: "n/a" with the reason.
function M.na(reason)
  assert(type(reason) == "string" and reason ~= "", "claims.na: a reason is needed")
  return { na = reason }
end

--- Is holds an n/a verdict (M.na(...) or the string "n/a")?
function M.is_na(holds) return holds == "n/a" or (type(holds) == "table" and holds.na ~= nil) end

--- The verdict of the counted evidence: n = 0 -> n/a, all -> yes, none -> no, else partly.
function M.verdict_of(k, n)
  if n == 0 then return "n/a" end
  if k == n then return "yes" end
  if k == 0 then return "no" end
  return "partly"
end

-- items: a list of booleans or {ok = boolean, label = text}: checked, covered, the labels of
-- those that fail.
function M.count(items)
  local k, fails = 0, {}
  for _, it in ipairs(items) do
    local ok, label = it, nil
    if type(it) == "table" then ok, label = it.ok, it.label end
    if ok then k = k + 1 elseif label then fails[#fails + 1] = tostring(label) end
  end
  return k, #items, fails
end

local nan_pat = "%-?%f[%w][Nn]a[Nn]%f[%W]"

--- Add a claim (see the head of this file): spec = { key, text, published, at, any, premises,
-- shown, judge | (measured, items | evidence, what, values) }. Returns the verdict.
function Claims:claim(c)
  local key = assert(c.key, "claims: a claim needs a key")
  assert(not self.keys[key], "claims: the key '" .. tostring(key) .. "' is given twice")
  self.keys[key] = true
  assert(c.text, "claims: claim '" .. key .. "' has no text")
  local premises = c.premises or {}
  assert(#premises > 0 or c.at or c.any, "claims: claim '" .. key .. "' states neither premises, `at` nor `any` (why it holds at any parameters)")
  local P = self.sc and self.sc.P or {}
  local values, named = {}, {}
  local function keep(t) if t then for _, x in ipairs(t.values) do values[#values + 1] = x end end return t end
  local published = text(c.published or "—")
  local shown = keep(text(type(c.shown) == "function" and c.shown() or c.shown))
  local row = { key = key, text = tostring(c.text), published = published.s }
  -- 1. the parameters of the published number
  local na
  local checked = {}
  if c.at then
    local off = {}
    for _, k in ipairs(sorted_keys(c.at)) do
      if not meets(P[k], c.at[k]) then off[#off + 1] = string.format("%s = %s (printed at %s)", k, show_list(P[k]), show_list(c.at[k])) end
    end
    row.at, row.at_t = at_text(c.at), c.at
    if #off > 0 then
      na = keep(M.T("the published value is for other parameters: this run has %s", table.concat(off, ", ")))
      for _, k in ipairs(sorted_keys(c.at)) do add_values(values, P[k]); add_values(values, c.at[k]) end
    end
    checked[#checked + 1] = (#off > 0 and "✗ " or "✓ ") .. "at the printed parameters"
  end
  -- 2. the premises, in order; the first that fails decides
  for _, p in ipairs(premises) do
    local ok = p.ok
    if type(ok) == "function" then ok = ok() end
    checked[#checked + 1] = (ok and "✓ " or "✗ ") .. tostring(p.text)
    if not na and not ok then na = keep(M.T("not met: ") .. p.text) end -- a premise is a condition: said as unmet
  end
  if c.any then checked[#checked + 1] = "any parameters: " .. c.any end
  row.premises = table.concat(checked, "; ")
  -- 3. the measurement, only where the premises hold
  local verdict, measured
  if na then
    verdict = "n/a"
    measured = (shown and (shown.s .. " — ") or "") .. "n/a: " .. na.s
    row.evidence = "not judged"
  else
    local j = c.judge and c.judge() or c
    local m = keep(text(j.measured))
    assert(m and m.s ~= "", "claims: claim '" .. key .. "' has no measured text")
    local names = {} -- in key order: the table is byte-reproducible
    for k in pairs(j.values or {}) do names[#names + 1] = k end
    table.sort(names, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(names) do
      local v = j.values[k]
      if type(k) == "string" then named[#named + 1] = k .. "=" .. S.fmt(v) end
      add_values(values, v)
    end
    measured = (shown and (shown.s .. "; ") or "") .. m.s
    local k, n, fails
    if j.items then k, n, fails = M.count(j.items)
    elseif j.evidence then k, n, fails = j.evidence[1], j.evidence[2], {}
    else error("claims: claim '" .. key .. "' has no evidence (items or evidence)") end
    verdict = M.verdict_of(k, n)
    row.evidence = string.format("%d of %d %s", k, n, j.what or "checks") ..
                   (#fails > 0 and (" (not: " .. table.concat(fails, ", ") .. ")") or "")
    if n == 0 then measured = measured .. " — n/a: " .. keep(text(j.none or ("no " .. (j.what or "items") .. " to check"))).s end
    -- a measured quantity that is undefined (0/0, a slope through zero errors) is not a measurement
    if measured:find(nan_pat) then
      measured = measured:gsub(nan_pat, "undefined") ..
                 " — n/a: a measured quantity is undefined (0/0, a slope through zero errors, or no oscillation to time)"
      verdict = "n/a"
    end
  end
  row.measured, row.holds = measured, verdict
  table.sort(named)
  local vs = {}
  for _, v in ipairs(values) do vs[#vs + 1] = S.fmt(v) end
  row.values = table.concat(named, " ") .. ((#named > 0 and #vs > 0) and " " or "") .. table.concat(vs, " ")
  self.rows[#self.rows + 1] = row
  return verdict
end

--- The column heads of the Markdown table (default: claim (paper), published, reproduced,
-- premises, evidence, holds); claims that are not a paper's (the atlas's) name theirs.
function Claims:headed(h) self.header = h; return self end

--- The published value typed into the reference file for `key` (nil if none).
function Claims:published(key) return self.pub[key] end

--- The verdicts: counts by verdict and the number of claims.
function Claims:counts()
  local c = { yes = 0, no = 0, partly = 0, ["n/a"] = 0, n = #self.rows }
  for _, r in ipairs(self.rows) do c[r.holds] = c[r.holds] + 1 end
  return c
end

local function cell(s) s = tostring(s or ""); return s == "" and "—" or (s:gsub("|", "\\|")) end

-- The parameters of a published number in the Markdown table: those off the scenario's defaults
-- by name, the others as "the paper's parameters".
function Claims:at_md(at)
  local byname = self.sc and self.sc.byname or {}
  local named, paper = {}, false
  for _, k in ipairs(sorted_keys(at)) do
    local p = byname[k]
    if p and same(p[2], at[k]) then paper = true else named[#named + 1] = k .. " = " .. show_list(at[k]) end
  end
  if paper then table.insert(named, 1, "the paper's parameters") end
  return table.concat(named, ", ")
end

function Claims:md(note)
  local body = {}
  for i, c in ipairs(self.rows) do
    local pub = c.published .. (c.at_t and (" (at " .. self:at_md(c.at_t) .. ")") or "")
    body[i] = { cell(c.text), cell(pub), cell(c.measured), cell(c.premises), cell(c.evidence), c.holds == "no" and "**no**" or c.holds }
  end
  return S.md_table(self.header or { "claim (paper)", "published", "reproduced", "premises", "evidence", "holds" }, body) ..
         (note and ("\n" .. note .. "\n") or "")
end

--- The columns of a claims TSV, in order: the verdict (holds) last, as in the Markdown table, so
-- that a reader of the last column finds the verdict whatever columns come before it.
M.COLUMNS = { "claim", "published", "reproduced", "evidence", "premises", "at", "values", "holds" }

function Claims:tsv_rows()
  local out = {}
  for i, c in ipairs(self.rows) do
    local function nz(s) return (s and s ~= "") and s or "—" end
    out[i] = { claim = c.key, published = nz(c.published), reproduced = nz(c.measured), holds = c.holds,
               evidence = nz(c.evidence), premises = nz(c.premises), at = nz(c.at), values = nz(c.values) }
  end
  return M.COLUMNS, out
end

--- Write tables/<name>.md and tables/<name>.tsv (name defaults to the scenario id).
function Claims:write(note, name)
  name = name or self.sc.id
  local cols, rows = self:tsv_rows()
  self.sc:write_tsv("tables/" .. name .. ".tsv", cols, rows)
  self.sc:write_text("tables/" .. name .. ".md", self:md(note))
end

return M
