-- ### Figure 16: the first integrals under HMM-LF-rk4 over t ∈ [0, 1]
--
-- **Question.** How well does the slow-variable HMM keep the top's invariants — the energy H (24),
-- Π·Γ and ‖Γ‖² (Π₃ is frozen, hence exact)? Figure 16: ω = 10³, HMM-LF-rk4, T = 1, H = T/6000,
-- h = 1/ω², η = 10h, "good preservation" with only 6·10⁴ micro-steps.
--
-- **Method.** `kz_slow_run` (set (32)) and the changes |I(x_n) − I(x_0)| at every macro node, computed
-- without cancellation (`kz_top_drift`: differences of the components first; H ≈ 3.7·10⁷ at
-- ω = 10³, so differencing H itself would lose most of ΔH, addendum 9). Beside the default run
-- (leapfrog started by forward Euler, minimum-norm least squares) the two unflagged choices the
-- addendum found to matter: a Heun start of the leapfrog, and MATLAB's basic least-squares
-- solution (whose effect on Table 1 at ω = 10³ is measured too); and forward Euler with the same
-- settings. Every maximum is over the macro nodes t_n = nH.
--
-- **Readings.** (A4) the leapfrog start is not specified: forward Euler by default; (A7) minimum-norm
-- solution by default; "T = 1" is the length of the interval, H = T/6000. Every invariant is a
-- function of the slow variables (H = ½ξ₃/I₁ + ½Π₃²/I₃ + Mglξ₂, Π·Γ = Π₃ξ₂ + ξ₅, ‖Γ‖² = ξ₄ + ξ₂²),
-- so their drift measures how consistently the HMM moves the state with its slow variables. The
-- acceptance rules are the notes' (§5 TOP-F16).
local root = arg[0]:match("^(.*)/scenarios/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local top = require "kapitza.papers.top"

local params = top.model_params()
for _, p in ipairs {
  { "omega", 1e3, "", "spin multiplier: Pi3 = omega Pi3^ (31)", positive = true },
  { "Pi1w", 1, "", "initial Pi1 = Pi1w / omega (A18)" },
  { "T", 1, "s", "final time", positive = true },
  { "N", 6000, "", "macro steps: H = T/N", integer = true, min = 2 },
  { "h", 1e-6, "s", "micro step", positive = true },
  { "eta_h", 10, "", "window eta = eta_h h (even)", integer = true, min = 2 },
  { "plot_every", 6, "", "write every k-th macro node to the data file", integer = true, min = 1 },
  { "table_N", { 40, 80, 160, 320 }, "", "Table 1 macro steps at which the basic least squares is compared (T = 0.01, h = 10/omega^2)", integer = true, min = 2 },
  { "ref_h", 1e-4, "", "reference RK4 steps <= ref_h / omega (Table 1 comparison)", positive = true },
} do params[#params + 1] = p end
for _, p in ipairs(top.method_params()) do params[#params + 1] = p end
local sc = S.new { id = "top-fig16", title = "Fredbo Figure 16: first integrals under HMM-LF-rk4 on [0, 1]",
                   params = params, quick = { T = 0.1, N = 600 },
                   work = function(P) -- four runs on [0, T]; Table 1's comparison on [0, 0.01]
                     local W = require "kapitza.scenario.work"
                     local Nmax = P.table_N[#P.table_N]
                     return 4 * W.top_hmm(P.T, P.T / P.N, P.eta_h, P.micro) + W.top_reference(0.01, 0.01 / Nmax, P.ref_h / P.omega)
                       + 2 * W.sum(P.table_N, function(N) return W.top_hmm(0.01, 0.01 / N, 10, P.micro) end), "force evaluations"
                   end }
local P = sc:parse(arg)
local model = top.model(P)
local x0 = model.x0(P.omega, P.Pi1w / P.omega, P.theta0)
top.check_points(sc, P.N + 1, "parameters 'N': the macro nodes N + 1")
local H = P.T / P.N

local function drift0(o)
  local q = {}
  for k, v in pairs(P) do q[k] = v end
  for k, v in pairs(o) do q[k] = v end
  local x, _, w, nvalid, msg = top.run(model, q, { set = "32", H = H, T = P.T, eta = P.eta_h * P.h, h = P.h, x0 = x0, allow_fail = true })
  local d, m = { H = {}, PiGamma = {}, Gamma2 = {} }, { H = 0, PiGamma = 0, Gamma2 = 0 }
  local half = { H = 0, PiGamma = 0, Gamma2 = 0 }
  for n = 1, nvalid do
    local dd = model.drift({ x[1][n], x[2][n], x[3][n], x[4][n], x[5][n], x[6][n] }, x0)
    for key in pairs(m) do
      d[key][n] = math.abs(dd[key])
      m[key] = math.max(m[key], d[key][n])
      if n <= (nvalid + 1) / 2 then half[key] = math.max(half[key], d[key][n]) end
    end
  end
  return { d = d, max = m, half = half, w = w, nvalid = nvalid, msg = msg }
end
-- each run a compute cell (lib/lua/kapitza/scenario/cells.lua); none depends on table_N
local function drift(o, name)
  return sc:cell("drift", { variant = name }, function() return drift0(o) end, { ignore = { "table_N" } })
end
local base = drift({}, "base")
local heun = drift({ start = "heun" }, "heun")
local basic = drift({ lsq = "basic" }, "basic")
local fe = drift({ macro = "FE" }, "FE")
local inv0 = model.invariants(x0)

local rows = {}
for n = 1, base.nvalid, P.plot_every do
  rows[#rows + 1] = { t = (n - 1) * H, dH = base.d.H[n], dPiGamma = base.d.PiGamma[n], dGamma2 = base.d.Gamma2[n],
                      dH_heun = heun.d.H[n] or "", dPiGamma_heun = heun.d.PiGamma[n] or "", dGamma2_heun = heun.d.Gamma2[n] or "",
                      dH_basic = basic.d.H[n] or "", dPiGamma_basic = basic.d.PiGamma[n] or "", dGamma2_basic = basic.d.Gamma2[n] or "" }
end
sc:write_tsv("data/top-fig16.tsv", { "t", "dH", "dPiGamma", "dGamma2", "dH_heun", "dPiGamma_heun", "dGamma2_heun", "dH_basic",
                                     "dPiGamma_basic", "dGamma2_basic" }, rows,
  { string.format("top-fig16: abs(I(x_n) - I(x_0)) of HMM-%s-%s, omega = %g, H = T/%d, h = %g, eta = %dh; _heun: Heun start; _basic: basic least squares",
                  P.macro, P.micro, P.omega, P.N, P.h, P.eta_h) })

-- the basic least squares on Table 1 (omega, T = 0.01, h = 10/omega^2)
local Tt, ht = 0.01, 10 / (P.omega * P.omega)
local Nmax = P.table_N[#P.table_N]
local rxi -- (made when a run needs it: a sweep's merge replays the runs)
local tchange = 0
for _, N in ipairs(P.table_N) do
  local e = sc:cell("table", { table_N = N, Nmax = Nmax }, function() -- (Nmax: the reference's grid)
    local e = {}
    for i, l in ipairs { "minnorm", "basic" } do
      local q = {}
      for k, v in pairs(P) do q[k] = v end
      q.lsq = l
      local _, xi = top.run(model, q, { set = "32", H = Tt / N, T = Tt, eta = 10 * ht, h = ht, x0 = x0 })
      if not rxi then rxi = select(2, top.reference(model, "32", Tt, Tt / Nmax, x0, P.ref_h / P.omega)) end
      e[i] = top.maxerr(xi[2], rxi[2], Nmax / N)
    end
    return e
  end)
  tchange = math.max(tchange, math.abs(e[2] / e[1] - 1))
end

local cl = E.claims(sc)
local pub = cl.pub
cl:claim { key = "micro_steps", text = "only 6·10⁴ micro-steps on [0, 1]", published = pub.micro_steps, at = top.print_at(sc, { "T", "N", "eta_h", "start" }),
  judge = function()
    return { measured = E.T("%d micro-steps (%d force evaluations)", base.w.micro_steps, base.w.force_evals), items = { base.w.micro_steps == 6e4 }, what = "count" }
  end }
-- good preservation: the run completes and the changes do not grow (second half within x10 of the
-- first); at the printed parameters the notes' bounds too (a claim of their own)
local at = top.print_at(sc, nil, { "plot_every", "table_N", "ref_h" })
cl:claim { key = "preservation", text = "good preservation of the conserved quantities (LF-rk4)", published = pub.preservation,
  any = "the invariants of (31) under a reversible macro scheme, at any parameters",
  -- the statement is the leapfrog's (the claim's "LF-rk4"): with macro = FE it is not about this
  -- run (fe_diverges measures FE at the printed case)
  premises = { E.premise(P.macro == "LF", "the reversible leapfrog macro scheme of the claim (this run: macro = %s)", P.macro) },
  judge = function()
    local m = (base.msg and E.T("the run fails: %s; before it ", E.quote(base.msg)) or E.T("")) ..
              E.T("max abs ΔH = %.2e (relative %.1e), max abs Δ(Π·Γ) = %.2e, max abs Δ‖Γ‖² = %.2e over t_n; the second half's maxima against the first's: ×%.2f, ×%.2f (accept ≤ ×%v)",
                  base.max.H, base.max.H / inv0.H, base.max.PiGamma, base.max.Gamma2, base.max.H / base.half.H, base.max.Gamma2 / base.half.Gamma2, 10)
    return { measured = m, items = { { ok = base.nvalid == P.N + 1, label = "the run completes" }, { ok = base.max.H <= 10 * base.half.H, label = "H without growth" },
                                      { ok = base.max.Gamma2 <= 10 * base.half.Gamma2, label = "‖Γ‖² without growth" } }, what = "checks" }
  end }
cl:claim { key = "preservation_notes", text = "the conserved quantities within the notes' bounds (LF-rk4)", published = "— (notes: ≤ 1e-5, 1e-3, 1e-5)", at = at,
  judge = function()
    return { measured = E.T("%.2e, %.2e, %.2e", base.max.H, base.max.PiGamma, base.max.Gamma2),
             items = { base.max.H <= 1e-5, base.max.PiGamma <= 1e-3, base.max.Gamma2 <= 1e-5 }, what = "quantities" }
  end }
-- the notes' observations (addendum 2) on the printed run
cl:claim { key = "fe_diverges", text = "(notes) HMM-FE-rk4 with the same settings", published = "— (not in the thesis)", at = at,
  judge = function()
    return { measured = fe.msg and E.T("diverges: %s", E.quote(fe.msg)) or E.T("stays finite (max abs ΔH %.2e)", fe.max.H), items = { fe.msg ~= nil }, what = "run" }
  end }
cl:claim { key = "heun_start", text = "(addendum 2) the leapfrog start matters: Heun instead of forward Euler", published = "— (start not stated, A4)", at = at,
  judge = function()
    return { measured = E.T("max abs ΔH %.2e → %.2e (×%.0f smaller), Δ(Π·Γ) %.2e → %.2e, Δ‖Γ‖² %.2e → %.2e (accept ×%v or more)", base.max.H, heun.max.H,
                            base.max.H / heun.max.H, base.max.PiGamma, heun.max.PiGamma, base.max.Gamma2, heun.max.Gamma2, 10),
             items = { base.max.H / heun.max.H >= 10 }, what = "ratio" }
  end }
cl:claim { key = "basic_lsq", text = "(addendum 2) the least-squares solution matters: MATLAB's basic J\\b instead of minimum norm", published = "— (A7)", at = at,
  judge = function()
    return { measured = E.T("max abs Δ‖Γ‖² %.2e → %.2e (×%.0f smaller), ΔH %.2e → %.2e; Table 1 errors (ω = %v) change by ≤ %.2f %% (accept ×%v or more, ≤ %v %%)",
                            base.max.Gamma2, basic.max.Gamma2, base.max.Gamma2 / basic.max.Gamma2, base.max.H, basic.max.H, P.omega, 100 * tchange, 1e3, 1),
             items = { base.max.Gamma2 / basic.max.Gamma2 >= 1e3, tchange <= 0.01 }, what = "checks" }
  end }
local body = {}
for _, r in ipairs { { "LF, FE start, minimum norm (default)", base }, { "LF, Heun start", heun }, { "LF, basic least squares", basic },
                     { "FE", fe } } do
  body[#body + 1] = { r[1], string.format("%.2e", r[2].max.H), string.format("%.2e", r[2].max.PiGamma), string.format("%.2e", r[2].max.Gamma2),
                      r[2].msg or "—" }
end
top.write_claims(sc, cl, string.format("**Largest changes of the invariants** on t_n = nH ∈ [0, %g], H = T/%d:\n\n", P.T, P.N) ..
  S.md_table({ "run", "max abs ΔH", "max abs Δ(Π·Γ)", "max abs Δ‖Γ‖²", "failure" }, body),
  string.format("H(x₀) = %.6e, Π·Γ(x₀) = %.6f, ‖Γ‖² = 1. The last three rows are readings the thesis leaves open (A4, A7), not its claims.",
                inv0.H, inv0.PiGamma))
sc:figure("top-fig16", { omega = P.omega, N = P.N })
