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
--   of motion (`lib/models/kz_dpend.c`) by Dormand–Prince 5 with m and 2m fixed steps per period combined
--   by Richardson extrapolation, m doubled from `ref_m` until the estimate is below `ref_tol`
--   (10⁻⁹, 0.1 % of the smallest error measured; both ε end at m = 48, the default start: from
--   m = 24 the doubling reached the same run, each Richardson pass reusing the previous one's
--   finer run). Until issue 20 it was RK4 with 64/128 steps, for twice the
--   cost and less accuracy: at ε = 10⁻⁴ it was 1.0·10⁻⁹ from the converged q₁ = 0.1017049850977
--   (DP5 with 192/384 steps; the notes' value 0.101704986099 used that same RK4 recipe, hence its
--   agreement with it), at 10⁻⁶ 5·10⁻¹⁰ from the notes' independent value 0.030570042353 (DP5:
--   2.5·10⁻¹¹). At ε = 10⁻⁸ a direct integration is out of reach: the reference there is the ω → ∞
--   average of the angle equations (Kapitza), whose distance to the stroboscopic solution is O(ε)
--   (the reference data list it beside the direct values: 7·10⁻² at ε = 10⁻⁴, 5·10⁻⁴ at 10⁻⁶, so
--   ≈ 5·10⁻⁶ at 10⁻⁸, far below the errors it measures).
-- - *Signs and names:* "GLL" in Sec. 6.1 is a typo for GGL. Our multipliers enter as +M⁻¹Gᵀμ, +M⁻¹Gᵀλ
--   (Calvo & Sanz-Serna's convention), the negatives of (37)–(38); they are not plotted. The
--   micro-integrations start at t₀ = 0 from the macro stage value, never at the macro time (starting
--   at the stage time gives errors ≈ 0.4–0.5, notes), and use no macro multipliers.
-- - *Work:* micro-steps only, as in the paper (6Nn for SAM: three field evaluations of 2n steps per
--   macro step). Newton iterations and constraint solves are counted too (detail data), not plotted.
-- - *Baseline:* a solution frozen at q₁(0) = 0.5 misses q₁(t_end) by 0.40 (ε = 10⁻⁴) and 0.47
--   (10⁻⁶): the n = 4 errors (≈ 0.26) are about half of that, so the coarsest points carry little.
-- - *Conventional errors across ε:* the paper's "the errors do not vary" fails: at equal n the
--   ratios ε = 10⁻⁶ over 10⁻⁴ are 1.13, 0.55, 0.38, 0.24, one of four within ×1.5; the solution
--   itself moves with ε (q₁(t_end) = 0.1017 against 0.0306), so the error constants differ.
-- - *Keys:* `stepper` sets the micro-solver of SAM and the conventional integrator (HERK3, or
--   SHAKE/RATTLE, constrained Verlet of order 2); the macro-solver stays HERK3, the registry's only
--   constrained stepper for the first-order GGL form. `conventional=off` skips the circles;
--   `eps_text=` and `order_n=` empty their lists; `nodes` writes SAM's angles and rates at every
--   macro node of the top panel's largest n (data/sam-fig6-nodes.tsv). A claim about the paper's
--   ε = 10⁻⁴/10⁻⁶, a printed number (796, 4776n, 100) or HERK3 is decided only where the run
--   meets that premise; elsewhere it says n/a with the reason beside what was measured.
local root = arg[0]:match("^(.*)/scenarios/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local D = require "kapitza.papers.dpend"
local claims = require "kapitza.papers.dpend_claims"
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
    { "eps_text", { 1e-8 }, "", "eps of the text-only check: SAM alone (list; 'eps_text=' for none)", positive = true, optional = true },
    { "order_n", { 128, 256 }, "", "finer n of conventional runs at the first eps: the order of the stepper (list; 'order_n=' for none)",
      positive = true, integer = true, optional = true },
    { "stepper", "herk3", "", "micro-solver of SAM and the conventional integrator (HERK3 (45)-(48); SHAKE, RATTLE: constrained Verlet); "
      .. "the macro-solver is HERK3, the registry's only constrained stepper for the first-order GGL form", choices = { "herk3", "shake", "rattle" } },
    { "conventional", "on", "", "the conventional integrations (circles of the figure): on or off", choices = { "on", "off" } },
    { "nodes", "on", "", "write every macro node of the top panel's SAM runs at the largest n (data/sam-fig6-nodes.tsv)", choices = { "on", "off" } },
    { "diff", "central2", "", "SAM difference formula: (25) or the 5-point (26)", choices = { "central2", "central4" } },
    { "ref_m", 48, "", "direct reference: DP5 steps per period (and twice that, Richardson; doubled up to 4 times until ref_tol)", positive = true, integer = true },
    { "ref_tol", 1e-9, "rad", "direct reference: largest Richardson estimate of q1, q2 accepted", positive = true },
    { "ref_direct_min", 1e-6, "", "smallest eps of the direct reference (below it: the averaged angle ODE)", positive = true },
    { "ref_avg_m", 64, "", "averaged reference: RK4 steps per t_end/1000 (and twice that, Richardson)", positive = true, integer = true },
  },
  quick = { eps = { 1e-4, 1e-5 }, eps_bottom = 1e-5, n = { 4, 8, 16 }, H_bottom = { pi / 625, pi / 2500 },
            order_n = { 64, 128 }, ref_m = 32, eps_text = { 1e-7 } },
  work = function(P) -- HERK3 (3 evaluations a step): conventional runs (t_end/(2 pi eps) n steps), SAM (6 N n
    local W = require "kapitza.scenario.work" -- micro-steps); references: DP5 (6 a step) with m and 2m steps per period, RK4 per t_end/1000
    local seen, n = {}, 0
    local function once(key) if seen[key] then return false end seen[key] = true return true end
    local function periods(e) return P.t_end / (2 * math.pi * e) end
    local function ref(e)
      if once("ref" .. e) then
        n = n + 12 * 1000 * P.ref_avg_m + (e >= P.ref_direct_min * (1 - 1e-9) and 18 * periods(e) * P.ref_m or 0)
      end
    end
    local function conv(e, k) ref(e); if once("c" .. e .. "/" .. k) then n = n + 3 * periods(e) * k end end
    local function sam(e, H, k) ref(e); if once("s" .. e .. "/" .. H .. "/" .. k) then n = n + 3 * 6 * (P.t_end / H) * k end end
    for _, e in ipairs(P.eps) do for _, k in ipairs(P.n) do conv(e, k); sam(e, P.H, k) end end
    for _, k in ipairs(P.n) do conv(P.eps_bottom, k) end
    for _, H in ipairs(P.H_bottom) do for _, k in ipairs(P.n) do sam(P.eps_bottom, H, k) end end
    for _, e in ipairs(P.eps_text) do for _, k in ipairs(P.n) do sam(e, P.H, k) end end
    for _, k in ipairs(P.order_n) do conv(P.eps[1], k) end
    return n, "force evaluations"
  end,
}
local argv, empty = E.optional(sc, arg)
local P = E.emptied(sc:parse(argv), empty)
E.no_repeats(sc, P, { "eps", "n", "H_bottom", "eps_text", "order_n" })
local conv = P.conventional == "on"

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
-- the references and the runs are compute cells (lib/lua/kapitza/scenario/cells.lua: a sweep's merge
-- replays them); each depends on its own eps, N and n, not on the lists
local memo, seen = {}, {}
local nmax = math.max(unpack(P.n))
local lists = { "eps", "n", "H_bottom", "eps_text", "order_n" }
local function reference(e)
  local r = sc:cell("reference", { ref_eps = e }, function() setup(e); return { refs[e], avgs[e] } end, { ignore = lists })
  refs[e], avgs[e], seen[e] = r[1], r[2], true
end
local function run(method, e, N, n)
  local key = string.format("%s/%g/%d/%d", method, e, N, n)
  if not memo[key] then
    reference(e)
    local nodes = P.nodes == "on" and N == Ntop and n == nmax and method == "SAM"
    memo[key] = sc:cell("run", { method = method, run_eps = e, N = N, run_n = n, nodes = nodes }, function()
      local model = setup(e)
      return method == "SAM" and D.sam_row(model, P, N, n, refs[e], nodes) or D.conv_row(model, P, n, refs[e])
    end, { ignore = lists })
    sc:progress()
  end
  return memo[key]
end
local nconv = conv and 1 or 0
sc:progress_start(#P.eps * #P.n * (1 + nconv) + #P.n * (#P.H_bottom + nconv) + #P.eps_text * #P.n + nconv * #P.order_n, sc.id)
local top, bottom, text, order = {}, {}, {}, {}
for _, e in ipairs(P.eps) do
  if conv then for _, n in ipairs(P.n) do top[#top + 1] = run("conventional", e, 0, n) end end
  for _, n in ipairs(P.n) do top[#top + 1] = run("SAM", e, Ntop, n) end
end
if conv then for _, n in ipairs(P.n) do bottom[#bottom + 1] = run("conventional", P.eps_bottom, 0, n) end end
for _, H in ipairs(P.H_bottom) do
  for _, n in ipairs(P.n) do bottom[#bottom + 1] = run("SAM", P.eps_bottom, steps(H), n) end
end
for _, e in ipairs(P.eps_text) do
  for _, n in ipairs(P.n) do text[#text + 1] = run("SAM", e, Ntop, n) end
end
if conv then for _, n in ipairs(P.order_n) do order[#order + 1] = run("conventional", P.eps[1], 0, n) end end

-- Outputs ------------------------------------------------------------------------------------------
local SN = ({ herk3 = "HERK3", shake = "SHAKE", rattle = "RATTLE" })[P.stepper]
local cols = { "method", "eps", "N", "n", "work", "error" }
local head = "error = |q1(t_end) - q1_ref(t_end)|, t_end = " .. S.fmt(P.t_end) .. "; work = " .. SN .. " micro-steps; N = 0 marks the conventional run"
sc:write_tsv("data/sam-fig6-top.tsv", cols, top, { "sam-fig6 top: SAM with H = " .. S.fmt(P.H) .. (conv and (" and conventional " .. SN) or ""), head })
sc:write_tsv("data/sam-fig6-bottom.tsv", cols, bottom, { "sam-fig6 bottom: eps = " .. S.fmt(P.eps_bottom) .. ", SAM for each H" .. (conv and (" and conventional " .. SN) or ""), head })
local detail = {}
for _, part in ipairs { { "top", top }, { "bottom", bottom }, { "text", text }, { "order", order } } do
  for _, r in ipairs(part[2]) do
    local ref
    for e, x in pairs(refs) do if math.abs(e / r.eps - 1) < 1e-12 then ref = x end end
    detail[#detail + 1] = { panel = part[1], method = r.method, eps = r.eps, N = r.N, n = r.n, work = r.work, error = r.error,
                            error_q2 = r.error_q2, q1 = r.q1, q2 = r.q2, dq1 = r.dq1, dq2 = r.dq2, q1_ref = ref.q1, q2_ref = ref.q2,
                            res_g = r.res_g, res_v = r.res_v, newton = r.newton, solves = r.solves }
  end
end
sc:write_tsv("data/sam-fig6-detail.tsv", { "panel", "method", "eps", "N", "n", "work", "error", "error_q2", "q1", "q2", "dq1", "dq2",
                                           "q1_ref", "q2_ref", "res_g", "res_v", "newton", "solves" },
  detail, { "sam-fig6: every run at t_end; q1 = atan2(x1, y1), q2 = atan2(x2 - x1, y2 - y1) [rad] (signed), dq1, dq2 their rates [rad/s];",
            "q1_ref, q2_ref the reference (data/sam-fig6-reference.tsv); error = |q1 - q1_ref|, error_q2 = |q2 - q2_ref|;",
            "res_g = max |g_i|/l_i^2, res_v = max |(G u)_i|/(2 (l1 + l2) max |u|); newton = Newton updates, solves = position solves (micro and macro)" })
local nrows = {}
for _, r in ipairs(top) do
  for _, x in ipairs(r.nodes or {}) do
    nrows[#nrows + 1] = { eps = r.eps, N = r.N, n = r.n, t = x.t, q1 = x.q1, q2 = x.q2, dq1 = x.dq1, dq2 = x.dq2 }
  end
end
if #nrows > 0 then
  sc:write_tsv("data/sam-fig6-nodes.tsv", { "eps", "N", "n", "t", "q1", "q2", "dq1", "dq2" }, nrows,
    { string.format("sam-fig6: the SAM macro states of the top panel (H = %s, n = %d) at every macro node t_k = k H: the angles q1, q2 [rad]", S.fmt(P.H), nmax),
      "and their rates dq1, dq2 [rad/s] of the averaged (stroboscopic) solution SAM computes" })
end
local rrows = {}
local es = {}
for e in pairs(seen) do es[#es + 1] = e end
table.sort(es, function(a, b) return a > b end)
for _, e in ipairs(es) do
  local r, a = refs[e], avgs[e]
  rrows[#rrows + 1] = { eps = e, kind = r.kind, m = r.kind == "direct" and r.m or "-", q1 = r.q1, q2 = r.q2,
                        est_q1 = r.est1, est_q2 = r.est2, averaged_q1 = a.q1, averaged_q2 = a.q2 }
end
sc:write_tsv("data/sam-fig6-reference.tsv", { "eps", "kind", "m", "q1", "q2", "est_q1", "est_q2", "averaged_q1", "averaged_q2" }, rrows,
  { "sam-fig6: the reference angles at t_end (kind: direct = the Lagrangian ODE at eps, DP5 + Richardson with m/2m steps per period, m in column m; averaged = the omega -> infinity angle ODE); est = Richardson estimates;",
    "averaged_q1/q2: the omega -> infinity values, for comparison (their distance to the direct ones is O(eps))" })
local trows = {}
for _, part in ipairs { { "top", top }, { "bottom", bottom }, { "text", text } } do
  for _, r in ipairs(part[2]) do
    if part[1] ~= "bottom" or r.method == "SAM" then
      trows[#trows + 1] = { part[1], r.method, E.show(r.eps), r.N > 0 and string.format("%d", r.N) or "—", string.format("%d", r.n),
                            string.format("%d", r.work), S.sci(r.error), S.sci(r.error_q2) }
    end
  end
end
local base = {}
for _, e in ipairs(es) do base[#base + 1] = string.format("%s at ε = %s", S.sci(math.abs(P.q1 - refs[e].q1)), E.show(e)) end
sc:write_text("tables/sam-fig6-errors.md", "Errors at t_end (reference: " .. (refs[P.eps[#P.eps]].kind) .. " Lagrangian ODE; see the data). " ..
  "The trivial baseline, a solution that stays at the initial angle q₁ = " .. E.show(P.q1) .. ", errs by " .. table.concat(base, ", ") .. ".\n\n" ..
  S.md_table({ "panel", "method", "ε", "N", "n", "work", "error q₁", "error q₂" }, trows))
local cl = claims.fig6(sc, P, top, bottom, refs, text, order)
cl:write("Ratios and crossover use the errors at t_end; the crossover compares SAM's work with the work the conventional "
  .. "curve needs for the same error (log–log interpolation between its points).")
local function words(t) local o = {} for i, x in ipairs(t) do o[i] = S.fmt(x) end return table.concat(o, " ") end
local Nb = {}
for i, H in ipairs(P.H_bottom) do Nb[i] = steps(H) end
-- labels as the parameters were given: H as π/k when k is whole, else in seconds
local function Hlabel(H)
  local k = math.pi / H
  return math.abs(k - math.floor(k + 0.5)) < 1e-9 * k and ("π/" .. E.show(math.floor(k + 0.5))) or (E.show(H) .. "s")
end
local el, Hl = {}, {}
for i, e in ipairs(P.eps) do el[i] = E.show(e) end
for i, H in ipairs(P.H_bottom) do Hl[i] = Hlabel(H) end
sc:figure("sam-fig6", { eps = words(P.eps), Ntop = Ntop, eps_bottom = P.eps_bottom, Nbottom = words(Nb), t_end = P.t_end,
                        conv = conv and 1 or 0, stepper = SN, epslabels = table.concat(el, " "), epsbottomlabel = E.show(P.eps_bottom),
                        Htoplabel = Hlabel(P.H), Hlabels = table.concat(Hl, " ") })
