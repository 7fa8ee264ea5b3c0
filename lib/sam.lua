-- sam.lua -- Lua side of stroboscopic averaging (Calvo, Chartier, Murua & Sanz-Serna 2011):
-- the Kepler (19) and van der Pol (17) models, micro-solver choice, runs of SAM / LISP /
-- multirevolution / the conventional integration, reference solutions, error and
-- efficiency helpers. All stepping happens in C (lib/kz_sam*.c); this module configures and
-- collects.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C

local M = {}

M.diffs = { central2 = C.KZ_SAM_CENTRAL2, central4 = C.KZ_SAM_CENTRAL4, lisp = C.KZ_SAM_LISP2,
            forward = C.KZ_SAM_FORWARD }
M.macros = { rk4 = C.KZ_MACRO_RK4, dp5 = C.KZ_MACRO_DP5, ode45 = C.KZ_MACRO_ODE45 }
M.micros = { rk4 = C.KZ_MICRO_RK4, strang = C.KZ_MICRO_STRANG }

local function model(kind, eps)
  kz.finite(eps, kind .. ".eps")
  local obj = { kind = kind, eps = eps, par = ffi.new("kz_" .. kind), sys = ffi.new("kz_sys1"),
                split = ffi.new("kz_split") }
  obj.par.eps = eps
  local r = kz.report()
  kz.call("kz_" .. kind .. "_sys1", obj.sys, obj.par, r)
  kz.call("kz_" .. kind .. "_split", obj.split, obj.par, r)
  obj.dim = obj.sys.dim
  return obj
end

--- The perturbed Kepler problem (19) in tau, y = (x1, x2, v1, v2); period 2 pi.
function M.kepler(eps) return model("kepler", eps) end
--- van der Pol (17) in tau, y = (q, p); period 2 pi.
function M.vdp(eps) return model("vdp", eps) end

--- The micro-solver for a model: kind 'rk4' (on the full system) or 'strang' (its splitting).
function M.micro(mod, kind)
  local k = M.micros[kind]
  if not k then error("sam.micro: kind must be 'rk4' or 'strang' (got " .. tostring(kind) .. ")", 2) end
  local m = ffi.new("kz_micro")
  m.kind = k
  m.sys, m.split = mod.sys, mod.split
  return { c = m, model = mod, dim = mod.dim, kind = kind } -- keeps mod alive
end

local function tolua(buf, off, d)
  local t = {}
  for i = 1, d do t[i] = buf[off + i - 1] end
  return t
end

local function sparams(o)
  local p = ffi.new("kz_sam_params")
  p.period = o.period or 2 * math.pi
  p.t0 = o.t0 or 0
  p.n = o.n
  local diff = M.diffs[o.diff or "central2"]
  if not diff then error("sam: unknown difference formula '" .. tostring(o.diff) .. "'", 3) end
  p.diff = diff
  return p
end

--- SAM (or LISP with diff = 'lisp'). o: n, period (2 pi), t0 (0), diff ('central2'|'central4'|
-- 'lisp'|'forward'), macro ('rk4'|'dp5'|'ode45'), H, rtol, atol, hmax, y0, tout (list).
-- Returns the states at tout (list of arrays), the work counts, and the accepted macro steps
-- {t = {...}, h = {...}}.
function M.sam(mi, o)
  local p = sparams(o)
  local mac = ffi.new("kz_macro")
  local mk = M.macros[o.macro or "rk4"]
  if not mk then error("sam.sam: unknown macro-solver '" .. tostring(o.macro) .. "'", 2) end
  mac.kind, mac.H = mk, o.H or 0
  mac.rtol, mac.atol, mac.hmax = o.rtol or 0, o.atol or 0, o.hmax or 0
  local d, nout = mi.dim, #o.tout
  local tout, yout = kz.vec(nout, o.tout), kz.vec(nout * d)
  local cap = o.hist_cap or 100000
  local ht, hh, nh = kz.vec(cap), kz.vec(cap), ffi.new("long long[1]")
  local r = kz.report()
  kz.call("kz_sam_run", mi.c, p, mac, kz.vec(d, o.y0), nout, tout, yout, ht, hh, cap, nh, r)
  local ys = {}
  for k = 1, nout do ys[k] = tolua(yout, (k - 1) * d, d) end
  local hist = { t = {}, h = {} }
  for k = 1, tonumber(nh[0]) do hist.t[k], hist.h[k] = ht[k - 1], hh[k - 1] end
  return ys, kz.counts(r), hist
end

--- The recovered averaged field F~(Y).
function M.force(mi, o, Y)
  local F, r = kz.vec(mi.dim), kz.report()
  kz.call("kz_sam_force", mi.c, sparams(o), kz.vec(mi.dim, Y), F, r)
  return tolua(F, 0, mi.dim), kz.counts(r)
end

--- Multirevolution RK4 (32): o.N macro steps of o.M periods, n micro-steps per period.
function M.mr(mi, o)
  local y, r = kz.vec(mi.dim, o.y0), kz.report()
  kz.call("kz_mr_run", mi.c, sparams(o), o.M, o.N, y, r)
  return tolua(y, 0, mi.dim), kz.counts(r)
end

--- The conventional integration: o.steps micro-steps of h = period/n from t0, the state
-- recorded after every o.every steps (default: only at the end). Returns the list of states.
function M.conventional(mi, o)
  local period = o.period or 2 * math.pi
  local h = period / o.n
  local every = o.every or o.steps
  local y, r = kz.vec(mi.dim, o.y0), kz.report()
  local out, done = {}, 0
  while done < o.steps do
    local k = math.min(every, o.steps - done)
    kz.call("kz_micro_run", mi.c, (o.t0 or 0) + done * h, h, k, y, r)
    done = done + k
    out[#out + 1] = tolua(y, 0, mi.dim)
  end
  return out, kz.counts(r)
end

--- Reference states: classical RK4 with `m` and `2m` steps per output interval of length L,
-- combined by Richardson extrapolation (y_2m + (y_2m - y_m)/15), at nout equally spaced
-- outputs. Returns the states and the estimated error (max |y_2m - y_m| / 15 at the end).
function M.reference(mod, y0, L, nout, m)
  local res = {}
  for pass, k in ipairs { m, 2 * m } do
    local y, r = kz.vec(mod.dim, y0), kz.report()
    res[pass] = {}
    for j = 1, nout do
      kz.call("kz_rk4_run", mod.sys, (j - 1) * L, L / k, k, y, r)
      res[pass][j] = tolua(y, 0, mod.dim)
    end
  end
  local out, est = {}, 0
  for j = 1, nout do
    out[j] = {}
    for i = 1, mod.dim do
      local a, b = res[1][j][i], res[2][j][i]
      out[j][i] = b + (b - a) / 15
      if j == nout then est = math.max(est, math.abs(b - a) / 15) end
    end
  end
  return out, est
end

--- Euclidean norm of a - b.
function M.dist(a, b)
  local s = 0
  for i = 1, #a do s = s + (a[i] - b[i]) ^ 2 end
  return math.sqrt(s)
end

--- Least-squares slope of log(y) against log(x).
function M.loglog_slope(xs, ys)
  local n, sx, sy, sxx, sxy = #xs, 0, 0, 0, 0
  for i = 1, n do
    local x, y = math.log(xs[i]), math.log(ys[i])
    sx, sy, sxx, sxy = sx + x, sy + y, sxx + x * x, sxy + x * y
  end
  return (n * sxy - sx * sy) / (n * sxx - sx * sx)
end

--- The work a curve {work = {...}, err = {...}} (errors decreasing with work) needs to reach
-- error e, by piecewise-linear interpolation in log-log (extrapolating the end segments).
function M.work_at(curve, e)
  local w, er = curve.work, curve.err
  local n = #w
  local i = 1
  while i < n - 1 and er[i + 1] > e do i = i + 1 end
  local x1, x2, y1, y2 = math.log(er[i]), math.log(er[i + 1]), math.log(w[i]), math.log(w[i + 1])
  return math.exp(y1 + (math.log(e) - x1) * (y2 - y1) / (x2 - x1))
end

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

--- Claims table: rows {claim, paper, reproduced, holds (bool)} -> Markdown and tsv rows.
function M.claims_md(S, rows, note)
  local md = {}
  for i, c in ipairs(rows) do md[i] = { c[1], c[2], c[3], c[4] and "yes" or "**no**" } end
  return S.md_table({ "claim (paper)", "published", "reproduced", "holds" }, md) ..
         (note and ("\n" .. note .. "\n") or "")
end

function M.claims_tsv(rows)
  local out = {}
  for i, c in ipairs(rows) do
    out[i] = { claim = c.key, published = c.pub or "", reproduced = c.val, holds = c[4] and 1 or 0 }
  end
  return { "claim", "published", "reproduced", "holds" }, out
end

return M
