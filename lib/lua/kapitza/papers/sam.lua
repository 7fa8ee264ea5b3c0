-- sam_experiment.lua -- the experiments of Calvo, Chartier, Murua & Sanz-Serna 2011 on the SAM
-- binding (lib/lua/kapitza/sam.lua): the perturbed Kepler experiment of Sec. 5.1 (Figures 3 and 4: its
-- parameters, checks, runs, data files and claims) and the claims of Sec. 5.2 (van der Pol,
-- Figure 5), with the efficiency-table helpers they share.
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
  return string.format("%g", e)
end

local range = E.range

local function err_of(rows, f)
  local t = {}
  for _, r in ipairs(M.select(rows, f)) do t[r.n] = r end
  return t
end

--- The claims of Sec. 5.1 checked on the efficiency rows of Figure 3 or 4.
-- o.order (4 | 2): SAM error per doubling of n is 2^order, accepted if >= o.ratio_n;
-- o.eps_ratio (2 | 0.5): SAM error ratio when eps halves at equal n (n >= o.eps_min_n), within
-- o.eps_tol; o.conv ('larger' | 'comparable'); o.work_factor (bool): the equal-error work
-- factor at the smallest eps, accepted in [12, 25] at n >= 32.
-- Returns the claims table (experiment.claims).
function M.kepler_claims(sc, P, top, bottom, o)
  local out = E.claims(sc)
  local pub = out.pub
  local function add(...) out:add(...) end
  local ns, eps = P.n, P.eps
  local nf, np = ns[#ns], ns[#ns - 1]
  -- a claim that compares two n or two eps says n/a when the run has one
  local one_n = #ns < 2 and E.na(string.format("one n (%d): no ratio in n", ns[1])) or nil
  local one_eps = #eps < 2 and E.na("one ε (" .. M.eps_str(eps[1]) .. "): nothing to compare") or nil
  -- work
  local wn, ok = {}, true
  for _, r in ipairs(M.select(top, { method = "SAM" })) do
    wn[#wn + 1] = r.work / r.n
    ok = ok and r.work == 8 * P.N * r.n
  end
  add("sam_work_per_n", string.format("SAM work = 8Nn = %dn, independent of ε", 8 * P.N),
      tostring(pub.sam_work_per_n) .. "n", range(wn, "%.6g") .. "n", ok)
  -- order in n
  local rat, slo, okn = {}, {}, true
  for _, e in ipairs(one_n and {} or eps) do
    local t, xs, ys = err_of(top, { method = "SAM", eps = e }), {}, {}
    local x = t[np].error / t[nf].error
    rat[#rat + 1] = string.format("%.1f", x)
    okn = okn and x >= o.ratio_n
    for i, n in ipairs(ns) do xs[i], ys[i] = n, t[n].error end
    local sl = -E.slope(xs, ys)
    slo[#slo + 1] = string.format("%.2f", sl)
    if o.slope_tol then okn = okn and math.abs(sl - o.order) <= o.slope_tol end
  end
  add("sam_ratio_n_doubling", string.format("SAM: doubling n divides the error by %d (ratio n = %d→%d, one per ε; fitted slope over all n)",
      2 ^ o.order, np or ns[1], nf), tostring(pub.sam_ratio_n_doubling),
      one_n and "—" or (table.concat(rat, ", ") .. "; slope " .. table.concat(slo, ", ") ..
      (o.slope_tol and string.format(" (accept slope %d ± %g)", o.order, o.slope_tol)
                    or string.format(" (accept ratio ≥ %g)", o.ratio_n))), one_n or okn)
  -- eps halving, SAM and conventional
  for _, m in ipairs { "SAM", "conventional" } do
    local er, wr, bad = {}, {}, {}
    for i = 2, #eps do
      local a, b = err_of(top, { method = m, eps = eps[i - 1] }), err_of(top, { method = m, eps = eps[i] })
      for _, n in ipairs(ns) do
        if n >= o.eps_min_n then
          local x = b[n].error / a[n].error
          er[#er + 1] = x
          wr[#wr + 1] = b[n].work / a[n].work
          if math.abs(x / o.eps_ratio - 1) > o.eps_tol then
            bad[#bad + 1] = string.format("n=%d ε=%s: %.3g", n, M.eps_str(eps[i]), x)
          end
        end
      end
    end
    local s = range(er)
    local key = m == "SAM" and "sam_ratio_eps_halving" or "conv_ratio_eps_halving"
    local ws, wlo, whi = range(wr)
    local wexp = m == "SAM" and 1 or 2
    local verdict = #bad == 0 or (#bad <= #er / 2 and "partly")
    if not (wlo == wexp and whi == wexp) then verdict = false end
    if one_eps then verdict = one_eps elseif #er == 0 then verdict = E.na(string.format("no n ≥ %d", o.eps_min_n)) end
    add(key, string.format("%s: halving ε at equal Δτ multiplies the error by %g and the work by %d (n ≥ %d)",
        m, o.eps_ratio, wexp, o.eps_min_n), string.format("%g; work ×%d", o.eps_ratio, wexp),
        E.is_na(verdict) and "—" or string.format("%s (±%d%% accepted%s); work ×%s", s, 100 * o.eps_tol,
                      #bad > 0 and ("; outside: " .. table.concat(bad, ", ")) or "", ws), verdict)
  end
  -- conventional vs SAM at equal n, eps
  local cr = {}
  for _, e in ipairs(eps) do
    local a, b = err_of(top, { method = "conventional", eps = e }), err_of(top, { method = "SAM", eps = e })
    for _, n in ipairs(ns) do cr[#cr + 1] = a[n].error / b[n].error end
  end
  local s, lo, hi = range(cr)
  if o.conv == "larger" then
    add("conv_over_sam_error", "conventional error / SAM error at equal Δτ, ε: 'somewhat larger'",
        "> 1", s, lo > 1)
  else
    add("conv_over_sam_error", "conventional error / SAM error at equal Δτ, ε: 'comparable'",
        "≈ 1", s .. " (accept 1/1.5–1.5)", lo >= 1 / 1.5 and hi <= 1.5)
  end
  -- equal-error work factor
  if o.work_factor and one_n then
    add("work_factor", string.format("ε = %s: conventional work / SAM work at equal error", M.eps_str(eps[#eps])),
        "≈ " .. tostring(pub["work_factor_eps_2^-14"]), "—", E.na("one n: the conventional curve has a single point"))
  elseif o.work_factor then
    local e = eps[#eps]
    local conv = { work = {}, err = {} }
    for i, r in ipairs(M.select(top, { method = "conventional", eps = e })) do
      conv.work[i], conv.err[i] = r.work, r.error
    end
    local f, okf = {}, true
    for _, r in ipairs(M.select(top, { method = "SAM", eps = e })) do
      local x = E.work_at(conv, r.error) / r.work
      f[#f + 1] = string.format("%.1f (n=%d)", x, r.n)
      if r.n >= 32 then okf = okf and x >= 12 and x <= 25 end
    end
    -- the factor is printed for eps = 2^-14 only
    add("work_factor", string.format("ε = %s: conventional work / SAM work at equal error", M.eps_str(e)),
        "≈ " .. tostring(pub["work_factor_eps_2^-14"]), table.concat(f, ", ") .. " (accept 12–25 at n ≥ 32)",
        e ~= 2^-14 and E.na("the paper's factor is for ε = 2^-14; this run's smallest ε is " .. M.eps_str(e)) or okf)
  end
  -- bottom panel: LISP and MR against SAM at the two finest n
  -- o.cmp_all_n: compare at every n (else at the two finest); points outside x1.5 are listed
  local lr, mr, mw, lbad, mbad = {}, {}, {}, {}, {}
  for _, N in ipairs(P.N_bottom) do
    local sa, li, mu = err_of(bottom, { method = "SAM", N = N }), err_of(bottom, { method = "LISP", N = N }),
                       err_of(bottom, { method = "MR", N = N })
    for _, n in ipairs(o.cmp_all_n and ns or { np, nf }) do
      local a, b = li[n].error / sa[n].error, mu[n].error / sa[n].error
      lr[#lr + 1], mr[#mr + 1] = a, b
      if a < 1 / 1.5 or a > 1.5 then lbad[#lbad + 1] = string.format("N=%d n=%d: %.2f", N, n, a) end
      if b < 1 / 1.5 or b > 1.5 then mbad[#mbad + 1] = string.format("N=%d n=%d: %.2f", N, n, b) end
    end
    for _, n in ipairs(ns) do mw[#mw + 1] = mu[n].work / sa[n].work end
  end
  local function verdict(bad, total)
    if #bad == 0 then return true end
    return (#bad <= total / 2) and "partly" or false
  end
  local where = o.cmp_all_n and "all n" or "the two finest n"
  local ls_ = range(lr)
  add("lisp_over_sam_error", "LISP error / SAM error, 'hardly different' (bottom panel, " .. where .. ")", "≈ 1",
      ls_ .. string.format("; %d of %d points within ×1.5", #lr - #lbad, #lr) ..
      (#lbad > 0 and (" (outside: " .. table.concat(lbad, "; ") .. ")") or ""), (not o.cmp_all_n and one_n) or verdict(lbad, #lr))
  local ms_ = range(mr)
  add("mr_over_sam_error", "MR error / SAM error, 'the same' (bottom panel, " .. where .. ")", "≈ 1",
      ms_ .. string.format("; %d of %d points within ×1.5", #mr - #mbad, #mr) ..
      (#mbad > 0 and (" (outside: " .. table.concat(mbad, "; ") .. ")") or ""), (not o.cmp_all_n and one_n) or verdict(mbad, #mr))
  local ws, wlo, whi = range(mw)
  add("mr_over_sam_work", "MR work / SAM work, 'halved'", "0.5", ws, wlo == 0.5 and whi == 0.5)
  -- saturation of small N
  local br, okb, prev = {}, true, 0
  for _, N in ipairs(one_n and {} or P.N_bottom) do
    local sa = err_of(bottom, { method = "SAM", N = N })
    local x = sa[np].error / sa[nf].error
    br[#br + 1] = string.format("N=%d: %.1f", N, x)
    if o.bend_monotone then okb = okb and x > prev end
    prev = x
  end
  local sa1 = err_of(bottom, { method = "SAM", N = P.N_bottom[1] })
  okb = one_n or (okb and sa1[np].error / sa1[nf].error < 0.5 * 2 ^ o.order)
  add("bend", string.format("SAM lines for the smallest N 'bend' (error ratio n = %d→%d below 2^%d/2 for N = %d%s)",
      np or ns[1], nf, o.order, P.N_bottom[1], o.bend_monotone and ", growing with N" or ""), "N = " .. tostring(pub.bend_N),
      one_n and "—" or table.concat(br, ", "), okb)
  return out
end

---------------------------------------------------------------------------------------------------
-- The van der Pol experiment of Sec. 5.2 (Figure 5)
---------------------------------------------------------------------------------------------------

--- The claims of Sec. 5.2 on the runs of scenarios/sam-fig5.lua. runs[i] = {eps, ode45, dp5,
-- strang (work counts), h (ode45 steps), tau_end, first (index of its first row in errs)}.
-- Returns the claims table (experiment.claims) and a note on the work.
function M.vdp_claims(sc, P, runs, errs)
  local out = E.claims(sc)
  local pub = out.pub
  local function add(...) out:add(...) end
  local r1 = runs[1]
  local e1 = M.eps_str(r1.eps)
  -- the printed counts are for the paper's run: eps = 2^-9 (2^-10 for the second ode45 count)
  -- with every other key at its default; elsewhere they are not compared
  local off = E.off_paper(sc, P, { "n", "tol", "t_end", "samples", "split" })
  local function premise(r, want)
    if off then return E.na("the printed count is for the paper's run: " .. off) end
    if r.eps ~= want then return E.na(string.format("the printed count is for ε = %s; this run's is %s", M.eps_str(want), M.eps_str(r.eps))) end
  end
  local function steps_claim(key, r, want)
    local a = r.ode45.macro_steps
    add(key, string.format("ε = %s: accepted ode45 macro-steps to τ_end (rejected)", M.eps_str(r.eps)),
        pub[key], string.format("%d (%d rejected; accept 38–42)", a, r.ode45.rejected), premise(r, want) or (a >= 38 and a <= 42))
  end
  steps_claim("ode45_steps", r1, 2^-9)
  add("tau_end", "τ_end = 32π/ε", "≈ " .. pub.tau_end, string.format("%.1f", r1.tau_end),
      premise(r1, 2^-9) or math.abs(r1.tau_end / pub.tau_end - 1) < 0.02)
  add("dp5_steps", "(ii) constant macro-step (π/4)ε⁻¹: number of steps", pub.dp5_steps,
      tostring(r1.dp5.macro_steps), premise(r1, 2^-9) or r1.dp5.macro_steps == pub.dp5_steps)
  local want = math.floor(P.t_end / r1.eps / (2 * math.pi / P.n) + 0.5) -- tau_end / dtau = 16 n / eps
  add("strang_steps", "(iii) conventional Strang: number of steps", "≈ " .. pub.strang_steps,
      string.format("%d (= τ_end/Δτ = %d exactly; within 1 %% of the printed ≈ %d)", r1.strang.micro_steps, want, pub.strang_steps),
      premise(r1, 2^-9) or (r1.strang.micro_steps == want and math.abs(r1.strang.micro_steps / pub.strang_steps - 1) < 0.01))
  -- comparable errors at every sampled tau
  local q1, q2, okc = {}, {}, true
  for k = r1.first, r1.first + P.samples - 1 do
    local e = errs[k]
    q1[#q1 + 1], q2[#q2 + 1] = e.ode45 / e.strang, e.dp5 / e.strang
    -- (ii) follows (iii) closely everywhere; (i) is tolerance-limited at the first samples
    okc = okc and q1[#q1] <= 8 and q1[#q1] >= 0.9 and q2[#q2] <= 1.5 and q2[#q2] >= 0.9
  end
  local last = errs[r1.first + P.samples - 1]
  okc = okc and math.abs(last.ode45 / last.strang - 1) < 0.05 and math.abs(last.dp5 / last.strang - 1) < 0.05
  add("errors_comparable", string.format("ε = %s: errors of (i) ode45 and (ii) constant-step SAM over (iii) Strang at every sampled τ", e1),
      "comparable", string.format("(i)/(iii) %s, (ii)/(iii) %s; at τ_end %.4f and %.4f (accept (i)/(iii) 0.9–8 and (ii)/(iii) 0.9–1.5 everywhere, 5 %% at τ_end)",
      range(q1), range(q2), last.ode45 / last.strang, last.dp5 / last.strang), okc)
  local w1, w2, w3 = r1.ode45.micro_steps, r1.dp5.micro_steps, r1.strang.micro_steps
  add("cost_order", "work (micro-steps): (i) < (ii) ≪ (iii)", "(i) < (ii) < (iii)",
      string.format("%d < %d < %d (%d, %d field evaluations)", w1, w2, w3, w1 / (2 * P.n), w2 / (2 * P.n)),
      w1 < w2 and w2 < w3)
  for i = 2, #runs do
    local r = runs[i]
    steps_claim(i == 2 and "ode45_steps_eps_2^-10" or ("ode45_steps_" .. i), r, 2^-10)
    local same, dmax = #r.h == #r1.h, 0
    if same then
      for k = 1, #r.h do dmax = math.max(dmax, math.abs(r.h[k] * r.eps / (r1.h[k] * r1.eps) - 1)) end
    end
    add("step_sequence_same", string.format("ε = %s vs %s: step sequence in t = ετ 'virtually the same'", M.eps_str(r.eps), e1),
        "same", same and string.format("max relative difference %.3f (accept 5 %%)", dmax) or "different step counts",
        same and dmax <= 0.05)
    local lr = errs[r.first + P.samples - 1]
    local rat = { lr.ode45 / last.ode45, lr.dp5 / last.dp5, lr.strang / last.strang }
    -- 'halved' for eps halved: the errors scale like eps, so the ratio expected is the eps ratio
    local okr, wantr = true, r.eps / r1.eps
    for _, x in ipairs(rat) do okr = okr and math.abs(x / wantr - 1) <= 0.1 end
    add("error_ratio_eps_halving", string.format("ε = %s vs %s: errors at t_end of (i), (ii), (iii) 'halved'",
        M.eps_str(r.eps), e1), pub.error_ratio_eps_halving,
        string.format("%.3f, %.3f, %.3f (accept %g ± 10 %%)", rat[1], rat[2], rat[3], wantr), okr)
  end
  return out, string.format("Work: (i) %d field evaluations × %d micro-steps; (ii) 1 + 6·%d; " ..
    "(iii) one Strang step per Δτ. ode45 step lengths at ε = %s range from %.0f to %.0f.",
    w1 / (2 * P.n), 2 * P.n, r1.dp5.macro_steps, e1, math.min(unpack(r1.h)), math.max(unpack(r1.h)))
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
