-- atlas_write.lua -- the outputs of an atlas scenario (lib/lua/kapitza/atlas.lua): the methods' line
-- styles, the data file of every run, the summary and method tables, and the figure.
local S = require "kapitza.scenario"
local A = require "kapitza.atlas"

local M = {}

local function finite(x) return type(x) == "number" and x == x and x < math.huge and x > -math.huge end

-- Line styles by family (colour) and by index within the family (point type, dash).
M.colours = { HMM = { "#1b6ac9", "#4dabf7", "#1864ab", "#74c0fc", "#364fc7" },
              SAM = { "#2b8a3e", "#69db7c", "#087f5b", "#8ce99a", "#5c940d", "#38d9a9" },
              MR = { "#e67700", "#ffa94d" }, LISP = { "#c2255c", "#f783ac" },
              VMI = { "#862e9c", "#cc5de8", "#5f3dc4", "#b197fc", "#9c36b5" },
              direct = { "#495057", "#d9480f", "#868e96", "#f08c00", "#212529", "#e8590c", "#adb5bd", "#a61e4d" },
              peer = { "#000000", "#5c7cfa", "#f03e3e", "#37b24d", "#f59f00", "#ae3ec9", "#1098ad" } }

--- The style lists of the methods (colours, point types, dash types), aligned with `methods`.
function M.styles(methods)
  local seen, cols, pts, dts = {}, {}, {}, {}
  for i, m in ipairs(methods) do
    local f = m.family
    seen[f] = (seen[f] or 0) + 1
    local pal = M.colours[f] or M.colours.direct
    cols[i] = pal[(seen[f] - 1) % #pal + 1]
    pts[i] = ({ 7, 5, 9, 11, 13, 4, 6, 8, 10, 12 })[(i - 1) % 10 + 1]
    dts[i] = f == "direct" and 2 or (f == "peer" and 4 or 1)
  end
  return cols, pts, dts
end

--- Range of a column over rows with status ok (positive values), padded by a factor.
function M.range(rows, col)
  local lo, hi = math.huge, -math.huge
  for _, r in ipairs(rows) do
    local v = r[col]
    if r.status == "ok" and type(v) == "number" and v > 0 and v < math.huge then lo, hi = math.min(lo, v), math.max(hi, v) end
  end
  if lo > hi then return 1e-16, 1 end
  return lo / 2, hi * 2
end

--- The error axis: the range of the runs, at most up to 10 (larger errors mean a run that went
-- astray, drawn off the chart) and at least a decade around the targets.
function M.error_range(rows, targets)
  local lo, hi = M.range(rows, "error")
  for _, e in ipairs(targets) do lo, hi = math.min(lo, e / 3), math.max(hi, e * 3) end
  return math.max(lo, 1e-16), math.min(hi, 10)
end

-- direct / cheapest as the works allow: a work marked ≤ is an upper bound, so the ratio of a
-- bounded direct work to a measured one is at most the quotient, of a measured one to a bounded
-- one at least, and of two bounds undecided (–).
local function ratio_str(ratio, direct, best)
  if not ratio then return "–" end
  if direct.bound and best.bound and direct ~= best then return "–" end
  if direct.bound and direct ~= best then return string.format("≤ %.3g", ratio) end
  if best.bound and direct ~= best then return string.format("≥ %.3g", ratio) end
  return string.format("%.3g", ratio)
end

--- The summary of the sweep at the targets: for each target and stiffness the cheapest method
-- (by force evaluations), the cheapest of another family than direct integration and the
-- cheapest direct stepper, and the ratio direct / cheapest. Returns TSV rows and Markdown.
function M.summary(prob, P, rows, methods, na)
  local st = prob.stiff
  local show = st.show or require("kapitza.claims").show
  local trows, md = {}, {}
  md[#md + 1] = string.format("Work (force evaluations) to reach each target error, from the runs of the sweep " ..
    "(log-log interpolation between two runs that bracket the target; ≤ : the cheapest run was already more " ..
    "accurate, an upper bound; – : no run reached it; a ratio with a bounded work is a bound itself, of two bounds – ).\n")
  for _, e in ipairs(P.target) do
    local body = {}
    for si, s in ipairs(P[st.key]) do
      local rk = A.ranking(rows, si, e, methods)
      local best, direct, other = rk[1], nil, nil
      for _, r in ipairs(rk) do
        if r.family == "direct" and not direct then direct = r end
        if r.family ~= "direct" and not other then other = r end
      end
      local ratio = best and direct and direct.work / best.work or nil
      trows[#trows + 1] = { target = e, si = si, stiffness = s, cheapest = best and best.method or "-",
                            work = best and best.work or 0, bound = best and (best.bound and 1 or 0) or 0,
                            best_other = other and other.method or "-", work_other = other and other.work or 0,
                            best_direct = direct and direct.method or "-", work_direct = direct and direct.work or 0,
                            direct_over_best = ratio or 0 }
      body[#body + 1] = { show(s), best and ("**" .. best.method .. "**") or "none", A.cost_str(best and best.work, best and best.bound),
                          other and other.method or "–", A.cost_str(other and other.work, other and other.bound),
                          direct and direct.method or "–", A.cost_str(direct and direct.work, direct and direct.bound),
                          ratio_str(ratio, direct, best) }
    end
    md[#md + 1] = string.format("\nTarget error %s (%s):\n", S.sci(e, 2), prob.error_what)
    md[#md + 1] = S.md_table({ st.label, "cheapest", "force evals", "cheapest not direct", "force evals",
                               "cheapest direct", "force evals", "direct / cheapest" }, body)
  end
  -- every method's work at every target and stiffness
  local hdr = { "method" }
  for _, e in ipairs(P.target) do
    for _, s in ipairs(P[st.key]) do hdr[#hdr + 1] = string.format("%s, %s", S.sci(e, 1), show(s)) end
  end
  local body = {}
  for _, m in ipairs(methods) do
    local row = { m.name }
    for _, e in ipairs(P.target) do
      for si in ipairs(P[st.key]) do row[#row + 1] = A.cost_str(A.work_at(rows, si, m.name, e)) end
    end
    body[#body + 1] = row
  end
  md[#md + 1] = "\nEvery method's work at each target error and " .. st.label .. ":\n"
  md[#md + 1] = S.md_table(hdr, body)
  if #na > 0 then
    local t = {}
    for _, n in ipairs(na) do t[#t + 1] = { n.name, n.family, "n/a: " .. n.reason } end
    md[#md + 1] = "\nMethods of the library that do not apply to this problem:\n"
    md[#md + 1] = S.md_table({ "method", "family", "why" }, t)
  end
  local failed = {}
  for _, r in ipairs(rows) do
    if r.status ~= "ok" then failed[#failed + 1] = string.format("%s %s = %g at %s = %s (%s%s)", r.method, r.knob, r.x, st.label,
      show(r.stiffness), r.status, r.msg and (": " .. r.msg) or "") end
  end
  if #failed > 0 then
    md[#md + 1] = "\nRuns without a finite error (left out of the curves): " .. table.concat(failed, "; ") .. ".\n"
  end
  return trows, table.concat(md, "\n")
end

M.summary_columns = { "target", "si", "stiffness", "cheapest", "work", "bound", "best_other", "work_other",
                      "best_direct", "work_direct", "direct_over_best" }

--- The method table of the scenario (what each curve is).
function M.method_table(methods)
  local t = {}
  for _, m in ipairs(methods) do
    local ladder = {}
    local function g(v) return string.format("%.6g", v) end -- for reading, not round-tripping
    for i, x in ipairs(m.ladder) do ladder[i] = type(x) == "table" and ("(" .. g(x[1]) .. ", " .. g(x[2]) .. ")") or g(x) end
    t[#t + 1] = { m.name, m.family, m.label, m.knob .. " = " .. table.concat(ladder, ", ") }
  end
  return S.md_table({ "method", "family", "what", "ladder" }, t)
end

--- The rows as written to a data file: a run without a finite error has no number to show, so
-- its error cell says why ("diverged", or "-" for a failed run, whose message is in the summary)
-- and its env cell is "-" (it is on no curve), instead of nan: a nan in an atlas file is then a
-- real one, which the regression comparison flags.
function M.cells(rows)
  local out = {}
  for i, r in ipairs(rows) do
    local c = {}
    for k, v in pairs(r) do c[k] = v end
    if r.status ~= "ok" then
      c.error = r.status == "diverged" and "diverged" or "-"
      c.env = "-"
    end
    out[i] = c
  end
  return out
end

--- Write data/<id>.tsv (every run), tables/<id>.{tsv,md} (summary, methods, n/a) and the figure
-- figures/<id>.svg (error against force evaluations, one panel per stiffness).
function M.write(sc, prob, P, rows, ctxs, methods, na)
  local st = prob.stiff
  local show = st.show or require("kapitza.claims").show
  local notes = {}
  for si, ctx in ipairs(ctxs) do
    notes[#notes + 1] = string.format("%s = %s: %s", st.key, S.fmt(P[st.key][si]), ctx.note or "")
  end
  local head = { sc.id .. ": " .. prob.title .. "; error = " .. prob.error_what,
                 "work: force_evals (field/force/gradient evaluations as each method counts them), micro_steps, newton_iters;",
                 "status: ok, diverged (non-finite error) or failed (the method stopped with an error); si: stiffness index;",
                 "error: 'diverged' or '-' (failed) when there is no finite error; env: the error the curves use, '-' off the curves" }
  for _, n in ipairs(notes) do head[#head + 1] = n end
  sc:write_tsv("data/" .. sc.id .. ".tsv", A.columns, M.cells(rows), head)
  local trows, md = M.summary(prob, P, rows, methods, na)
  sc:write_tsv("tables/" .. sc.id .. ".tsv", M.summary_columns, trows,
               { sc.id .. ": cheapest method (force evaluations) at each target error and " .. st.key })
  sc:write_text("tables/" .. sc.id .. ".md", "#### " .. prob.title .. ": the cheapest method\n\n" .. md ..
    "\nThe curves (each a method with one knob varied):\n\n" .. M.method_table(methods))
  local cols, pts, dts = M.styles(methods)
  local names = {}
  for i, m in ipairs(methods) do names[i] = m.name end
  local xlo, xhi = M.range(rows, "force_evals")
  local ylo, yhi = M.error_range(rows, P.target)
  local vars = { datafile = sc:path("data/" .. sc.id .. ".tsv"), methods = names, colours = table.concat(cols, " "),
                 pts = pts, dts = dts, nstiff = #P[st.key], ntargets = #P.target, xcol = "force_evals",
                 xlabel = "work: force evaluations", ylabel = prob.error_label or "error", title = prob.title,
                 xmin = xlo, xmax = xhi, ymin = ylo, ymax = yhi }
  for i, s in ipairs(P[st.key]) do vars["stiff" .. i] = (st.gp or show)(s) end
  for k, e in ipairs(P.target) do vars["target" .. k] = e end
  sc:figure(sc.id, vars)
  return trows
end

return M
