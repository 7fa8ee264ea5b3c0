-- experiment.lua -- what every paper's experiments share: reference solutions, error norms,
-- slope fits (least squares and local slopes), equal-error work, ranges, and the claims table.
--
--   local E = require "kapitza.experiment"
--   local ref = E.grid(model.avg, T, H, { Q0, P0 }, 1 / 20480)   -- RK4 on the grid t_n = n H
--   local e = E.maxdiff(Q, ref[1])                               -- sup over the nodes
--   local s = E.slope(Hs, errs)                                  -- fitted order
--   local cl = E.claims(sc)                                      -- paper/reference/<id>.tsv
--   cl:claim { key = "order", text = "the paper's claim", published = "2", any = "why", judge = ... }
--   cl:write()                                                   -- tables/<id>.{md,tsv} (claims.lua)
--
-- Everything numerical that loops over steps runs in C (kz_trajectory); this module collects.
local kz = require "kapitza"
local S = require "kapitza.scenario"

local M = {}

---------------------------------------------------------------------------------------------------
-- Reference solutions
---------------------------------------------------------------------------------------------------

--- The solution of the kz_sys s on the grid t_n = t0 + n dt, n = 0..N (N = T/dt must be whole),
-- by `stepper` (default "rk4") with steps dt/m, m = ceil(dt/hmax) (so the step is at most hmax;
-- when dt/hmax rounds to just above a whole number m is one more). Returns the components as
-- Lua arrays, cols[i][n + 1] = y_i(t_n), and the counts.
function M.grid(s, T, dt, y0, hmax, stepper, t0)
  local N = tonumber(kz.C.kz_steps_in(T, dt))
  if N < 1 then error(string.format("experiment.grid: T = %g is not a whole number of steps %g", T, dt), 2) end
  local m = math.ceil(dt / (hmax or dt))
  local out, counts = kz.trajectory(s, stepper or "rk4", t0 or 0, dt / m, m, N, y0)
  local d, cols = s.dim, {}
  for i = 1, d do cols[i] = {} end
  for n = 0, N do
    for i = 1, d do cols[i][n + 1] = out[n * d + i - 1] end
  end
  return cols, counts
end

--- Reference states of the system s from y0 by a registry stepper (default RK4, order 4) with m
-- and 2m steps per output interval of length L, combined by Richardson extrapolation
-- (y_2m + (y_2m - y_m)/(2^order - 1)), at nout equally spaced outputs (t = L, 2L, ...). Returns
-- the states (Lua arrays), the estimated error |y_2m - y_m|/(2^order - 1) at the last output (the
-- largest over the components), the same estimate per component (a Lua array) and the run with
-- 2m steps (a C buffer). `coarse`, when given, is that run of an earlier call with m (here the
-- run with m steps, the same numbers): a caller that doubles m until the estimate is small
-- computes each run once.
function M.richardson(s, y0, L, nout, m, stepper, order, coarse)
  stepper, order = stepper or "rk4", order or 4
  local res = { coarse }
  for pass, k in ipairs { m, 2 * m } do
    if not res[pass] then res[pass] = kz.trajectory(s, stepper, 0, L / k, k, nout, y0) end
  end
  local d, states, est, ests, f = s.dim, {}, 0, {}, 2 ^ order - 1
  for j = 1, nout do
    states[j] = {}
    for i = 1, d do
      local a, b = res[1][j * d + i - 1], res[2][j * d + i - 1]
      states[j][i] = b + (b - a) / f
      if j == nout then est, ests[i] = math.max(est, math.abs(b - a) / f), math.abs(b - a) / f end
    end
  end
  return states, est, ests, res[2]
end

--- Refuse (sc:fail, exit 2, before anything runs) a list parameter whose items repeat (a fitted
-- slope over a repeated abscissa is 0/0); with o.count, one with fewer items; with o.even, an odd
-- item; with o.increasing, items out of increasing order.
function M.check_list(sc, P, key, o)
  o = o or {}
  local list, seen = P[key], {}
  if o.count and #list < o.count then
    sc:fail(string.format("parameter '%s': %d or more values are needed, got %d", key, o.count, #list))
  end
  for i, v in ipairs(list) do
    if seen[v] then sc:fail(string.format("parameter '%s': %s is given twice", key, tostring(v))) end
    seen[v] = true
    if o.even and v % 2 ~= 0 then sc:fail(string.format("parameter '%s': %s is odd (each must be even)", key, tostring(v))) end
    if o.increasing and i > 1 and not (v > list[i - 1]) then
      sc:fail(string.format("parameter '%s': the values must increase (%s after %s)", key, tostring(v), tostring(list[i - 1])))
    end
  end
end

--- The most grid points (rows of a trajectory kept in memory as Lua columns and a C buffer) a
-- scenario stores: 10^7 rows of 6 numbers are about 1 GB. The papers' runs store at most 10^5.
M.max_points = 1e7

--- Refuse (sc:fail, exit 2, before anything runs) a run that would store n grid points; `what`
-- names the keys and the ratio, e.g. "parameters 'T', 'h': T/h".
function M.check_points(sc, n, what)
  if not (n <= M.max_points) then
    sc:fail(string.format("%s = %.3g grid points would be stored (at most %g, about %.0f MB): shorten the span or enlarge the step",
                          what, n, M.max_points, M.max_points * 6 * 16 / 1e6))
  end
end

--- Refuse (sc:fail) a sampling grid t_n = n dt that does not divide T into whole steps, or that
-- would store too many points; `keys` names them, e.g. "parameters 'T', 'dt'". Returns T/dt.
function M.check_grid(sc, T, dt, keys)
  local N = tonumber(kz.C.kz_steps_in(T, dt))
  if N < 1 then sc:fail(string.format("%s: T = %g is not a whole number of steps %g", keys, T, dt)) end
  M.check_points(sc, N + 1, keys .. ": T/step")
  return N
end

---------------------------------------------------------------------------------------------------
-- Error norms
---------------------------------------------------------------------------------------------------

--- Euclidean norm of a - b (Lua arrays). Squares as x * x, not x ^ 2: LuaJIT's interpreter and
-- its compiled traces differ in the last bit for ^ (scenario.pow10).
function M.dist(a, b)
  local s = 0
  for i = 1, #a do local d = a[i] - b[i]; s = s + d * d end
  return math.sqrt(s)
end

--- max_n |a_n - b_n| over two equally long arrays.
function M.maxdiff(a, b)
  assert(#a == #b, "maxdiff: lengths differ")
  local e = 0
  for i = 1, #a do e = math.max(e, math.abs(a[i] - b[i])) end
  return e
end

--- max_n of the Euclidean norm over components: cols_a[i][n] against cols_b[i][n], for n in
-- [from, to] (default: all).
function M.max_norm(cols_a, cols_b, from, to)
  local e = 0
  for n = from or 1, to or #cols_a[1] do
    local s = 0
    for i = 1, #cols_a do local d = cols_a[i][n] - cols_b[i][n]; s = s + d * d end
    e = math.max(e, math.sqrt(s))
  end
  return e
end

---------------------------------------------------------------------------------------------------
-- Slopes
---------------------------------------------------------------------------------------------------

--- Least-squares slope of log(y) against log(x): the fitted order of a convergence curve.
M.slope = S.loglog_slope

--- The slopes between consecutive points (x sorted as given): n - 1 numbers.
function M.local_slopes(xs, ys)
  local t = {}
  for i = 2, #xs do t[i - 1] = M.slope({ xs[i - 1], xs[i] }, { ys[i - 1], ys[i] }) end
  return t
end

--- The least-squares slope over the points with lo <= x <= hi (relative tolerance 1e-9), and
-- how many points it used.
function M.slope_in(xs, ys, lo, hi)
  local a, b = {}, {}
  for i = 1, #xs do
    if xs[i] >= lo * (1 - 1e-9) and xs[i] <= hi * (1 + 1e-9) then a[#a + 1], b[#b + 1] = xs[i], ys[i] end
  end
  if #a < 2 then return nil, #a end
  return M.slope(a, b), #a
end

--- The work a curve {work = {...}, err = {...}} (errors decreasing with work) needs to reach
-- error e, by piecewise-linear interpolation in log-log (extrapolating the end segments).
function M.work_at(curve, e)
  local w, er = curve.work, curve.err
  local n = #w
  if n < 2 then error("experiment.work_at: a curve needs at least two points (got " .. n .. ")", 2) end
  local i = 1
  while i < n - 1 and er[i + 1] > e do i = i + 1 end
  local x1, x2, y1, y2 = math.log(er[i]), math.log(er[i + 1]), math.log(w[i]), math.log(w[i + 1])
  return math.exp(y1 + (math.log(e) - x1) * (y2 - y1) / (x2 - x1))
end

--- The cost (field `key` of the points, e.g. "work" or "seconds") a method needs for error e,
-- from its runs pts = {{error = ..., [key] = ...}, ...} in any order, never extrapolated: the
-- cheapest of (a) log-log interpolation between two runs whose errors bracket e and (b) the
-- cheapest run already at least as accurate as e. Returns the cost and `bound` (true when (b)
-- gave it: then it is an upper bound), or nil when every run is less accurate than e. Runs with a
-- non-finite or non-positive error or cost are ignored.
function M.cost_at(pts, e, key)
  local ok = {}
  for _, p in ipairs(pts) do
    local er, c = p.error, p[key]
    if type(er) == "number" and type(c) == "number" and er > 0 and er < math.huge and c > 0 and c < math.huge then
      ok[#ok + 1] = p
    end
  end
  table.sort(ok, function(a, b) return a.error > b.error end)
  local best, bound
  for _, p in ipairs(ok) do
    if p.error <= e and (not best or p[key] < best) then best, bound = p[key], true end
  end
  for k = 1, #ok - 1 do
    local a, b = ok[k], ok[k + 1]
    if a.error >= e and b.error <= e and a.error > b.error then
      local x = (math.log(e) - math.log(a.error)) / (math.log(b.error) - math.log(a.error))
      local c = math.exp(math.log(a[key]) + x * (math.log(b[key]) - math.log(a[key])))
      if not best or c <= best then best, bound = c, false end
    end
  end
  return best, bound
end

--- "lo–hi" of a list in format fmt (one value when both print alike), with lo and hi; "—" (and
-- nil, nil) for an empty list.
function M.range(xs, fmt)
  if #xs == 0 then return "—" end
  local lo, hi = math.huge, -math.huge
  for _, x in ipairs(xs) do lo, hi = math.min(lo, x), math.max(hi, x) end
  fmt = fmt or "%.3g"
  if string.format(fmt, lo) == string.format(fmt, hi) then return string.format(fmt, lo), lo, hi end
  return string.format(fmt .. "–" .. fmt, lo, hi), lo, hi
end

---------------------------------------------------------------------------------------------------
-- The command line: optional lists
---------------------------------------------------------------------------------------------------

--- Optional lists: a list parameter flagged `optional = true` may be emptied by giving its key
-- without a value ("omega_extra="), which sc:parse refuses. E.optional(sc, argv) returns argv
-- without those keys and the set of keys to empty; the scenario passes the first to sc:parse
-- (from its main chunk: parse runs the script protected only when called from there) and the
-- second to E.emptied(P, empty). A key given both empty and with values is refused like any key
-- given twice.
function M.optional(sc, argv)
  local keep, empty = {}, {}
  for _, a in ipairs(argv or {}) do
    local k = a:match("^([%w_]+)=$")
    local p = k and sc.byname[k]
    if p and p.optional and type(p[2]) == "table" then
      if empty[k] then sc:fail(string.format("parameter '%s' is given twice", k)) end
      empty[k] = true
    else
      keep[#keep + 1] = a
    end
  end
  for _, a in ipairs(keep) do
    local k = a:match("^([%w_]+)=")
    if k and empty[k] then sc:fail(string.format("parameter '%s' is given twice", k)) end
  end
  return keep, empty
end

--- Set the lists of E.optional's `empty` to {} in the parsed parameters P; returns P.
function M.emptied(P, empty)
  for k in pairs(empty) do P[k] = {} end
  return P
end

---------------------------------------------------------------------------------------------------
-- The claims table (lib/lua/kapitza/claims.lua), under the names the scenarios use
---------------------------------------------------------------------------------------------------
local Cl = require "kapitza.claims"
for _, k in ipairs { "claims", "na", "off_paper", "quote", "no_repeats", "is_na", "verdict_of", "T", "join", "text", "show",
                     "count", "premise", "at_least", "inside", "resolves", "paper_at" } do M[k] = Cl[k] end

return M
