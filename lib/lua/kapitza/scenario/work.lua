-- work.lua -- the pieces of the scenarios' work estimates (spec.work of lib/lua/kapitza/scenario.lua): a
-- cheap count, from the parameters alone, of the force (right-hand side) evaluations a run will
-- make, so that a run that could not finish is refused before it starts (KZ_MAX_WORK, --force).
-- Each estimate is checked against the counted evaluations at the scenario's default and
-- --quick parameters to within a factor of 3 (tests/scenario_exit_spec.lua). Nothing here runs
-- anything.
local kz = require "kapitza"

local M = {}

--- Force evaluations per step of the registry stepper `name` (4 for a name that is not one: the
-- run refuses it later, with its own message).
function M.evals(name)
  local T = type(name) == "string" and name ~= "names" and kz.steppers[name]
  return T and tonumber(T.evals) or 4
end

--- Steps of a run on [0, T] sampled every dt with steps of at most hmax (experiment.grid):
-- T/dt samples of ceil(dt/hmax) steps each.
function M.grid_steps(T, dt, hmax)
  hmax = hmax or dt
  local per = dt <= hmax and 1 or math.ceil(dt / hmax - 1e-9)
  return math.ceil(T / dt - 1e-9) * per
end

--- Evaluations of such a run by a stepper of `evals` evaluations per step (default RK4: 4).
function M.grid(T, dt, hmax, evals) return (evals or 4) * M.grid_steps(T, dt, hmax) end

--- Evaluations of an HMM run: T/H macro steps, `per_step` force estimates each (default 1), of
-- eta/h micro-steps of a stepper with `evals` evaluations per step.
function M.hmm(T, H, eta, h, evals, per_step)
  return (per_step or 1) * math.ceil(T / H - 1e-9) * (eta / h) * (evals or 1)
end

--- The sum of f(x) over a list.
function M.sum(list, f)
  local s = 0
  for _, x in ipairs(list) do s = s + f(x) end
  return s
end

---------------------------------------------------------------------------------------------------
-- Sharp, Tsai & Engquist (lib/lua/kapitza/papers/ste.lua)
---------------------------------------------------------------------------------------------------

-- One HMM-X-y run of the inverted pendulum: T/H estimates (two per step for X = V) of eta/h
-- micro-steps of y (v: Verlet, rk4, lf: leapfrog).
local function ste_run(P, X, y, H, eta, h)
  local ste = require "kapitza.papers.ste"
  return M.hmm(P.T, H, eta, h, M.evals(ste.micros[y]), X == "V" and 2 or 1)
end

--- The averaged reference (3.2) on the grid H (RK4, steps <= ref_dt).
function M.ste_reference(P, T, H) return M.grid(T, H, P.ref_dt) end

--- Figure 3.1: the reference and the runs HMM-FE-y and HMM-IFE-y.
function M.ste_fig31(P)
  local eta, h = P.eta_eps * P.eps, P.eps / P.h_per_eps
  local n = M.ste_reference(P, P.T, P.H)
  -- the HMM runs with the micro-stepper, and again with the control micro-stepper
  for _, m in ipairs(P.control ~= P.micro and { P.micro, P.control } or { P.micro }) do
    n = n + ste_run(P, "FE", m, P.H, eta, h) + ste_run(P, "IFE", m, P.H, eta, h)
  end
  -- the traditional methods: each stepper directly on (1.1) with h = eps/h_per_eps, over [0, T]
  for _, e in ipairs(P.direct_eps or {}) do
    for _, name in ipairs(P.direct or {}) do n = n + M.evals(name) * math.ceil(P.T * P.h_per_eps / e) end
  end
  return n, "force evaluations"
end

--- Figures 3.2-3.5: every curve at every H (scaled curves with their own eta and h, ste.scaled),
-- and a reference per H.
function M.ste_curves(P)
  local ste = require "kapitza.papers.ste"
  local n, seen = 0, {}
  for _, H in ipairs(P.H) do
    if not seen[H] then seen[H] = true; n = n + M.ste_reference(P, P.T, H) end
  end
  for _, name in ipairs(P.curves) do
    local X, y, scaled = tostring(name):match("^HMM%-(%u+)%-(%w+)(.*)$")
    local known = X and ste.macro_order[X] and ste.micro_order[y]
    for _, H in ipairs(P.H) do
      local o = { macro = X, micro = y, H = H, T = P.T, eta = P.eta_eps * P.eps, h = P.eps / P.h_per_eps, q = P.q }
      if known and scaled == "-scaled" then o.eta, o.h = ste.scaled(o) end
      n = n + ste_run(P, X, known and y or "rk4", H, o.eta, o.h)
    end
  end
  return n, "force evaluations"
end

---------------------------------------------------------------------------------------------------
-- The fast top (lib/lua/kapitza/papers/top.lua)
---------------------------------------------------------------------------------------------------

--- A reference of the top by RK4 on the grid dt with steps <= hmax (top.reference); `check`: run
-- again with hmax/2.
function M.top_reference(T, dt, hmax, check)
  local n = M.grid(T, dt, hmax)
  return check and 3 * n or n
end

--- The slow-variable HMM (Algorithms 3-4, hmm.slow_run): T/H force estimates of eta_h micro-steps
-- of the stepper `micro`.
function M.top_hmm(T, H, eta_h, micro) return M.hmm(T, H, eta_h, 1, M.evals(micro)) end

--- The search for the RK4 step that reaches the HMM's accuracy on the grid T/N (m = 1, 2, ...
-- substeps until it does): counted at a typical m = 8.
function M.rk4_search(N) return 4 * N * 36 end

--- top.vertical at the frequency nu: the top (41) (steps <= full_h/nu) and (48) with its three
-- coefficients (steps <= avg_h), on the grid fine_dt.
function M.top_vertical(P, nu) return M.grid(P.T, P.fine_dt, P.full_h / nu) + 3 * M.grid(P.T, P.fine_dt, P.avg_h) end

---------------------------------------------------------------------------------------------------
-- Calvo & Sanz-Serna, Tables 2.1-2.3 (lib/lua/kapitza/papers/cs.lua)
---------------------------------------------------------------------------------------------------

--- The work of a table: `runs` sweeps of cs_tables.work's micro-steps (of the stepper P.micro) and,
-- per H, the exact averaged solution (RK4, steps <= 1/20480 s) and Verlet with step H.
function M.cs_table(micro_steps, runs)
  return function(P)
    local n = micro_steps(P)
    return (runs or 1) * n * M.evals(P.micro)
      + M.sum(P.H, function(H) return M.grid(P.T, H, 1 / 20480) + M.grid(P.T, H, H, 1) end), "force evaluations"
  end
end

return M
