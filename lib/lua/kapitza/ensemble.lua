-- ensemble.lua -- many trajectories of one model in one C call (lib/methods/kz_ens.c): M members that
-- differ in their initial states and/or parameter values, advanced together by the library's own
-- methods on a structure-of-arrays state, vectorised over the members and split over threads.
--
--   local ens = require "kapitza.ensemble"
--   -- 200 x 200 (amplitude, frequency) pairs of the vibrated pendulum (2.2), all from q = 0.1:
--   local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = freqs }  -- lists or numbers
--   local q, v, failed = ens.run(e, { stepper = "rk4", h = 1e-5, n = 10000, q0 = 0.1, v0 = 0 })
--   -- q[m], v[m]: member m's final state (NaN when failed[m] ~= 0)
--
-- Members: every parameter is a number (shared) or a list of M numbers; initial states likewise.
-- The phase form (the HMM) needs one omega and theta0 for the whole ensemble (one shared fast
-- phase). Results equal the members' scalar runs up to the vector math library's rounding
-- (tests/ensemble_spec.lua measures it). Threads: o.threads (default 1; KZ_THREADS), run by a
-- worker pool (kz_pool) that this module creates once per thread count and reuses for every call
-- of this Lua state; the results are bit-identical for any thread count.
-- Observers (o.observe, kapitza/ens.h's kz_obs), recorded in C inside the one call, per member:
--   observe = { every = k,                        -- steps (rows) between checks, default 1
--               max = "q" or { "q", "v" },         -- the running max of |component|
--               cross = { "q", level = 1, abs = true, dir = "down", stop = true, every = 1 },
--                                                  -- time of the first check beyond level (or a list)
--               sample = true or "q" or { "q", every = 10 },  -- the state at every check
--               final = "hamiltonian" or { ... } } -- an invariant of the model at the last state
-- give a fifth result (ens.run; the last one of the other runs): { max = { q = {...} },
-- cross = { q = { times, NaN where none } }, sample = { t = { times }, q = { row 1, ... } },
-- final = { hamiltonian = {...} } }. Components by name (q, v; q1.., v1..; y, y1..) or index.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C

local M = {}

local function fail(msg) error("ensemble: " .. msg, 3) end

-- The size of the ensemble: the length of any list among the values (all lists the same length).
local function size(values, names, given)
  local n = given
  for _, k in ipairs(names) do
    local v = values[k]
    if type(v) == "table" then
      if n and #v ~= n then fail(string.format("'%s' has %d values, other lists have %d", k, #v, n)) end
      n = #v
    end
  end
  return n or 1
end

-- A double[n] of a number (repeated) or a list of n numbers, each checked finite.
local function array(v, n, name)
  local a = ffi.new("double[?]", n)
  if type(v) == "number" then
    if v ~= v or v == math.huge or v == -math.huge then fail(name .. " must be finite") end
    for i = 0, n - 1 do a[i] = v end
  elseif type(v) == "table" then
    if #v ~= n then fail(string.format("'%s' must have %d values (got %d)", name, n, #v)) end
    for i = 1, n do
      local x = v[i]
      if type(x) ~= "number" or x ~= x or x == math.huge or x == -math.huge then
        fail(string.format("%s[%d] must be a finite number (got %s)", name, i, tostring(x)))
      end
      a[i - 1] = x
    end
  else
    fail(string.format("'%s' must be a number or a list of numbers (got %s)", name, type(v)))
  end
  return a
end

local function build(kind, ctype, init, names, defaults, t, invariants)
  if type(t) ~= "table" then fail(kind .. ": give a table of parameter values") end
  for k in pairs(t) do
    local known = k == "M"
    for _, n in ipairs(names) do known = known or k == n end
    if not known then fail(string.format("%s: unknown parameter '%s' (%s)", kind, tostring(k), table.concat(names, ", "))) end
  end
  local vals = {}
  for _, k in ipairs(names) do
    vals[k] = t[k]
    if vals[k] == nil then vals[k] = defaults[k] end
    if vals[k] == nil then fail(kind .. ": parameter '" .. k .. "' is missing") end
  end
  local n = size(vals, names, t.M)
  local par = ffi.new(ctype)
  local keep = {}
  for _, k in ipairs(names) do
    keep[k] = array(vals[k], n, k)
    par[k] = keep[k]
  end
  local e = ffi.new("kz_ens")
  kz.call(init, e, par, n, kz.report())
  return { kind = kind, c = e, par = par, keep = keep, M = n, dim = e.dim, nq = e.nq,
           width = tonumber(e.width), phase = e.phase_accel ~= nil, invariants = invariants }
end

--- Calvo & Sanz-Serna's vibrated pendulum (2.2) for M members: {l, g, vmax, omega, theta0 (0), M}.
function M.pendulum(t)
  return build("pendulum", "kz_pendulum_ens", "kz_pendulum_ens_init", { "l", "g", "vmax", "omega", "theta0" },
               { theta0 = 0 }, t, { hamiltonian = C.kz_pendulum_ens_hamiltonian })
end

--- Sharp, Tsai & Engquist's inverted pendulum (1.1) for M members: {eps, g, l, M}.
function M.ste(t)
  return build("ste", "kz_ste_ens", "kz_ste_ens_init", { "eps", "g", "l" }, {}, t,
               { hamiltonian = C.kz_ste_ens_hamiltonian })
end

--- A model of your own (lib/lua/kapitza/usermodel.lua) given as C source, for M members: model is its spec
-- or a model made from it (um.model(spec, values, "c")), values a table by parameter name of
-- numbers (shared) or lists of M numbers (the spec's defaults, theta0 = 0 and derived
-- parameters as um.model has them, member by member). The generated wrappers run the members'
-- loop with the user's function inlined, vectorised (OpenMP SIMD, libmvec) for the machine at
-- hand (target_clones: AVX-512, AVX2, or the x86-64 baseline: e.width doubles per vector). The
-- phase form (the HMM) when the model is fast-forced and every member has the same omega and
-- theta0. A Lua-function model is refused: its functions are FFI callbacks, one member at a time
-- (run its members with a loop of kz.run / hmm.run). members: M when no value is a list (members
-- that differ only in their initial states); otherwise it must equal the lists' length.
function M.user(model, values, members)
  if type(model) ~= "table" then fail("user: give a usermodel spec or a model made from one") end
  if model.how == "lua" then fail("user: Lua-function models run member by member: use a loop of kz.run (or give the model's C source)") end
  local spec = model.spec or model
  values = values or {}
  if type(values) ~= "table" then fail("user: values must be a table { <parameter> = number or list }") end
  local n
  for k, v in pairs(values) do
    if type(v) == "table" then
      if n and #v ~= n then fail(string.format("user: '%s' has %d values, other lists have %d", tostring(k), #v, n)) end
      n = #v
    end
  end
  if members ~= nil then -- the size given (members that differ in their initial states alone)
    if type(members) ~= "number" or members < 1 or members ~= math.floor(members) then fail("user: members must be a whole number >= 1") end
    if n and n ~= members then fail(string.format("user: the lists have %d values, members = %d", n, members)) end
    n = members
  end
  n = n or 1
  if n < 1 then fail("user: a list of values is empty") end
  local um = require "kapitza.usermodel"
  local first = {}
  for k, v in pairs(values) do first[k] = type(v) == "table" and v[1] or v end
  local ns, L, fns, par = um.ensemble(spec, first)
  local np = #L.params
  local keep, ptrs = {}, ffi.new("const double *[?]", np)
  for i = 1, np do
    keep[i] = ffi.new("double[?]", n)
    ptrs[i - 1] = keep[i]
  end
  local vm = {}
  for m = 1, n do
    for k, v in pairs(values) do vm[k] = type(v) == "table" and v[m] or v end
    local ok, P = pcall(par, vm)
    if not ok then fail(string.format("user: member %d: %s", m, tostring(P))) end
    for i, p in ipairs(L.params) do keep[i][m - 1] = P[p] end
  end
  local e = ffi.new("kz_ens")
  e.M, e.dim, e.nq, e.par = n, L.dim, L.nq, ptrs
  e.width = ns.kzu_ens_width()
  e["" .. L.force] = ns["kzu_ens_" .. L.force]
  local function same(i)
    if not i then return true end
    for m = 1, n - 1 do if keep[i][m] ~= keep[i][0] then return false end end
    return true
  end
  if L.vibrated and same(L.index.omega) and same(L.index.theta0) then
    e["phase_" .. L.force] = ns["kzu_ens_phase_" .. L.force]
    if fns.reconstruct then e.reconstruct = ns.kzu_ens_reconstruct end
    e.omega = keep[L.index.omega][0]
    e.theta0 = L.index.theta0 and keep[L.index.theta0][0] or 0
    e.even_in_theta = spec.even_in_theta and 1 or 0
  end
  kz.call("kz_ens_check", e, kz.report())
  local inv = {}
  for _, name in ipairs(fns.parts and fns.parts.invariants and fns.parts.invariant_names or {}) do
    local sym = "kzu_ens_inv_" .. name
    pcall(ffi.cdef, "int " .. sym .. "(void *par, long long m0, int M, double t, const double *y, double *out);")
    inv[name] = ns[sym]
  end
  return { kind = spec.name, c = e, par = ptrs, keep = keep, lib = ns, M = n, dim = L.dim, nq = L.nq,
           width = tonumber(e.width), phase = e.phase_accel ~= nil or e.phase_rhs ~= nil, invariants = inv }
end

-- The initial states in the ensemble's layout from q0/v0 (second order) or y0 (lists or numbers).
local function states(e, o)
  local n, d, nq = e.M, e.dim, e.nq
  local y = ffi.new("double[?]", n * d)
  local comps = {}
  if nq > 0 then
    for i = 1, nq do
      comps[i] = nq == 1 and o.q0 or (o.q0 or {})[i]
      comps[nq + i] = nq == 1 and (o.v0 or 0) or (o.v0 or {})[i] or 0
    end
    if o.q0 == nil then fail("give q0 (a number or a list of " .. n .. ")") end
  else
    if o.y0 == nil then fail("give y0") end
    for i = 1, d do comps[i] = o.y0[i] end
  end
  for i = 1, d do
    local a = array(comps[i], n, i <= math.max(nq, 1) and "q0" or "v0")
    for m = 0, n - 1 do y[(i - 1) * n + m] = a[m] end
  end
  return y
end

local function threads(o)
  local t = o.threads or tonumber(os.getenv("KZ_THREADS") or "") or 1
  if type(t) ~= "number" or t < 1 or t ~= math.floor(t) or t > 256 then fail("threads must be a whole number in 1..256") end
  return t
end

-- The worker pools of this Lua state, one per thread count, created on first use and kept (the
-- threads are paid for once, not per call); freed with the state (ffi.gc).
local pools = {}
--- The pool of n threads (nil for 1: the calling thread alone), for the C API's pool argument.
function M.pool(n)
  if n == 1 then return nil end
  if not pools[n] then
    local out = ffi.new("kz_pool *[1]")
    kz.call("kz_pool_new", n, out, kz.report())
    pools[n] = ffi.gc(out[0], C.kz_pool_free)
  end
  return pools[n]
end
local function pool(o) return M.pool(threads(o)) end

-- The names of an ensemble's components: q, v (one degree of freedom), q1.. v1.., y or y1...
local function comp_names(e)
  local t = {}
  if e.nq == 1 then return { "q", "v" } end
  if e.nq > 1 then
    for i = 1, e.nq do t[i], t[e.nq + i] = "q" .. i, "v" .. i end
    return t
  end
  if e.dim == 1 then return { "y" } end
  for i = 1, e.dim do t[i] = "y" .. i end
  return t
end

local OBS_KEYS = { every = true, max = true, cross = true, sample = true, final = true }

--- The observers of o.observe for ensemble e over a run of n steps (rows: n = rows - 1), the time
-- of check k given by time(k): returns the kz_obs array and its count (nil, 0 without observers)
-- and a function that reads the results after the call. stop_ok: the run can stop members.
function M.observers(e, ob, n, time, stop_ok)
  if ob == nil then return nil, 0, function() return nil end end
  if type(ob) ~= "table" then fail("observe must be a table { every, max, cross, sample, final }") end
  for k in pairs(ob) do
    if not OBS_KEYS[k] then fail(string.format("observe: unknown key '%s' (every, max, cross, sample, final)", tostring(k))) end
  end
  local names = comp_names(e)
  local index = {}
  for i, nm in ipairs(names) do index[nm] = i end
  local function comp(c)
    local i = type(c) == "number" and c or index[c]
    if type(i) ~= "number" or i ~= math.floor(i) or not names[i] then
      fail(string.format("observe: unknown component '%s' (%s, or 1..%d)", tostring(c), table.concat(names, ", "), e.dim))
    end
    return i
  end
  local function every(v, what)
    v = v == nil and (ob.every or 1) or v
    if type(v) ~= "number" or v < 1 or v ~= math.floor(v) then fail(string.format("observe: %s every must be a whole number >= 1", what)) end
    return v
  end
  local list, reads = {}, {}
  local Mn = e.M
  local function add(kind, o, nout)
    local buf = ffi.new("double[?]", nout)
    o.kind, o.out, o.nout = kind, buf, nout
    list[#list + 1] = { o = o, buf = buf }
    return buf
  end
  local function member_list(buf, off)
    local t = {}
    for m = 1, Mn do t[m] = buf[off + m - 1] end
    return t
  end
  local res = {}
  local function as_list(v) return type(v) == "table" and v or { v } end
  if ob.max ~= nil then
    res.max = {}
    local ev = every(nil, "max")
    for _, c in ipairs(as_list(ob.max)) do
      local i = comp(c)
      local buf = add(C.KZ_OBS_MAX, { comp = i - 1, every = ev }, Mn)
      reads[#reads + 1] = function() res.max[names[i]] = member_list(buf, 0) end
    end
  end
  if ob.cross ~= nil then
    res.cross = {}
    local cl = ob.cross
    if type(cl) ~= "table" then fail("observe: cross must be a table { comp, level = ..., abs, dir, stop, every }") end
    if cl.level ~= nil or type(cl[1]) ~= "table" then cl = { cl } end
    for _, x in ipairs(cl) do
      if type(x) ~= "table" then fail("observe: cross must be a table { comp, level = ..., abs, dir, stop, every }") end
      for k in pairs(x) do
        if not (k == 1 or k == "comp" or k == "level" or k == "abs" or k == "dir" or k == "stop" or k == "every") then
          fail(string.format("observe: cross has no key '%s' (comp, level, abs, dir, stop, every)", tostring(k)))
        end
      end
      local i = comp(x.comp or x[1])
      if res.cross[names[i]] then fail("observe: two crossing observers on " .. names[i]) end
      res.cross[names[i]] = true
      if type(x.level) ~= "number" or x.level ~= x.level or math.abs(x.level) == math.huge then fail("observe: cross needs a finite level") end
      if x.dir ~= nil and x.dir ~= "up" and x.dir ~= "down" then fail("observe: cross dir must be 'up' or 'down'") end
      if x.stop and not stop_ok then fail("observe: stop is for ens.run (a direct run) only") end
      local buf = add(C.KZ_OBS_CROSS, { comp = i - 1, every = every(x.every, "cross"), level = x.level,
                                       absolute = x.abs and 1 or 0, dir = x.dir == "down" and -1 or 1, stop = x.stop and 1 or 0 }, Mn)
      reads[#reads + 1] = function() res.cross[names[i]] = member_list(buf, 0) end
    end
  end
  if ob.sample ~= nil and ob.sample ~= false then
    local sp = ob.sample
    local ev = every(type(sp) == "table" and sp.every or nil, "sample")
    local comps = {}
    if sp == true then for i = 1, e.dim do comps[i] = i end
    elseif type(sp) == "table" and #sp == 0 then for i = 1, e.dim do comps[i] = i end
    else for j, c in ipairs(as_list(sp)) do comps[j] = comp(c) end end
    local rows = tonumber(C.kz_obs_checks(n, ev))
    local whole = #comps == e.dim
    local nc = whole and e.dim or 1
    local bufs = {}
    if whole then bufs[1] = add(C.KZ_OBS_SAMPLE, { comp = -1, every = ev }, rows * nc * Mn)
    else for j, i in ipairs(comps) do bufs[j] = add(C.KZ_OBS_SAMPLE, { comp = i - 1, every = ev }, rows * Mn) end end
    reads[#reads + 1] = function()
      local out = { t = {} }
      for j = 0, rows - 1 do out.t[j + 1] = time(j * ev) end
      for j, i in ipairs(comps) do
        local col, buf, ci = {}, whole and bufs[1] or bufs[j], whole and (i - 1) or 0
        for r = 0, rows - 1 do col[r + 1] = member_list(buf, (r * nc + ci) * Mn) end
        out[names[i]] = col
      end
      res.sample = out
    end
  end
  if ob.final ~= nil then
    res.final = {}
    for _, f in ipairs(as_list(ob.final)) do
      local fn = type(f) == "string" and e.invariants and e.invariants[f]
      if not fn then
        local have = {}
        for k in pairs(e.invariants or {}) do have[#have + 1] = k end
        table.sort(have)
        fail(string.format("observe: final '%s': the model %s has no such invariant (%s)", tostring(f), tostring(e.kind),
                           #have > 0 and table.concat(have, ", ") or "none"))
      end
      local buf = add(C.KZ_OBS_FINAL, { fn = fn, every = 1 }, Mn)
      reads[#reads + 1] = function() res.final[f] = member_list(buf, 0) end
    end
  end
  if #list == 0 then return nil, 0, function() return res end end
  local arr = ffi.new("kz_obs[?]", #list)
  for j, x in ipairs(list) do
    local o = arr[j - 1]
    for k, v in pairs(x.o) do o[k] = v end
  end
  local keep = list
  return arr, #list, function()
    local _ = keep
    for _, rd in ipairs(reads) do rd() end
    return res
  end
end

local function known(o, keys, what)
  for k in pairs(o) do
    local ok = false
    for _, x in ipairs(keys) do ok = ok or k == x end
    if not ok then fail(string.format("%s: unknown option '%s' (%s)", what, tostring(k), table.concat(keys, ", "))) end
  end
end

-- Split a structure-of-arrays row into per-component Lua lists; failed members are NaN already.
local function unpack_row(e, buf, off)
  local n, d = e.M, e.dim
  local cols = {}
  for i = 1, d do
    local c = {}
    for m = 1, n do c[m] = buf[off + (i - 1) * n + m - 1] end
    cols[i] = c
  end
  return cols
end

local function flags(e, f)
  local t, nbad = {}, 0
  for m = 1, e.M do
    t[m] = f[m - 1]
    if t[m] ~= 0 then nbad = nbad + 1 end
  end
  return t, nbad
end

--- n steps of an explicit registry stepper from t (default 0) with step h. Returns the final
-- components (for one degree of freedom: q, v lists; else a list of component lists), the failure
-- flags per member (0 fine, 1 bad initial state, 2 left the bound), and the counts per member.
function M.run(e, o)
  known(o, { "stepper", "t", "h", "n", "q0", "v0", "y0", "threads", "observe" }, "ensemble.run")
  local T = kz.stepper(o.stepper or "rk4")
  if type(o.n) ~= "number" or o.n < 0 or o.n ~= math.floor(o.n) then fail("n must be a whole number of steps") end
  local t0, h = o.t or 0, kz.finite(o.h, "h")
  local obs, nobs, read = M.observers(e, o.observe, o.n, function(k) return t0 + k * h end, true)
  local y = states(e, o)
  local f, r = ffi.new("int[?]", e.M), kz.report()
  kz.call("kz_ens_run", T, e.c, t0, h, o.n, y, f, obs, nobs, pool(o), r)
  local cols = unpack_row(e, y, 0)
  local fl = flags(e, f)
  if e.nq == 1 then return cols[1], cols[2], fl, kz.counts(r), read() end
  return cols, nil, fl, kz.counts(r), read()
end

--- The HMM (lib/lua/kapitza/hmm.lua's options: preset, macro, micro, kernel, phase, recon, H, T, eta, h) on
-- the phase form from Q0/P0 (numbers or lists; with nq > 1 degrees of freedom, lists of nq
-- entries, each a number or a list over the members). Returns Q[n + 1], P[n + 1] (lists over
-- members at t_n = n H) for one degree of freedom; with more, Y[n + 1] (the 2 nq component lists
-- of the macro state (Q, P) at t_n) and nil; then the flags and the counts per member.
function M.hmm(e, o)
  if not e.phase then fail(e.kind .. ": the HMM needs one shared phase (the same omega and theta0, or eps, for every member)") end
  local hmm = require "kapitza.hmm"
  local opts, init = {}, { q0 = o.Q0, v0 = o.P0 }
  for k, v in pairs(o) do
    if k ~= "Q0" and k ~= "P0" and k ~= "threads" and k ~= "observe" then opts[k] = v end
  end
  local p = hmm.params(opts)
  local N = tonumber(C.kz_steps_in(o.T or 0, o.H or 0))
  if N < 1 then N = 1 end -- C reports the bad grid
  local obs, nobs, read = M.observers(e, o.observe, N, function(k) return k * o.H end, false)
  local Y0 = states(e, init)
  local out = ffi.new("double[?]", (N + 1) * e.M * e.dim)
  local f, r = ffi.new("int[?]", e.M), kz.report()
  kz.call("kz_ens_hmm_run", e.c, p, Y0, out, N + 1, f, obs, nobs, pool(o), r)
  local Q, P = {}, {}
  for n = 0, N do
    local cols = unpack_row(e, out, n * e.M * e.dim)
    if e.nq == 1 then Q[n + 1], P[n + 1] = cols[1], cols[2] else Q[n + 1] = cols end
  end
  if e.nq ~= 1 then return Q, nil, flags(e, f), kz.counts(r), read() end
  return Q, P, flags(e, f), kz.counts(r), read()
end

--- SAM (lib/lua/kapitza/sam.lua's options n, period, t0, diff, macro ('rk4' | 'dp5' fixed steps), H, tout)
-- with o.micro (default 'rk4') on the time form, from q0/v0. Returns the states at tout
-- (ys[k] = component lists), the flags and the counts per member.
function M.sam(e, o)
  known(o, { "micro", "n", "period", "t0", "diff", "macro", "H", "tout", "q0", "v0", "y0", "threads", "observe" }, "ensemble.sam")
  local p = ffi.new("kz_sam_params")
  p.period, p.t0, p.n = o.period or 2 * math.pi, o.t0 or 0, o.n or 0
  p.diff = kz.choose(kz.sam_diffs, o.diff or "central2", "sam difference formula")
  local mac = ffi.new("kz_macro")
  mac.kind, mac.type, mac.H = C.KZ_MACRO_FIXED, kz.stepper(o.macro or "rk4"), o.H or 0
  local nout = #o.tout
  local obs, nobs, read = M.observers(e, o.observe, nout - 1, function(k) return o.tout[k + 1] end, false)
  local y0 = states(e, o)
  local out = ffi.new("double[?]", nout * e.M * e.dim)
  local f, r = ffi.new("int[?]", e.M), kz.report()
  kz.call("kz_ens_sam_run", kz.stepper(o.micro or "rk4"), e.c, p, mac, y0, nout, kz.vec(nout, o.tout), out, f,
          obs, nobs, pool(o), r)
  local ys = {}
  for k = 1, nout do ys[k] = unpack_row(e, out, (k - 1) * e.M * e.dim) end
  return ys, flags(e, f), kz.counts(r), read()
end

--- The slow-variable HMM (lib/lua/kapitza/hmm.lua's slow options: set, macro, start, micro, kernel, H, T, eta,
-- h, ...) on a model with slow sets (models.top) for members that differ in their initial states:
-- o.x0 is a list of states (each a list of dim numbers). Every member is its own scalar run
-- (the least-squares solve is per member), the members split over o.threads threads. Returns
-- x[m][i][n + 1] (member m, component i, node n), the flags and the counts per member.
function M.slow(model, o)
  local hmm = require "kapitza.hmm"
  local x0s = o.x0
  if type(x0s) ~= "table" or #x0s < 1 or type(x0s[1]) ~= "table" then fail("slow: x0 must be a list of states") end
  local opts = {}
  for k, v in pairs(o) do
    if k ~= "x0" and k ~= "threads" and k ~= "set" and k ~= "observe" then opts[k] = v end
  end
  local p = hmm.slow_params(opts)
  local s = model.slow and model.slow[o.set or "32"]
  if not s then fail(string.format("slow: model %s has no slow set '%s'", model.name, tostring(o.set or "32"))) end
  local n, d = #x0s, s.dim
  local X0 = ffi.new("double[?]", n * d)
  for m = 1, n do
    local x = x0s[m]
    if type(x) ~= "table" or #x ~= d then fail(string.format("slow: x0[%d] must have %d numbers", m, d)) end
    for i = 1, d do
      local v = x[i]
      if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
        fail(string.format("slow: x0[%d][%d] must be a finite number", m, i))
      end
      X0[(i - 1) * n + m - 1] = v
    end
  end
  local N = tonumber(C.kz_steps_in(o.T or 0, o.H or 0))
  if N < 1 then N = 1 end
  local view = { M = n, dim = d, nq = 0, kind = model.name }
  local obs, nobs, read = M.observers(view, o.observe, N, function(k) return k * o.H end, false)
  local out = ffi.new("double[?]", (N + 1) * d * n)
  local f, r = ffi.new("int[?]", n), kz.report()
  kz.call("kz_ens_slow_run", model.vib, s, p, n, X0, out, N + 1, f, obs, nobs, pool(o), r)
  local x = {}
  for m = 1, n do
    x[m] = {}
    for i = 1, d do
      local c = {}
      for k = 0, N do c[k + 1] = out[(k * d + i - 1) * n + m - 1] end
      x[m][i] = c
    end
  end
  local fl = {}
  for m = 1, n do fl[m] = f[m - 1] end
  return x, fl, kz.counts(r), read()
end

return M
