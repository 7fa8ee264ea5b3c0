-- ### Figure 6.19: the work per macro step versus p (t_Δx and t_Jacobi in counts)
--
-- **Question.** §6.3: t_Δx, the time to solve for the Newton updates per macro step, increases
-- super-linearly with p and t_Jacobi, the time to evaluate the Jacobian per macro step, linearly,
-- "because the dimension of the system of equations is increasing". What work lies behind these
-- times: how many linear solves (Newton iterations) and Hessian evaluations does a macro step take,
-- and how does that grow with p?
--
-- **Method.** The computing-time study above, from the drift guess and from the library's Verlet
-- predictor (lib/methods/kz_vmi.c: the micro nodes by the scheme's own Störmer–Verlet recursion, the slow
-- end point by Newton-preconditioned fixed-point passes on its equation). Per macro step: Newton
-- iterations (each one Jacobian assembly and one linear solve of 3p + 3 unknowns: the count behind
-- t_Δx) and Hessian evaluations of V and W ((n_V + n_W) p per assembly: the work behind t_Jacobi),
-- with their growth exponents in p (least-squares slopes over p ≥ `fit_pmin`). The claim "t_Jacobi
-- grows linearly" is decided on the Hessian evaluations per macro step from the study's guess (the
-- first of `predictors`), accepted for an exponent within 1 ± 0.15. The times themselves, with the
-- structured and a dense LU solve, are in `paper/bench/vmi-timing.md` (`make bench`).
--
-- **Readings.** A 0 in the table: the predicted step already meets the tolerance (with the
-- rectangle rule in V the Verlet march solves FPU's equations exactly up to the slow end point, W
-- being quadratic).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local V = require "kapitza.papers.vmi_convergence"

local sc = S.new {
  id = "vmi-fig6.19",
  title = "Ober-Bloebaum et al. Fig. 6.19: FPU work per macro step (linear solves, Hessian evaluations) versus p",
  params = V.study_params {
    { "predictors", { "drift", "verlet" }, "", "Newton's initial guesses compared (list; the first decides the claim)",
      choices = { "drift", "verlet" } },
    { "fit_pmin", 50, "", "growth exponents fitted over p >= fit_pmin", integer = true, min = 1, max = 100000 },
  },
  quick = { p = { 1, 5, 10, 50, 100 }, T = 1, fit_pmin = 10 },
  work = function(P) local n, w = V.study_work(P); return n * #P.predictors, w end,
}
local P = sc:parse(arg)
V.study_check(sc, P, P.T)
local model = V.model("FPU", P)

-- Whole runs at every scheme, guess and p (work counts only).
local runs = {}
sc:progress_start(#P.schemes * #P.predictors)
for _, sch in ipairs(P.schemes) do
  for _, pr in ipairs(P.predictors) do
    for _, p in ipairs(P.p) do
      runs[#runs + 1] = sc:cell("study", { schemes = sch, predictors = pr, p = p }, function() -- (a sweep's merge replays it)
        return V.study_run(model, sch, p, { dt = P.dt, T = P.T, tol = P.tol, predictor = pr })
      end)
    end
    sc:progress(sch .. " " .. pr)
  end
end
sc:write_tsv("data/" .. sc.id .. ".tsv", { "scheme", "predictor", "p", "N", "unknowns", "newton", "jac_evals", "force_evals",
             "hess_evals" }, runs,
             { string.format("%s, dt = %g, T = %g, Newton tol %g, structured solver: totals over the run (per macro step: / N)",
                             V.describe(model), P.dt, P.T, P.tol),
               "newton = Jacobian assemblies = linear solves; force_evals: gradients of V and W (the Verlet predictor's included);",
               "hess_evals: Hessians of the Jacobian passes" })

-- Per macro step, and the growth exponents.
local fits, md = {}, {}
local function exponent(sch, pr, col) -- nil where a count is 0 (the guess already met the tolerance)
  local xs, ys, zero, lo, hi = {}, {}, false, nil, nil
  for _, r in ipairs(runs) do
    if r.scheme == sch and r.predictor == pr and r.p >= P.fit_pmin then
      xs[#xs + 1], ys[#ys + 1], zero = r.p, r[col] / r.N, zero or r[col] == 0
      lo, hi = math.min(lo or r.p, r.p), math.max(hi or r.p, r.p) -- the range of p, in any order given
    end
  end
  return #xs >= 2 and not zero and E.slope(xs, ys) or nil, lo, hi
end
for _, sch in ipairs(P.schemes) do
  for _, pr in ipairs(P.predictors) do
    local e_it, lo, hi = exponent(sch, pr, "newton")
    local e_h = exponent(sch, pr, "hess_evals")
    fits[#fits + 1] = { scheme = sch, predictor = pr, pmin = lo or "-", pmax = hi or "-", newton_per_step = e_it or "-",
                        hess_per_step = e_h or "-" }
  end
end
sc:write_tsv("tables/" .. sc.id .. ".tsv", { "scheme", "predictor", "pmin", "pmax", "newton_per_step", "hess_per_step" }, fits,
             { "growth exponents in p (least-squares slopes of log(count per macro step) against log p over pmin..pmax)",
               "of the Newton iterations (= linear solves) and of the Hessian evaluations per macro step" })
for _, p in ipairs(P.p) do
  local row = { tostring(p), tostring(p * model.nf + model.ns) }
  for _, sch in ipairs(P.schemes) do
    local c = {}
    for _, pr in ipairs(P.predictors) do
      for _, r in ipairs(runs) do
        if r.scheme == sch and r.predictor == pr and r.p == p then c[#c + 1] = string.format("%.2f", r.newton / r.N) end
      end
    end
    row[#row + 1] = table.concat(c, " / ")
  end
  md[#md + 1] = row
end
local header = { "p", "unknowns" }
for _, sch in ipairs(P.schemes) do header[#header + 1] = sch .. ": " .. table.concat(P.predictors, " / ") end
sc:write_text("tables/" .. sc.id .. ".md", "Newton iterations (= linear solves) per macro step, whole runs, structured solver, from the "
  .. table.concat(P.predictors, " and the ") .. " guess:\n\n" .. S.md_table(header, md))

-- The claim, decided on the counts. The Hessian evaluations of a Jacobian assembly are not
-- counted by the library: each assembly evaluates the Hessians of V and W at (n_V + n_W) p points
-- (lib/methods/kz_vmi.c, jac_pass), so hess_evals = assemblies x (n_V + n_W) p is the code's loop
-- applied to the counted assemblies, and its exponent is 1 + that of the assemblies per step.
local cl = E.claims(sc)
local pr0 = P.predictors[1]
local pts = 0
for _, r in ipairs(runs) do if r.scheme == P.schemes[1] and r.predictor == pr0 and r.p >= P.fit_pmin then pts = pts + 1 end end
cl:claim { key = "t_jacobi_linear", text = "t_Jacobi, the Jacobian's cost per macro step, increases linearly with p", published = "linear",
  any = "the cost of an assembly and the count of assemblies, at any parameters",
  premises = { E.at_least(pts, 2, "values of p at or above fit_pmin (an exponent)") },
  judge = function()
    local cells, items, others, none = {}, {}, {}, {}
    for _, f in ipairs(fits) do
      if f.predictor == pr0 then
        local ok = type(f.hess_per_step) == "number" and math.abs(f.hess_per_step - 1) <= 0.15
        -- a scheme with no assembly at some p (the guess met the tolerance) has no t_Jacobi to grow
        local assembles = true
        for _, r in ipairs(runs) do
          if r.scheme == f.scheme and r.predictor == pr0 and r.p >= P.fit_pmin and r.newton == 0 then assembles = false end
        end
        if assembles then items[#items + 1] = { ok = ok, label = f.scheme } else none[#none + 1] = f.scheme end
        cells[#cells + 1] = E.T("%s ", f.scheme) .. (type(f.hess_per_step) == "number" and E.T("%.2f", f.hess_per_step) or "–") ..
                            " (assemblies per step " .. (type(f.newton_per_step) == "number" and E.T("%+.2f", f.newton_per_step) or "–") .. ")"
      elseif type(f.hess_per_step) == "number" then
        others[#others + 1] = E.T("%s %.2f", f.scheme, f.hess_per_step)
      end
    end
    return { measured = E.T("exponent of the Hessian evaluations per macro step (the counted Jacobian assemblies times the (n_V + n_W) p Hessians " ..
               "each assembly evaluates, by the code's loop) over p = %v..%v, %s guess: ", fits[1].pmin, fits[1].pmax, pr0) .. E.join(cells, ", ") ..
               (#others > 0 and ("; other guesses: " .. E.join(others, ", ")) or "") .. E.T(" (accept: exponent within %v ± %v for every scheme)", 1, 0.15) ..
               (#none > 0 and ("; not judged: " .. table.concat(none, ", ") .. E.T(" (%d assemblies at some p: the %s guess solves the steps)", 0, pr0)) or ""),
             items = items, what = "schemes" }
  end }
cl:write(nil, sc.id .. "-claims")
sc:figure(sc.id, { id = sc.id, schemes = P.schemes, predictors = P.predictors,
                   title = string.format("%s, Δt = %g, t_N = %g: work per macro step", V.describe(model), P.dt, P.T) })
