-- claimcheck.lua -- the structure every claims table must have at any parameters (issue 27, item 5;
-- lib/lua/kapitza/claims.lua writes it): used by tests/claims_structure_spec.lua (every scenario at
-- --quick and at parameter sets derived from its --params), tests/lists_spec.lua (every list key
-- with one value and two) and on the checked-in tables. The problems, by kind:
--   verdict   a verdict other than yes, no, partly, n/a
--   evidence  "yes" without counted evidence (k of n with k = n >= 1), "partly" without 0 < k < n,
--             "no" without a failed item
--   key       a claim key given twice in one table
--   reason    an n/a without its reason
--   premise   a claim with neither premises nor a reason why it holds at any parameters
--   at        a published number compared on a run off the parameters it was printed at, or a
--             published number that names neither its parameters nor why it holds at any
--   typed     a number in the measured text that is not among the values the claim was given
--   label     a parameter shown in a key, text or figure legend not as given (rounded)
local Cl = require "kapitza.claims"
local S = require "kapitza.scenario"
local U = require "testutil"

local M = {}

local function split(s, sep)
  local t = {}
  for f in ((s or "") .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do t[#t + 1] = f end
  return t
end

local function value(s)
  local t = {}
  for _, x in ipairs(split(s, ",")) do t[#t + 1] = tonumber(x) or x end
  return t
end

--- The parameters of a run of scenario `id` (its --params listing: U.params) with --quick when
-- `quick` and the key=value arguments `args`: key -> list of values (a scalar key has one).
function M.effective(params, quick, args)
  local P = {}
  for _, p in ipairs(params) do
    local v = (quick and p.quick ~= "") and p.quick or p.default
    P[p.key] = value(v)
  end
  for _, a in ipairs(args or {}) do
    local k, v = a:match("^([%w_]+)=(.*)$")
    if k and P[k] then P[k] = v == "" and {} or value(v) end
  end
  -- a value written as 1/160 or pi/4 on the command line: read as the scenario does
  for k, vs in pairs(P) do
    for i, x in ipairs(vs) do if type(x) == "string" and S.number(x) then vs[i] = S.number(x) end end
  end
  return P
end

-- the evidence column: k, n
local function evidence(s)
  local k, n = tostring(s or ""):match("^(%d+) of (%d+)")
  return tonumber(k), tonumber(n)
end

local function values_of(s)
  local t = {}
  for tok in tostring(s or ""):gmatch("%S+") do
    local v = tonumber(tok:match("=(.*)$") or tok)
    if v then t[#t + 1] = v end
  end
  return t
end

-- Symbols of the parameters in texts: a key's own name, and the Greek letter the papers write.
local greek = { eps = "ε", omega = "ω", alpha = "α", eta = "η", nu = "ν", mu = "μ", theta0 = "θ₀", Theta0 = "Θ₀",
                Omega0 = "Ω₀", omega1 = "ω₁", omega2 = "ω₂" }

-- The values a symbol may show: those of the key and of the keys of its family (eps: eps_bottom,
-- eps_text; n: order_n).
local function family(P, base)
  local t = {}
  for k, vs in pairs(P) do
    local kk = "_" .. k .. "_"
    if kk:find("_" .. base .. "_", 1, true) or kk:find("_" .. base .. "s_", 1, true) then
      for _, v in ipairs(vs) do if type(v) == "number" then t[#t + 1] = v end end
    end
  end
  return t
end

local function exact(tok, vals)
  for _, v in ipairs(vals) do
    if math.abs(tok - math.abs(v)) <= 1e-9 * math.abs(v) then return true end
  end
  return false
end

--- Labels in a text that show a parameter not as given: "sym = NUM" (or key_NUM in a claim key)
-- where NUM is none of the run's values of that parameter's family. Returns a list of strings.
function M.labels(text, P)
  local bad = {}
  text = tostring(text or "")
  for key in pairs(P) do
    local vals = family(P, key)
    if #vals > 0 then
      for _, sym in ipairs { key, greek[key] } do
        local pos = 1
        while true do
          local a, b = text:find(sym, pos, true)
          if not a then break end
          pos = b + 1
          local before = a > 1 and text:sub(a - 1, a - 1) or " "
          local lead = a > 2 and text:byte(a - 2) or 0
          -- part of a name (ΔT, t_end), or of an expression (period / ε = ...)
          local op = text:sub(1, a - 1):match("([/×·%*])%s*$")
          local fn = text:sub(1, a - 1):match("(%a+)%s*$") -- an argument: sin θ₀, cos ωt
          if fn and ({ sin = 1, cos = 1, tan = 1, exp = 1, log = 1, sqrt = 1, max = 1, min = 1, abs = 1, arccos = 1 })[fn] then op = fn end
          local glued = op or before:match("[%w_/]") or (before:byte() >= 128 and (lead == 0xCE or lead == 0xCF or lead == 0xE2))
          local rest = text:sub(b + 1, b + 40)
          local num = rest:match("^ = ([^%s,;:()]+)") or rest:match("^=([^%s,;:()]+)")
          if not glued and num and num:match("^[%-−]?%d") then
            local toks = Cl.numbers(num)
            if toks[1] and not exact(toks[1].value, vals) then
              bad[#bad + 1] = string.format("%s = %s (the run's %s: %s)", sym, num, key, Cl.show_list(vals))
            end
          end
        end
      end
    end
  end
  return bad
end

--- The same for a claim key: a part equal to a parameter's name followed by a number
-- (eps_1e-4, omega1e+08, p10, H0.025) that is none of the run's values of that family.
function M.key_labels(k, P)
  local bad, parts = {}, split(tostring(k), "_")
  for i, t in ipairs(parts) do
    for key in pairs(P) do
      local num
      if t == key then num = parts[i + 1] elseif t:sub(1, #key) == key then num = t:sub(#key + 1) end
      local v = num and num ~= "" and (tonumber(num) or (num:match("^10%^%-?%d+$") and 10 ^ tonumber(num:sub(4))))
      local vals = family(P, key)
      if v and #vals > 0 and not exact(math.abs(v), vals) then
        bad[#bad + 1] = string.format("%s%s (the run's %s: %s)", t, t == key and ("_" .. num) or "", key, Cl.show_list(vals))
      end
    end
  end
  return bad
end

--- The text of an SVG's <text> elements, superscripts as ^ (gnuplot's enhanced text).
function M.svg_texts(path)
  local f = io.open(path, "rb")
  if not f then return {} end
  local s = f:read("*a")
  f:close()
  local t = {}
  for body in s:gmatch("<text[^>]*>(.-)</text>") do
    body = body:gsub('<tspan[^>]-dy="%-[^"]*"[^>]*>', "^"):gsub("<[^>]*>", "")
    body = body:gsub("&lt;", "<"):gsub("&gt;", ">"):gsub("&amp;", "&")
    t[#t + 1] = body
  end
  return t
end

--- Check the rows of one claims table (read by S.read_table) of a run with parameters P (nil: do
-- not check `at` and labels). Returns a list of {kind, what}.
function M.rows(rows, file, P)
  local out, seen = {}, {}
  local function bad(kind, r, fmt, ...)
    out[#out + 1] = { kind = kind, what = string.format("%s %s: ", file, tostring(r.claim)) .. string.format(fmt, ...) }
  end
  for _, r in ipairs(rows) do
    local h, m = tostring(r.holds), tostring(r.reproduced or "")
    if seen[r.claim] then bad("key", r, "the key is given twice") end
    seen[r.claim] = true
    if not (h == "yes" or h == "no" or h == "partly" or h == "n/a") then bad("verdict", r, "verdict %s", h) end
    local k, n = evidence(r.evidence)
    if h == "yes" and not (k and n >= 1 and k == n) then bad("evidence", r, "yes without counted evidence (%s)", tostring(r.evidence)) end
    if h == "partly" and not (k and k > 0 and k < n) then bad("evidence", r, "partly without some of its items (%s)", tostring(r.evidence)) end
    if h == "no" and not (k and n >= 1 and k < n) then bad("evidence", r, "no without a failed item (%s)", tostring(r.evidence)) end
    if h == "n/a" and not m:find("n/a: %S") then bad("reason", r, "n/a without its reason: %s", m) end
    local prem = tostring(r.premises or "—")
    if prem == "—" or prem == "" then bad("premise", r, "neither premises nor why it holds at any parameters") end
    local at = tostring(r.at or "—")
    if at == "—" and #Cl.numbers(r.published) > 0 and not prem:find("any parameters:", 1, true) then
      bad("at", r, "the published %s names neither its parameters nor why it holds at any", tostring(r.published))
    end
    if P and at ~= "—" and h ~= "n/a" then
      for _, kv in ipairs(split(at, ", ")) do
        local key, v = kv:match("^([%w_]+) = (.*)$")
        if key and P[key] then
          local want = value(v)
          local ok
          if #want == 1 then ok = Cl.meets(P[key], want[1]) else ok = Cl.meets(P[key], want) end
          if not ok then bad("at", r, "compared at %s = %s, printed at %s", key, Cl.show_list(P[key]), v) end
        end
      end
    end
    local typed = Cl.typed(m, values_of(r.values))
    if #typed > 0 then bad("typed", r, "numbers not among the claim's values: %s (in: %s)", table.concat(typed, " "), m) end
    if P then
      for _, l in ipairs(M.key_labels(r.claim, P)) do bad("label", r, "key shows %s", l) end
      for _, l in ipairs(M.labels(m, P)) do bad("label", r, "text shows %s", l) end
    end
  end
  return out
end

--- Check one claims table c (U.claims_tables: file, cols, rows): its rows (M.rows), and that the
-- verdict is its last column (as in the Markdown table), where a reader of claims tables that
-- knows no column names looks for it. Returns a list of {kind, what}.
function M.table(c, P)
  local out = {}
  if c.cols[#c.cols] ~= "holds" then
    out[1] = { kind = "verdict", what = string.format("%s: the last column is %s, not the verdict (holds)", c.file, tostring(c.cols[#c.cols])) }
  end
  for _, p in ipairs(M.rows(c.rows, c.file, P)) do out[#out + 1] = p end
  return out
end

--- Check every claims table and figure of a run's output folder. Returns the problems.
function M.run(dir, P)
  local out = {}
  for _, c in ipairs(U.claims_tables(dir)) do
    for _, p in ipairs(M.table(c, P)) do out[#out + 1] = p end
  end
  if P then
    for _, f in ipairs(U.files(dir .. "/figures")) do
      if f:match("%.svg$") then
        for _, t in ipairs(M.svg_texts(dir .. "/figures/" .. f)) do
          for _, l in ipairs(M.labels(t, P)) do out[#out + 1] = { kind = "label", what = "figures/" .. f .. ": " .. l .. " in '" .. t .. "'" } end
        end
      end
    end
  end
  return out
end

--- The problems as lines, and counts by kind.
function M.report(problems)
  local lines, kinds = {}, {}
  for _, p in ipairs(problems) do
    lines[#lines + 1] = "[" .. p.kind .. "] " .. p.what
    kinds[p.kind] = (kinds[p.kind] or 0) + 1
  end
  return table.concat(lines, "\n"), kinds
end

return M
