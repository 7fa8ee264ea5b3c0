-- sweep_figure.lua -- the figure of `sweep.lua ensemble` (lib/lua/kapitza/sweep/ensemble.lua), drawn
-- by gnuplot from the TSV the sweep wrote into DIR/figures/sweep-<model>.svg, through a scenario
-- object's figure (lib/lua/kapitza/scenario/figure.lua: every argument single-quoted, messages to a
-- log file, written under a temporary name and renamed, skipped with one line when no gnuplot runs).
--   one swept key (with more than one value): the final state against it, one line per
--     component (plot=NAME: that one only), failed points left out, marked by a grey x at the
--     bottom and counted in the title (figures/sweep-line.gp); a log x axis when the values are
--     positive and span more than a factor 100 or are evenly spaced in log but not in linear;
--   two: a heat map of one component (plot=NAME; default the first position, q, q1 or y1) over
--     (key1, key2), one cell per point, failed points grey (figures/sweep-grid.gp). Each axis
--     shows the real values when they are evenly spaced: on a log axis (log10 of the values) when
--     they are evenly spaced in log and that axis is chosen as for one key, else on a linear
--     axis when evenly spaced in linear; otherwise the axis is the index of the value, the values
--     as its tic labels (not to scale, said in the label). Tics at the values when there are at
--     most 12 of them;
--   three or more, more than M.max_points points, or no point that finished: no figure, one line
--     on stderr (the data are written).
-- The data are written first (atomically); a gnuplot that runs but fails on the script is one
-- line on stderr and exit status 1, the data kept. A sweep that draws no figure (plot=none, three
-- keys, no gnuplot, gnuplot failed) removes the figure an earlier sweep of the model left in DIR
-- (and DIR/figures when that leaves it empty): a figure there always shows the data beside it.
local S = require "kapitza.scenario"
local F = require "kapitza.files"

local M = {}

-- The most points a figure draws (measured: 40000 cells of a heat map, 3.5 s of gnuplot, 4.4 MB).
M.max_points = 1e5

-- a name as gnuplot's enhanced text shows it
local function gp_text(s) return (tostring(s):gsub("[_^@&~{}]", "\\%0")) end
-- a column as a label: a state component "at T"; an observer column (max_q, cross_q, final_E)
-- as what it records
local function col_text(s)
  local kind, c = tostring(s):match("^(%a+)_(.+)$")
  if kind == "max" then return "max |" .. gp_text(c) .. "|" end
  if kind == "cross" then return "time " .. gp_text(c) .. " crossed" end
  if kind == "final" then return gp_text(c) .. " at the end" end
  return gp_text(s) .. " at T"
end

--- Check plot=NAME against the state and observer columns (names) before anything runs: nil (default), "none",
-- or a column name; die(msg) otherwise.
function M.check(plot, names, die)
  if plot == nil or plot == "none" then return end
  for _, n in ipairs(names) do if n == plot then return end end
  die(string.format("plot=%s: not a state or observer column of this sweep (its columns: %s; or plot=none)", plot, table.concat(names, ", ")))
end

-- Evenly spaced (relative to the span) within 1e-9.
local function even(v, f)
  local n = #v
  local a, b = f(v[1]), f(v[n])
  for i = 2, n - 1 do
    if math.abs(f(v[i]) - (a + (b - a) * (i - 1) / (n - 1))) > 1e-9 * math.abs(b - a) then return false end
  end
  return true
end

local function linear(x) return x end

-- A log axis for the values v: positive, and spanning more than a factor 100 or evenly spaced in
-- log and not in linear (1e2, 1e3, 1e4).
local function logscale(v)
  local lo, hi = math.huge, -math.huge
  for _, x in ipairs(v) do lo, hi = math.min(lo, x), math.max(hi, x) end
  return lo > 0 and (hi / lo > 100 or (even(v, math.log10) and not even(v, linear)))
end

-- How an axis shows its values v (numbers in --over order): mode (lin, log, index) and the
-- half-width of a cell in the plotted coordinate.
local function axis(v)
  local n = #v
  if logscale(v) and even(v, math.log10) then
    return "log", math.abs(math.log10(v[n]) - math.log10(v[1])) / (n - 1) / 2
  end
  if even(v, linear) then return "lin", math.abs(v[n] - v[1]) / (n - 1) / 2 end
  return "index", 0.5
end

--- Draw the figure of the sweep whose TSV is at `data` (c: the parsed command line; names: the
-- state columns; status: per point; what: "model, method, knobs" words for the title; dir: the
-- absolute output folder). Returns the figure's path, or nil (none drawn; said on stderr).
function M.draw(c, spec, names, status, what, dir)
  local name = "sweep-" .. spec.name
  local old = dir .. "/figures/" .. name .. ".svg"
  -- a figure of an earlier sweep into DIR would not show these data: removed unless redrawn
  local function none()
    local st = F.stat(old, false)
    if st and st.kind == "file" then os.remove(old) end
  end
  if c.plot == "none" then return none() end
  local kz = require "kapitza"
  local axes, stride = {}, 1
  for j = #c.over, 1, -1 do
    local o = c.over[j]
    if #o.values > 1 then
      local v = {}
      for i, x in ipairs(o.values) do v[i] = S.number(x) end
      table.insert(axes, 1, { key = o.key, values = v, stride = stride })
    end
    stride = stride * #o.values
  end
  if #axes == 0 or #axes > 2 or #status > M.max_points then
    io.stderr:write(string.format("sweep: no figure: %s (the data are written)\n", #axes == 0 and "one point"
      or #axes > 2 and string.format("%d keys with more than one value (a figure shows one or two)", #axes)
      or string.format("%d points, more than the %d an SVG figure draws here (plot the TSV)", #status, M.max_points)))
    return none()
  end
  local nbad = 0
  for _, s in ipairs(status) do if s ~= "ok" and s ~= "stopped" then nbad = nbad + 1 end end
  if nbad == #status then
    io.stderr:write(string.format("sweep: no figure: none of the %d points finished (the data are written)\n", #status))
    return none()
  end
  local failed = nbad > 0 and string.format("; %d of %d points failed (%s)", nbad, #status,
                                            #axes == 1 and "grey x, left out" or "grey") or ""
  local sc = S.new { id = "sweep", title = "sweep ensemble " .. c.path, params = {} }
  sc.P = { out = dir }
  local vars = { datafile = sc:path("data/" .. name .. ".tsv"), nfail = nbad }
  local script
  if #axes == 1 then
    local a = axes[1]
    local comps = c.plot and { c.plot } or names
    local lab = {}
    for i, n in ipairs(comps) do lab[i] = gp_text(n) end
    vars.key, vars.keylabel, vars.comps, vars.labels = a.key, gp_text(a.key), comps, lab
    vars.logx = logscale(a.values) and 1 or 0
    vars.ylabel = #comps == 1 and col_text(comps[1]) or "state at T"
    vars.title = string.format("%s against %s: %s%s", #comps == 1 and col_text(comps[1]) or "the state at T",
                               gp_text(a.key), gp_text(what), failed)
    script = "sweep-line"
  else
    local comp = c.plot or names[1]
    vars.comp, vars.complabel = comp, col_text(comp)
    for i, a in ipairs(axes) do
      local mode, half = axis(a.values)
      local p = i == 1 and "x" or "y"
      local v = {}
      for k, x in ipairs(a.values) do v[k] = string.format("%.6g", x) end -- (tic labels)
      vars[p .. "key"], vars[p .. "label"], vars[p .. "mode"], vars[p .. "half"] = a.key, gp_text(a.key), mode, half
      vars[p .. "n"], vars[p .. "stride"], vars[p .. "values"] = #a.values, a.stride, v
      if mode == "log" then -- tics at whole powers of ten, at most about 8
        vars[p .. "label"] = vars[p .. "label"] .. " (log scale)"
        vars[p .. "tic"] = math.max(1, math.ceil(math.abs(math.log10(a.values[#a.values] / a.values[1])) / 8))
      end
      if mode == "index" then vars[p .. "label"] = vars[p .. "label"] .. " (its values, not to scale)" end
    end
    vars.title = string.format("%s over %s and %s: %s%s", col_text(comp), gp_text(axes[1].key), gp_text(axes[2].key),
                               gp_text(what), failed)
    script = "sweep-grid"
  end
  local ok, err = pcall(sc.figure, sc, name, vars, kz.root .. "/figures/" .. script .. ".gp")
  if not ok then
    none()
    io.stderr:write(string.format("sweep: figure %s/figures/%s.svg not drawn: %s (the data are written)\n", dir, name,
                                  (tostring(err):gsub("\n.*", ""))))
    os.exit(1)
  end
  if not err then return none() end
  return old
end

return M
