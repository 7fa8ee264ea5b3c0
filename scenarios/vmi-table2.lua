-- ### Table 2: convergence orders on macro nodes
--
-- **Question.** Table 2 summarises Figs. 6.10–6.17: on the macro nodes the midpoint-midpoint scheme
-- is of order 2 in q and p, the trapezoidal-midpoint and trapezoidal-trapezoidal schemes (left
-- rectangle rule, §6) of order 1, for p = 5 and p = 10 and both test problems, confirming Lemma 4.5
-- (cited as "Theorem 4.5" in §6).
--
-- **Method.** The convergence study above for each problem (FPU, spring ring), scheme (MM, TM, TT)
-- and p ∈ {5, 10}: the errors e_q^mac and e_p^mac of (6.1)–(6.2) and the order as the least-squares
-- slope of log e against log ΔT over the `fit` smallest ΔT, each beside the printed order and
-- accepted within ±0.1 of it (the correct code is within 0.05 of every cell). The figure draws the
-- macro-node errors in q and, right, every fitted order with the printed one overlaid.
--
-- **Readings.** The paper does not say over which ΔT its orders were read; they are asymptotic
-- statements, so the smallest steps are used. For FPU the paper adds that the trapezoidal-midpoint
-- order in p is "lower than two but higher than one": that is the change of slope of Figure 6.12,
-- decided there on local slopes; at the smallest ΔT the order is the printed 1. Table 1 prints
-- b₁ = 0 for the right rectangle rule; the text before (3.18) has b₁ = 1, c₁ = 1, which is what (4.8)
-- with (α, γ) = (1, 0) or (0, 1) gives (checked in tests/vmi_spec.lua, together with the left
-- rectangle rule (α, γ) = (1, 1) or (0, 0) that the "trapezoidal" schemes of §6 use).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local V = require "kapitza.papers.vmi_convergence"

local sc = S.new {
  id = "vmi-table2",
  title = "Ober-Bloebaum et al. Table 2: convergence orders of q and p on macro nodes",
  params = V.convergence_params("both", {
    { "problems", { "FPU", "SR" }, "", "test problems (list)", choices = { "FPU", "SR" } },
    { "schemes", { "MM", "TM", "TT" }, "", "schemes (list)", choices = V.scheme_choices },
  }),
  quick = { dT = { 0.004, 0.002, 0.001, 0.0005 }, href = 5e-5, sub = 5, problems = { "FPU" } },
  work = function(P) return V.convergence_work(P, #P.problems * #P.schemes) end,
}
local P = sc:parse(arg)
V.convergence_check(sc, P)
local tol = V.tol.order
local fit = math.min(P.fit, #P.dT) -- at most the dT given; one dT gives no order

-- The runs of Figs. 6.10-6.17 for every problem and scheme, and the fitted orders beside Table 2.
local pub = {}
for _, r in ipairs(sc:reference()) do pub[r.scheme .. r.p] = r end
local out, errs, premises = {}, {}, {}
sc:progress_start(#P.problems * #P.schemes)
for _, prob in ipairs(P.problems) do
  local model = V.model(prob, P)
  for _, sch in ipairs(P.schemes) do
    local rows = V.convergence(model, sch, { p = P.p, dT = P.dT, T = P.T, tol = P.tol, ref = P.ref, href = P.href, sub = P.sub,
      cell = function(name, pt, f) pt.problems, pt.schemes = prob, sch; return sc:cell(name, pt, f) end }) -- (a sweep's cells)
    for _, r in ipairs(rows) do
      errs[#errs + 1] = { problem = prob, scheme = sch, p = r.p, dT = r.dT, err_q = r.q_mac, err_p = r.p_mac }
    end
    for _, p in ipairs(P.p) do
      local q = pub[sch .. p]
      out[#out + 1] = { problem = prob, scheme = sch, p = p, order_q = fit >= 2 and V.fit_order(rows, p, "q_mac", fit) or "—",
                        order_p = fit >= 2 and V.fit_order(rows, p, "p_mac", fit) or "—", published_q = q and q.order_q or "-",
                        published_p = q and q.order_p or "-" }
      -- the premises of an order (three dT in the fit, in the asymptotic regime), of q and of p
      local pr = {}
      for _, col in ipairs { "q_mac", "p_mac" } do
        for _, x in ipairs(V.premises(rows, p, { col = col, kind = "order" }, P.fit)) do
          if x.ok or x.text.s:find("%S") then pr[#pr + 1] = E.premise(x.ok, "%s: %s", col, x.text) end
        end
      end
      premises[#out] = pr
    end
    sc:progress(prob .. " " .. sch)
  end
end
sc:write_tsv("data/" .. sc.id .. ".tsv", { "problem", "scheme", "p", "dT", "err_q", "err_p" }, errs,
             { "errors on macro nodes behind the fitted orders: max over t_k of the Euclidean norm of the error in q and in p" })
sc:write_tsv("tables/" .. sc.id .. ".tsv", { "problem", "scheme", "p", "order_q", "order_p", "published_q", "published_p" }, out,
             { string.format("least-squares slopes over the %d smallest dT of %s; t_N = %g; reference %s; published: Table 2",
                             fit, table.concat(P.dT, ","), P.T, P.ref) })

-- Beside the published table, and each row a claim.
local md, cl = {}, E.claims(sc)
for i, r in ipairs(out) do
  local function num(v) return type(v) == "number" and string.format("%.2f", v) or "—" end
  local function cell(v, w) return w == "-" and string.format("%s (–)", num(v)) or string.format("%s (%d)", num(v), w) end
  md[#md + 1] = { r.problem, r.scheme, tostring(r.p), cell(r.order_q, r.published_q), cell(r.order_p, r.published_p) }
  if r.published_q ~= "-" then
    cl:claim { key = string.format("%s_%s_p%d", r.problem, r.scheme, r.p),
      text = string.format("%s, %s, p = %d: orders of q and p on macro nodes", r.problem, V.scheme_names[r.scheme] or r.scheme, r.p),
      published = string.format("%d, %d", r.published_q, r.published_p),
      any = "orders of convergence, properties of the scheme in its asymptotic regime", premises = premises[i],
      judge = function()
        return { measured = E.T("%.3f, %.3f (accept: each within ±%v of the printed order)", r.order_q, r.order_p, tol),
                 items = { { ok = math.abs(r.order_q - r.published_q) <= tol, label = "q" }, { ok = math.abs(r.order_p - r.published_p) <= tol, label = "p" } },
                 what = "orders", values = { order_q = r.order_q, order_p = r.order_p } }
      end }
  end
end
sc:write_text("tables/" .. sc.id .. ".md", S.md_table({ "problem", "scheme", "p", "order q: reproduced (published)",
  "order p: reproduced (published)" }, md))
cl:write(nil, sc.id .. "-claims")

local lo, hi, dlo, dhi = math.huge, -math.huge, math.huge, -math.huge
for _, e in ipairs(errs) do
  lo, hi, dlo, dhi = math.min(lo, e.err_q), math.max(hi, e.err_q), math.min(dlo, e.dT), math.max(dhi, e.dT)
end
sc:figure(sc.id, { id = sc.id, problems = P.problems, schemes = P.schemes, ps = P.p, ymin = lo, ymax = hi, dTmin = dlo,
                   dTmax = dhi, rows = #out, tol = tol })
