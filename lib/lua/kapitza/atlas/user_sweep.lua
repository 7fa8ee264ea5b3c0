-- atlas_user_sweep.lua -- the stiffness sweep of the atlas on a model of one's own:
-- `kapitza atlas MODEL.lua --out DIR omega=1e3,1e4,1e5` (lib/lua/kapitza/cli/atlas.lua reads the list,
-- lib/lua/kapitza/atlas/run.lua's R.user_sweep runs the generic atlas of lib/lua/kapitza/atlas/user.lua at
-- each value: its own reference, period and ladders). What the papers' atlases ask of their
-- problems (lib/lua/kapitza/atlas.lua's A.work_at, A.work_exponent over a stiffness list), asked of
-- the user's model: how each method's work to reach a tolerance grows with the swept parameter.
-- The catalogue's method names do not depend on the value, so a method is followed across the
-- sweep by its name.
--
-- Outputs (staged, atomic, through the scenario object):
--   data/atlas-<model>.tsv             every run, value by value: `key`, `value`, then the columns
--                                      of the atlas at one value (AU.columns)
--   tables/atlas-<model>-best.{tsv,md} the cheapest configuration per value and tolerance
--   tables/atlas-<model>-scaling.{tsv,md}  per method and tolerance, the work at each value and
--                                      the least-squares exponent p of work ∝ value^p
--   figures/atlas-<model>.svg          error against evaluations, one panel per value
--                                      (figures/atlas-model-sweep.gp)
--   figures/atlas-<model>-scaling.svg  the work at the first tolerance against the value, log-log
--                                      (figures/atlas-model-scaling.gp)
local kz = require "kapitza"
local S = require "kapitza.scenario"
local A = require "kapitza.atlas"
local AU = require "kapitza.atlas.user"
local AW = require "kapitza.atlas.write"

local M = {}

local function prefixed(cols)
  local t = { "key", "value" }
  for _, c in ipairs(cols) do t[#t + 1] = c end
  return t
end

M.columns = prefixed(AU.columns)
M.best_columns = prefixed(AU.best_columns)
M.scaling_columns = { "method", "family", "tol", "key", "value", "work", "bound", "exponent" }

local function g(x) return string.format("%.3g", x) end

--- The rows of the points (pts[i] = {value, ctx, rows, methods, na}) as one list, value by value,
-- each row with its `key` and `value`, its stiffness index si, and the marks of its method's
-- curve by evaluations as front and env (what A.curve, A.work_at read; AU.sweep leaves the marks
-- by seconds there).
function M.join(key, pts)
  local rows = {}
  for si, p in ipairs(pts) do
    for _, r in ipairs(p.rows) do
      r.key, r.value, r.si, r.stiffness = key, p.value, si, p.value
      r.front, r.env = r.front_evals, r.env_evals
      rows[#rows + 1] = r
    end
  end
  return rows
end

--- The union of the points' entries of field `f` ("methods", "na") by name, in the first point's
-- order, then what later points add.
local function union(pts, f)
  local seen, t = {}, {}
  for _, p in ipairs(pts) do
    for _, m in ipairs(p[f]) do
      if not seen[m.name] then seen[m.name] = true; t[#t + 1] = m end
    end
  end
  return t
end

--- The scaling of the sweep: for each method and tolerance the work at each value (A.work_at:
-- interpolated on the method's curve, or a bound, or nil) and the exponent p of work ∝ value^p
-- (A.work_exponent over the values where it is interpolated; nil with fewer than two, or when a
-- value is not positive). Returns a list of { method, family, tol, works = { {w, bound}, ... }, p }.
function M.scaling(rows, values, methods, tols)
  local positive = true
  for _, v in ipairs(values) do if not (v > 0) then positive = false end end
  local t = {}
  for _, m in ipairs(methods) do
    for _, tol in ipairs(tols) do
      local p, pts = A.work_exponent(rows, values, m.name, tol)
      local works = {}
      for si, q in ipairs(pts) do works[si] = { q[2], q[3] } end
      t[#t + 1] = { method = m.name, family = m.family, tol = tol, works = works, p = positive and p or nil }
    end
  end
  return t
end

-- the swept key as gnuplot's enhanced text shows it
local function gp_text(s) return (s:gsub("_", "\\_")) end

-- The model's parameter values over the sweep: "name=v" where every point has the same value,
-- "name=v1,v2,..." where they differ (the swept key, and a parameter derived from it).
local function swept_words(pts)
  local per = {}
  for i, p in ipairs(pts) do per[i] = (AU.words(p.ctx.mf)) end
  local t = {}
  for j, w in ipairs(per[1]) do
    local name = w:match("^([^=]*)=")
    local vs, same = {}, true
    for i = 1, #pts do
      vs[i] = per[i][j]:match("=(.*)$")
      if vs[i] ~= vs[1] then same = false end
    end
    t[j] = same and w or (name .. "=" .. table.concat(vs, ","))
  end
  return t
end

--- Write the outputs of the sweep of `key` over the points pts (pts[i] = {value, ctx, rows,
-- methods, na}) through the scenario object sc. Returns the best rows (each with its value) and
-- the scaling entries.
function M.write(sc, key, pts)
  local mf = pts[1].ctx.mf
  local id = "atlas-" .. mf.name
  local tols = pts[1].ctx.tol
  local values = {}
  for i, p in ipairs(pts) do values[i] = p.value end
  local methods, na = union(pts, "methods"), union(pts, "na")
  local rows = M.join(key, pts)
  local sca = M.scaling(rows, values, methods, tols)
  local keep, names = AU.plotted(methods, rows)
  local cols, pt, dt = AW.styles(keep)
  local style = {} -- a method's line style, the same in both figures
  for i, n in ipairs(names) do style[n] = { cols[i], pt[i], dt[i] } end
  local plot = M.scaling_plot(values, tols[1], sca, keep)
  local vals, y0, what = AU.words(mf)
  vals = swept_words(pts)
  local vlist = {}
  for i, v in ipairs(values) do vlist[i] = S.fmt(v) end
  local head = { string.format("kapitza atlas %s: model '%s' (%s functions), %s; y0 = (%s); swept: %s = %s", mf.path, mf.name,
                               mf.how, table.concat(vals, " "), table.concat(y0, ", "), key, table.concat(vlist, ", ")),
                 "key, value: the swept parameter and its value (the runs value by value; each value its own reference, period and ladders)" }
  for _, p in ipairs(pts) do head[#head + 1] = string.format("%s = %s: %s", key, S.fmt(p.value), p.ctx.note) end
  head[#head + 1] = string.format(AU.data_head[1], what)
  head[#head + 1] = AU.data_head[2]
  sc:write_tsv("data/" .. id .. ".tsv", M.columns, AU.cells(rows), head)
  -- the cheapest configuration per value and tolerance
  local best, body, pastes, low = {}, {}, {}, {}
  for _, p in ipairs(pts) do
    local b, bb = AU.best_rows(p.rows, tols)
    for i, r in ipairs(b) do
      r.key, r.value = key, p.value
      best[#best + 1] = r
      local row = { S.fmt(p.value) }
      for _, c in ipairs(bb[i]) do row[#row + 1] = c end
      body[#body + 1] = row
    end
    local m = p.ctx.mf
    pastes[#pastes + 1] = "kapitza solve " .. m.path .. (#m.overrides > 0 and (" " .. table.concat(m.overrides, " ")) or "")
    local l = AU.low_tols(p.ctx)
    if #l > 0 then low[#low + 1] = string.format("%s = %s: %s (its estimated error %.1e)", key, S.fmt(p.value), table.concat(l, ", "), p.ctx.ref_est) end
  end
  sc:write_tsv("tables/" .. id .. "-best.tsv", M.best_columns, best,
               { id .. ": the cheapest configuration meeting each tolerance at each value of " .. key ..
                 " (by evaluations, by CPU seconds of this run)", "paste its params after: " .. table.concat(pastes, " | ") })
  local bh = { key }
  for i = 3, #M.best_columns do bh[#bh + 1] = M.best_columns[i] end
  local md = { string.format("#### The atlas of %s (`%s`) over %s = %s\n", mf.name, mf.path, key, table.concat(vlist, ", ")),
    string.format("Model: %s; y0 = (%s). Error: %s, against the reference at each value of %s:\n", table.concat(vals, ", "),
                  table.concat(y0, ", "), what, key) }
  for _, p in ipairs(pts) do md[#md + 1] = string.format("- %s = %s: %s.", key, S.fmt(p.value), p.ctx.note) end
  md[#md + 1] = "\n" .. AU.best_intro .. pastes[1]:gsub("%f[%w_]" .. key .. "=%S+", key .. "=VALUE") .. "` (VALUE: the row's " .. key .. "):\n"
  md[#md + 1] = S.md_table(bh, body)
  if #low > 0 then
    md[#md + 1] = "\n**The reference is not accurate enough for tolerance** " .. table.concat(low, "; ") .. " (raise refmax=).\n"
  end
  local mt = {}
  for _, m in ipairs(methods) do
    local lads, same = {}, true
    for i, p in ipairs(pts) do
      lads[i] = "–"
      for _, pm in ipairs(p.methods) do if pm.name == m.name then lads[i] = AU.ladder_words(pm) end end
      if lads[i] ~= lads[1] then same = false end
    end
    local cell = lads[1]
    if not same then
      local t = {}
      for i, p in ipairs(pts) do t[i] = string.format("%s = %s: %s", key, S.fmt(p.value), lads[i]) end
      cell = table.concat(t, "; ")
    end
    mt[#mt + 1] = { m.name, m.family, m.label, cell }
  end
  md[#md + 1] = AU.methods_intro
  md[#md + 1] = S.md_table({ "method", "family", "what", "ladder" }, mt)
  local nh, nt = AU.na_md(na)
  if nh then md[#md + 1] = nh; md[#md + 1] = nt end
  md[#md + 1] = AU.failed_words(rows, function(r) return string.format("%s = %s: ", key, S.fmt(r.value)) end)
  md[#md + 1] = string.format("\nEvery run: `data/%s.tsv`; how the work grows with %s: `tables/%s-scaling.md`; the figure%s: " ..
                              "`figures/%s.svg`%s.\n", id, key, id, plot and "s" or "", id, plot and (", `figures/" .. id .. "-scaling.svg`") or "")
  sc:write_text("tables/" .. id .. "-best.md", table.concat(md, "\n"))
  local srows = {}
  for _, e in ipairs(sca) do
    for si, v in ipairs(values) do
      local w, b = e.works[si][1], e.works[si][2]
      srows[#srows + 1] = { method = e.method, family = e.family, tol = e.tol, key = key, value = v, work = w or "-",
                            bound = w and (b and 1 or 0) or "-", exponent = e.p or "-" }
    end
  end
  sc:write_tsv("tables/" .. id .. "-scaling.tsv", M.scaling_columns, srows,
               { id .. ": force evaluations to reach each tolerance at each value of " .. key .. " (work: interpolated on the " ..
                 "method's curve; bound 1: its cheapest run was already more accurate, an upper bound; '-': not reached)",
                 "exponent: least-squares p of work ∝ " .. key .. "^p over the values where the work is interpolated (at least two; '-' otherwise)" })
  sc:write_text("tables/" .. id .. "-scaling.md", M.scaling_md(mf, key, values, tols, sca, id, plot ~= nil))
  -- the figures
  if #names > 0 then
    local xlo, xhi = AW.range(rows, "evaluations")
    local ylo, yhi = AW.error_range(rows, tols)
    local vars = { datafile = sc:path("data/" .. id .. ".tsv"), methods = names, colours = table.concat(cols, " "),
                   pts = pt, dts = dt, nvalues = #values, values = values, key = gp_text(key), ntargets = #tols,
                   title = "Atlas: " .. gp_text(mf.name) .. " over " .. gp_text(key),
                   ylabel = (mf.nq > 0 or mf.vmi) and "error in q(T)" or "error in y(T)",
                   xmin = xlo, xmax = xhi, ymin = ylo, ymax = yhi }
    for k, e in ipairs(tols) do vars["target" .. k] = e end
    sc:figure(id, vars, kz.root .. "/figures/atlas-model-sweep.gp")
  end
  if plot then
    local c, q, d = {}, {}, {}
    for i, n in ipairs(plot.names) do c[i], q[i], d[i] = style[n][1], style[n][2], style[n][3] end
    sc:figure(id .. "-scaling", { datafile = sc:path("tables/" .. id .. "-scaling.tsv"), methods = plot.names, colours = table.concat(c, " "),
                                  pts = q, dts = d, tol = S.fmt(tols[1]), key = gp_text(key),
                                  title = string.format("%s: work to reach %s against %s", gp_text(mf.name), g(tols[1]), gp_text(key)),
                                  xmin = plot.vlo / 1.5, xmax = plot.vhi * 1.5, ymin = plot.wlo / 2, ymax = plot.whi * 2 },
              kz.root .. "/figures/atlas-model-scaling.gp")
  end
  return best, sca
end

--- The Markdown of the scaling: per tolerance, each method's work at each value and its
-- exponent, and what the exponents say.
function M.scaling_md(mf, key, values, tols, sca, id, drawn)
  local md = { string.format("#### How the work grows with %s: %s (`%s`)\n", key, mf.name, mf.path),
    string.format("Force evaluations each method needs to reach each tolerance at each value of %s, read from its curve " ..
      "(log-log interpolation between two runs that bracket the tolerance; ≤ : its cheapest run was already more accurate, " ..
      "an upper bound; – : no run reached it), and p, the least-squares exponent of work ∝ %s^p over the values where the " ..
      "work is interpolated (at least two). Read p as the cost of a larger %s: p ≈ 0 is a cost flat in %s (what an " ..
      "averaging method aims at), p ≈ 1 a cost that grows like %s (a direct integrator resolving every fast period).\n",
      key, key, key, key, key) }
  local hdr = { "method", "family" }
  for _, v in ipairs(values) do hdr[#hdr + 1] = key .. " = " .. S.fmt(v) end
  hdr[#hdr + 1] = "p"
  for _, tol in ipairs(tols) do
    local body, flat, linear, other = {}, {}, {}, {}
    for _, e in ipairs(sca) do
      if e.tol == tol then
        local row = { e.method, e.family }
        for si = 1, #values do row[#row + 1] = A.cost_str(e.works[si][1], e.works[si][2]) end
        row[#row + 1] = e.p and string.format("%.2f", e.p) or "–"
        body[#body + 1] = row
        if e.p then
          local w = string.format("%s (%.2f)", e.method, e.p)
          if math.abs(e.p) < 0.3 then flat[#flat + 1] = w
          elseif math.abs(e.p - 1) <= 0.3 then linear[#linear + 1] = w
          else other[#other + 1] = w end
        end
      end
    end
    md[#md + 1] = string.format("\nTolerance %s:\n", g(tol))
    md[#md + 1] = S.md_table(hdr, body)
    local say = {}
    if #flat > 0 then say[#say + 1] = "flat in " .. key .. " (|p| < 0.3): " .. table.concat(flat, ", ") end
    if #linear > 0 then say[#say + 1] = "growing like " .. key .. " (|p - 1| ≤ 0.3): " .. table.concat(linear, ", ") end
    if #other > 0 then say[#say + 1] = "other: " .. table.concat(other, ", ") end
    md[#md + 1] = #say > 0 and string.format("\nAt %s the work is %s.\n", g(tol), table.concat(say, "; ")) or
                  string.format("\nAt %s no method reaches the tolerance by interpolation at two values or more.\n", g(tol))
  end
  md[#md + 1] = string.format("\nThe data: `tables/%s-scaling.tsv` (one row per method, tolerance and value)%s.\n", id,
                              drawn and string.format("; the figure: `figures/%s-scaling.svg` (the first tolerance)", id) or
                              " (no figure: no method reaches the first tolerance, or a value is not positive)")
  return table.concat(md, "\n")
end

--- What the scaling figure draws: the methods of `methods` (the main figure's) that reach tolerance
-- tol at some value ({names}), and the ranges of the values (vlo, vhi) and of the work (wlo, whi);
-- nil when no method reaches it or a value is not positive (a log axis).
function M.scaling_plot(values, tol, sca, methods)
  local reach, wlo, whi = {}, math.huge, 0
  for _, e in ipairs(sca) do
    if e.tol == tol then
      for _, w in ipairs(e.works) do
        if w[1] then reach[e.method] = true; wlo, whi = math.min(wlo, w[1]), math.max(whi, w[1]) end
      end
    end
  end
  local names = {}
  for _, m in ipairs(methods) do if reach[m.name] then names[#names + 1] = m.name end end
  local vlo, vhi = math.huge, -math.huge
  for _, v in ipairs(values) do vlo, vhi = math.min(vlo, v), math.max(vhi, v) end
  if #names == 0 or not (vlo > 0) then return nil end
  return { names = names, vlo = vlo, vhi = vhi, wlo = wlo, whi = whi }
end

return M
