-- weave.lua -- write the literate paper (to stdout): paper/front.md, then for every scenario, in
-- the papers' order, its leading comment block (Markdown), the tables it wrote
-- (tables/<id>.md, tables/<id>-*.md), its figures (figures/<id>.svg, figures/<id>-*.svg and any
-- figure script that says "# section: <id>") and links to its data; last, the benchmarks
-- (bench/*.md).
--   luajit scripts/weave.lua [PAPERDIR]
local root = arg[0]:match("^(.*)/scripts/[^/]*$") or "."
local paper = arg[1] or (root .. "/paper")

local papers = {
  { key = "cs", title = "Calvo & Sanz-Serna: HMM for mechanical systems with vibrations (seed 000)" },
  { key = "vmi", title = "Ober-Blöbaum, Wenger, Gail & Leyendecker: variational multirate integrators (seed 001)" },
  { key = "ste", title = "Sharp, Tsai & Engquist: HMM for the inverted pendulum (seed 002)" },
  { key = "sam", title = "Calvo, Chartier, Murua & Sanz-Serna: stroboscopic averaging (seed 003)" },
  { key = "top", title = "Fredbo: HMM with slow variables for the spinning top (seed 004)" },
  { key = "ex", title = "Your own experiment: examples outside the papers" },
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

local out = {}
local function emit(s) out[#out + 1] = s end

emit(read(paper .. "/front.md") or "# kapitza\n")
for _, p in ipairs(papers) do
  local scen = {}
  for _, f in ipairs(ls(root .. "/scenarios/" .. p.key .. "-*.lua")) do scen[#scen + 1] = base(f):gsub("%.lua$", "") end
  if #scen > 0 then
    emit("\n## " .. p.title .. "\n")
    for _, id in ipairs(sort_natural(scen)) do
      emit("\n<a id=\"" .. id .. "\"></a>\n")
      emit(comment_block(root .. "/scenarios/" .. id .. ".lua") .. "\n")
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
  end
end
local bench = sort_natural(ls(paper .. "/bench/*.md"))
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
