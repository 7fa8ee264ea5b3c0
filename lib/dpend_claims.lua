-- dpend_claims.lua -- the claims of Calvo & Sanz-Serna's Figure 4.1 (SHAKE-SHAKE, RATTLE-SHAKE)
-- and of Calvo, Chartier, Murua & Sanz-Serna's Figure 6 (SAM for index-2 DAEs), each measured on
-- the runs of scenarios/cs-fig4.1.lua and scenarios/sam-fig6.lua with an explicit acceptance
-- rule (experiment.claims). Claims that come from the notes rather than the papers say so.
local E = require "experiment"
local S = require "scenario"
local D = require "dpend"

local M = {}

local function fmt(x) return S.sci(x, 2) end
local function frac(H) return string.format("1/%g", 1 / H) end
local function pow10(w) return string.format("10^%g", math.floor(math.log10(w) + 0.5)) end

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
  local W = {}
  for _, w in ipairs(P.omega) do W[#W + 1] = w end
  for _, w in ipairs(P.omega_extra) do W[#W + 1] = w end
  table.sort(W)
  local wmax = W[#W]
  local Hs = {}
  for _, H in ipairs(P.H) do Hs[#Hs + 1] = H end
  for _, H in ipairs(P.H_conv) do Hs[#Hs + 1] = H end
  table.sort(Hs, function(a, b) return a > b end)
  local main = ss or rs -- runs[omega][H] of the paper's scheme (SHAKE-SHAKE) when it ran
  local main_method = ss and "SHAKE-SHAKE" or "RATTLE-SHAKE"
  -- micro-step counts (the paper's are those of SHAKE-SHAKE)
  for _, H in ipairs(P.H) do
    local key = "microsteps_H" .. string.format("%g", 1 / H)
    local pub = cl:published(key)
    local counts, ok = {}, true
    -- SHAKE-SHAKE: N estimates of K steps; RATTLE-SHAKE alone: N + 1 (F_N gives V_N)
    local extra = ss and 0 or 1
    if not ss then pub = nil end
    for _, w in ipairs(W) do
      local r = main[w][H]
      counts[r.c.micro_steps] = true
      ok = ok and r.c.micro_steps == (r.N + extra) * r.K and (pub == nil or r.c.micro_steps == tonumber(pub))
    end
    local list = {}
    for k in pairs(counts) do list[#list + 1] = string.format("%d", k) end
    local r = main[W[1]][H]
    cl:add(key, string.format("H = %s s: micro-steps of the %s run (%s = %d × %d, every ω)", frac(H), main_method,
           extra == 1 and "(N + 1) K" or "N K", r.N + extra, r.K), pub or "—", table.concat(list, ", "), ok)
  end
  -- constraint solves actually made
  do
    local parts, ok = {}, true
    for _, scheme in ipairs(P.schemes) do
      for _, H in ipairs(P.H) do
        local r = runs[scheme][W[1]][H]
        local est = scheme == "rattle-shake" and r.N + 1 or r.N -- force estimates
        local want_micro = est * (r.K + 1)
        ok = ok and r.c.micro_pos_solves == want_micro and r.c.micro_vel_solves == 0
              and r.c.macro_pos_solves == r.N
              and r.c.macro_vel_solves == (scheme == "rattle-shake" and r.N or 0)
        parts[#parts + 1] = string.format("%s H = %s: %d micro (= %d·(K+1)), %d + %d macro", r.method, frac(H),
                                          r.c.micro_pos_solves, est, r.c.macro_pos_solves, r.c.macro_vel_solves)
      end
    end
    cl:add("constraint_solves", "constraint solves made: K + 1 per force estimate (trapezoid over k = 0…K, the force at K from one more solve), one (SHAKE) or two (RATTLE) per macro step",
           "— (notes, addendum to §5, item 3: N·(K+1))", table.concat(parts, "; "), ok)
  end
  -- same effort at every omega
  do
    local ok = true
    for _, scheme in ipairs(P.schemes) do
      for _, H in ipairs(P.H) do
        local a = runs[scheme][W[1]][H].c
        for _, w in ipairs(W) do
          local b = runs[scheme][w][H].c
          ok = ok and a.micro_steps == b.micro_steps and a.force_evals == b.force_evals and a.micro_pos_solves == b.micro_pos_solves
        end
      end
    end
    cl:add("same_effort", "larger ω 'require the same computational effort'", cl:published("same_effort") or "same",
           "micro-steps, evaluations and solves identical for ω = " .. pow10(W[1]) .. "…" .. pow10(wmax), ok)
  end
  -- RATTLE-SHAKE gives the angles of SHAKE-SHAKE
  if ss and rs then
    local parts, ok = {}, true
    for _, w in ipairs(W) do
      local d = 0
      for _, H in ipairs(Hs) do
        local a, b = ss[w][H], rs[w][H]
        d = math.max(d, E.maxdiff(a.q1, b.q1), E.maxdiff(a.q2, b.q2))
      end
      ok = ok and d <= 10 * math.max(sens[w], 1e-12)
      parts[#parts + 1] = string.format("ω = %s: %s (round-off sensitivity %s)", pow10(w), fmt(d), fmt(sens[w]))
    end
    cl:add("rattle_same_angles", "RATTLE-SHAKE: 'for the angles q1 and q2 the results coincide with those in Fig. 4.1' (max abs(Δq) over t, every H; the sensitivity: how far the angles move when q1(0) moves by 1e-15 rad)",
           cl:published("rattle_same_angles") or "coincide", table.concat(parts, ", ") .. " rad (accept ≤ 10 × the sensitivity: equal up to round-off)", ok)
  end
  -- omega: the same results? and the O(1/omega) scaling of the differences
  local scal_rows = {}
  local function dmax(a, b, key) return E.maxdiff(a[key], b[key]) end
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
          scal_rows[#scal_rows + 1] = { method = a.method, H = H, omega = w, d_q1 = dmax(a, b, "q1"), d_q2 = dmax(a, b, "q2"),
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
  do
    local large, small, parts = true, true, {}
    local fig = {}
    for _, w in ipairs(P.omega) do fig[#fig + 1] = w end
    table.sort(fig)
    for _, H in ipairs(P.H) do
      for _, w in ipairs(fig) do
        if w ~= wmax then
          local r = drow(H, w)
          parts[#parts + 1] = string.format("H = %s, ω = %s: %s / %s", frac(H), pow10(w), fmt(r.d_q1), fmt(r.d_q2))
          local agree = r.d_q1 <= 0.01 and r.d_q2 <= 0.01
          if w == fig[1] and #fig > 2 then small = small and agree else large = large and agree end
        end
      end
    end
    local verdict = (large and small) or (large and "partly") or false
    cl:add("omega_same", string.format("the figure is ω = %s; ω = %s 'lead to the same results' (max abs(Δq1) / abs(Δq2) against ω = %s)",
           pow10(fig[1]), table.concat((function() local t = {} for i = 2, #fig do t[#t + 1] = pow10(fig[i]) end return t end)(), ", "), pow10(wmax)),
           cl:published("omega_same") or "same", table.concat(parts, "; ") .. " rad (accept ≤ 0.01 rad)", verdict)
  end
  do
    local parts, ok = {}, true
    for _, H in ipairs(P.H) do
      local xs, ys, y2 = {}, {}, {}
      for _, w in ipairs(W) do
        if w ~= wmax then
          local r = drow(H, w)
          xs[#xs + 1], ys[#ys + 1], y2[#y2 + 1] = w, r.d_q1, r.d_q2
        end
      end
      if #xs >= 2 then
        local s1, s2 = E.slope(xs, ys), E.slope(xs, y2)
        parts[#parts + 1] = string.format("H = %s: %.2f (q1), %.2f (q2)", frac(H), s1, s2)
        ok = ok and math.abs(s1 + 1) <= 0.2 and math.abs(s2 + 1) <= 0.2
      end
    end
    if #parts > 0 then
      cl:add("omega_scaling", string.format("the differences to ω = %s shrink like 1/ω (fitted log–log slope over ω = %s…%s)",
             pow10(wmax), pow10(W[1]), pow10(W[#W - 1])), "— (notes, addendum to §5, item 4: O(1/ω))",
             table.concat(parts, "; ") .. " (accept −1 ± 0.2)", ok)
    end
  end
  -- convergence in H to the averaged (omega -> infinity) motion, at the largest omega
  do
    local xs, e1, e2, parts = {}, {}, {}, {}
    local mono = true
    for i, H in ipairs(Hs) do
      local r = main[wmax][H]
      local stride = assert(D.whole(H, dt))
      xs[i], e1[i], e2[i] = H, D.maxerr(r, avg, "q1", stride), D.maxerr(r, avg, "q2", stride)
      parts[#parts + 1] = string.format("%s: %s/%s", frac(H), fmt(e1[i]), fmt(e2[i]))
      if i > 1 then mono = mono and e1[i] < e1[i - 1] and e2[i] < e2[i - 1] end
    end
    local s1, s2 = E.slope(xs, e1), E.slope(xs, e2)
    cl:add("convergent", string.format("'clearly the algorithm exhibits a convergent behavior' (ω = %s: max error in q1/q2 against the averaged ω → ∞ motion, H = %s…%s)",
           pow10(wmax), frac(Hs[1]), frac(Hs[#Hs])), cl:published("convergent") or "convergent",
           table.concat(parts, ", ") .. string.format("; order %.2f/%.2f (accept decreasing, order 2 ± 0.3)", s1, s2),
           mono and math.abs(s1 - 2) <= 0.3 and math.abs(s2 - 2) <= 0.3)
  end
  -- the upright position is stable under vibration
  do
    local qmax, ok, sign = 0, true, math.huge
    for _, scheme in ipairs(P.schemes) do
      for _, w in ipairs(W) do
        for _, H in ipairs(P.H) do
          local r = runs[scheme][w][H]
          local c1, c2 = 0, 0
          for n = 2, #r.q1 do
            qmax = math.max(qmax, math.abs(r.q1[n]), math.abs(r.q2[n]))
            if r.q1[n] * r.q1[n - 1] < 0 then c1 = c1 + 1 end
            if r.q2[n] * r.q2[n - 1] < 0 then c2 = c2 + 1 end
          end
          sign = math.min(sign, c1, c2)
        end
      end
    end
    ok = qmax < math.pi / 2 and sign >= 1 and fall ~= nil
    cl:add("stable_up", "'the figure confirms that q1 = q2 = 0 (both rods up) correspond to a stable equilibrium' (every run)",
           cl:published("stable_up") or "stable",
           string.format("max abs(q) = %.2f rad < π/2, both angles change sign (≥ %d times); without vibration the rods leave the upper half-plane at t = %s s",
                         qmax, sign, fall and string.format("%.3f", fall) or "never"), ok)
  end
  -- constraint residuals of the macro states
  do
    local rg, rv = 0, 0
    for _, scheme in ipairs(P.schemes) do
      for _, w in ipairs(W) do for _, H in ipairs(Hs) do
        rg, rv = math.max(rg, runs[scheme][w][H].rg), math.max(rv, runs[scheme][w][H].rv)
      end end
    end
    local l1, l2 = P.l1, P.l2
    local lmax, lmin = math.max(l1, l2), math.min(l1, l2)
    local lim = P.tol * lmax * lmax / (lmin * lmin)
    cl:add("residuals", "macro states on the constraints: g(X_n) = 0 (SHAKE, RATTLE), g'(X_n) V_n = 0 (RATTLE)",
           "= 0", string.format("max abs(g_i)/l_i² = %s (accept ≤ the solve tolerance %s); RATTLE max abs(g′V)/(2(l1+l2) max abs(V)) = %s (accept ≤ 1e-14)",
                                fmt(rg), fmt(lim), fmt(rv)), rg <= lim and rv <= 1e-14)
  end
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

local function epsstr(e) return string.format("10^%d", math.floor(math.log10(e) + 0.5)) end

--- top, bottom: efficiency rows (dpend.sam_row / conv_row); refs[eps] (dpend.reference_end);
-- text: SAM rows at P.eps_text; order: conventional rows at P.order_n (eps = P.eps[1]).
function M.fig6(sc, P, top, bottom, refs, text, order)
  local cl = E.claims(sc)
  local ns, eps = P.n, P.eps
  local Ntop = math.floor(P.t_end / P.H + 0.5)
  -- SAM work
  do
    local wn, ok = {}, true
    for _, r in ipairs(top) do
      if r.method == "SAM" then
        wn[r.work / r.n] = true
        ok = ok and r.work == 6 * r.N * r.n
      end
    end
    local list = {}
    for k in pairs(wn) do list[#list + 1] = string.format("%dn", k) end
    local pub = cl:published("sam_work_per_n")
    ok = ok and #list == 1 and (pub == nil or tonumber(pub) == 6 * Ntop)
    cl:add("sam_work_per_n", string.format("SAM: 'the total number of micro-steps is 6Nn = %dn and thus does not depend on ε' (N = %d)", 6 * Ntop, Ntop),
           pub and (pub .. "n") or "—", table.concat(list, ", ") .. " at ε = " .. table.concat((function() local t = {} for i, e in ipairs(eps) do t[i] = epsstr(e) end return t end)(), ", "), ok)
  end
  do
    local pub = cl:published("macro_steps")
    cl:add("macro_steps", string.format("'N = %d macro-steps are needed to cover the interval 0 ≤ t ≤ T' with H = π/2500", Ntop),
           pub or "—", string.format("%d steps of H end at t_end = %.6f s (T = 1 s is not reached by 795)", Ntop, Ntop * P.H),
           pub == nil or tonumber(pub) == Ntop)
  end
  -- SAM errors independent of eps
  do
    local parts, lo, hi = {}, math.huge, 0
    for i = 2, #eps do
      local a, b = pick(top, "SAM", eps[1]), pick(top, "SAM", eps[i])
      for _, n in ipairs(ns) do
        local x = b[n].error / a[n].error
        lo, hi = math.min(lo, x), math.max(hi, x)
        parts[#parts + 1] = string.format("%.2f", x)
      end
    end
    cl:add("sam_eps_independent", string.format("SAM: the results for ε = %s 'almost coincide' (error ratio per n)", table.concat((function() local t = {} for i, e in ipairs(eps) do t[i] = epsstr(e) end return t end)(), " and ")),
           cl:published("sam_eps_independent") or "≈ 1", table.concat(parts, ", ") .. " (accept 1/1.5–1.5)", lo >= 1 / 1.5 and hi <= 1.5)
  end
  -- conventional: errors do not vary, cost x100
  do
    local parts, inside, total, wr = {}, 0, 0, {}
    for i = 2, #eps do
      local a, b = pick(top, "conventional", eps[1]), pick(top, "conventional", eps[i])
      for _, n in ipairs(ns) do
        local x = b[n].error / a[n].error
        total = total + 1
        if x >= 1 / 1.5 and x <= 1.5 then inside = inside + 1 end
        parts[#parts + 1] = string.format("n=%d: %.2f", n, x)
        wr[#wr + 1] = b[n].work / a[n].work
      end
    end
    local verdict = inside == total or (inside > 0 and "partly") or false
    cl:add("conv_errors_same", string.format("conventional HERK3: 'when going from ε = %s to %s the errors do not vary' (error ratio per n)",
           epsstr(eps[1]), epsstr(eps[#eps])),
           cl:published("conv_errors_same") or "≈ 1", table.concat(parts, ", ") .. string.format(" (accept 1/1.5–1.5; %d of %d inside)", inside, total), verdict)
    local ws, wlo, whi = E.range(wr, "%.6g")
    local want = eps[1] / eps[#eps]
    cl:add("conv_work_ratio", string.format("conventional HERK3: 'the computational cost is multiplied by 100' (ε = %s → %s: by ε ratio %g)",
           epsstr(eps[1]), epsstr(eps[#eps]), want), cl:published("conv_work_ratio") or "100", ws,
           math.abs(wlo / want - 1) < 1e-12 and math.abs(whi / want - 1) < 1e-12)
  end
  -- crossover
  for i, e in ipairs(eps) do
    local conv = curve(top, "conventional", e, nil, ns)
    local parts, all_less, all_more = {}, true, true
    for _, n in ipairs(ns) do
      local r = pick(top, "SAM", e)[n]
      local x = E.work_at(conv, r.error) / r.work
      parts[#parts + 1] = string.format("%.2g", x)
      all_less, all_more = all_less and x < 1, all_more and x > 1
    end
    local conv_wins = i == 1
    local key = "crossover_eps_" .. epsstr(e)
    cl:add(key, string.format("ε = %s: %s (conventional work at SAM's error / SAM work, per n)", epsstr(e),
           conv_wins and "'the conventional integration is more efficient than SAM'" or "'the conclusion is reversed': SAM is more efficient"),
           cl:published(key) or (conv_wins and "< 1" or "> 1"), table.concat(parts, ", ") .. (conv_wins and " (accept all < 1)" or " (accept all > 1)"),
           conv_wins and all_less or (not conv_wins and all_more))
  end
  -- HERK3 is of order 3 (conventional runs at the finer P.order_n)
  if #order >= 2 then
    local xs, ys, parts = {}, {}, {}
    for i, r in ipairs(order) do xs[i], ys[i] = r.n, r.error; parts[i] = string.format("n = %d: %s", r.n, fmt(r.error)) end
    local ratio = ys[#ys - 1] / ys[#ys]
    cl:add("herk3_order", string.format("HERK3 'of order 3' (conventional, ε = %s: error ratio per doubling of n, finest pair)", epsstr(eps[1])),
           cl:published("herk3_order") or "8", table.concat(parts, ", ") .. string.format("; ratio %.2f (accept 8 ± 1.5)", ratio), math.abs(ratio - 8) <= 1.5)
  end
  -- q2 errors somewhat larger
  do
    local larger, total = 0, 0
    for _, r in ipairs(top) do
      total = total + 1
      if r.error_q2 > r.error then larger = larger + 1 end
    end
    local verdict = larger == total or (larger * 2 >= total and "partly") or false
    cl:add("q2_larger", "'errors in q2 are somewhat larger' (top panel points with error(q2) > error(q1))",
           cl:published("q2_larger") or "all", string.format("%d of %d", larger, total), verdict)
  end
  -- bottom: the two largest H saturate
  do
    local Hb = {}
    for _, H in ipairs(P.H_bottom) do Hb[#Hb + 1] = H end
    table.sort(Hb, function(a, b) return a > b end)
    local parts, sat, grows, keeps = {}, true, false, true
    local nf, np = ns[#ns], ns[#ns - 1]
    for i, H in ipairs(Hb) do
      local NH = math.floor(P.t_end / H + 0.5)
      local t = pick(bottom, "SAM", P.eps_bottom, NH)
      local ratio = t[np].error / t[nf].error
      for k = 2, #ns do if t[ns[k]].error > t[ns[k - 1]].error then grows = grows or i <= 2 end end
      parts[#parts + 1] = string.format("H = π/%g: %.2f", math.pi / H, ratio)
      if i <= 2 then sat = sat and ratio < 2 else keeps = keeps and ratio > 2 end
    end
    local verdict = (sat and keeps) and (grows or "partly") or false
    cl:add("bottom_saturation", string.format("ε = %s: 'for H = π/625 and π/1250 decreasing the micro-step-size not always improves the accuracy' (error ratio n = %d→%d)",
           epsstr(P.eps_bottom), np, nf), cl:published("bottom_saturation") or "saturates",
           table.concat(parts, ", ") .. string.format(" (accept < 2 for the two largest H, > 2 for the others); an error that grows with n: %s", grows and "yes" or "none"),
           verdict)
  end
  -- SAM at eps = 1e-8 (text only)
  if text and #text > 0 then
    local parts, ok = {}, true
    local e6 = pick(top, "SAM", eps[#eps])
    for _, r in ipairs(text) do
      local x = e6[r.n] and r.error / e6[r.n].error
      parts[#parts + 1] = string.format("n=%d: %s%s", r.n, fmt(r.error), x and string.format(" (×%.2f)", x) or "")
      ok = ok and r.work == 6 * r.N * r.n and (x == nil or (x >= 1 / 1.5 and x <= 1.5))
    end
    cl:add("sam_eps_text", string.format("'when ε = %s, SAM was found to work as expected' (same work %dn; error against the averaged ω → ∞ reference, ratio to ε = %s)",
           epsstr(text[1].eps), 6 * text[1].N, epsstr(eps[#eps])), cl:published("sam_eps_text") or "works",
           table.concat(parts, ", ") .. " (accept 1/1.5–1.5)", ok)
  end
  -- the reference values at t_end (independent implementation of the notes)
  for _, e in ipairs(eps) do
    local key = "reference_q1_eps_" .. epsstr(e)
    local pub = cl:published(key)
    if pub then
      local ref = refs[e]
      local d = math.abs(ref.q1 - tonumber(pub))
      cl:add(key, string.format("reference q1(t_end), ε = %s (%s Lagrangian ODE)", epsstr(e), ref.kind),
             pub .. " (notes, addendum 2)", string.format("%.12f (difference %s, accept ≤ 1e-9)", ref.q1, fmt(d)), d <= 1e-9)
    end
  end
  -- constraint residuals
  do
    local rg, rv = 0, 0
    for _, rows in ipairs { top, bottom, text or {} } do
      for _, r in ipairs(rows) do rg, rv = math.max(rg, r.res_g), math.max(rv, r.res_v) end
    end
    local lmax, lmin = math.max(P.l1, P.l2), math.min(P.l1, P.l2)
    local lim = P.tol * lmax * lmax / (lmin * lmin)
    cl:add("residuals", "final states on the constraints: g(q) = 0 and G(q) u = 0 (GGL (39)-(40))",
           "= 0 (notes: ≈ 1e-17)", string.format("max abs(g_i)/l_i² = %s (accept ≤ the solve tolerance %s), max abs(G u)/(2(l1+l2) max abs(u)) = %s (accept ≤ 1e-14)",
                                                  fmt(rg), fmt(lim), fmt(rv)), rg <= lim and rv <= 1e-14)
  end
  return cl
end

return M
