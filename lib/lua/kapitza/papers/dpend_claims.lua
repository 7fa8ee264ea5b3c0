-- dpend_claims.lua -- the claims of Calvo & Sanz-Serna's Figure 4.1 (SHAKE-SHAKE, RATTLE-SHAKE)
-- and of Calvo, Chartier, Murua & Sanz-Serna's Figure 6 (SAM for index-2 DAEs), each measured on
-- the runs of scenarios/cs-fig4.1.lua and scenarios/sam-fig6.lua with an explicit acceptance
-- rule (experiment.claims). Claims that come from the notes rather than the papers say so.
local E = require "kapitza.experiment"
local S = require "kapitza.scenario"
local D = require "kapitza.papers.dpend"

local M = {}

local function fmt(x) return S.sci(x, 2) end
local function frac(H) return string.format("1/%g", 1 / H) end
local T = E.T

---------------------------------------------------------------------------------------------------
-- Figure 4.1
---------------------------------------------------------------------------------------------------

--- runs[scheme][omega][H] (dpend.hmm), avg (the averaged reference on the grid dt), fall (time
-- at which the unvibrated pendulum leaves the upper half-plane, or nil), sens[omega] (how far the
-- angles of the first scheme move when q1(0) moves by 1e-15 rad: round-off amplification).
-- Returns the claims table and the rows of the omega-scaling table.
function M.fig41(sc, P, runs, avg, dt, fall, sens)
  local cl = E.claims(sc)
  local ss, rs = runs["shake-shake"], runs["rattle-shake"]
  -- every distinct omega and H (a value in both lists of a pair is one run)
  local function add(list, x) for _, y in ipairs(list) do if math.abs(x / y - 1) <= 1e-12 then return end end list[#list + 1] = x end
  local W, Hs = {}, {}
  for _, list in ipairs { P.omega, P.omega_extra } do for _, w in ipairs(list) do add(W, w) end end
  for _, list in ipairs { P.H, P.H_conv } do for _, H in ipairs(list) do add(Hs, H) end end
  table.sort(W)
  local wmax = W[#W]
  table.sort(Hs, function(a, b) return a > b end)
  local main = ss or rs -- runs[omega][H] of the paper's scheme (SHAKE-SHAKE) when it ran
  local main_method = ss and "SHAKE-SHAKE" or "RATTLE-SHAKE"
  local counts_at = E.paper_at(sc, { "T", "Tmacro", "periods" })
  local why_counts = "the work of the method is fixed by its parameters (N = T/H macro steps, K micro-steps each), at any ω"
  -- micro-step counts: the printed ones (SHAKE-SHAKE at the paper's T, T_macro and window, where
  -- the run has the printed H), then the formula at every H and omega
  for _, row in ipairs(sc:reference() or {}) do
    local Np = row.claim:match("^microsteps_N(%d+)$") -- the printed count at N = T/H = Np (the paper's T = 1)
    local Hp = Np and 1 / tonumber(Np)
    if Hp then
      local at = {}
      for k, v in pairs(counts_at) do at[k] = v end
      at.H = Hp
      cl:claim { key = row.claim, text = string.format("H = %s s: micro-steps of the SHAKE-SHAKE run, every ω", frac(Hp)),
        published = tostring(row.published), at = at,
        premises = { E.premise(ss ~= nil, "SHAKE-SHAKE, the printed scheme, among the run's schemes") },
        judge = function()
          local items, seen = {}, {}
          for _, w in ipairs(W) do
            local c = ss[w][Hp].c.micro_steps
            items[#items + 1] = { ok = c == tonumber(row.published), label = "ω = " .. E.show(w) }
            seen[#seen + 1] = c
          end
          return { measured = T("%v at ω = %v", seen, W), items = items, what = "ω values" }
        end }
    end
  end
  cl:claim { key = "microsteps", text = "the micro-steps of every run: N K for SHAKE-SHAKE, (N + 1) K for RATTLE-SHAKE (F_N gives V_N)",
    published = "N K", any = why_counts,
    judge = function()
      local items, parts = {}, {}
      for _, scheme in ipairs(P.schemes) do
        for _, H in ipairs(Hs) do
          local extra = scheme == "rattle-shake" and 1 or 0
          local ok = true
          for _, w in ipairs(W) do
            local r = runs[scheme][w][H]
            ok = ok and r.c.micro_steps == (r.N + extra) * r.K
          end
          local r = runs[scheme][W[1]][H]
          items[#items + 1] = { ok = ok, label = r.method .. " H = " .. frac(H) }
          parts[#parts + 1] = T("%s H = %v: %d = %d × %d", r.method, H, r.c.micro_steps, r.N + extra, r.K)
        end
      end
      return { measured = E.join(parts, "; "), items = items, what = "scheme and H pairs" }
    end }
  -- constraint solves actually made
  cl:claim { key = "constraint_solves", text = "constraint solves made: K + 1 per force estimate (trapezoid over k = 0…K, the force at K from one more solve), one (SHAKE) or two (RATTLE) per macro step",
    published = "— (notes, addendum to §5, item 3: N·(K+1))", any = why_counts,
    judge = function()
      local parts, items = {}, {}
      for _, scheme in ipairs(P.schemes) do
        for _, H in ipairs(P.H) do
          local r = runs[scheme][W[1]][H]
          local est = scheme == "rattle-shake" and r.N + 1 or r.N -- force estimates
          items[#items + 1] = { ok = r.c.micro_pos_solves == est * (r.K + 1) and r.c.micro_vel_solves == 0 and r.c.macro_pos_solves == r.N
                                     and r.c.macro_vel_solves == (scheme == "rattle-shake" and r.N or 0), label = r.method .. " H = " .. frac(H) }
          parts[#parts + 1] = T("%s H = %v: %d micro (= %d·(K + %d)), %d + %d macro", r.method, H, r.c.micro_pos_solves, est, 1,
                                r.c.macro_pos_solves, r.c.macro_vel_solves)
        end
      end
      return { measured = E.join(parts, "; "), items = items, what = "runs" }
    end }
  -- same effort at every omega
  cl:claim { key = "same_effort", text = "larger ω 'require the same computational effort'", published = cl:published("same_effort") or "same",
    any = why_counts, premises = { E.at_least(#W, 2, "distinct ω (a comparison)") },
    judge = function()
      local items = {}
      for _, scheme in ipairs(P.schemes) do
        for _, H in ipairs(P.H) do
          local a = runs[scheme][W[1]][H].c
          for i = 2, #W do
            local b = runs[scheme][W[i]][H].c
            items[#items + 1] = { ok = a.micro_steps == b.micro_steps and a.force_evals == b.force_evals and a.micro_pos_solves == b.micro_pos_solves,
                                  label = string.format("%s H = %s ω = %s", scheme, frac(H), E.show(W[i])) }
          end
        end
      end
      return { measured = T("micro-steps, evaluations and solves at ω = %v against ω = %v", { unpack(W, 2) }, W[1]), items = items,
               what = "runs against the smallest ω" }
    end }
  -- RATTLE-SHAKE gives the angles of SHAKE-SHAKE
  cl:claim { key = "rattle_same_angles", text = "RATTLE-SHAKE: 'for the angles q1 and q2 the results coincide with those in Fig. 4.1' (max abs(Δq) over t, every H; the sensitivity: how far the angles move when q1(0) moves by 1e-15 rad)",
    published = cl:published("rattle_same_angles") or "coincide", any = "the two schemes share the position update: equal angles up to round-off at any parameters",
    premises = { E.premise(ss ~= nil and rs ~= nil, "both schemes among the run's schemes") },
    judge = function()
      local parts, items = {}, {}
      for _, w in ipairs(W) do
        local d = 0
        for _, H in ipairs(Hs) do d = math.max(d, E.maxdiff(ss[w][H].q1, rs[w][H].q1), E.maxdiff(ss[w][H].q2, rs[w][H].q2)) end
        items[#items + 1] = { ok = d <= 10 * math.max(sens[w], 1e-12), label = "ω = " .. E.show(w) }
        parts[#parts + 1] = T("ω = %v: %.1e (round-off sensitivity %.1e)", w, d, sens[w])
      end
      return { measured = E.join(parts, ", ") .. T(" rad (accept ≤ %v × the sensitivity: equal up to round-off)", 10), items = items, what = "ω values" }
    end }
  -- omega: the same results? and the O(1/omega) scaling of the differences
  local scal_rows = {}
  local function dlam(a, b)
    local d = 0
    for n = 1, #a.L1 do d = math.max(d, math.abs(a.L1[n] - b.L1[n]), math.abs(a.L2[n] - b.L2[n])) end
    return d
  end
  for _, scheme in ipairs(P.schemes) do
    for _, H in ipairs(Hs) do
      local b = runs[scheme][wmax][H]
      for _, w in ipairs(W) do
        if w ~= wmax then
          local a = runs[scheme][w][H]
          scal_rows[#scal_rows + 1] = { method = a.method, H = H, omega = w, d_q1 = E.maxdiff(a.q1, b.q1), d_q2 = E.maxdiff(a.q2, b.q2),
                                        d_L = dlam(a, b) }
        end
      end
    end
  end
  local function drow(H, w)
    for _, r in ipairs(scal_rows) do
      if r.method == main_method and r.H == H and r.omega == w then return r end
    end
  end
  local fig = {}
  for _, w in ipairs(P.omega) do if w ~= wmax then fig[#fig + 1] = w end end
  table.sort(fig)
  -- the statement with the run's own omega list (the paper's: 10^4; 10^6, 10^8): 'omega=1e5,1e6,1e7' said
  -- yes to a text about 10^4, a frequency it never ran (and where the paper's statement fails)
  local function pow10(w)
    local k = math.floor(math.log10(w) + 0.5)
    if math.abs(w / 10 ^ k - 1) < 1e-12 then return "10^" .. k end
    return E.show(w)
  end
  local rest = {}
  for i = 2, #P.omega do rest[#rest + 1] = pow10(P.omega[i]) end
  local same_text = string.format("the figure is ω = %s; %s 'lead to the same results' (max abs(Δq1) / abs(Δq2) against the largest ω)",
                                  pow10(P.omega[1]), #rest > 0 and ("ω = " .. table.concat(rest, ", ")) or "larger ω")
  cl:claim { key = "omega_same", text = same_text,
    published = cl:published("omega_same") or "same", any = "a statement about the ω of the run's figure list, judged against its largest ω",
    premises = { E.at_least(#fig, 1, "ω of the figure's list below the largest ω (a comparison)") },
    judge = function()
      local parts, items = {}, {}
      for _, H in ipairs(P.H) do
        for _, w in ipairs(fig) do
          local r = drow(H, w)
          parts[#parts + 1] = T("H = %v, ω = %v: %.1e / %.1e", H, w, r.d_q1, r.d_q2)
          items[#items + 1] = { ok = r.d_q1 <= 0.01 and r.d_q2 <= 0.01, label = string.format("H = %s ω = %s", frac(H), E.show(w)) }
        end
      end
      return { measured = E.join(parts, "; ") .. T(" rad against ω = %v (accept ≤ %v rad, the figure's resolution)", wmax, 0.01), items = items,
               what = "(H, ω) panels" }
    end }
  local below = {}
  for _, w in ipairs(W) do if w ~= wmax then below[#below + 1] = w end end
  cl:claim { key = "omega_scaling", text = "the differences to the largest ω shrink like 1/ω (fitted log–log slope over the smaller ω)",
    published = "— (notes, addendum to §5, item 4: O(1/ω))", any = "an asymptotic order in 1/ω of the averaging",
    premises = { E.at_least(#below, 2, "ω below the largest (a slope)") },
    judge = function()
      local parts, items = {}, {}
      for _, H in ipairs(P.H) do
        local ys, y2 = {}, {}
        for i, w in ipairs(below) do local r = drow(H, w); ys[i], y2[i] = r.d_q1, r.d_q2 end
        local s1, s2 = E.slope(below, ys), E.slope(below, y2)
        parts[#parts + 1] = T("H = %v: %.2f (q1), %.2f (q2)", H, s1, s2)
        items[#items + 1] = { ok = math.abs(s1 + 1) <= 0.2, label = string.format("q1 at H = %s", frac(H)) }
        items[#items + 1] = { ok = math.abs(s2 + 1) <= 0.2, label = string.format("q2 at H = %s", frac(H)) }
      end
      return { measured = E.join(parts, "; ") .. T(" over ω = %v against ω = %v (accept %v ± %v)", below, wmax, -1, 0.2), items = items,
               what = "fitted slopes" }
    end }
  -- convergence in H to the averaged (omega -> infinity) motion, at the largest omega; the figure's
  -- own panels (its two H at its first omega) against each other and against the trivial baseline,
  -- a solution that stays at the initial angles. The HMM at omega differs from the averaged motion
  -- by O(1/omega) as well: its errors measure convergence only where that offset (estimated from
  -- the omega-differences, d(w) w / wmax) is small against them.
  local xs, e1, e2 = {}, {}, {}
  for i, H in ipairs(Hs) do
    local r = main[wmax][H]
    local stride = assert(D.whole(H, dt))
    xs[i], e1[i], e2[i] = H, D.maxerr(r, avg, "q1", stride), D.maxerr(r, avg, "q2", stride)
  end
  local offset, emin = nil, math.huge
  for i = 1, #Hs do emin = math.min(emin, e1[i], e2[i]) end
  for _, r in ipairs(scal_rows) do
    if r.method == main_method then offset = math.max(offset or 0, math.max(r.d_q1, r.d_q2) * r.omega / wmax) end
  end
  local b1, b2 = 0, 0 -- the baseline q(t) = q(0) against the averaged motion
  for j = 1, #avg.t do b1, b2 = math.max(b1, math.abs(avg.q1[j] - avg.q1[1])), math.max(b2, math.abs(avg.q2[j] - avg.q2[1])) end
  cl:claim { key = "convergent", text = "'clearly the algorithm exhibits a convergent behavior' (at the largest ω: max error in q1/q2 against the averaged ω → ∞ motion)",
    published = cl:published("convergent") or "convergent", any = "convergence in H of the method to its averaged limit, at any parameters where it is measurable",
    premises = { E.at_least(#Hs, 2, "H values (a convergence)"),
                 E.premise(offset ~= nil, "the O(1/ω) offset of ω = %v from the averaged motion measured (two ω or more)", wmax),
                 E.premise(offset ~= nil and offset <= 0.1 * emin, "that offset, about %.2g rad (the ω-differences times ω/ω_max), at most a tenth of the smallest error %.2g rad",
                           offset or 0, emin) },
    judge = function()
      local parts, items = {}, {}
      for i, H in ipairs(Hs) do
        parts[#parts + 1] = T("%v: %.1e/%.1e", H, e1[i], e2[i])
        if i > 1 then items[#items + 1] = { ok = e1[i] < e1[i - 1] and e2[i] < e2[i - 1], label = "decrease to H = " .. frac(H) } end
      end
      local s1, s2 = E.slope(xs, e1), E.slope(xs, e2)
      items[#items + 1] = { ok = math.abs(s1 - 2) <= 0.3, label = "order in q1" }
      items[#items + 1] = { ok = math.abs(s2 - 2) <= 0.3, label = "order in q2" }
      local m = T("ω = %v, H = ", wmax) .. E.join(parts, ", ") .. T("; order %.2f/%.2f (accept %v ± %v); the baseline q(t) = q(0) errs by %.1e/%.1e",
                                                                  s1, s2, 2, 0.3, b1, b2)
      local figH = {}
      for _, H in ipairs(P.H) do figH[#figH + 1] = H end
      table.sort(figH, function(a, b) return a > b end)
      if #figH >= 2 then -- the coarsest and the finest panel on the coarse nodes
        local w0 = P.omega[1]
        local a, b = main[w0][figH[1]], main[w0][figH[#figH]]
        local k = assert(D.whole(figH[1], figH[#figH]))
        local pd1, pd2 = 0, 0
        for n = 1, #a.q1 do
          pd1 = math.max(pd1, math.abs(a.q1[n] - b.q1[k * (n - 1) + 1]))
          pd2 = math.max(pd2, math.abs(a.q2[n] - b.q2[k * (n - 1) + 1]))
        end
        m = m .. T("; the figure's panels H = %v and %v at ω = %v differ by %.1e/%.1e (%.0f %%/%.0f %% of the baseline; accept ≤ %v %%)",
                   figH[1], figH[#figH], w0, pd1, pd2, 100 * pd1 / b1, 100 * pd2 / b2, 10)
        items[#items + 1] = { ok = pd1 <= 0.1 * b1 and pd2 <= 0.1 * b2, label = "the figure's panels converged" }
      end
      return { measured = m, items = items, what = "checks", values = { order_q1 = s1, order_q2 = s2 } }
    end }
  -- the upright position is stable under vibration; without it the rods fall (the baseline)
  cl:claim { key = "stable_up", text = "'the figure confirms that q1 = q2 = 0 (both rods up) correspond to a stable equilibrium' (every run)",
    published = cl:published("stable_up") or "stable", any = "stability of the vibrated upright position, judged against the same pendulum without vibration",
    premises = { E.premise(fall ~= nil, "without vibration the rods leave the upper half-plane inside [%v, T], T = %v (the baseline differs)", 0, P.T) },
    judge = function()
      local items, qmax, sign = {}, 0, math.huge
      for _, scheme in ipairs(P.schemes) do
        for _, w in ipairs(W) do
          for _, H in ipairs(P.H) do
            local r = runs[scheme][w][H]
            local c1, c2, q = 0, 0, 0
            for n = 2, #r.q1 do
              q = math.max(q, math.abs(r.q1[n]), math.abs(r.q2[n]))
              if r.q1[n] * r.q1[n - 1] < 0 then c1 = c1 + 1 end
              if r.q2[n] * r.q2[n - 1] < 0 then c2 = c2 + 1 end
            end
            qmax, sign = math.max(qmax, q), math.min(sign, c1, c2)
            items[#items + 1] = { ok = q < math.pi / 2 and c1 >= 1 and c2 >= 1, label = string.format("%s H = %s ω = %s", scheme, frac(H), E.show(w)) }
          end
        end
      end
      return { measured = T("max abs(q) = %.2f rad, below π/2 = %.2f; both angles change sign (at least %d times); without vibration the rods leave the upper half-plane at t = %.3f s",
                            qmax, math.pi / 2, sign, fall), items = items, what = "runs" }
    end }
  -- constraint residuals of the macro states
  local l1, l2 = P.l1, P.l2
  local lim = P.tol * math.max(l1, l2) ^ 2 / math.min(l1, l2) ^ 2
  cl:claim { key = "residuals", text = "macro states on the constraints: g(X_n) = 0 (SHAKE, RATTLE), g'(X_n) V_n = 0 (RATTLE)",
    published = "= 0", any = "the projections of SHAKE and RATTLE, at any parameters",
    judge = function()
      local rg, rv = 0, 0
      for _, scheme in ipairs(P.schemes) do
        for _, w in ipairs(W) do for _, H in ipairs(Hs) do
          rg, rv = math.max(rg, runs[scheme][w][H].rg), math.max(rv, runs[scheme][w][H].rv)
        end end
      end
      return { measured = T("max abs(g_i)/l_i² = %.1e (accept ≤ the solve tolerance %.1e); RATTLE max abs(g′V)/(%v(l1+l2) max abs(V)) = %.1e (accept ≤ %v)",
                            rg, lim, 2, rv, 1e-14),
               items = { { ok = rg <= lim, label = "positions" }, { ok = rv <= 1e-14, label = "velocities" } }, what = "residuals" }
    end }
  return cl, scal_rows
end

---------------------------------------------------------------------------------------------------
-- Figure 6
---------------------------------------------------------------------------------------------------

local function pick(rows, method, eps, N)
  local t = {}
  for _, r in ipairs(rows) do
    if r.method == method and math.abs(r.eps / eps - 1) < 1e-9 and (N == nil or r.N == N) then t[r.n] = r end
  end
  return t
end

local function curve(rows, method, eps, N, ns)
  local t, c = pick(rows, method, eps, N), { work = {}, err = {} }
  for i, n in ipairs(ns) do c.work[i], c.err[i] = t[n].work, t[n].error end
  return c
end

--- top, bottom: efficiency rows (dpend.sam_row / conv_row); refs[eps] (dpend.reference_end);
-- text: SAM rows at P.eps_text; order: conventional rows at P.order_n (eps = P.eps[1]). A claim
-- the paper makes at its own parameters (a printed number, a statement about eps = 10^-4 or
-- 10^-6, about HERK3, about H = pi/625 and pi/1250) declares them (`at`) and is judged only where
-- the run meets them; elsewhere its verdict is n/a with the reason.
function M.fig6(sc, P, top, bottom, refs, text, order)
  local cl = E.claims(sc)
  local ns, eps = P.n, P.eps
  local conv = P.conventional ~= "off"
  local Ntop = math.floor(P.t_end / P.H + 0.5)
  local physics = { "t_end", "m1", "m2", "l1", "l2", "g", "vmax", "q1", "q2" }
  local function with(list, more) local t = {} for _, k in ipairs(list) do t[#t + 1] = k end for _, k in ipairs(more or {}) do t[#t + 1] = k end return t end
  local function at(keys, extra)
    local t = E.paper_at(sc, keys)
    for k, v in pairs(extra or {}) do t[k] = v end
    return t
  end
  local function near(a, b) return math.abs(a / b - 1) < 1e-9 end
  local SN = ({ herk3 = "HERK3", shake = "SHAKE", rattle = "RATTLE" })[P.stepper or "herk3"]
  local has_conv = E.premise(conv, "the conventional runs made (conventional = on)")
  local two_eps = E.at_least(#eps, 2, "ε values (a comparison)")
  -- SAM work: 6 N n at every eps, by construction, with the two-point difference (25); the 5-point
  -- (26) integrates twice the periods (12 N n): the count 6Nn is not about such a run
  local d25 = E.premise((P.diff or "central2") == "central2", "the two-point difference (25) of the count 6Nn (this run: diff = %s; (26) integrates twice the periods)", P.diff or "central2")
  cl:claim { key = "sam_work_per_n", text = "SAM: 'the total number of micro-steps is 6Nn and thus does not depend on ε'", published = "6Nn",
    any = "the micro-steps of SAM are fixed by N and n (six HERK3 micro-integrations of n steps per macro step), at any ε", premises = { d25 },
    judge = function()
      local items, seen, list = {}, {}, {}
      for _, r in ipairs(top) do
        if r.method == "SAM" then
          items[#items + 1] = { ok = r.work == 6 * r.N * r.n, label = string.format("ε = %s n = %d", E.show(r.eps), r.n) }
          if not seen[r.work / r.n] then seen[r.work / r.n] = true; list[#list + 1] = r.work / r.n end
        end
      end
      return { measured = T("work/n = %v at ε = %v, N = %d", list, eps, Ntop), items = items, what = "SAM runs" }
    end }
  local pw = cl:published("sam_work_per_n")
  if pw then
    cl:claim { key = "sam_work_printed", text = "SAM: '6Nn = 4776n' (the printed N = 796)", published = pw .. "n", at = at({ "H", "t_end", "diff" }),
      judge = function()
        local items = {}
        for _, r in ipairs(top) do if r.method == "SAM" then items[#items + 1] = { ok = r.work == tonumber(pw) * r.n, label = "n = " .. r.n } end end
        return { measured = T("%dn", 6 * Ntop), items = items, what = "SAM runs" }
      end }
  end
  local pm = cl:published("macro_steps")
  if pm then
    cl:claim { key = "macro_steps", text = "'N = 796 macro-steps are needed to cover the interval 0 ≤ t ≤ T' with H = π/2500", published = pm,
      at = at({ "H", "t_end" }),
      judge = function()
        return { measured = T("%d steps of H end at t = %.6f s; %d end at t = %.6f s", Ntop, Ntop * P.H, Ntop - 1, (Ntop - 1) * P.H),
                 items = { Ntop == tonumber(pm) }, what = "count" }
      end }
  end
  -- SAM errors independent of eps
  local why_eps = "SAM approximates the stroboscopic (averaged) motion, the same at every small ε"
  cl:claim { key = "sam_eps_independent", text = "SAM: the results for ε = 10^-4 and 10^-6 'almost coincide' (error ratio per n)",
    published = cl:published("sam_eps_independent") or "≈ 1", any = why_eps, premises = { two_eps },
    judge = function()
      local parts, items = {}, {}
      for i = 2, #eps do
        local a, b = pick(top, "SAM", eps[1]), pick(top, "SAM", eps[i])
        for _, n in ipairs(ns) do
          local x = b[n].error / a[n].error
          items[#items + 1] = { ok = x >= 1 / 1.5 and x <= 1.5, label = string.format("ε = %s n = %d", E.show(eps[i]), n) }
          parts[#parts + 1] = T("%.2f", x)
        end
      end
      return { measured = T("error at ε = %v over error at ε = %v, per n = %v: ", { unpack(eps, 2) }, eps[1], ns) .. E.join(parts, ", ") ..
                          T(" (accept %v/%v to %v)", 1, 1.5, 1.5), items = items, what = "ratios" }
    end }
  -- conventional: errors do not vary, cost x100
  cl:claim { key = "conv_errors_same", text = "conventional " .. SN .. ": 'when going from ε = 10^-4 to 10^-6 the errors do not vary' (error ratio per n)",
    published = cl:published("conv_errors_same") or "≈ 1", any = "a statement about the conventional integration at any two ε", premises = { has_conv, two_eps },
    judge = function()
      local parts, items = {}, {}
      for i = 2, #eps do
        local a, b = pick(top, "conventional", eps[1]), pick(top, "conventional", eps[i])
        for _, n in ipairs(ns) do
          local x = b[n].error / a[n].error
          items[#items + 1] = { ok = x >= 1 / 1.5 and x <= 1.5, label = string.format("ε = %s n = %d", E.show(eps[i]), n) }
          parts[#parts + 1] = T("n = %d: %.2f", n, x)
        end
      end
      return { measured = E.join(parts, ", ") .. T(" (error at ε = %v over ε = %v; accept %v/%v to %v)", { unpack(eps, 2) }, eps[1], 1, 1.5, 1.5),
               items = items, what = "ratios" }
    end }
  local function work_ratios()
    local wr = {}
    for i = 2, #eps do
      local a, b = pick(top, "conventional", eps[1]), pick(top, "conventional", eps[i])
      for _, n in ipairs(ns) do wr[#wr + 1] = { b[n].work / a[n].work, eps[1] / eps[i], n } end
    end
    return wr
  end
  cl:claim { key = "conv_work_proportional", text = "conventional " .. SN .. ": 'the computational cost is multiplied by [the ε ratio] since the step-size is proportional to ε'",
    published = "∝ 1/ε", any = "the conventional step is a fixed fraction of the period 2πε: its work is ∝ 1/ε by construction",
    premises = { has_conv, two_eps },
    judge = function()
      local items, parts = {}, {}
      for _, w in ipairs(work_ratios()) do
        items[#items + 1] = { ok = math.abs(w[1] / w[2] - 1) < 1e-12, label = "n = " .. w[3] }
        parts[#parts + 1] = T("%.6g", w[1])
      end
      return { measured = T("work ratios ") .. E.join(parts, ", ") .. T(" against the ε ratio %.6g", eps[1] / eps[#eps]), items = items, what = "ratios" }
    end }
  local pr = cl:published("conv_work_ratio")
  if pr then
    cl:claim { key = "conv_work_ratio", text = "conventional " .. SN .. ": 'the computational cost is multiplied by 100' (ε = 10^-4 → 10^-6)",
      published = pr, at = { eps = { 1e-4, 1e-6 } }, premises = { has_conv },
      judge = function()
        local items, parts = {}, {}
        for _, w in ipairs(work_ratios()) do
          items[#items + 1] = { ok = math.abs(w[1] / tonumber(pr) - 1) < 1e-12, label = "n = " .. w[3] }
          parts[#parts + 1] = T("%.6g", w[1])
        end
        return { measured = E.join(parts, ", "), items = items, what = "ratios" }
      end }
  end
  -- crossover: the paper states it at eps = 1e-4 (conventional cheaper) and 1e-6 (SAM cheaper)
  for _, c in ipairs { { e = 1e-4, conv_wins = true, key = "crossover_at_1e-4" }, { e = 1e-6, conv_wins = false, key = "crossover_at_1e-6" } } do
    local old = cl:published(c.key)
    cl:claim { key = c.key, text = string.format("ε = %s: %s (conventional work at SAM's error / SAM work, per n)", E.show(c.e),
                 c.conv_wins and "'the conventional integration is more efficient than SAM'" or "'the conclusion is reversed': SAM is more efficient"),
      published = old or (c.conv_wins and "< 1" or "> 1"),
      at = at(with(physics, { "H", "stepper", "diff" }), { eps = c.e }),
      premises = { has_conv, E.at_least(#ns, 2, "n values (the conventional curve to interpolate)") },
      judge = function()
        local parts, items = {}, {}
        local cv = curve(top, "conventional", c.e, nil, ns)
        for _, n in ipairs(ns) do
          local r = pick(top, "SAM", c.e)[n]
          local x = E.work_at(cv, r.error) / r.work
          parts[#parts + 1] = T("%.2g", x)
          items[#items + 1] = { ok = c.conv_wins and x < 1 or (not c.conv_wins and x > 1), label = "n = " .. n }
        end
        return { measured = E.join(parts, ", ") .. T(" (accept all %s %v)", c.conv_wins and "<" or ">", 1), items = items, what = "n values" }
      end }
  end
  -- HERK3 is of order 3 (conventional runs at the finer P.order_n)
  cl:claim { key = "herk3_order", text = "HERK3 'of order 3' (conventional, the first ε: error ratio per doubling of n, finest pair)",
    published = cl:published("herk3_order") or "8", any = "the order of HERK3, a property of the method in its asymptotic regime",
    premises = { has_conv, E.at_least(#order, 2, "order_n values (a ratio)"), E.premise(P.stepper == "herk3", "the micro-solver is HERK3 (stepper = %s)", P.stepper),
                 E.premise(#order >= 2 and order[#order].error >= 1e3 * P.tol, "the finest error %.2g above the round-off floor (%v × the solve tolerance)",
                           #order >= 1 and order[#order].error or 0, 1e3) },
    judge = function()
      local parts = {}
      for i, r in ipairs(order) do parts[i] = T("n = %d: %.1e", r.n, r.error) end
      local a, b = order[#order - 1], order[#order]
      -- the error ratio per doubling of n between the two finest runs: (e_a/e_b)^(log 2 / log(n_b/n_a))
      local ratio = (a.error / b.error) ^ (math.log(2) / math.log(b.n / a.n))
      return { measured = E.join(parts, ", ") .. T("; ratio %.2f (accept %v ± %v)", ratio, 8, 1.5), items = { math.abs(ratio - 8) <= 1.5 },
               what = "ratio", values = { ratio = ratio } }
    end }
  -- q2 errors somewhat larger
  cl:claim { key = "q2_larger", text = "'errors in q2 are somewhat larger' (top panel points with error(q2) > error(q1))",
    published = cl:published("q2_larger") or "all", any = "a statement about every point of the figure's top panel",
    judge = function()
      local items = {}
      for _, r in ipairs(top) do
        items[#items + 1] = { ok = r.error_q2 > r.error, label = string.format("%s ε = %s N = %d n = %d", r.method, E.show(r.eps), r.N, r.n) }
      end
      local k, n = E.count(items)
      return { measured = T("%d of %d", k, n), items = items, what = "points" }
    end }
  -- bottom: the two largest H of the paper (pi/625, pi/1250) saturate, the others keep improving
  local Hb = {}
  for _, H in ipairs(P.H_bottom) do Hb[#Hb + 1] = H end
  table.sort(Hb, function(a, b) return a > b end)
  local found = 0
  for _, H in ipairs(Hb) do if near(H, math.pi / 625) or near(H, math.pi / 1250) then found = found + 1 end end
  cl:claim { key = "bottom_saturation", text = "ε = 10^-6: 'for H = π/625 and π/1250 decreasing the micro-step-size not always improves the accuracy' (error ratio between the two finest n)",
    published = cl:published("bottom_saturation") or "saturates", at = at(with(physics, { "eps_bottom", "stepper", "diff" })),
    premises = { E.at_least(#ns, 2, "n values (an error ratio)"), E.premise(found == 2, "the paper's H = π/625 and π/1250 both in H_bottom (%d of %d)", found, 2) },
    judge = function()
      local parts, items = {}, {}
      local nf, np = ns[#ns], ns[#ns - 1]
      local grows = false
      for _, H in ipairs(Hb) do
        local NH = math.floor(P.t_end / H + 0.5)
        local t = pick(bottom, "SAM", P.eps_bottom, NH)
        local ratio = t[np].error / t[nf].error
        local paper = near(H, math.pi / 625) or near(H, math.pi / 1250)
        for k = 2, #ns do if paper and t[ns[k]].error > t[ns[k - 1]].error then grows = true end end
        parts[#parts + 1] = T("H = π/%v: %.2f", math.pi / H, ratio)
        items[#items + 1] = { ok = paper and ratio < 2 or (not paper and ratio > 2), label = string.format("H = π/%s", E.show(math.pi / H)) }
      end
      items[#items + 1] = { ok = grows, label = "an error that grows with n" }
      return { measured = T("n = %d → %d: ", np, nf) .. E.join(parts, ", ") ..
                          T(" (accept < %v for H = π/%v and π/%v, > %v for the others); an error that grows with n: %s", 2, 625, 1250, 2, grows and "yes" or "none"),
               items = items, what = "checks" }
    end }
  -- SAM at eps = 1e-8 (text only)
  local empty = not text or #text == 0
  cl:claim { key = "sam_eps_text", text = "'when ε = 10^-8, SAM was found to work as expected' (the same work as at the last ε; error against the averaged ω → ∞ reference, ratio to the last ε)",
    published = cl:published("sam_eps_text") or "works", any = why_eps,
    premises = { E.premise(not empty, "eps_text not empty (%d values)", empty and 0 or #text) },
    judge = function()
      local parts, items = {}, {}
      local e6 = pick(top, "SAM", eps[#eps])
      for _, r in ipairs(text) do
        local x = e6[r.n] and r.error / e6[r.n].error
        parts[#parts + 1] = x and T("n = %d: %.1e (×%.2f)", r.n, r.error, x) or T("n = %d: %.1e", r.n, r.error)
        -- two checks per n: the same work as at the last ε (the work does not depend on ε), and the error ratio
        items[#items + 1] = { ok = e6[r.n] ~= nil and r.work == e6[r.n].work, label = "work at n = " .. r.n }
        if x then items[#items + 1] = { ok = x >= 1 / 1.5 and x <= 1.5, label = "error ratio at n = " .. r.n } end
      end
      return { measured = T("ε = %v against ε = %v: ", text[1].eps, eps[#eps]) .. E.join(parts, ", ") .. T(" (accept %v/%v to %v)", 1, 1.5, 1.5),
               items = items, what = "checks" }
    end }
  -- the reference values at t_end (independent implementation of the notes), at their eps
  for _, e in ipairs { 1e-4, 1e-6 } do
    local key = "reference_q1_at_" .. E.show(e)
    local pub = cl:published(key)
    if pub then
      cl:claim { key = key, text = string.format("reference q1(t_end) at ε = %s (the direct Lagrangian ODE)", E.show(e)),
        published = pub .. " (notes, addendum 2)", at = at(physics, { eps = e }),
        judge = function()
          local ref
          for x, r in pairs(refs) do if near(x, e) then ref = r end end
          local d = math.abs(ref.q1 - tonumber(pub))
          return { measured = T("%.12f (%s reference; difference %.1e, accept ≤ %v)", ref.q1, ref.kind, d, 1e-9), items = { d <= 1e-9 }, what = "value" }
        end }
    end
  end
  -- constraint residuals
  -- SHAKE's velocities are not projected on G(q) u = 0 (their normal part is O(h)): the velocity
  -- residual is checked on the runs whose final step is HERK3's or RATTLE's
  local lim = P.tol * math.max(P.l1, P.l2) ^ 2 / math.min(P.l1, P.l2) ^ 2
  cl:claim { key = "residuals", text = "final states on the constraints: g(q) = 0 and G(q) u = 0 (GGL (39)-(40))",
    published = "= 0 (notes: ≈ 1e-17)", any = "the projections of the GGL form, at any parameters",
    judge = function()
      local rg, rv = 0, 0
      for _, rows in ipairs { top, bottom, text or {} } do
        for _, r in ipairs(rows) do
          rg = math.max(rg, r.res_g)
          if not (r.method == "conventional" and P.stepper == "shake") then rv = math.max(rv, r.res_v) end
        end
      end
      return { measured = T("max abs(g_i)/l_i² = %.1e (accept ≤ the solve tolerance %.1e), max abs(G u)/(%v(l1+l2) max abs(u)) = %.1e (accept ≤ %v)%s",
                            rg, lim, 2, rv, 1e-14, P.stepper == "shake" and "; the conventional SHAKE runs' velocities are not projected (not checked)" or ""),
               items = { { ok = rg <= lim, label = "positions" }, { ok = rv <= 1e-14, label = "velocities" } }, what = "residuals" }
    end }
  return cl
end

return M
