-- sam_experiment.lua -- the experiments of Calvo, Chartier, Murua & Sanz-Serna 2011 on the SAM
-- binding (lib/lua/kapitza/sam.lua): the perturbed Kepler experiment of Sec. 5.1 (Figures 3 and 4: its
-- parameters, checks, runs, data files and claims), with the efficiency-table helpers and the ε
-- labels the claims of Sec. 5.2 (van der Pol, Figure 5: kapitza.papers.sam_vdp) share.
local kz = require "kapitza"
local S = require "kapitza.sam"
local E = require "kapitza.experiment"
local C = kz.C

local M = {}

--- A row list of {method, eps, N, n, work, error} -> data-file rows keyed by column.
M.eff_columns = { "method", "eps", "N", "n", "work", "error" }

--- Filter rows of an efficiency table.
function M.select(rows, f)
  local out = {}
  for _, row in ipairs(rows) do
    local ok = true
    for k, v in pairs(f) do if row[k] ~= v then ok = false end end
    if ok then out[#out + 1] = row end
  end
  table.sort(out, function(a, b) return a.n < b.n end)
  return out
end

---------------------------------------------------------------------------------------------------
-- The perturbed Kepler experiment of Sec. 5.1 (Figures 3 and 4)
---------------------------------------------------------------------------------------------------

--- The parameters Figures 3 and 4 share (the defaults differ): the eps lists of both panels, N, n,
-- the bottom panel's N, SAM's difference formula and the reference resolution.
function M.kepler_params(d)
  return {
    { "eps", d.eps, "", "perturbation sizes of the top panel (list; 1/(16 eps) whole)", positive = true, min = 2^-24, max = 2^-4 },
    { "N", d.N, "", "macro-steps of the top panel", integer = true, min = 1, max = 2^20 },
    { "n", d.n, "", "micro-steps per period 2 pi (list)", integer = true, min = 1, max = 2^16 },
    { "eps_bottom", d.eps_bottom, "", "perturbation size of the bottom panel (1/(16 eps) whole)", positive = true, min = 2^-24, max = 2^-4 },
    { "N_bottom", d.N_bottom, "", "macro-steps of the bottom panel (list; each divides 1/(16 eps_bottom), and M = periods/N > 4 for MR)", integer = true, min = 1, max = 2^20 },
    { "diff", "central2", "", "SAM difference formula: (25) or the 5-point (26)", choices = { "central2", "central4" } },
    { "refm", d.refm, "", "reference: RK4 steps per period (and twice that, Richardson)", integer = true, min = 16, max = 2^16 },
  }
end

--- The grids Figures 3 and 4 need, checked before anything runs (one-line message, exit 2).
function M.kepler_check(sc, P)
  E.no_repeats(sc, P, { "eps", "n", "N_bottom" })
  local function whole(x) return x == math.floor(x) end
  -- the claims compare the two finest n and fit slopes over n (with one n they are n/a): increasing
  E.check_list(sc, P, "n", { increasing = true })
  E.check_list(sc, P, "eps")
  E.check_list(sc, P, "N_bottom", { increasing = true })
  for _, e in ipairs(P.eps) do
    if not whole(1 / (16 * e)) then sc:fail(string.format("parameter 'eps': 1/(16 eps) = %g is not a whole number of periods (use powers of 2)", 1 / (16 * e))) end
  end
  local periods = 1 / (16 * P.eps_bottom)
  if not whole(periods) then sc:fail(string.format("parameter 'eps_bottom': 1/(16 eps) = %g is not a whole number of periods", periods)) end
  for _, N in ipairs(P.N_bottom) do
    if not whole(periods / N) or periods / N <= 4 then
      sc:fail(string.format("parameter 'N_bottom': %d must divide the %g periods into M > 4 periods per macro-step (MR)", N, periods))
    end
  end
end

--- The force evaluations Figures 3 and 4 would make (mostly the RK4 references and the
-- conventional runs, both like 1/eps).
function M.kepler_work(P)
  local w, sumn, sumNb = 0, 0, 0
  for _, n in ipairs(P.n) do sumn = sumn + n end
  for _, N in ipairs(P.N_bottom) do sumNb = sumNb + N end
  local all = { P.eps_bottom }
  for _, e in ipairs(P.eps) do all[#all + 1] = e end
  for _, e in ipairs(all) do
    local periods = 1 / (16 * e)
    w = w + 12 * P.refm * periods + 4 * sumn * periods
  end
  -- SAM and LISP: 8 N n micro-steps of 4 evaluations per run, MR half of that; independent of eps
  w = w + 32 * P.N * sumn * #P.eps + (32 + 32 + 16) * sumNb * sumn
  return w, "force evaluations (references, conventional, SAM, LISP and MR runs)"
end

--- Set up one eps: the model, tau_end = (pi/8)/eps (= 1/(16 eps) periods of 2 pi) and the
-- reference state there (RK4, refm and 2 refm steps per period, Richardson).
function M.kepler_setup(eps, refm)
  local mod = S.kepler(eps)
  local periods = 1 / (16 * eps)
  assert(periods == math.floor(periods), "kepler_setup: 1/(16 eps) must be a whole number of periods")
  local ref, est = E.richardson(mod.sys, S.kepler_y0, 2 * math.pi, periods, refm)
  return { eps = eps, mod = mod, periods = periods, tau_end = 2 * math.pi * periods,
           ref = ref[#ref], ref_est = est, micro = { rk4 = S.micro(mod, "rk4"),
           strang = S.micro(mod, "strang") } }
end

--- One run of the Kepler experiment: method 'conventional' | 'SAM' | 'LISP' | 'MR' with the
-- micro-solver `kind`, N macro steps (ignored by 'conventional': N = 0 in the row) and n
-- micro-steps per period; diff: SAM's difference formula ('central2' (25), default, or
-- 'central4' (26)). Returns a row of the efficiency table.
function M.kepler_run(ks, kind, method, N, n, diff)
  local mi, y0, y, c = ks.micro[kind], S.kepler_y0
  if method == "conventional" then
    local ys
    ys, c = S.conventional(mi, { n = n, steps = n * ks.periods, y0 = y0 })
    y, N = ys[1], 0
  elseif method == "SAM" or method == "LISP" then
    local ys
    ys, c = S.sam(mi, { n = n, H = ks.tau_end / N, y0 = y0, tout = { ks.tau_end },
                        diff = method == "SAM" and (diff or "central2") or "lisp", macro = "rk4" })
    y = ys[1]
  elseif method == "MR" then
    local Mp = ks.periods / N
    assert(Mp == math.floor(Mp), "kepler_run: N must divide the number of periods")
    y, c = S.mr(mi, { n = n, M = Mp, N = N, y0 = y0 })
  else
    error("kepler_run: unknown method " .. tostring(method), 2)
  end
  return { method = method, eps = ks.eps, N = N, n = n, work = c.micro_steps,
           error = E.dist(y, ks.ref) }
end

--- eps written as 2^k when it is a power of two.
function M.eps_str(e)
  local k = math.log(e) / math.log(2)
  if math.abs(k - math.floor(k + 0.5)) < 1e-12 then return string.format("2^%d", math.floor(k + 0.5)) end
  return E.show(e)
end

local range = E.range

--- An error at least this large (a tenth of the unperturbed orbit's radius 1) is saturated: it
-- says nothing of an order or a scaling in ε (the claims of Sec. 5.1 judge only smaller ones).
M.saturated = 0.1

--- eps_str as a text that carries eps as its value (for the claims' texts).
function M.eps_text(e)
  local t = E.T("%s", M.eps_str(e))
  t.values[#t.values + 1] = e
  return t
end

local function err_of(rows, f)
  local t = {}
  for _, r in ipairs(M.select(rows, f)) do t[r.n] = r end
  return t
end

--- The claims of Sec. 5.1 checked on the efficiency rows of Figure 3 or 4.
-- o.order (4 | 2): SAM error per doubling of n is 2^order, accepted where its order log2(ratio) is within
-- o.order_tol of it (an integer order's precision; or, with
-- o.slope_tol, a fitted slope within it); o.eps_ratio (2 | 0.5): SAM error ratio when eps halves
-- at equal n (at the points where both errors are below M.saturated, a tenth of the orbit's
-- radius: O(1) errors are saturated), within o.eps_tol, generalised to any
-- two eps as (eps_b/eps_a)^k; o.conv ('larger' | 'comparable'); o.work_factor (bool): the
-- equal-error work factor at eps = 2^-14, accepted in [12, 25] at n >= 32. The printed numbers
-- are compared at the parameters they were printed for (`at`). Returns the claims table.
function M.kepler_claims(sc, P, top, bottom, o)
  local out = E.claims(sc)
  local pub = out.pub
  local T = E.T
  local ns, eps = P.n, P.eps -- n and N_bottom increase (kepler_check)
  local nf, np = ns[#ns], ns[#ns - 1]
  local two_n = E.at_least(#ns, 2, "values of n (a ratio)")
  local two_eps = E.at_least(#eps, 2, "values of ε (a comparison)")
  local why_order = "an order of the micro-solver in n, a property of the method at any ε in its asymptotic regime"
  local why_eps = "the error bound (28) of SAM at any small ε"
  -- work: 8 N n by construction, and the printed count at the paper's N. Both count the two
  -- periods of the difference (25) per field evaluation: with the 5-point formula (26) (diff =
  -- central4: four periods) no SAM run is one the statement is about (n/a). The texts give the
  -- measured work per N n and per n.
  local sam_top = M.select(top, { method = "SAM" })
  local per_Nn, per_n = {}, {}
  for _, r in ipairs(sam_top) do
    per_Nn[string.format("%.15g", r.work / (r.N * r.n))] = r.work / (r.N * r.n)
    per_n[string.format("%.15g", r.work / r.n)] = r.work / r.n
  end
  local function shown(set, fmt)
    local ks = {}
    for k in pairs(set) do ks[#ks + 1] = k end
    table.sort(ks, function(a, b) return set[a] < set[b] end)
    local parts = {}
    for i, k in ipairs(ks) do parts[i] = T(fmt, set[k]) end
    return E.join(parts, ", ")
  end
  local central2 = P.diff == "central2"
  local not_25 = T("this run uses diff = %s (the 5-point formula (26), four periods per field evaluation); the printed 8Nn counts the two periods of (25)", P.diff)
  out:claim { key = "sam_work_formula", text = "SAM work = 8Nn micro-steps, independent of ε", published = "8Nn",
    any = "the micro-steps of SAM are fixed by N and n, at any ε",
    judge = function()
      local items = {}
      for _, r in ipairs(central2 and sam_top or {}) do
        items[#items + 1] = { ok = r.work == 8 * r.N * r.n, label = string.format("ε = %s n = %d", M.eps_str(r.eps), r.n) }
      end
      return { measured = T("work = ") .. shown(per_Nn, "%.15g") .. T(" × %d × n at every ε and n", P.N), items = items, what = "SAM runs",
               none = not_25 }
    end }
  out:claim { key = "sam_work_per_n", text = "SAM work = 8Nn at the printed N", published = tostring(pub.sam_work_per_n) .. "n",
    at = E.paper_at(sc, { "N" }),
    judge = function()
      local items = {}
      for _, r in ipairs(central2 and sam_top or {}) do items[#items + 1] = { ok = r.work == tonumber(pub.sam_work_per_n) * r.n, label = "n = " .. r.n } end
      return { measured = shown(per_n, "%.15gn"), items = items, what = "SAM runs", none = not_25 }
    end }
  -- order in n: the ratio per doubling at the two finest n (with slope_tol: the fitted slope over all n)
  out:claim { key = "sam_ratio_n_doubling", text = string.format("SAM: doubling n divides the error by %d (the two finest n, one ratio per ε; fitted slope over all n)", 2 ^ o.order),
    published = tostring(pub.sam_ratio_n_doubling), any = why_order, premises = { two_n },
    judge = function()
      local rat, slo, items, skip, out_of = {}, {}, {}, {}, {}
      for _, e in ipairs(eps) do
        local t, xs, ys = err_of(top, { method = "SAM", eps = e }), {}, {}
        local x = (t[np].error / t[nf].error) ^ (math.log(2) / math.log(nf / np)) -- per doubling of n
        rat[#rat + 1] = T("%.1f", x)
        for i, n in ipairs(ns) do xs[i], ys[i] = n, t[n].error end
        -- the fit (slope_tol) starts where the local orders have settled: a coarsest n whose local
        -- order departs from the next one's by more than the tolerance is pre-asymptotic (Figure 4
        -- with n = 4 added: 6.65 then 2.14)
        local first = 1
        while o.slope_tol and #xs - first >= 2 do
          local a = math.log(ys[first] / ys[first + 1]) / math.log(xs[first + 1] / xs[first])
          local b = math.log(ys[first + 1] / ys[first + 2]) / math.log(xs[first + 2] / xs[first + 1])
          if math.abs(a - b) <= o.slope_tol then break end
          skip[#skip + 1] = T("ε = %s n = %d: local order %.2f", M.eps_text(e), xs[first], a)
          first = first + 1
        end
        local fx, fy = {}, {}
        for i = first, #xs do fx[#fx + 1], fy[#fy + 1] = xs[i], ys[i] end
        local sl = -E.slope(fx, fy)
        slo[#slo + 1] = T("%.2f", sl)
        -- premises of an order, per ε: the errors at the two finest n are not saturated (below a
        -- tenth of the orbit's radius 1: O(1) errors say nothing of an order), and, where the
        -- paper calls SAM's and the conventional errors comparable (both the micro error), SAM's
        -- error at the finest n is still within that comparison's ×1.5 of the conventional one (else
        -- the macro error of the N macro-steps shows: Figure 4 at n = 128)
        local c = err_of(top, { method = "conventional", eps = e })[nf]
        local q = c and t[nf].error / c.error
        if t[np].error >= M.saturated then
          out_of[#out_of + 1] = T("ε = %s: error %.2g at n = %d, saturated (at least %v)", M.eps_text(e), t[np].error, np, M.saturated)
        elseif o.conv ~= "larger" and q and (q > 1.5 or q < 1 / 1.5) then
          out_of[#out_of + 1] = T("ε = %s: SAM/conventional error %.2f at n = %d, beyond ×%v: the macro error shows", M.eps_text(e), q, nf, 1.5)
        else
          items[#items + 1] = { ok = o.slope_tol and math.abs(sl - o.order) <= o.slope_tol or (not o.slope_tol and math.abs(math.log(x) / math.log(2) - o.order) <= o.order_tol),
                                label = "ε = " .. M.eps_str(e) }
        end
      end
      local m = T("n = %d→%d: ", np, nf) .. E.join(rat, ", ") .. "; slope " .. E.join(slo, ", ") ..
                (o.slope_tol and T(" (accept slope %v ± %v)", o.order, o.slope_tol) or T(" (accept ratio %.1f to %.1f: order %v ± %v per doubling)", 2 ^ (o.order - o.order_tol), 2 ^ (o.order + o.order_tol), o.order, o.order_tol))
      if #skip > 0 then m = m .. T("; fitted without the pre-asymptotic ") .. E.join(skip, ", ") end
      if #out_of > 0 then m = m .. T("; not judged: ") .. E.join(out_of, "; ") end
      return { measured = m, items = items, what = "values of ε",
               none = "every ε fails a premise of the order (listed under not judged)" }
    end }
  -- eps halving, SAM and conventional: the error and the work at equal n, against the expected
  -- power of the eps ratio (k = -log2(eps_ratio) for the error: halving eps multiplies it by eps_ratio)
  local sorted = {}
  for i, e in ipairs(eps) do sorted[i] = e end
  table.sort(sorted, function(a, b) return a > b end)
  for _, m in ipairs { "SAM", "conventional" } do
    local key = m == "SAM" and "sam_ratio_eps_halving" or "conv_ratio_eps_halving"
    local wexp = m == "SAM" and 1 or 2
    local k_err, k_work = -math.log(o.eps_ratio) / math.log(2), -math.log(wexp) / math.log(2)
    out:claim { key = key, text = string.format("%s: halving ε at equal Δτ multiplies the error by %g and the work by %d (where the errors are small)",
                  m, o.eps_ratio, wexp),
      published = m == "SAM" and (tostring(pub.sam_ratio_eps_halving) .. "; work ×1") or string.format("%g; work ×%d", o.eps_ratio, wexp), any = why_eps,
      premises = { two_eps },
      judge = function()
        -- a pair of runs (n, two successive ε) is judged where both errors are below a tenth of
        -- the orbit's radius (the order claim's saturation premise): a fixed n does not scale with
        -- ε (at ε = 2^-15, 2^-16 the errors at n = 32 are 0.85 and 1.63)
        local er, items, out_of = {}, {}, {}
        for i = 2, #sorted do
          local a, b = err_of(top, { method = m, eps = sorted[i - 1] }), err_of(top, { method = m, eps = sorted[i] })
          local q = sorted[i] / sorted[i - 1]
          for _, n in ipairs(ns) do
            local x, w = b[n].error / a[n].error, b[n].work / a[n].work
            local want = q ^ k_err
            -- the text's "halving": a run whose successive ε are not halved shows what it expects
            local shown = math.abs(q - 0.5) < 1e-12 and T("%.3g", x) or T("%.3g (ε ×%v: expected %.3g)", x, q, want)
            if math.max(a[n].error, b[n].error) >= M.saturated then
              out_of[#out_of + 1] = T("n = %d ε = %s: ", n, M.eps_text(sorted[i])) .. shown ..
                                    T(" on errors %.2g, %.2g (at least %v: saturated)", a[n].error, b[n].error, M.saturated)
            else
              er[#er + 1] = shown
              items[#items + 1] = { ok = math.abs(x / want - 1) <= o.eps_tol, label = string.format("n = %d ε = %s error", n, M.eps_str(sorted[i])) }
              items[#items + 1] = { ok = math.abs(w / q ^ k_work - 1) < 1e-12, label = string.format("n = %d ε = %s work", n, M.eps_str(sorted[i])) }
            end
          end
        end
        local mt = (#er > 0 and T("error ratios ") .. E.join(er, ", ") or T("no error ratio judged")) .. T(" (accept the expected ratio ± %v %% where both errors are below %v, work ratio exact)", 100 * o.eps_tol, M.saturated)
        if #out_of > 0 then mt = mt .. T("; not judged: ") .. E.join(out_of, "; ") end
        return { measured = mt, items = items, what = "ratios (error and work)",
                 none = T("no n where both errors are below %v (listed under not judged)", M.saturated) }
      end }
  end
  -- conventional vs SAM at equal n, eps
  out:claim { key = "conv_over_sam_error", text = "conventional error / SAM error at equal Δτ, ε: " .. (o.conv == "larger" and "'somewhat larger'" or "'comparable'"),
    published = o.conv == "larger" and "> 1" or "≈ 1", any = "a comparison of the two integrations at equal micro-step, at any ε",
    judge = function()
      local cr, items = {}, {}
      for _, e in ipairs(eps) do
        local a, b = err_of(top, { method = "conventional", eps = e }), err_of(top, { method = "SAM", eps = e })
        for _, n in ipairs(ns) do
          local x = a[n].error / b[n].error
          cr[#cr + 1] = x
          items[#items + 1] = { ok = o.conv == "larger" and x > 1 or (o.conv ~= "larger" and x >= 1 / 1.5 and x <= 1.5),
                                label = string.format("ε = %s n = %d", M.eps_str(e), n) }
        end
      end
      local _, lo, hi = range(cr)
      return { measured = T("%.3g–%.3g", lo, hi) .. (o.conv == "larger" and T(" (accept > %v)", 1) or T(" (accept %v/%v to %v)", 1, 1.5, 1.5)),
               items = items, what = "points" }
    end }
  -- equal-error work factor, printed for eps = 2^-14 at the paper's N
  if o.work_factor then
    local e = 2 ^ -14
    out:claim { key = "work_factor", text = "ε = 2^-14: conventional work / SAM work at equal error (n ≥ 32)", published = "≈ " .. tostring(pub["work_factor_eps_2^-14"]),
      at = { eps = e, N = sc.byname.N[2] }, premises = { two_n },
      judge = function()
        -- the conventional work at SAM's error is read between two conventional runs whose errors
        -- bracket it (E.cost_at), never extrapolated beyond the conventional curve's ends
        local conv = M.select(top, { method = "conventional", eps = e })
        local f, items, out_of = {}, {}, {}
        for _, r in ipairs(M.select(top, { method = "SAM", eps = e })) do
          local cw, bound = E.cost_at(conv, r.error, "work")
          if cw and not bound then
            local x = cw / r.work
            f[#f + 1] = T("%.1f (n = %d)", x, r.n)
            if r.n >= 32 then items[#items + 1] = { ok = x >= 12 and x <= 25, label = "n = " .. r.n } end
          else
            out_of[#out_of + 1] = T("n = %d (SAM error %.3g outside the conventional errors' range %.3g–%.3g)", r.n, r.error,
                                    conv[#conv] and conv[#conv].error or 0, conv[1] and conv[1].error or 0)
          end
        end
        local mt = E.join(f, ", ") .. T(" (accept %v–%v at n ≥ %v)", 12, 25, 32)
        if #out_of > 0 then mt = mt .. T("; not judged (the conventional curve would be extrapolated): ") .. E.join(out_of, ", ") end
        return { measured = mt, items = items, what = "n at least 32",
                 none = "no n ≥ 32 whose SAM error lies within the conventional errors' range" }
      end }
  end
  -- bottom panel: LISP and MR against SAM (o.cmp_all_n: at every n, else at the two finest)
  local cmp_ns = o.cmp_all_n and ns or { np, nf }
  local function cmp_claim(key, text, method, published)
    out:claim { key = key, text = text .. " (bottom panel, " .. (o.cmp_all_n and "all n" or "the two finest n") .. ")", published = published,
      any = "a comparison of the methods at equal N and n, at any ε",
      premises = { o.cmp_all_n and E.at_least(#ns, 1, "values of n") or two_n },
      judge = function()
        -- a point where either error is saturated (at least M.saturated: O(1) errors, the first n
        -- of a short list) compares nothing of the methods' accuracy: not judged, listed
        local items, rs, out_of = {}, {}, {}
        for _, N in ipairs(P.N_bottom) do
          local sa, x = err_of(bottom, { method = "SAM", N = N }), err_of(bottom, { method = method, N = N })
          for _, n in ipairs(cmp_ns) do
            local q = x[n].error / sa[n].error
            if math.max(x[n].error, sa[n].error) >= M.saturated then
              out_of[#out_of + 1] = T("N = %d n = %d: %.2f on errors %.2g, %.2g", N, n, q, x[n].error, sa[n].error)
            else
              rs[#rs + 1] = q
              items[#items + 1] = { ok = q >= 1 / 1.5 and q <= 1.5, label = T("N = %d n = %d: %.2f", N, n, q).s }
            end
          end
        end
        local _, lo, hi = range(rs)
        local mt = (#rs > 0 and T("%.3g–%.3g", lo, hi) or T("no point judged")) .. T(" (accept within ×%v where both errors are below %v)", 1.5, M.saturated)
        if #out_of > 0 then mt = mt .. T("; not judged (saturated): ") .. E.join(out_of, "; ") end
        return { measured = mt, items = items, what = "points",
                 none = T("every point has an error of at least %v (saturated)", M.saturated) }
      end }
  end
  cmp_claim("lisp_over_sam_error", "LISP error / SAM error, 'hardly different'", "LISP", "≈ 1")
  cmp_claim("mr_over_sam_error", "MR error / SAM error, 'the same'", "MR", "≈ 1")
  out:claim { key = "mr_over_sam_work", text = "MR work / SAM work, 'halved'", published = "0.5",
    any = "MR's micro-integrations span one period, SAM's two: by construction, at any parameters",
    judge = function()
      local items = {}
      for _, N in ipairs(P.N_bottom) do
        local sa, mu = err_of(bottom, { method = "SAM", N = N }), err_of(bottom, { method = "MR", N = N })
        for _, n in ipairs(ns) do items[#items + 1] = { ok = mu[n].work / sa[n].work == 0.5, label = string.format("N = %d n = %d", N, n) } end
      end
      return { measured = T("work ratios at %d points", #items), items = items, what = "points" }
    end }
  -- the bend: for the small N of the print the macro error shows (the error ratio of the two finest
  -- n falls below 0.85 of the micro order's 2^order), for the larger N it does not. It is visible
  -- only when the n list reaches it: at the finest n the smallest N's error must exceed the
  -- largest N's by a factor 2 (else every line is still on its micro error). Which N bend depends on
  -- the size of the macro error, so on eps_bottom: the printed N are compared at the printed eps.
  local bendN = {}
  for x in tostring(pub.bend_N or ""):gmatch("[^,]+") do bendN[tonumber(x)] = true end
  local reached = false
  local Nlo, Nhi = P.N_bottom[1], P.N_bottom[#P.N_bottom]
  local elo, ehi = err_of(bottom, { method = "SAM", N = Nlo })[nf], err_of(bottom, { method = "SAM", N = Nhi })[nf]
  if elo and ehi and Nlo ~= Nhi then reached = elo.error >= 2 * ehi.error end
  local printed_in = 0
  for N in pairs(bendN) do for _, x in ipairs(P.N_bottom) do if x == N then printed_in = printed_in + 1 end end end
  out:claim { key = "bend", text = string.format("SAM lines for the smallest N 'bend' (error ratio of the two finest n below that of order %d), the others not", o.order),
    published = "N = " .. tostring(pub.bend_N), at = E.paper_at(sc, { "eps_bottom" }),
    premises = { two_n, E.premise(printed_in >= 1, "a printed bending N (%s) among N_bottom", tostring(pub.bend_N)),
                 E.premise(reached, "the n list reaches the macro error: at n = %d the error of N = %d is at least %v × that of N = %d",
                           nf, Nlo, 2, Nhi) },
    judge = function()
      local br, items = {}, {}
      -- a line bends where its n reaches the macro error: the printed bending N are those of the
      -- printed n range, so the comparison needs the printed two finest n (Figure 4 with n up to
      -- 128 shows N = 8 bending too)
      local pn = sc.byname.n[2]
      local pp, pf = pn[#pn - 1], pn[#pn]
      if np ~= pp or nf ~= pf then
        return { measured = T("n = %d→%d", np, nf), items = {}, what = "values of N",
                 none = T("the printed bending N are read at the printed finest n, %d→%d; this run's two finest n are %d→%d", pp, pf, np, nf) }
      end
      for _, N in ipairs(P.N_bottom) do
        local sa = err_of(bottom, { method = "SAM", N = N })
        local x = sa[np].error / sa[nf].error
        br[#br + 1] = T("N = %d: %.1f", N, x)
        items[#items + 1] = { ok = (bendN[N] and x < 0.85 * 2 ^ o.order) or (not bendN[N] and x >= 0.85 * 2 ^ o.order),
                              label = string.format("N = %d %s", N, bendN[N] and "bends" or "straight") }
      end
      return { measured = T("n = %d→%d: ", np, nf) .. E.join(br, ", ") .. T(" (a bend: below %v of the micro order's ratio %v)", 0.85, 2 ^ o.order),
               items = items, what = "values of N" }
    end }
  return out
end

--- The sweep and data files shared by Figures 3 and 4 (they differ in the micro-solver `kind`
-- and the N, n values): top panel = conventional and SAM for every eps at N = P.N; bottom panel
-- = conventional, SAM, LISP and MR at eps_bottom for every N_bottom. Writes
-- data/<id>-top.tsv and data/<id>-bottom.tsv; returns the top and bottom rows.
function M.kepler_figure(sc, P, kind, label)
  local setups = {}
  local function setup(eps)
    if not setups[eps] then setups[eps] = M.kepler_setup(eps, P.refm) end
    return setups[eps]
  end
  -- A run whose micro- or macro-solution leaves the bound orbits stops in the Kepler field (19),
  -- whose lam = (-2E)^(-3/2) exists only for E < 0 (kz_kepler.c returns KZ_EDOMAIN, which the
  -- library reports as its parameter 'rhs'): say so, naming the step that was too large.
  local function run(ks, method, N, n, diff)
    local ok, row = pcall(M.kepler_run, ks, kind, method, N, n, diff)
    if ok then return row end
    local f = kz.last_failure
    if f and f.status == C.KZ_EDOMAIN and f.param == "rhs" then
      sc:fail(string.format("parameter '%s': the %s run (%s micro-solver, eps = %s, %sn = %d) left the bound Kepler orbits at tau = %.4g: " ..
        "energy E >= 0, where the field (19) with lam = (-2E)^(-3/2) is undefined; %s",
        method == "conventional" and "n" or "n' or 'N", method, label, M.eps_str(ks.eps),
        method == "conventional" and "" or string.format("N = %d, ", N), n, f.time,
        method == "conventional" and string.format("the micro-step 2 pi/n = %.3g is too large (the paper uses n >= 16)", 2 * math.pi / n)
        or string.format("the micro-step 2 pi/n = %.3g or the macro-step tau_end/N = %.3g is too large", 2 * math.pi / n, ks.tau_end / math.max(N, 1))))
    end
    error(row, 0)
  end
  -- every run, and each reference's error estimate, a compute cell (lib/lua/kapitza/scenario/cells.lua:
  -- a sweep's shards record them, its merge judges them as one run); the top panel's runs do not
  -- depend on N_bottom, the bottom panel's not on the eps list
  local function cell_run(eps, method, N, n, point, ignore)
    point.method, point.n = method, n
    return sc:cell("run", point, function() return run(setup(eps), method, N, n, P.diff) end, { ignore = ignore })
  end
  sc:progress_start(#P.eps * #P.n * 2 + #P.N_bottom * #P.n * 3 + #P.n, sc.id)
  local top, bottom = {}, {}
  for _, eps in ipairs(P.eps) do
    for _, method in ipairs { "conventional", "SAM" } do
      for _, n in ipairs(P.n) do
        top[#top + 1] = cell_run(eps, method, P.N, n, { eps = eps }, { "N_bottom" })
        sc:progress()
      end
    end
  end
  local eb = P.eps_bottom
  for _, n in ipairs(P.n) do
    bottom[#bottom + 1] = cell_run(eb, "conventional", 0, n, { bottom = true }, { "eps", "N_bottom" })
    sc:progress()
  end
  for _, method in ipairs { "SAM", "LISP", "MR" } do
    for _, N in ipairs(P.N_bottom) do
      for _, n in ipairs(P.n) do
        bottom[#bottom + 1] = cell_run(eb, method, N, n, { bottom = true, N_bottom = N }, { "eps" })
        sc:progress()
      end
    end
  end
  local function refnote(list)
    local t = {}
    for _, eps in ipairs(list) do
      local est = sc:cell("reference", { refeps = eps }, function() return setup(eps).ref_est end, { ignore = { "eps", "n", "N_bottom" } })
      t[#t + 1] = string.format("eps=%g: %.1e", eps, est)
    end
    return "reference (RK4 Richardson) error estimate at tau_end: " .. table.concat(t, ", ")
  end
  sc:write_tsv("data/" .. sc.id .. "-top.tsv", M.eff_columns, top,
    { sc.id .. " top: perturbed Kepler (19), " .. label .. " micro, N = " .. P.N .. "; work = micro-steps;",
      "error = Euclidean norm of the (x1,x2,v1,v2) error at tau_end = (pi/8)/eps", refnote(P.eps) })
  sc:write_tsv("data/" .. sc.id .. "-bottom.tsv", M.eff_columns, bottom,
    { sc.id .. " bottom: eps = " .. P.eps_bottom .. ", " .. label .. " micro; N = 0 marks the conventional run",
      refnote { P.eps_bottom } })
  local ws, es = {}, {}
  for _, rows in ipairs { top, bottom } do
    for _, r in ipairs(rows) do ws[#ws + 1], es[#es + 1] = r.work, r.error end
  end
  local _, wlo, whi = E.range(ws)
  local _, elo, ehi = E.range(es)
  local labs = {}
  for i, e in ipairs(P.eps) do labs[i] = M.eps_str(e):gsub("%^(%-?%d+)", "^{%1}") end
  sc:figure(sc.id, { id = sc.id, micro = label, eps = P.eps, epslab = table.concat(labs, " "), Ntop = P.N,
                     Nbot = P.N_bottom, epsbot = (M.eps_str(P.eps_bottom):gsub("%^(%-?%d+)", "^{%1}")),
                     xmin = wlo, xmax = whi, ymin = elo, ymax = ehi })
  return top, bottom
end

return M
