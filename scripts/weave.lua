-- weave.lua -- write the literate paper (to stdout) as a replication report: paper/front.md; an
-- overview of every artefact of the five papers (paper/reference/artefacts.tsv) with its status
-- and the verdicts of its claims (the claims tables and the register of known deviations); the
-- errata register (paper/reference/errata.tsv); then for every scenario, in the papers' order
-- (a section may give its own order, and an introduction paper/reference/intro-<key>.md),
-- the text its family shares when it is the family's first member (paper/reference/<id>-family.md),
-- its leading comment block (Markdown), a one-line result from its claims, the tables it wrote
-- (tables/<id>.md, tables/<id>-*.md), its figures (figures/<id>.svg, figures/<id>-*.svg and any
-- figure script that says "# section: <id>") and links to its data, and each paper's conclusion
-- (paper/reference/conclusion-<key>.md); the benchmarks (bench/*.md; bench/<id>.md of a scenario,
-- e.g. the atlas's CPU seconds, beside that scenario with its figure bench-<id>.svg), ending with
-- bench/environment.md, the machine of the timings (written by make bench only). Nothing here
-- reads the machine: the same outputs weave to the same bytes anywhere.
--   luajit scripts/weave.lua [PAPERDIR]
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
local paper = arg[1] or (root .. "/paper")

local papers = {
  { key = "cs", title = "Calvo & Sanz-Serna: HMM for mechanical systems with vibrations (seed 000)" },
  { key = "vmi", title = "Ober-Blöbaum, Wenger, Gail & Leyendecker: variational multirate integrators (seed 001)" },
  { key = "ste", title = "Sharp, Tsai & Engquist: HMM for the inverted pendulum (seed 002)" },
  { key = "sam", title = "Calvo, Chartier, Murua & Sanz-Serna: stroboscopic averaging (seed 003)" },
  { key = "top", title = "Fredbo: HMM with slow variables for the spinning top (seed 004)" },
  { key = "ex", title = "Your own experiment: examples outside the papers" },
  { key = "atlas", title = "The efficiency atlas: every method on every problem, and the solvers people use instead",
    order = { "atlas-pendulum", "atlas-ste", "atlas-kepler", "atlas-vdp", "atlas-fpu", "atlas-ring", "atlas-top", "atlas-dpend" } },
}

local function lines_of(cmd)
  local t, p = {}, io.popen(cmd)
  for l in p:lines() do t[#t + 1] = l end
  p:close()
  return t
end
local function ls(pattern) return lines_of("ls -1 " .. pattern .. " 2>/dev/null") end
local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end
local function base(path) return path:match("([^/]+)$") end

-- natural order: cs-table2.10 after cs-table2.9, fig before table
local function natural_key(s)
  return (s:gsub("%d+", function(d) return string.format("%08d", tonumber(d)) end))
end
local function sort_natural(t)
  table.sort(t, function(a, b) return natural_key(a) < natural_key(b) end)
  return t
end

-- The leading comment block of a scenario, without the "-- " prefix.
local function comment_block(path)
  local out = {}
  for line in (read(path) or ""):gmatch("([^\n]*)\n") do
    if line:match("^%-%-") then
      out[#out + 1] = line:gsub("^%-%- ?", "")
    else
      break
    end
  end
  return table.concat(out, "\n")
end

-- figure scripts placed under another scenario's section
local placed = {}
for _, gp in ipairs(ls(root .. "/figures/*.gp")) do
  local sec = (read(gp) or ""):match("\n# section:%s*(%S+)")
  if sec then
    placed[sec] = placed[sec] or {}
    table.insert(placed[sec], (base(gp):gsub("%.gp$", "")))
  end
end

-- tab-separated file with a header line ('#' lines skipped) -> rows keyed by column
local function tsv(path)
  local rows, cols = {}, nil
  for line in (read(path) or ""):gmatch("([^\n]*)\n") do
    if not line:match("^#") and line:match("%S") then
      local cells = {}
      for c in (line .. "\t"):gmatch("([^\t]*)\t") do cells[#cells + 1] = c end
      if not cols then cols = cells else
        local r = {}
        for j, c in ipairs(cols) do r[c] = cells[j] end
        rows[#rows + 1] = r
      end
    end
  end
  return rows
end

local register = tsv(paper .. "/reference/deviations.tsv")
local function deviation(id, claim)
  for _, d in ipairs(register) do if d.id == id and d.claim == claim then return d end end
end

-- The verdicts of a scenario's claims: counts by verdict, and the registered deviations.
local function verdicts(id)
  local v = { yes = 0, partly = 0, no = 0, n = 0, devs = {} }
  local files = ls(paper .. "/tables/" .. id .. ".tsv")
  for _, f in ipairs(ls(paper .. "/tables/" .. id .. "-*.tsv")) do files[#files + 1] = f end
  for _, f in ipairs(files) do
    local head = (read(f) or ""):match("\n?([^#\n][^\n]*)")
    if head and head:match("^claim\t") and head:match("\tholds") then
      for _, r in ipairs(tsv(f)) do
        v.n = v.n + 1
        v[r.holds] = (v[r.holds] or 0) + 1
        if r.holds ~= "yes" then v.devs[#v.devs + 1] = deviation(id, r.claim) or { kind = "unregistered", claim = r.claim } end
      end
    end
  end
  return v
end

-- The conclusions are woven from the claims tables, never typed (issue 27): a conclusion file
-- paper/reference/conclusion-<key>.md is a template whose numbers and verdicts are placeholders,
-- resolved here from the tables the scenarios wrote (an unknown placeholder stops the weave):
--   {{ID/KEY}}             the claim's verdict in words: "holds", "holds in part (3 of 4 cells)",
--                          "does not hold (0 of 2 checks)", "is not measurable here"
--   {{ID/KEY:evidence}}    its evidence, "3 of 4 cells"; {{ID/KEY:published}} its published column
--   {{ID/KEY:NAME|FMT}}    a value the claim was given under NAME (values column), formatted by FMT
--                          (string.format, default %.3g)
--   {{count:P}}            "k of n claims hold" over the scenarios P-* (or the scenario P itself);
--                          {{count:P:VERDICT}} the number
--                          with that verdict (yes, no, partly, n/a)
--   {{list:P:VERDICT}}     the claims of P-* with that verdict, as "`key` (id)", joined by ", "
--   {{errata:P}}           the number of rows of paper P in the errata register
local claim_rows = {}
local function claims_of(id)
  if claim_rows[id] then return claim_rows[id] end
  local t = {}
  local files = ls(paper .. "/tables/" .. id .. ".tsv")
  for _, f in ipairs(ls(paper .. "/tables/" .. id .. "-*.tsv")) do files[#files + 1] = f end
  for _, f in ipairs(files) do
    local head = (read(f) or ""):match("\n?([^#\n][^\n]*)")
    if head and head:match("^claim\t") and head:match("\tholds") then
      for _, r in ipairs(tsv(f)) do t[#t + 1] = r; t[r.claim] = r end
    end
  end
  claim_rows[id] = t
  return t
end
local function scenarios_of(key)
  if read(root .. "/scenarios/" .. key .. ".lua") then return { key } end
  local t = {}
  for _, f in ipairs(ls(root .. "/scenarios/" .. key .. "-*.lua")) do t[#t + 1] = base(f):gsub("%.lua$", "") end
  return sort_natural(t)
end
local function placeholder(ph, where)
  local function fail(why) io.stderr:write(string.format("weave: %s: {{%s}}: %s\n", where, ph, why)); os.exit(1) end
  local what, a, b = ph:match("^(%a+):([^:]+):?(.*)$")
  if what == "count" or what == "list" then
    local v = { yes = 0, no = 0, partly = 0, ["n/a"] = 0, n = 0 }
    local list = {}
    for _, id in ipairs(scenarios_of(a)) do
      for _, r in ipairs(claims_of(id)) do
        v.n, v[r.holds] = v.n + 1, (v[r.holds] or 0) + 1
        if r.holds == b then list[#list + 1] = string.format("`%s` (%s)", r.claim, id) end
      end
    end
    if v.n == 0 then fail("no claims") end
    if what == "list" then return #list > 0 and table.concat(list, ", ") or "none" end
    if b == "" then return string.format("%d of %d claims hold", v.yes, v.n) end
    if not v[b] then fail("no verdict " .. b) end
    return tostring(v[b])
  end
  if what == "errata" then
    local n = 0
    for _, e in ipairs(tsv(paper .. "/reference/errata.tsv")) do if e.paper == a then n = n + 1 end end
    return tostring(n)
  end
  local id, key, field = ph:match("^([%w%.%-]+)/([^:]+):?(.*)$")
  if not id then fail("not a placeholder") end
  local r = claims_of(id)[key]
  if not r then fail("no claim " .. key .. " in the claims tables of " .. id) end
  if field == "" then
    local ev = (r.evidence or ""):gsub(" %(not: .*%)$", "") -- the count; the table names the items
    return ({ yes = "holds", partly = "holds in part (" .. ev .. ")", no = "does not hold (" .. ev .. ")",
              ["n/a"] = "is not measurable here" })[r.holds] or fail("verdict " .. tostring(r.holds))
  end
  if field == "evidence" then return r.evidence end
  if field == "published" then return r.published end
  local name, fmt = field:match("^([%w_]+)|?(.*)$")
  for tok in (r.values or ""):gmatch("%S+") do
    local k, v = tok:match("^([%w_]+)=(.*)$")
    if k == name then return string.format(fmt ~= "" and fmt or "%.3g", tonumber(v)) end
  end
  fail("no value " .. tostring(name) .. " (values: " .. tostring(r.values) .. ")")
end
local function woven(text, where)
  return (text:gsub("{{(.-)}}", function(ph) return placeholder(ph, where) end))
end

local function status(a)
  if a.scenario == "-" then return a.kind end
  if not read(root .. "/scenarios/" .. a.scenario .. ".lua") then return "not yet" end
  local v = verdicts(a.scenario)
  for _, d in ipairs(v.devs) do
    if d.kind ~= "erratum" and d.kind ~= "notes" and d.kind ~= "not measurable" then return "partly" end
  end
  return "reproduced"
end

local function claims_cell(id)
  if id == "-" or not read(root .. "/scenarios/" .. id .. ".lua") then return "" end
  local v = verdicts(id)
  if v.n == 0 then return "no claims table" end
  local t = { string.format("%d of %d hold", v.yes, v.n) }
  local kinds = {}
  for _, d in ipairs(v.devs) do kinds[d.kind] = (kinds[d.kind] or 0) + 1 end
  local ks = {}
  for k, n in pairs(kinds) do ks[#ks + 1] = string.format("%d %s", n, k) end
  table.sort(ks)
  if #ks > 0 then t[#t + 1] = "(" .. table.concat(ks, ", ") .. ")" end
  return table.concat(t, " ")
end

local out = {}
local function emit(s) out[#out + 1] = s end

emit(read(paper .. "/front.md") or "# kapitza\n")

-- the overview
local artefacts = tsv(paper .. "/reference/artefacts.tsv")
if #artefacts > 0 then
  local count = {}
  local body = { "| paper | artefact | what | status | claims |", "|---|---|---|---|---|" }
  for _, a in ipairs(artefacts) do
    local st = status(a)
    count[st] = (count[st] or 0) + 1
    local link = a.scenario ~= "-" and read(root .. "/scenarios/" .. a.scenario .. ".lua") and
                 string.format("[%s](#%s)", a.artefact, a.scenario) or a.artefact
    body[#body + 1] = string.format("| %s | %s | %s | %s | %s |", a.paper, link, a.what, st, claims_cell(a.scenario))
  end
  local cs = {}
  for _, k in ipairs { "reproduced", "partly", "not yet", "schematic", "text" } do
    if count[k] then cs[#cs + 1] = string.format("%d %s", count[k], k) end
  end
  emit("\n## Overview\n")
  emit("\nEvery artefact of the five papers, its status and the verdicts of its claims (each claim is a row " ..
       "of the artefact's claims table; a verdict other than *holds* is a registered deviation of a kind: " ..
       "*erratum* — the paper is wrong and the reproduction follows the corrected reading; *notes* — a statement " ..
       "of the implementation notes, not of the paper; *limit* — the claim holds in part, for a measured numerical " ..
       "reason; *unexplained*; *claim* — the paper's claim does not hold; *not measurable* — the run cannot " ..
       "measure the claim, and says why). *Reproduced*: every claim holds or " ..
       "deviates only by an erratum, a notes' statement or a claim that cannot be measured. In all: " .. table.concat(cs, ", ") .. ".\n")
  emit("\n" .. table.concat(body, "\n") .. "\n")
end

-- the errata register
local errata = tsv(paper .. "/reference/errata.tsv")
if #errata > 0 then
  emit("\n## Errata register\n")
  emit("\nEvery misprint and ambiguity found, with the evidence, the reading taken and its effect on the " ..
       "numbers (`paper/reference/errata.tsv`); the scenarios repeat the readings beside their artefacts.\n")
  local body = { "| paper | where | printed | evidence | reading | effect |", "|---|---|---|---|---|---|" }
  for _, e in ipairs(errata) do
    body[#body + 1] = string.format("| %s | %s | %s | %s | %s | %s |", e.paper, e.where, e.printed, e.evidence, e.reading, e.effect)
  end
  emit("\n" .. table.concat(body, "\n") .. "\n")
end
for _, p in ipairs(papers) do
  local scen = {}
  for _, f in ipairs(ls(root .. "/scenarios/" .. p.key .. "-*.lua")) do scen[#scen + 1] = base(f):gsub("%.lua$", "") end
  if #scen > 0 then
    emit("\n## " .. p.title .. "\n")
    local intro = read(paper .. "/reference/intro-" .. p.key .. ".md")
    if intro then emit("\n" .. intro) end
    scen = sort_natural(scen)
    if p.order then -- the section's own order, the others after it
      local rank = {}
      for k, id in ipairs(p.order) do rank[id] = k end
      local pos = {}
      for k, id in ipairs(scen) do pos[id] = k end
      table.sort(scen, function(a, b)
        local ra, rb = rank[a] or (#p.order + pos[a]), rank[b] or (#p.order + pos[b])
        return ra < rb
      end)
    end
    for _, id in ipairs(scen) do
      -- the method text a family of artefacts shares, stated once before its first member
      local family = read(paper .. "/reference/" .. id .. "-family.md")
      if family then emit("\n" .. family) end
      emit("\n<a id=\"" .. id .. "\"></a>\n")
      emit(comment_block(root .. "/scenarios/" .. id .. ".lua") .. "\n")
      local v = verdicts(id)
      if v.n > 0 then
        local parts = {}
        for _, d in ipairs(v.devs) do
          parts[#parts + 1] = string.format("`%s` (%s%s)", d.claim, d.kind, d.reason and (": " .. d.reason) or "")
        end
        emit(string.format("\n**Result.** %d of %d claims hold%s\n", v.yes, v.n,
             #parts > 0 and ("; the others are registered deviations: " .. table.concat(parts, "; ") .. ".") or "."))
      end
      emit(string.format("\n*Scenario* `scenarios/%s.lua` — rerun with `luajit scenarios/%s.lua` "
                         .. "(`--help` lists its parameters).\n", id, id))
      local tables = ls(paper .. "/tables/" .. id .. ".md")
      for _, t in ipairs(sort_natural(ls(paper .. "/tables/" .. id .. "-*.md"))) do tables[#tables + 1] = t end
      for _, t in ipairs(tables) do emit("\n" .. read(t)) end
      local figs = {}
      for _, f in ipairs(ls(paper .. "/figures/" .. id .. ".svg")) do figs[#figs + 1] = base(f) end
      for _, f in ipairs(sort_natural(ls(paper .. "/figures/" .. id .. "-*.svg"))) do figs[#figs + 1] = base(f) end
      for _, f in ipairs(placed[id] or {}) do figs[#figs + 1] = f .. ".svg" end
      for _, f in ipairs(figs) do emit(string.format("\n![%s](figures/%s)\n", (f:gsub("%.svg$", "")), f)) end
      -- a scenario's benchmark (make bench: bench/<id>.md and its figure bench-<id>.svg) beside it
      local bmd = read(paper .. "/bench/" .. id .. ".md")
      if bmd then
        emit("\n" .. bmd)
        if read(paper .. "/figures/bench-" .. id .. ".svg") then
          emit(string.format("\n![bench-%s](figures/bench-%s.svg)\n", id, id))
        end
      end
      local data = ls(paper .. "/data/" .. id .. ".tsv")
      for _, d in ipairs(sort_natural(ls(paper .. "/data/" .. id .. "-*.tsv"))) do data[#data + 1] = d end
      for _, d in ipairs(ls(paper .. "/tables/" .. id .. ".tsv")) do data[#data + 1] = d end
      if #data > 0 then
        local links = {}
        for _, d in ipairs(data) do
          local rel = d:sub(#paper + 2)
          links[#links + 1] = string.format("[`%s`](%s)", rel, rel)
        end
        emit("\nData: " .. table.concat(links, ", ") .. "\n")
      end
    end
    local concl = read(paper .. "/reference/conclusion-" .. p.key .. ".md")
    if concl then emit("\n### Conclusion: " .. p.title:match("^([^:]+)") .. "\n\n" .. woven(concl, "conclusion-" .. p.key .. ".md")) end
  end
end
local bench = {}
for _, b in ipairs(sort_natural(ls(paper .. "/bench/*.md"))) do -- those of a scenario are woven beside it
  if not read(root .. "/scenarios/" .. base(b):gsub("%.md$", "") .. ".lua") and base(b) ~= "environment.md" then
    bench[#bench + 1] = b
  end
end
-- the machine of the timings closes the benchmarks
if read(paper .. "/bench/environment.md") then bench[#bench + 1] = paper .. "/bench/environment.md" end
if #bench > 0 then
  emit("\n## Benchmarks (`make bench`)\n")
  emit("\nRatios are measured within one run on one machine; absolute times are only indicative.\n")
  for _, b in ipairs(bench) do
    emit("\n" .. read(b))
    local fig = "bench-" .. base(b):gsub("%.md$", "") .. ".svg"
    if read(paper .. "/figures/" .. fig) then emit(string.format("\n![%s](figures/%s)\n", fig, fig)) end
  end
end
local text = table.concat(out, "\n"):gsub("\n\n\n+", "\n\n")
io.write(text, "\n")
