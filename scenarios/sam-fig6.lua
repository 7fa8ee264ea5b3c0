-- ### Figure 6: SAM for an index-2 DAE — the vibrated double pendulum with HERK3
--
-- **Question.** Does stroboscopic averaging carry over to differential-algebraic equations? For the
-- vertically vibrated double pendulum in GGL form (37)–(40), SAM with the half-explicit Runge–Kutta
-- method HERK3 as macro- and micro-solver should cost 6Nn micro-steps whatever ε, with errors that
-- do not depend on ε, while a conventional HERK3 integration costs ∝ 1/ε: cheaper than SAM at
-- ε = 10⁻⁴, far dearer at ε = 10⁻⁶. With a fixed ε = 10⁻⁶, the two largest macro-steps should show
-- the macro error dominating.
--
-- **Method.** The Cartesian double pendulum of Sec. 6.2 (= Calvo & Sanz-Serna (4.3)): m₁ = 0.01 kg,
-- m₂ = 0.005 kg, ℓ₁ = 0.2 m, ℓ₂ = 0.1 m, g = 9.8 m s⁻², a(t) = v_max ε⁻¹ cos(t/ε), v_max = 4 m s⁻¹,
-- rods at rest at q₁ = 0.5, q₂ = 0 from the upward vertical, in the GGL form with two sets of
-- multipliers. HERK3 (45)–(48) with the Brasey–Hairer tableau c = (0, 1/3, 1), a₂₁ = 1/3, a₃₁ = −1,
-- a₃₂ = 2, b = (0, 3/4, 1/4): at every stage a Newton solve of g(q) = 0 for μ and a linear solve of
-- G(q)u = 0 for λ. *SAM* (Sec. 6.1): HERK3 on the averaged system (41)–(44) with constant H; whenever
-- it needs F_Q, F_U at a (consistent) stage value, they are the central differences (25) of the
-- positions and velocities of two HERK3 micro-integrations of (37)–(40) over one period 2πε forward
-- and backward, always from t₀ = 0, n steps each; the micro multipliers are discarded, the macro
-- HERK3 keeps its own. Work = micro-steps: 6Nn. *Conventional:* HERK3 with h = 2πε/n. Top panel:
-- H = π/2500, ε = 10⁻⁴ and 10⁻⁶, n = 4…32; bottom: ε = 10⁻⁶, H = π/625, π/1250, π/2500, π/5000.
-- Text: SAM at ε = 10⁻⁸ (the conventional integration is infeasible there). The order of HERK3 is
-- measured on conventional runs with n = 128, 256 at ε = 10⁻⁴.
--
-- **Readings.**
-- - *End time:* "N = 796 macro-steps are needed to cover 0 ≤ t ≤ T = 1": 796 steps of π/2500 end at
--   t_end = 796π/2500 = 199π/625 ≈ 1.000283 s, a stroboscopic time for every ε used (1,592 periods at
--   10⁻⁴, 159,200 at 10⁻⁶), where the averaged solution Y meets the oscillatory y. Every error is
--   measured there, the conventional runs included (1592n and 159,200n steps). At T = 1 instead the
--   reference moves by ≈ 10⁻³ (notes), as much as the smallest plotted errors.
-- - *Error metric:* not stated; we report |q₁(t_end) − q₁,ref(t_end)| (q₁ = atan2(x₁, y₁)); the maximum
--   over the macro nodes would be 2–2.5 times larger (notes). Errors in q₂ = atan2(x₂ − x₁, y₂ − y₁) are
--   in the detail data.
-- - *Reference:* "integrating accurately the problem in Lagrangian coordinates": the angle equations
--   of motion (`lib/kz_dpend.c`) by RK4 with 64 and 128 steps per period combined by Richardson
--   extrapolation; it agrees with the notes' independent values to ≈ 10⁻¹¹ (with 32/64 steps only to
--   ≈ 2·10⁻⁸). At ε = 10⁻⁸ a direct integration is out of reach: the reference there is the ω → ∞
--   average of the angle equations (Kapitza), whose distance to the stroboscopic solution is O(ε)
--   (the reference data list it beside the direct values: 7·10⁻² at ε = 10⁻⁴, 5·10⁻⁴ at 10⁻⁶, so
--   ≈ 5·10⁻⁶ at 10⁻⁸, far below the errors it measures).
-- - *Signs and names:* "GLL" in Sec. 6.1 is a typo for GGL. Our multipliers enter as +M⁻¹Gᵀμ, +M⁻¹Gᵀλ
--   (Calvo & Sanz-Serna's convention), the negatives of (37)–(38); they are not plotted. The
--   micro-integrations start at t₀ = 0 from the macro stage value, never at the macro time (starting
--   at the stage time gives errors ≈ 0.4–0.5, notes), and use no macro multipliers.
-- - *Work:* micro-steps only, as in the paper (6Nn for SAM: three field evaluations of 2n steps per
--   macro step). Newton iterations and constraint solves are counted too (detail data), not plotted.
local root = arg[0]:match("^(.*)/scenarios/[^/]*$") or "."
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"
local D = require "dpend"
local claims = require "dpend_claims"
local pi = math.pi

local sc = S.new {
  id = "sam-fig6",
  title = "Calvo, Chartier, Murua & Sanz-Serna Figure 6: SAM for the double pendulum DAE with HERK3",
  params = D.with_params {
    { "eps", { 1e-4, 1e-6 }, "", "eps = 1/omega of the top panel (list; conventional and SAM)", positive = true },
    { "n", { 4, 8, 16, 32 }, "", "micro-steps per period 2 pi eps (list)", positive = true, integer = true },
    { "H", pi / 2500, "s", "SAM macro step of the top panel", positive = true },
    { "eps_bottom", 1e-6, "", "eps of the bottom panel", positive = true },
    { "H_bottom", { pi / 625, pi / 1250, pi / 2500, pi / 5000 }, "s", "SAM macro steps of the bottom panel (list)", positive = true },
    { "t_end", 199 * pi / 625, "s", "end time: 796 steps of pi/2500, a stroboscopic time", positive = true },
    { "eps_text", { 1e-8 }, "", "eps of the text-only check: SAM alone (list)", positive = true },
    { "order_n", { 128, 256 }, "", "finer n of conventional runs at the first eps: the order of HERK3 (list)", positive = true, integer = true },
    { "diff", "central2", "", "SAM difference formula: (25) or the 5-point (26)", choices = { "central2", "central4" } },
    { "ref_m", 64, "", "direct reference: RK4 steps per period (and twice that, Richardson)", positive = true, integer = true },
    { "ref_direct_min", 1e-6, "", "smallest eps of the direct reference (below it: the averaged angle ODE)", positive = true },
    { "ref_avg_m", 64, "", "averaged reference: RK4 steps per t_end/1000 (and twice that, Richardson)", positive = true, integer = true },
  },
  quick = { eps = { 1e-4, 1e-5 }, eps_bottom = 1e-5, n = { 4, 8, 16 }, H_bottom = { pi / 625, pi / 2500 },
            order_n = { 64, 128 }, ref_m = 32, eps_text = { 1e-7 } },
}
local P = sc:parse(arg)
P.stepper = "herk3"
local E = require "experiment"
E.check_list(sc, P, "n", { count = 2, increasing = true }) -- the work factors interpolate between n
E.check_list(sc, P, "eps")
E.check_list(sc, P, "H_bottom")
E.check_list(sc, P, "order_n", { increasing = true })

local function steps(H)
  local N = D.whole(P.t_end, H)
  if not N then
    sc:fail(string.format("parameters 't_end', 'H', 'H_bottom': t_end = %.17g is not a whole number of macro steps H = %.17g", P.t_end, H))
  end
  return N
end
local Ntop = steps(P.H)
for _, H in ipairs(P.H_bottom) do steps(H) end

-- Models and references at every eps --------------------------------------------------------------
local models, refs, avgs = {}, {}, {}
local function setup(e)
  if models[e] then return models[e] end
  models[e] = D.model(P, 1 / e)
  local direct = e >= P.ref_direct_min * (1 - 1e-9)
  if direct and not D.whole(P.t_end, 2 * pi * e) then
    sc:fail(string.format("parameters 't_end', 'eps', 'eps_bottom', 'eps_text': t_end is not a whole number of periods 2 pi eps (eps = %g)", e))
  end
  avgs[e] = D.reference_end(models[e], P.t_end, P, "averaged", P.ref_avg_m)
  refs[e] = direct and D.reference_end(models[e], P.t_end, P, "direct", P.ref_m) or avgs[e]
  return models[e]
end

-- The sweep (a run shared by both panels is made once) ---------------------------------------------
local memo = {}
local function run(method, e, N, n)
  local key = string.format("%s/%g/%d/%d", method, e, N, n)
  if not memo[key] then
    local model = setup(e)
    memo[key] = method == "SAM" and D.sam_row(model, P, N, n, refs[e]) or D.conv_row(model, P, n, refs[e])
    sc:progress()
  end
  return memo[key]
end
sc:progress_start(#P.eps * #P.n * 2 + #P.n * (#P.H_bottom + 1) + #P.eps_text * #P.n + #P.order_n, sc.id)
local top, bottom, text, order = {}, {}, {}, {}
for _, e in ipairs(P.eps) do
  for _, n in ipairs(P.n) do top[#top + 1] = run("conventional", e, 0, n) end
  for _, n in ipairs(P.n) do top[#top + 1] = run("SAM", e, Ntop, n) end
end
for _, n in ipairs(P.n) do bottom[#bottom + 1] = run("conventional", P.eps_bottom, 0, n) end
for _, H in ipairs(P.H_bottom) do
  for _, n in ipairs(P.n) do bottom[#bottom + 1] = run("SAM", P.eps_bottom, steps(H), n) end
end
for _, e in ipairs(P.eps_text) do
  for _, n in ipairs(P.n) do text[#text + 1] = run("SAM", e, Ntop, n) end
end
for _, n in ipairs(P.order_n) do order[#order + 1] = run("conventional", P.eps[1], 0, n) end

-- Outputs ------------------------------------------------------------------------------------------
local cols = { "method", "eps", "N", "n", "work", "error" }
local head = "error = |q1(t_end) - q1_ref(t_end)|, t_end = " .. S.fmt(P.t_end) .. "; work = HERK3 micro-steps; N = 0 marks the conventional run"
sc:write_tsv("data/sam-fig6-top.tsv", cols, top, { "sam-fig6 top: SAM with H = " .. S.fmt(P.H) .. " and conventional HERK3", head })
sc:write_tsv("data/sam-fig6-bottom.tsv", cols, bottom, { "sam-fig6 bottom: eps = " .. S.fmt(P.eps_bottom) .. ", SAM for each H and conventional HERK3", head })
local detail = {}
for _, part in ipairs { { "top", top }, { "bottom", bottom }, { "text", text }, { "order", order } } do
  for _, r in ipairs(part[2]) do
    detail[#detail + 1] = { panel = part[1], method = r.method, eps = r.eps, N = r.N, n = r.n, work = r.work, error = r.error,
                            error_q2 = r.error_q2, res_g = r.res_g, res_v = r.res_v, newton = r.newton, solves = r.solves }
  end
end
sc:write_tsv("data/sam-fig6-detail.tsv", { "panel", "method", "eps", "N", "n", "work", "error", "error_q2", "res_g", "res_v", "newton", "solves" },
  detail, { "sam-fig6: every run; error_q2 in q2 = atan2(x2 - x1, y2 - y1); res_g = max |g_i|/l_i^2, res_v = max |(G u)_i|/(2 (l1 + l2) max |u|)",
            "at t_end; newton = Newton updates, solves = position solves (micro and macro)" })
local rrows = {}
local es = {}
for e in pairs(models) do es[#es + 1] = e end
table.sort(es, function(a, b) return a > b end)
for _, e in ipairs(es) do
  local r, a = refs[e], avgs[e]
  rrows[#rrows + 1] = { eps = e, kind = r.kind, q1 = r.q1, q2 = r.q2, est_q1 = r.est1, est_q2 = r.est2,
                        averaged_q1 = a.q1, averaged_q2 = a.q2 }
end
sc:write_tsv("data/sam-fig6-reference.tsv", { "eps", "kind", "q1", "q2", "est_q1", "est_q2", "averaged_q1", "averaged_q2" }, rrows,
  { "sam-fig6: the reference angles at t_end (kind: direct = the Lagrangian ODE at eps, RK4 + Richardson with " .. P.ref_m ..
    "/" .. 2 * P.ref_m .. " steps per period; averaged = the omega -> infinity angle ODE); est = Richardson estimates;",
    "averaged_q1/q2: the omega -> infinity values, for comparison (their distance to the direct ones is O(eps))" })
local trows = {}
for _, part in ipairs { { "top", top }, { "bottom", bottom }, { "text", text } } do
  for _, r in ipairs(part[2]) do
    if part[1] ~= "bottom" or r.method == "SAM" then
      trows[#trows + 1] = { part[1], r.method, S.sci(r.eps, 1), r.N > 0 and string.format("%d", r.N) or "—", string.format("%d", r.n),
                            string.format("%d", r.work), S.sci(r.error), S.sci(r.error_q2) }
    end
  end
end
sc:write_text("tables/sam-fig6-errors.md", "Errors at t_end (reference: " .. (refs[P.eps[#P.eps]].kind) .. " Lagrangian ODE; see the data).\n\n" ..
  S.md_table({ "panel", "method", "ε", "N", "n", "work", "error q₁", "error q₂" }, trows))
local cl = claims.fig6(sc, P, top, bottom, refs, text, order)
cl:write("Ratios and crossover use the errors at t_end; the crossover compares SAM's work with the work the conventional "
  .. "curve needs for the same error (log–log interpolation between its points).")
local function words(t) local o = {} for i, x in ipairs(t) do o[i] = S.fmt(x) end return table.concat(o, " ") end
local Nb = {}
for i, H in ipairs(P.H_bottom) do Nb[i] = steps(H) end
sc:figure("sam-fig6", { eps = words(P.eps), Ntop = Ntop, eps_bottom = P.eps_bottom, Nbottom = words(Nb), t_end = P.t_end })
