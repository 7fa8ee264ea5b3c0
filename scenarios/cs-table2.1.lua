-- ### Table 2.1: synchronous HMM (Algorithm 1), exponential kernel
--
-- **Question.** The HMM of Sharp, Tsai & Engquist as written by Calvo & Sanz-Serna (Algorithm 1):
-- does it integrate the averaged pendulum (2.5)–(2.6) with O(H²) errors that hardly depend on ω,
-- for ω from 10⁴ to 10⁸ s⁻¹, with a cost independent of ω?
--
-- **Method.** Inverted pendulum (2.2) with ℓ = 0.2 m, g = 9.8 m s⁻², v_max = 4 m s⁻¹, Q(0) = 0.5,
-- P(0) = 0, T = 1 s. Macro step: Verlet/leap-frog with step H. Force estimate (2.10)–(2.11): the
-- micro-integration starts at t_n from q = Q_n, p = P̂_n + ℓ⁻¹ v(t_n) sin Q_n (the relation (2.7))
-- and θ = ω t_n + θ₀, and runs forward and backward over the symmetric window t_n ± η/2,
-- η = 40·2π/ω, with velocity Verlet steps h = (2π/ω)(H/T_macro), T_macro = 1 s. The kernel is the
-- exponential one (2.13), the integral the trapezoidal rule on the micro grid (the centre node
-- counted once), weights scaled to sum to 1. P̂_{n+1} = P_{n+1/2} + (H/2)F_n as in step 4.
-- Error: max over 0 ≤ t_n ≤ T of |Q_n − Q(t_n)|, Q the solution of (2.5) (RK4, steps ≤ 1/20480 s).
--
-- **Readings.** *Microsteps* counts both legs of each window: T/H estimates × 2 × 20/H steps,
-- 4,000 at H = 1/10. *Averaged* is Verlet with step H on (2.5) (see Table 2.2). The synchronous
-- algorithm depends on the phase θ = ω t_n + θ₀ at which each window starts; here t_n = n H is
-- computed by multiplication, not accumulated, and θ = ω t_n + θ₀ is then formed in double
-- precision. At ω = 10⁸ the phase is ~10⁸ rad and keeps only about eight correct digits after
-- the decimal point, and the micro-trajectory (whose velocity is set from sin θ) depends on it:
-- one might expect the ω = 10⁸ column to be where an implementation's round-off shows. The
-- scenario measures this instead of assuming it: it reruns the ω = 10⁸ column with the phase θ₀
-- shifted by tiny amounts (10⁻⁹, 10⁻⁶ rad: far more than round-off in ω t_n) and by O(1) amounts,
-- and reports how much each cell moves (`paper/data/cs-table2.1-phase.tsv`). Cells that disagree
-- with the print are listed under the table, not tuned away.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local cs = require "kapitza.papers.cs"

local sc = S.new {
  id = "cs-table2.1",
  title = "Calvo & Sanz-Serna Table 2.1: synchronous HMM (Algorithm 1), exponential kernel",
  params = cs.params {
    { "omega", { 1e4, 1e6, 1e8 }, "s^-1", "vibration angular frequencies (list)", positive = true },
    { "H", { 1 / 10, 1 / 20, 1 / 40, 1 / 80 }, "s", "macro step sizes (list)", positive = true },
    { "periods", 40, "", "window eta in vibration periods 2 pi/omega", positive = true },
    { "phase_shifts", { 1e-9, 1e-6, 0.5, 1, 2, 3 }, "rad",
      "shifts of theta0 in the phase-sensitivity study at the largest omega (list)" },
  },
  quick = { H = { 1 / 10, 1 / 20 } },
  work = function(P) -- the table, then the largest omega again at every phase shift
    local table_ = require("kapitza.scenario.work").cs_table(cs.work(function(Q) return Q.periods end))
    local one = setmetatable({ omega = { P.omega[#P.omega] } }, { __index = P })
    return table_(P) + #P.phase_shifts * table_(one), "force evaluations"
  end,
}
local P = sc:parse(arg)
require("kapitza.experiment").no_repeats(sc, P, { "phase_shifts" })

local rows = cs.run(sc, P, { preset = "cs1", kernel = "exponential", periods = P.periods,
                             half_window = false, ignore = { "phase_shifts" } })
-- The tolerance is the print's precision: one unit of the third printed digit, as for Tables 2.2
-- and 2.3 (the cells that miss it are counted, not hidden by a wider tolerance); the one cell that
-- is 3.5 % off is a claim of its own (a known deviation), shown beside the omega = 1e6 cell of
-- the same H in this run and in the print.
cs.write(sc, P, rows, { caption = "Table 2.1 (synchronous algorithm, exponential weight function)", study_keys = { phase_shifts = true },
  apart = { { H = 1 / 40, omega = 1e8, neighbour = 1e6 } } })

-- Phase sensitivity: the largest omega again, with theta0 shifted by each of phase_shifts (from
-- the run's own theta0), each cell against the same cell at the run's theta0; the text names the
-- shifts run, small (below 1e-3 rad: far more than round-off in omega t_n) and O(1) apart.
local base, omega = {}, P.omega[#P.omega]
for _, r in ipairs(rows) do if r.omega == omega then base[r.H] = r.error end end
local study, worst_tiny, worst_big, tiny, big = {}, 0, 0, {}, {}
for _, th in ipairs(P.phase_shifts) do
  local Q = {}
  for k, v in pairs(P) do Q[k] = v end
  Q.theta0, Q.omega = P.theta0 + th, { omega }
  local small = math.abs(th) < 1e-3
  if small then tiny[#tiny + 1] = th else big[#big + 1] = th end
  local shifted = cs.run(sc, Q, { preset = "cs1", kernel = "exponential", periods = P.periods, ignore = { "phase_shifts" } })
  for _, r in ipairs(shifted) do
    local d = math.abs(r.error - base[r.H]) / base[r.H]
    if small then worst_tiny = math.max(worst_tiny, d) else worst_big = math.max(worst_big, d) end
    study[#study + 1] = { theta0 = Q.theta0, H = r.H, omega = omega, error = r.error, reldiff = d }
  end
end
local show = require("kapitza.experiment").show
local function list(t) local o = {} for i, x in ipairs(t) do o[i] = show(x) end return table.concat(o, ", ") end
sc:write_tsv("data/cs-table2.1-phase.tsv", { "theta0", "H", "omega", "error", "reldiff" }, study,
             { string.format("Table 2.1 phase sensitivity: errors at the largest omega with theta0 = %s + each of phase_shifts;", show(P.theta0)),
               string.format("reldiff = |error - error(theta0 = %s)| / error(theta0 = %s)", show(P.theta0), show(P.theta0)) })
local parts = {}
if #tiny > 0 then
  parts[#parts + 1] = string.format("shifting θ₀ by %s rad (below 10⁻³ rad) changes no cell by more than %.1e (relative)", list(tiny), worst_tiny)
end
if #big > 0 then
  parts[#parts + 1] = string.format("shifts of %s rad change cells by up to %.2f%%", list(big), 100 * worst_big)
end
sc:write_text("tables/cs-table2.1-phase.md", string.format("Phase sensitivity at ω = %s, against θ₀ = %s: %s.\n",
  show(omega), show(P.theta0), #parts > 0 and table.concat(parts, "; ") or "no shift run (phase_shifts is empty)"))
