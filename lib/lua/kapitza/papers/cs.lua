-- cs_tables.lua -- the sweep behind Calvo & Sanz-Serna's Tables 2.1-2.3: one HMM run per
-- (H, omega), the maximum error in Q against the exact averaged solution, the micro-step count,
-- and the "Averaged" column; written as paper/tables/<id>.tsv and laid out as in the paper,
-- reproduced beside published, in paper/tables/<id>.md.
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local hmm = require "kapitza.hmm"
local models = require "kapitza.models"

local M = {}

--- The micro-steps a table would take: sum over omega and H of (T/H) estimates of
-- periods Tmacro/(2H) steps each way (the synchronous window has two legs).
function M.work(periods_of)
  return function(P)
    local w = 0
    for _, H in ipairs(P.H) do w = w + #P.omega * (P.T / H) * (periods_of(P) * P.Tmacro / H) end
    return w, "micro-steps"
  end
end

--- The parameters every table shares (Sec. 2.2: "As in [26] ...").
function M.params(extra, kernel)
  local p = {
    { "micro", "verlet", "", "micro-integrator of the windows (Sec. 2.2: velocity Verlet)",
      choices = { "verlet", "leapfrog", "symeuler", "euler", "rk4", "dp5" } },
    { "kernel", kernel or "exponential", "", "averaging kernel (2.12)-(2.13); uniform = simple filtering", choices = { "exponential", "uniform", "cosine", "exp2" } },
    { "l", 0.2, "m", "pendulum length", positive = true },
    { "g", 9.8, "m s^-2", "acceleration of gravity" },
    { "vmax", 4, "m s^-1", "amplitude of the pivot velocity v(t)" },
    { "T", 1, "s", "final time", positive = true, max = 100 },
    { "Q0", 0.5, "rad", "initial averaged angle Q(0)" },
    { "P0", 0, "rad s^-1", "initial averaged velocity P(0)" },
    { "Tmacro", 1, "s", "macro time scale in h = (2 pi/omega)(H/Tmacro)", positive = true, min = 1e-3, max = 1e3 },
    { "theta0", 0, "rad", "phase of the vibration at t = 0" },
  }
  for _, e in ipairs(extra) do p[#p + 1] = e end
  return p
end

local function frac(H)
  local d = 1 / H
  if math.abs(d - math.floor(d + 0.5)) < 1e-9 then return string.format("1/%d", math.floor(d + 0.5)) end
  return string.format("%g", H)
end

-- The premises of Sec. 2 that every run must meet, checked before the sweep (sc:fail names the
-- keys). Beyond them the numbers are not an HMM error but an instability (errors of 10^13 rad at
-- vmax = 4e6 before these checks).
--  (a) averaging: q = Q + l^-1 s sin Q with s = O(1/omega) (2.4), i.e. a fast oscillation of q of
--      amplitude vmax/(l omega) rad, "small" (Sec. 1, 2.1); refused from 1 rad on;
--  (b) the micro-step h = (2 pi/omega)(H/Tmacro) "small with respect to 2 pi/omega" (Sec. 2.2):
--      on q'' ~ (vmax omega/l) cos(omega t) q, Verlet needs h (|vmax| omega/l)^(1/2) < 2;
--  (c) the reference and the macro step resolve the averaged motion (2.5) ("H small with respect
--      to T_macro", Sec. 2.2): with w_s^2 the largest -F'(Q) along the exact averaged solution,
--      F'(Q) = (g/l) cos Q - (vmax^2/(2 l^2)) cos 2Q, leapfrog and Verlet are stable only for
--      H w_s < 2; the RK4 reference step is refused above w h = 0.1, w^2 = vmax^2/(2l^2) + |g|/l
--      bounding -F' everywhere.
local function check_premises(sc, P, method)
  local l, vmax = P.l, math.abs(P.vmax)
  for _, omega in ipairs(P.omega) do
    local amp = vmax / (l * omega)
    if amp >= 1 then
      sc:fail(string.format("parameters 'vmax', 'l', 'omega': the fast oscillation of q has amplitude vmax/(l omega) = %.3g rad at omega = %g; " ..
                            "averaging (Sec. 2.1, (2.4)) needs it small (< 1 rad)", amp, omega))
    end
    for _, H in ipairs(P.H) do
      local h = (2 * math.pi / omega) * H / P.Tmacro
      local x = h * math.sqrt(vmax * omega / l)
      if x >= 2 then
        sc:fail(string.format("parameters 'H', 'Tmacro', 'vmax': the micro-step h = (2 pi/omega)(H/Tmacro) = %.3g s is unstable on the fast force " ..
                              "(h (|vmax| omega/l)^(1/2) = %.3g >= 2 at H = %g, omega = %g; Sec. 2.2: h small with respect to 2 pi/omega)", h, x, H, omega))
      end
    end
  end
  local wmax = math.sqrt(vmax * vmax / (2 * l * l) + math.abs(P.g) / l)
  local href = math.min(1 / 20480, P.H[1])
  for _, H in ipairs(P.H) do href = math.min(href, H) end
  if wmax * href > 0.1 then
    sc:fail(string.format("parameters 'vmax', 'l', 'g': the averaged motion (2.5) is too fast for the reference (RK4 step %.3g s, frequencies up to %.3g s^-1)", href, wmax))
  end
end

-- The fastest linearised frequency w_s of the averaged pendulum (2.5) along the states Q:
-- w_s^2 = max(0, max -F'(Q)).
local function slow_frequency(P, Q)
  local a, b, w2 = P.g / P.l, P.vmax * P.vmax / (2 * P.l * P.l), 0
  for _, q in ipairs(Q) do w2 = math.max(w2, b * math.cos(2 * q) - a * math.cos(q)) end
  return math.sqrt(w2)
end

--- Run the sweep, omega by omega (so each omega's rows are contiguous in the table file).
-- method: {preset ('cs1' = Algorithm 1, 'cs2' = Algorithm 2), kernel, periods
-- (eta = periods * 2 pi/omega), half_window, ignore (keys the runs do not depend on: a study's)}.
function M.run(sc, P, method)
  E.no_repeats(sc, P, { "H", "omega" })
  -- the grids, checked before anything runs: T/H whole, and eta/2 a whole number of micro-steps
  -- h = (2 pi/omega)(H/Tmacro), i.e. periods Tmacro/(2H) whole
  for _, H in ipairs(P.H) do
    if tonumber(require("kapitza").C.kz_steps_in(P.T, H)) < 1 then
      sc:fail(string.format("parameter 'H': %g does not divide T = %g into whole steps", H, P.T))
    end
    local m = method.periods * P.Tmacro / (2 * H)
    if math.abs(m - math.floor(m + 0.5)) > 1e-9 * m or m < 0.5 then
      sc:fail(string.format("parameters 'H', 'periods', 'Tmacro': the half window (periods/2 = %g periods) is not a whole number of micro-steps (2 pi/omega)(H/Tmacro) at H = %g", method.periods / 2, H))
    end
  end
  -- the exact averaged solution (RK4, steps of at most 1/20480 s, far below the three printed
  -- digits) and Verlet with step H on (2.5) do not depend on omega
  check_premises(sc, P, method)
  local pend0 = models.pendulum { l = P.l, g = P.g, vmax = P.vmax, omega = 1 }
  local exact, averaged = {}, {}
  for _, H in ipairs(P.H) do
    exact[H] = E.grid(pend0.avg, P.T, H, { P.Q0, P.P0 }, 1 / 20480)[1]
    local ws = slow_frequency(P, exact[H])
    if H * ws >= 2 then
      sc:fail(string.format("parameters 'H', 'vmax', 'l', 'g': H = %g is beyond the stability limit of the leapfrog/Verlet macro step on the averaged motion " ..
                            "(H w_s = %.3g >= 2, w_s = %.3g s^-1 its fastest linearised frequency along the exact solution of (2.5); " ..
                            "Sec. 2.2: H small with respect to the macro time scale)", H, H * ws, ws))
    end
    averaged[H] = E.maxdiff(E.grid(pend0.avg, P.T, H, { P.Q0, P.P0 }, H, "verlet")[1], exact[H])
  end
  local rows = {}
  sc:progress_start(#P.H * #P.omega)
  for _, omega in ipairs(P.omega) do
    local pend = models.pendulum { l = P.l, g = P.g, vmax = P.vmax, omega = omega, theta0 = P.theta0 }
    local period = 2 * math.pi / omega
    for _, H in ipairs(P.H) do
      -- one point's work (a sweep's shard records it, its merge replays it: scenario/cells.lua)
      local Q, micro_steps = sc:cell("hmm", { omega = omega, H = H }, function()
        local Q, _, work = hmm.run(pend, {
          preset = method.preset, kernel = P.kernel or method.kernel, micro = P.micro,
          half_window = method.half_window,
          H = H, T = P.T, eta = method.periods * period, h = period * H / P.Tmacro,
          Q0 = P.Q0, P0 = P.P0 })
        return Q, work.micro_steps
      end, { P = P, ignore = method.ignore })
      local curve = {}
      for n = 1, #Q do curve[n] = Q[n] - exact[H][n] end
      rows[#rows + 1] = { H = H, omega = omega, microsteps = micro_steps,
                          error = E.maxdiff(Q, exact[H]), averaged_error = averaged[H], curve = curve }
      sc:progress(string.format("H=%s omega=%g", frac(H), omega))
    end
  end
  return rows
end

-- 1e+08 -> 10⁸ (powers of ten as the paper prints them)
local sup = { ["0"] = "⁰", ["1"] = "¹", ["2"] = "²", ["3"] = "³", ["4"] = "⁴", ["5"] = "⁵", ["6"] = "⁶",
              ["7"] = "⁷", ["8"] = "⁸", ["9"] = "⁹", ["-"] = "⁻" }
local function om_str(om)
  local k = math.floor(math.log10(om) + 0.5)
  if math.abs(om - 10 ^ k) <= 1e-9 * om then return "10" .. tostring(k):gsub(".", sup) end
  return string.format("%g", om)
end

local function key(H, omega) return string.format("%.12g|%.12g", H, omega) end

--- Write <id>.tsv and <id>.md (the paper's layout, reproduced beside published), and the error
-- along each run, data/<id>-errors.tsv (where in [0, T] each maximum is reached).
function M.write(sc, P, rows, opts)
  sc:write_tsv("tables/" .. sc.id .. ".tsv", { "H", "omega", "microsteps", "error", "averaged_error" },
               rows)
  local along = {}
  for _, r in ipairs(rows) do
    for n, e in ipairs(r.curve) do along[#along + 1] = { H = r.H, omega = r.omega, t = (n - 1) * r.H, error = e } end
  end
  sc:write_tsv("data/" .. sc.id .. "-errors.tsv", { "H", "omega", "t", "error" }, along,
               { "signed error Q_n - Q(t_n) of every run of the table, at every macro node t_n = n H" })
  local kz = require "kapitza"
  -- the printed cells are for the paper's setting: every scalar key at its default (H and omega
  -- are matched cell by cell); elsewhere nothing is compared, the claims say n/a, and the figure
  -- draws no published points (its published file is then empty: /dev/null)
  local scalars = {}
  -- (the keys of a study beside the table, opts.study_keys, do not change the printed cells)
  for _, p in ipairs(sc.params) do
    if type(p[2]) ~= "table" and not (opts.study_keys and opts.study_keys[p[1]]) then scalars[#scalars + 1] = p[1] end
  end
  local off = E.off_paper(sc, P, scalars)
  local es = {}
  for _, r in ipairs(rows) do es[#es + 1] = r.error; es[#es + 1] = r.averaged_error end
  local _, elo, ehi = require("kapitza.experiment").range(es)
  local Hs = {}
  for i, H in ipairs(P.H) do Hs[i] = H end
  local _, hlo, hhi = require("kapitza.experiment").range(Hs)
  local ref = assert(sc:reference())
  sc:figure(sc.id, { tab = sc:path("tables/" .. sc.id .. ".tsv"), ref = off and "/dev/null" or (kz.root .. "/paper/reference/" .. sc.id .. ".tsv"),
                     published = off and 0 or 1, refw = ref[1] and ref[1].omega or 0, kernel = P.kernel,
                     omegas = P.omega, Hs = Hs, Hmin = hlo, Hmax = hhi, ymin = elo / 2, ymax = ehi * 2,
                     caption = string.format("ℓ = %g m, g = %g m s^{-2}, v_{max} = %g m s^{-1}, Q(0) = %g, T = %g s", P.l, P.g, P.vmax, P.Q0, P.T) })
  local pub = {}
  -- the printed rows by H alone: the Averaged column and the micro-step counts do not depend on
  -- omega, so they are compared at every printed H whatever the run's omega list (its first
  -- omega need not be a printed one)
  local printedH, Hcount = {}, 0
  for _, r in ipairs(ref) do
    pub[key(r.H, r.omega)] = r
    local hk = string.format("%.12g", r.H)
    if not printedH[hk] then printedH[hk] = r; Hcount = Hcount + 1 end
  end
  local function rowH(H) return printedH[string.format("%.12g", H)] end
  local printed = pub
  if off then pub = {} end
  local omegas, Hs = P.omega, P.H
  local header = { "H", "microsteps" }
  for _, om in ipairs(omegas) do header[#header + 1] = "ω = " .. om_str(om) end
  header[#header + 1] = "Averaged"
  local body, n3, n1, ncmp, nsteps, nsteps_ok, worst = {}, 0, 0, 0, 0, 0, 0
  local misses = {}
  local byk = {}
  for _, r in ipairs(rows) do byk[key(r.H, r.omega)] = r end
  local function cell(x, p, where)
    if not p then return S.sci(x) end
    ncmp = ncmp + 1
    local d = S.reldiff(x, p)
    worst = math.max(worst, math.abs(d))
    local ok3 = S.agrees_digits(x, p, 3)
    local ulp = S.pow10(math.floor(math.log10(math.abs(p))) - 2)
    local ok1 = math.abs(x - p) <= ulp * (1 + 1e-9)
    if ok3 then n3 = n3 + 1 end
    if ok1 then n1 = n1 + 1 end
    if not ok3 then misses[#misses + 1] = { x = x, p = p, where = where } end
    return string.format("%s (%s, %+.1f%%)%s", S.sci(x, 4), S.sci(p), 100 * d, ok3 and "" or " *")
  end
  for _, H in ipairs(Hs) do
    local first = byk[key(H, omegas[1])]
    local p1 = not off and rowH(H) or nil
    local steps = tostring(first.microsteps)
    if p1 then
      nsteps = nsteps + 1
      if p1.microsteps == first.microsteps then nsteps_ok = nsteps_ok + 1
      else steps = steps .. string.format(" (%d) *", p1.microsteps) end
    end
    local line = { frac(H), steps }
    for _, om in ipairs(omegas) do
      local r = byk[key(H, om)]
      local p = pub[key(H, om)]
      line[#line + 1] = cell(r.error, p and p.error, string.format("H = %s, ω = %s", frac(H), om_str(om)))
    end
    line[#line + 1] = cell(first.averaged_error, p1 and p1.averaged_error,
                           string.format("H = %s, Averaged", frac(H)))
    body[#body + 1] = line
  end
  -- the caption says "reproduced" only when every compared cell agrees to the printed digits
  local caption
  local none = not off and ncmp == 0 and nsteps == 0
  if off then
    caption = string.format("**%s** at other parameters than the paper's (%s): the printed cells are not compared.\n",
                            opts.caption, off:gsub("^this run has ", ""))
  elseif none then
    caption = string.format("**%s** at the paper's parameters, but the paper printed no cell at this run's H: nothing is compared.\n",
                            opts.caption)
  elseif ncmp > 0 and n3 == ncmp and nsteps_ok == nsteps then
    caption = string.format("**%s** reproduced: every compared cell (%d) agrees to the three printed digits. Each cell: " ..
                            "reproduced (published, relative difference).\n", opts.caption, ncmp)
  else
    caption = string.format("**%s** reproduced in part: %d of %d error cells agree to the three printed digits. Each cell: " ..
                            "reproduced (published, relative difference); `*` marks a cell whose reproduced value, rounded to " ..
                            "three digits, differs from the printed one.\n", opts.caption, n3, ncmp)
  end
  local out = {
    caption,
    S.md_table(header, body),
    string.format("\n- Error cells agreeing to the three printed digits: **%d of %d**; within one unit of "
                  .. "the third digit: %d of %d; largest relative difference %.2f%%.", n3, ncmp, n1, ncmp,
                  100 * worst),
    string.format("- Micro-step counts equal to the printed ones: **%d of %d**.", nsteps_ok, nsteps),
  }
  if off or none then out = { out[1], out[2] } end -- nothing was compared: no agreement counts
  if #misses > 0 then
    local t = {}
    for _, m in ipairs(misses) do
      t[#t + 1] = string.format("%s: %.5e vs %s", m.where, m.x, S.sci(m.p))
    end
    out[#out + 1] = "- Cells that differ in the third digit: " .. table.concat(t, "; ") .. "."
  end
  sc:write_text("tables/" .. sc.id .. ".md", table.concat(out, "\n") .. "\n")

  -- Claims, one per printed column, with the tolerance the print allows: one unit of the third
  -- printed digit (the printed precision); the cells in opts.apart are claims of their own.
  -- Every claim compares with printed numbers: at the paper's scalar parameters only (`at`),
  -- cell by cell where the run has the printed H and omega.
  local E = require "kapitza.experiment"
  local cl = E.claims(sc)
  local study = {}
  for k in pairs(opts.study_keys or {}) do study[k] = true end
  local at = E.paper_at(sc, nil, study)
  local apart = {}
  for _, a in ipairs(opts.apart or {}) do apart[key(a.H, a.omega)] = a end
  local function unit(p) return S.pow10(math.floor(math.log10(math.abs(p))) - 2) end
  local function within(x, p) return math.abs(x - p) <= unit(p) * (1 + 1e-9) end
  local function with(t, k, v) local c = {} for x, y in pairs(t) do c[x] = y end c[k] = v return c end
  -- a claim covers the printed cells of the run's H and omega; where that is a part of what the
  -- paper printed (a shorter H list, --quick), its measured text says how many printed cells it
  -- left out, so that its "yes" is not read as one about the whole column or table (--quick said
  -- yes to "every cell" of Table 2.2 on 6 of its 12, which the full run does not bear out)
  local col_total, err_total = {}, 0
  for _, r in ipairs(ref) do
    local ok = string.format("%.12g", r.omega)
    if not apart[key(r.H, r.omega)] then col_total[ok] = (col_total[ok] or 0) + 1 end
    err_total = err_total + 1
  end
  local function part(n, total, what, where)
    if n >= total then return "" end
    return E.T("; %d of the %d printed %s are at %s this run did not take: not judged", total - n, total, what, where)
  end
  for _, om in ipairs(omegas) do
    local cells = {}
    for _, H in ipairs(Hs) do
      if printed[key(H, om)] and not apart[key(H, om)] then cells[#cells + 1] = H end
    end
    -- a column the paper printed, with cells at the run's H (off its parameters: n/a, naming the
    -- keys); a column it did not print has no claim (it said "printed at omega = 1e5" for one)
    local total = col_total[string.format("%.12g", om)]
    if total and (#cells > 0 or off) then
      local colpart = part(#cells, total, "cells of the column", "H")
      cl:claim { key = "column_omega_" .. E.show(om), text = string.format("the printed errors of the column ω = %s", om_str(om)),
        published = E.T("%d printed cells", #cells), at = with(at, "omega", om),
        judge = function()
          local items, w = {}, 0
          for _, H in ipairs(cells) do
            local r, p = byk[key(H, om)], printed[key(H, om)]
            items[#items + 1] = { ok = within(r.error, p.error), label = "H = " .. frac(H) }
            w = math.max(w, math.abs(S.reldiff(r.error, p.error)))
          end
          local k = 0
          for _, it in ipairs(items) do if it.ok then k = k + 1 end end
          return { measured = E.T("%d of %d within one unit of the third printed digit (largest difference %.2f %%)", k, #items, 100 * w) .. colpart,
                   items = items, what = "printed cells", values = { worst = w } }
        end }
    end
  end
  for _, a in ipairs(opts.apart or {}) do
    local r, p = byk[key(a.H, a.omega)], printed[key(a.H, a.omega)]
    if r and p then
      cl:claim { key = string.format("cell_H%s_omega%s", E.show(a.H), E.show(a.omega)),
        text = string.format("the printed cell H = %s, ω = %s", frac(a.H), om_str(a.omega)), published = S.sci(p.error),
        at = with(with(at, "omega", a.omega), "H", a.H),
        judge = function()
          local d = S.reldiff(r.error, p.error)
          local m = E.T("%.5e (%+.2f %%; one unit of the third printed digit is %.1e)", r.error, 100 * d, unit(p.error))
          -- beside it, the cell of the same H at the neighbouring printed omega, in this run and in the print
          local nb = a.neighbour and byk[key(a.H, a.neighbour)]
          local pn = a.neighbour and printed[key(a.H, a.neighbour)]
          if nb and pn then
            m = m .. E.T("; against the ω = %v cell of the same H: this run %+.2f %%, the print %+.2f %%", a.neighbour,
                         100 * S.reldiff(r.error, nb.error), 100 * S.reldiff(p.error, pn.error))
          end
          return { measured = m, items = { within(r.error, p.error) }, what = "printed cell", values = { reldiff = d } }
        end }
    end
  end
  local acells = {}
  for _, H in ipairs(Hs) do if rowH(H) then acells[#acells + 1] = H end end
  if #acells > 0 then
    local rows_part = part(#acells, Hcount, "rows", "H")
    cl:claim { key = "averaged", text = "the Averaged column (Verlet with step H on (2.5))", published = E.T("%d printed cells", #acells),
      at = at,
      judge = function()
        local items = {}
        for i, H in ipairs(acells) do
          local r, p = byk[key(H, omegas[1])], rowH(H)
          items[i] = { ok = S.agrees_digits(r.averaged_error, p.averaged_error, 3), label = "H = " .. frac(H) }
        end
        local k = 0
        for _, it in ipairs(items) do if it.ok then k = k + 1 end end
        return { measured = E.T("%d of %d agree to the three printed digits", k, #items) .. rows_part, items = items, what = "printed cells" }
      end }
    cl:claim { key = "microsteps", text = "the micro-step counts", published = E.T("%d printed rows", #acells), at = at,
      judge = function()
        local items = {}
        for i, H in ipairs(acells) do
          items[i] = { ok = rowH(H).microsteps == byk[key(H, omegas[1])].microsteps, label = "H = " .. frac(H) }
        end
        local k = 0
        for _, it in ipairs(items) do if it.ok then k = k + 1 end end
        return { measured = E.T("%d of %d equal", k, #items) .. rows_part, items = items, what = "printed rows" }
      end }
  end
  if opts.notes_three_digits then
    local n = 0
    for _, H in ipairs(Hs) do for _, om in ipairs(omegas) do if printed[key(H, om)] then n = n + 1 end end end
    local cells_part = part(n, err_total, "cells of the table", "H or ω")
    cl:claim { key = "three_digits", text = "notes §4 (not the paper): Tables 2.2 and 2.3 are reproduced to all three printed digits, every cell",
      published = "every cell", at = at,
      judge = function()
        local items = {}
        for _, H in ipairs(Hs) do
          for _, om in ipairs(omegas) do
            local r, p = byk[key(H, om)], printed[key(H, om)]
            if p then items[#items + 1] = { ok = S.agrees_digits(r.error, p.error, 3), label = string.format("H = %s, ω = %s", frac(H), E.show(om)) } end
          end
        end
        local k = 0
        for _, it in ipairs(items) do if it.ok then k = k + 1 end end
        return { measured = E.T("%d of %d error cells agree to the three printed digits", k, #items) .. cells_part, items = items, what = "printed cells" }
      end }
  end
  cl:write(nil, sc.id .. "-claims")
  return { agree3 = n3, within1 = n1, cells = ncmp, steps_ok = nsteps_ok, steps = nsteps, worst = worst }
end

return M
