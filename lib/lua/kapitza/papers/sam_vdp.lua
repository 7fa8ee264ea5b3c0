-- sam_vdp.lua -- the claims of Calvo, Chartier, Murua & Sanz-Serna 2011, Sec. 5.2 (van der Pol with
-- a variable-step macro-solver, Figure 5) on the runs of scenarios/sam-fig5.lua; split from
-- kapitza.papers.sam (the Kepler experiment of Sec. 5.1), whose ε labels it uses.
local E = require "kapitza.experiment"
local SX = require "kapitza.papers.sam"

local M = {}
local range = E.range

--- The claims of Sec. 5.2 on the runs of scenarios/sam-fig5.lua. runs[i] = {eps, ode45, dp5,
-- strang (work counts), h (ode45 steps), tau_end, first (index of its first row in errs)}.
-- Returns the claims table (experiment.claims) and a note on the work.
function M.claims(sc, P, runs, errs)
  local out = E.claims(sc)
  local pub = out.pub
  local T = E.T
  local r1 = runs[1]
  -- the printed counts are for the paper's run: eps = 2^-9 (2^-10 for the second ode45 count)
  -- with every other key at its default (`at`); the tolerances are the print's precision: an
  -- exact count, "~ 51,000" and "~ 260,000" to their two printed digits
  local function at(e) local t = E.paper_at(sc, { "n", "tol", "t_end", "samples", "split" }) t.eps = e return t end
  local function first_at(e) for _, r in ipairs(runs) do if r.eps == e then return r end end end
  local function steps_claim(key, want)
    local r = first_at(want)
    out:claim { key = key, text = string.format("ε = %s: accepted ode45 macro-steps to τ_end", SX.eps_str(want)), published = tostring(pub[key]),
      at = at(want),
      judge = function()
        local a = r.ode45.macro_steps
        return { measured = T("%d (%d rejected)", a, r.ode45.rejected), items = { a == tonumber(pub[key]) }, what = "count" }
      end }
  end
  steps_claim("ode45_steps", 2^-9)
  out:claim { key = "tau_end", text = "τ_end = 32π/ε", published = "≈ " .. pub.tau_end, at = at(2^-9),
    judge = function()
      local r = first_at(2^-9)
      return { measured = T("%.1f (accept the two printed digits: within %v)", r.tau_end, 500), items = { math.abs(r.tau_end - pub.tau_end) <= 500 }, what = "value" }
    end }
  out:claim { key = "dp5_steps", text = "(ii) constant macro-step (π/4)ε⁻¹: number of steps", published = tostring(pub.dp5_steps), at = at(2^-9),
    judge = function()
      local r = first_at(2^-9)
      return { measured = T("%d", r.dp5.macro_steps), items = { r.dp5.macro_steps == pub.dp5_steps }, what = "count" }
    end }
  out:claim { key = "strang_steps_formula", text = "(iii) conventional Strang: τ_end/Δτ steps", published = "τ_end/Δτ", any = "the conventional step is Δτ = 2π/n, at any parameters",
    judge = function()
      local items = {}
      for _, r in ipairs(runs) do
        items[#items + 1] = { ok = r.strang.micro_steps == math.floor(P.t_end / r.eps / (2 * math.pi / P.n) + 0.5), label = "ε = " .. SX.eps_str(r.eps) }
      end
      return { measured = T("%d at ε = %s", r1.strang.micro_steps, SX.eps_text(r1.eps)), items = items, what = "values of ε" }
    end }
  out:claim { key = "strang_steps", text = "(iii) conventional Strang: number of steps", published = "≈ " .. pub.strang_steps, at = at(2^-9),
    judge = function()
      local r = first_at(2^-9)
      return { measured = T("%d (accept the two printed digits: within %v)", r.strang.micro_steps, 5000),
               items = { math.abs(r.strang.micro_steps - pub.strang_steps) <= 5000 }, what = "count" }
    end }
  -- comparable errors at every sampled tau: "comparable" read as within ×1.5 either way (the
  -- reading of "comparable" and "≈" throughout Sec. 5.1), not a band around our measurements. ode45
  -- (i) keeps its own macro error near its tolerance: where the micro error common to all three
  -- integrations (that of (iii), the conventional Strang run) is below tol, (i) is dominated by the
  -- tolerance by design and is not judged there (listed)
  local last = errs[r1.first + P.samples - 1]
  local cmp = 1.5
  out:claim { key = "errors_comparable", text = "errors of (i) ode45 and (ii) constant-step SAM over (iii) Strang at every sampled τ (the first ε; (i) where the micro error exceeds ode45's tol)",
    published = "comparable", any = "three integrations of the same averaged motion, at any small ε",
    judge = function()
      local q1, q2, items, skipped, sq = {}, {}, {}, 0, {}
      local function within(x) return x >= 1 / cmp and x <= cmp end
      for k = r1.first, r1.first + P.samples - 1 do
        local e = errs[k]
        local x1, x2 = e.ode45 / e.strang, e.dp5 / e.strang
        q2[#q2 + 1] = x2
        items[#items + 1] = { ok = within(x2), label = T("(ii) τ = %.0f", e.tau).s }
        if e.strang >= P.tol then
          q1[#q1 + 1] = x1
          items[#items + 1] = { ok = within(x1), label = T("(i) τ = %.0f", e.tau).s }
        else
          skipped = skipped + 1
          sq[#sq + 1] = x1
        end
      end
      local _, a, b = range(q1)
      local _, c, d = range(q2)
      local mt = T("ε = %s: ", SX.eps_text(r1.eps)) ..
        (#q1 > 0 and T("(i)/(iii) %.3g–%.3g", a, b) or T("(i)/(iii) not judged")) ..
        T(", (ii)/(iii) %.3g–%.3g; at τ_end %.4f and %.4f (accept ×%v either way", c, d, last.ode45 / last.strang, last.dp5 / last.strang, cmp) ..
        T(", (i) where the Strang error is at least tol = ") .. SX.eps_text(P.tol) .. T(")")
      if skipped > 0 then
        local _, s1, s2 = range(sq)
        mt = mt .. T("; (i) not judged at %d sampled times where the Strang error is below tol ((i)/(iii) %.3g–%.3g there)", skipped, s1, s2)
      end
      return { measured = mt, items = items, what = "comparisons at sampled times" }
    end }
  local w1, w2, w3 = r1.ode45.micro_steps, r1.dp5.micro_steps, r1.strang.micro_steps
  out:claim { key = "cost_order", text = "work (micro-steps): (i) < (ii) ≪ (iii)", published = "(i) < (ii) < (iii)", any = "a comparison of three integrations, at any parameters",
    judge = function()
      return { measured = T("%d < %d < %d (%d, %d field evaluations)", w1, w2, w3, w1 / (2 * P.n), w2 / (2 * P.n)),
               items = { w1 < w2, w2 < w3 }, what = "comparisons" }
    end }
  local e2 = first_at(2^-10) and 2^-10
  steps_claim("ode45_steps_eps_2^-10", 2^-10)
  -- the scalings between the first eps and each other: the step sequence in t = eps tau, the errors
  for i = 2, #runs do
    local r = runs[i]
    local sfx = i == 2 and "" or ("_" .. i)
    out:claim { key = "step_sequence_same" .. sfx, text = string.format("ε = %s vs %s: step sequence in t = ετ 'virtually the same'", SX.eps_str(r.eps), SX.eps_str(r1.eps)),
      published = "same", any = "(17) scaled to t = ετ is the same equation at any small ε",
      judge = function()
        -- the two step sequences as step functions of t = ετ (ode45 starts at τ = 0 and its steps
        -- are contiguous), compared where either run has a step: at the midpoint of every step of
        -- both runs, the step length of each run there, relative to the first ε's. The counts may
        -- differ (the step count is its own claim): one extra step shows where it is taken. The
        -- last step of each run is cut or stretched to reach τ_end, not chosen by the controller:
        -- the comparison ends where either run's last step begins.
        local function stepfn(run)
          local t0, st = 0, {}
          for k = 1, #run.h do
            local h = run.h[k] * run.eps
            st[k] = { t0, t0 + h, h }
            t0 = t0 + h
          end
          return st
        end
        local s1, s2 = stepfn(r1), stepfn(r)
        local function at(st, t)
          for _, x in ipairs(st) do if t < x[2] then return x[3] end end
          return st[#st][3]
        end
        local items, dmax, worst = {}, 0, nil
        for _, st in ipairs { s1, s2 } do
          for _, x in ipairs(st) do
            local t = 0.5 * (x[1] + x[2])
            if t < math.min(s1[#s1][1], s2[#s2][1]) then
              local d = math.abs(at(s2, t) / at(s1, t) - 1)
              if d > dmax then dmax, worst = d, t end
              items[#items + 1] = { ok = d <= 0.05, label = T("t = %.3g", t).s }
            end
          end
        end
        return { measured = T("steps in t = ετ at the %d step midpoints of both runs before their last steps (%d and %d steps): max relative difference %.3f",
                              #items, #s2, #s1, dmax) .. (dmax > 0.05 and T(" at t = %.3g", worst) or T("")) .. T(" (accept %v %%)", 5),
                 items = items, what = "step midpoints" }
      end }
    out:claim { key = "error_ratio_eps_halving" .. sfx, text = string.format("ε = %s vs %s: errors at t_end of (i), (ii), (iii) scale like ε ('halved' for ε halved)",
                  SX.eps_str(r.eps), SX.eps_str(r1.eps)), published = tostring(pub.error_ratio_eps_halving) .. " for ε halved",
      any = "errors O(ε) of the averaging, at any small ε",
      judge = function()
        local lr = errs[r.first + P.samples - 1]
        local rat = { lr.ode45 / last.ode45, lr.dp5 / last.dp5, lr.strang / last.strang }
        local wantr, items = r.eps / r1.eps, {}
        for j, x in ipairs(rat) do items[j] = { ok = math.abs(x / wantr - 1) <= 0.1, label = ({ "(i)", "(ii)", "(iii)" })[j] } end
        return { measured = T("%.3f, %.3f, %.3f (accept the ε ratio %v ± %v %%)", rat[1], rat[2], rat[3], wantr, 10), items = items, what = "integrations" }
      end }
  end
  local _ = e2
  return out, string.format("Work: (i) %d field evaluations × %d micro-steps; (ii) 1 + 6·%d; " ..
    "(iii) one Strang step per Δτ. ode45 step lengths at ε = %s range from %.0f to %.0f.",
    w1 / (2 * P.n), 2 * P.n, r1.dp5.macro_steps, SX.eps_str(r1.eps), math.min(unpack(r1.h)), math.max(unpack(r1.h)))
end

return M
