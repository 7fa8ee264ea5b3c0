-- atlas_catalogue.lua -- the methods `kapitza atlas`, `check` and `solve` run on a model of one's own
-- (lib/lua/kapitza/atlas/user.lua sets up its run): every family whose parts the model carries
-- (lib/lua/kapitza/capability.lua), each with its ladder cut from the model's time scales (ctx.tau, the
-- fast period, the run's whole periods), the peers where they apply, and why the others do not.
local kz = require "kapitza"
local AM = require "kapitza.atlas.methods"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local vmi = require "kapitza.vmi"
local cap = require "kapitza.capability"

local M = {}

-- the distinct values of a list, in order
local function uniq(t)
  local seen, out = {}, {}
  for _, v in ipairs(t) do if not seen[v] then seen[v] = true; out[#out + 1] = v end end
  return out
end

-- Macro step counts N = ceil(T/H) for macro steps H = tau * f (f in `fracs`), at least lo and
-- at most hi, distinct, increasing.
local function macro_counts(ctx, fracs, lo, hi)
  local t = {}
  for _, f in ipairs(fracs) do
    local N = math.ceil(ctx.T / (ctx.tau * f) - 1e-9)
    t[#t + 1] = math.max(lo, math.min(hi, N))
  end
  table.sort(t)
  return uniq(t)
end

-- The divisors d of K with K/d >= minM (whole macro steps of K/d periods; the multirevolution
-- method needs K/d > 4) nearest (in log) to each wanted count.
local function divisor_counts(K, wanted, minM)
  local divs, big = {}, {}
  for d = 1, math.floor(math.sqrt(K)) do -- the divisors in pairs (d, K/d): sqrt(K) trials
    if K % d == 0 then
      if K / d >= minM then divs[#divs + 1] = d end
      local e = K / d
      if e ~= d and K / e >= minM then big[#big + 1] = e end
    end
  end
  for i = #big, 1, -1 do divs[#divs + 1] = big[i] end
  local t = {}
  for _, w in ipairs(wanted) do
    local best, bd
    for _, d in ipairs(divs) do
      local dist = math.abs(math.log(d / w))
      if not bd or dist < bd then best, bd = d, dist end
    end
    if best then t[#t + 1] = best end
  end
  table.sort(t)
  return uniq(t)
end

local function grid(a, b)
  local t = {}
  for _, x in ipairs(a) do for _, y in ipairs(b) do t[#t + 1] = { x, y } end end
  return t
end

-- The reason lib/lua/kapitza/capability.lua gives for refusing `method` on the context's model (nil: it
-- applies). Every family below asks it: the atlas runs what the model's parts allow.
local function refuses(ctx, method, opts)
  local ok, why = cap.check(ctx.model, method, opts)
  if ok then return nil end
  return why
end

-- Macro step counts of whole periods (divisors of K) from the slow scale: H = tau f.
local function whole_macro_counts(ctx, o)
  return divisor_counts(ctx.K, macro_counts(ctx, o.quick and { 1 / 4, 1 / 16 } or
                                            { 1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64 }, 2, ctx.K), 1)
end

--- The HMM variants for a fast-forced model in second-order form (capability 'hmm'): the
-- micro-solver RK4 with n steps per period (the Verlet default puts a large error on the force
-- at coarse n), a uniform kernel over one period (simple filtering), N macro steps of H = T/N.
--   HMM-V: velocity Verlet macro scheme, exact phase, the model's reconstruction (Sharp, Tsai &
--          Engquist's preset): the general one.
--   HMM-A2: Calvo & Sanz-Serna's Algorithm 2 (leapfrog macro, micro data at theta = 0 with zero
--          velocity, half window): only for a force even in theta (spec.even_in_theta), and
--          right only when the averaged force does not depend on the velocity.
local function hmm_family(ctx, o, methods, na)
  local why = refuses(ctx, "hmm")
  if why then
    na[#na + 1] = { name = "HMM-V, HMM-A2", family = "HMM", reason = why }
    return
  end
  -- macro steps of whole periods: every force estimate starts at the phase theta0, where a
  -- uniform kernel over one period is exact for the periodic part (at other phases its window
  -- edge leaves an O(1) term proportional to the velocity: measured, 5e-2 instead of 3e-3)
  local Ns = whole_macro_counts(ctx, o)
  local ns = o.quick and { 16, 32 } or { 16, 32, 64 }
  local function variant(name, label, opts)
    methods[#methods + 1] = {
      name = name, family = "HMM", cap = "hmm", knob = "N,n", ladder = grid(Ns, ns),
      label = label .. "; RK4 micro-solver with n steps per period, uniform kernel over one period, N macro steps (H = T/N whole periods)",
      run = function(c, N, n)
        local op = opts()
        op.micro, op.kernel, op.eta, op.h = "rk4", "uniform", c.period, c.period / n
        op.H, op.T, op.Y0 = c.T / N, c.T, c.Y0
        local Q, _, cnt = hmm.run(c.model, op)
        return c.err_slow(Q[#Q]), cnt
      end }
  end
  variant("HMM-V", "HMM: velocity Verlet macro scheme, exact phase, the model's reconstruction" ..
          (ctx.model.vib.reconstruct ~= nil and "" or " (none given: the identity)"),
          function() return { preset = "ste", macro = "V" } end)
  if ctx.model.vib.even_in_theta ~= 0 then
    variant("HMM-A2", "HMM, Algorithm 2 (Calvo & Sanz-Serna): leapfrog macro, micro data at theta = 0 with zero velocity, half window",
            function() return { preset = "cs2", half_window = true } end)
  else
    na[#na + 1] = { name = "HMM-A2 (Algorithm 2)", family = "HMM", reason = "needs a force even in theta (even_in_theta = true)" }
  end
end

--- The constrained HMM (capability 'hmm-shake', 'hmm-rattle'; Calvo & Sanz-Serna Sec. 4.2-4.3):
-- SHAKE micro-steps, n per period, simple filtering over one period, N macro steps of whole
-- periods.
local function constrained_hmm_family(ctx, o, methods, na)
  for _, pre in ipairs { "shake-shake", "rattle-shake" } do
    local why = refuses(ctx, "hmm-" .. pre:match("^%a+"))
    if why then
      if pre == "rattle-shake" then na[#na + 1] = { name = "HMM-shake-shake, HMM-rattle-shake", family = "HMM", reason = why } end
    elseif not (o.quick and pre == "shake-shake") then -- quick: one of the two
      methods[#methods + 1] = {
        name = "HMM-" .. pre, family = "HMM", cap = "hmm-" .. pre:match("^%a+"), knob = "N,n",
        ladder = grid(whole_macro_counts(ctx, o), o.quick and { 16, 32 } or { 16, 32, 64 }),
        label = "constrained HMM " .. pre .. " (Calvo & Sanz-Serna Sec. 4.2-4.3): SHAKE micro-steps, n per period, simple " ..
                "filtering over one period, N macro steps (H = T/N whole periods)",
        run = function(c, N, n)
          local Y, _, cnt = hmm.dae_run(c.model, { preset = pre, H = c.T / N, T = c.T, eta = c.period, h = c.period / n }, c.y0)
          return c.err(Y[#Y]), cnt
        end }
    end
  end
end

--- The slow-variable HMM (capability 'hmm-slow'; Fredbo Algorithms 3-4) with each slow set of
-- the model: RK4 micro-steps, n per period, the kernel K^exp(2) over a window of ten periods,
-- N macro steps of whole periods; leapfrog macro scheme (order 2; full mode: forward Euler
-- too). The state at T is the micro state the method carries (its positions measured). The
-- window: on tests/models/pend2.lua (omega = 1e4, T = 1, N = 25..800) ten periods give the
-- leapfrog's second order down to 1.5e-4, four periods stop at 5e-3 and two at 3e-2.
local function slow_hmm_family(ctx, o, methods, na)
  local why = refuses(ctx, "hmm-slow")
  if why then
    na[#na + 1] = { name = "HMM-slow (Fredbo)", family = "HMM", reason = why }
    return
  end
  local sets = {}
  for name in pairs(ctx.model.slow) do sets[#sets + 1] = name end
  table.sort(sets)
  local Ns = whole_macro_counts(ctx, o)
  for _, set in ipairs(sets) do
    for _, mac in ipairs(o.quick and { "LF" } or { "LF", "FE" }) do
      methods[#methods + 1] = {
        name = string.format("HMM-slow-%s/%s", mac, set), family = "HMM", cap = "hmm-slow", knob = "N,n",
        ladder = grid(Ns, o.quick and { 16 } or { 16, 32 }),
        label = string.format("slow-variable HMM (Fredbo Algorithms 3-4) with the slow set '%s': %s macro scheme, RK4 " ..
                              "micro-steps (n per period), kernel K^exp(2) over ten periods, N macro steps (H = T/N whole periods)",
                              set, mac == "LF" and "leapfrog" or "forward Euler"),
        run = function(c, N, n)
          local x, _, cnt = hmm.slow_run(c.model, { set = set, macro = mac, micro = "rk4", H = c.T / N, T = c.T,
                                                    eta = 10 * c.period, h = c.period / n, x0 = c.y0, final = true })
          local y = {}
          for i = 1, #x do y[i] = x[i][1] end
          return c.err(y), cnt
        end }
    end
  end
end

--- SAM, LISP and the multirevolution method (lib/lua/kapitza/atlas/methods.lua's builders; capability
-- 'sam', 'lisp', 'mr' with micro=rk4, and with micro=strang on a model with flows): macro steps
-- H = T/N from tau, n micro-steps per period.
local function sam_family(ctx, o, methods, na)
  local micros = {}
  for _, kind in ipairs { "rk4", "strang" } do
    local why = refuses(ctx, "sam", { micro = kind })
    if why then
      na[#na + 1] = { name = kind == "rk4" and "SAM, LISP, multirevolution" or "SAM, LISP, multirevolution with micro=strang",
                      family = "SAM", reason = why }
      if kind == "rk4" then return end
    else
      micros[#micros + 1] = kind
    end
  end
  local hi = math.max(1, math.floor(ctx.K / 2))
  local N = macro_counts(ctx, o.quick and { 1, 1 / 4 } or { 2, 1, 1 / 2, 1 / 4, 1 / 8 }, 1, hi)
  local first = #methods
  AM.sam_methods({ macros = o.quick and { "rk4" } or { "rk4", "dp5", "ode45" }, micros = micros, N = N,
                   n = o.quick and { 16, 32 } or { 16, 32, 64 },
                   tols = o.quick and { 1e-4, 1e-7 } or { 1e-4, 1e-6, 1e-8, 1e-10 }, N_mr = divisor_counts(ctx.K, N, 5) },
                 methods, na, ctx.sys)
  for i = first + 1, #methods do
    local m = methods[i]
    local base = ({ SAM = "sam", LISP = "lisp", MR = "mr" })[m.family]
    local strang = m.name:match("/strang$") or m.name == "MR-strang"
    m.cap = strang and (base .. "-strang") or base
  end
end

--- SAM on the index-2 DAE (capability 'sam-dae'; Calvo et al. Sec. 6): HERK3 macro-steps (N)
-- and micro-steps (n per period).
local function sam_dae_family(ctx, o, methods, na)
  local why = refuses(ctx, "sam-dae")
  if why then
    na[#na + 1] = { name = "SAM-herk3/herk3 (SAM on the DAE)", family = "SAM", reason = why }
    return
  end
  local hi = math.max(1, math.floor(ctx.K / 2))
  local N = macro_counts(ctx, o.quick and { 1, 1 / 4 } or { 2, 1, 1 / 2, 1 / 4, 1 / 8 }, 1, hi)
  methods[#methods + 1] = {
    name = "SAM-herk3/herk3", family = "SAM", cap = "sam-dae", knob = "N,n", ladder = grid(N, o.quick and { 16, 32 } or { 16, 32, 64 }),
    label = "SAM for index-2 DAEs (Calvo et al. Sec. 6): HERK3 macro (N steps) and micro (n per period), central differences (25)",
    run = function(c, Nm, n)
      local ys, _, cnt = sam.dae(c.model, { n = n, period = c.period, H = c.T / Nm, y0 = c.y0, tout = { c.T },
                                            diff = "central2", micro = "herk3", macro = "herk3" })
      return c.err(ys[1]), cnt
    end }
end

--- The variational multirate integrators (capability 'vmi'; Ober-Bloebaum et al.): N macro
-- steps dT = T/N, from one per slow scale tau up by factors of 4, p micro-steps per macro step
-- chosen so that the micro step dT/p resolves the fast period (a quarter down to a
-- sixty-fourth of it: inside every scheme's linear stability bound omega dT/p < 2), Newton to
-- 1e-12 (the structured solver).
local function vmi_family(ctx, o, methods, na)
  local why = refuses(ctx, "vmi")
  if why then
    na[#na + 1] = { name = "VMI-MM, VMI-TM, VMI-TT", family = "VMI", reason = why }
    return
  end
  local N0 = math.max(1, math.ceil(ctx.T / ctx.tau - 1e-9))
  local Ns = {}
  for _, f in ipairs(o.quick and { 1, 4 } or { 1, 4, 16, 64 }) do Ns[#Ns + 1] = N0 * f end
  local lad = {}
  for _, N in ipairs(Ns) do
    local ps = {}
    for _, f in ipairs(o.quick and { 1 / 8, 1 / 32 } or { 1 / 4, 1 / 16, 1 / 64 }) do
      ps[#ps + 1] = math.max(1, math.ceil(ctx.T / N / (ctx.period * f) - 1e-9))
    end
    for _, p in ipairs(uniq(ps)) do lad[#lad + 1] = { N, p } end
  end
  for _, sch in ipairs(o.quick and { "MM", "TT" } or { "MM", "TM", "TT" }) do
    methods[#methods + 1] = {
      name = "VMI-" .. sch, family = "VMI", cap = "vmi", knob = "N,p", ladder = lad,
      label = string.format("variational multirate %s (%s): N macro steps dT = T/N, p micro steps per macro step, Newton " ..
                            "to 1e-12 (structured solver)", sch, vmi.scheme_names[sch]),
      run = function(c, N, p)
        local res = vmi.run(c.model, sch, { p = p, dT = c.T / N, N = N, tol = 1e-12, y0 = c.y0, reuse = true })
        local y, row = {}, res.row(res.N)
        for i = 1, c.model.d do y[i] = row[i - 1] end
        return c.err(y), res.counts
      end }
  end
end

--- Every registry stepper the model's system takes (capability: each stepper's needs; on a
-- constrained model only the constrained ones), n steps per fast period.
local function direct_family(ctx, o, methods, na)
  local lad = o.quick and { [1] = { 8 }, [2] = { 16, 64 }, [3] = { 16, 64 }, default = { 8, 32 } } or
              { [1] = { 8, 32, 128 }, [2] = { 16, 32, 64, 128, 256 }, default = { 8, 16, 32, 64, 128 } }
  local skip = {}
  for _, name in ipairs(kz.steppers.names) do skip[name] = refuses(ctx, name) end
  local first = #methods
  AM.add_direct(methods, na, ctx.sys, { ladders = lad, skip = skip })
  for i = first + 1, #methods do methods[i].cap = methods[i].name end
end

--- The peers built into build/libkzpeers.so (lib/lua/kapitza/peers.lua) at a ladder of tolerances: ODE
-- integrators, for a model whose system every ODE stepper takes (not a constrained one).
local peers_ok, peers_mod -- the first attempt's result (a second require would only say "loop or previous error")
local function peer_family(ctx, o, methods, na)
  local why = refuses(ctx, "rk4")
  if why then
    na[#na + 1] = { name = "peers (GSL, SUNDIALS)", family = "peer", reason = why:gsub("stepper=rk4", "an ODE integrator") }
    return
  end
  if peers_ok == nil then peers_ok, peers_mod = pcall(require, "kapitza.peers") end
  local ok, peers = peers_ok, peers_mod
  if not ok then
    na[#na + 1] = { name = "peers (GSL, SUNDIALS)", family = "peer", reason = "lib/lua/kapitza/peers.lua cannot load here: " .. tostring(peers):gsub("\n.*", "") }
    return
  end
  local tols = o.quick and { 1e-4, 1e-7 } or { 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10 }
  for _, name in ipairs(peers.names) do
    if name == "arkode-mri" then
      na[#na + 1] = { name = name, family = "peer", reason = "needs the fast part of the field as a system of its own" }
    elseif not peers.available(name) then
      na[#na + 1] = { name = name, family = "peer", reason = "not built: " .. peers.why(name) }
    else
      methods[#methods + 1] = { name = name, family = "peer", knob = "tol", ladder = tols,
        label = name .. " (peer) at rtol = atol = tol",
        run = function(c, tol)
          local r, msg = peers.integrate(name, c.sys, 0, c.y0, c.T, tol)
          if not r then error(msg, 0) end
          return c.err(r.y), { force_evals = r.rhs_evals, micro_steps = r.steps, newton_iters = r.jac_evals }
        end }
    end
  end
end

--- The methods the atlas runs on ctx and the n/a entries {name, family, reason}: every family
-- lib/lua/kapitza/capability.lua allows on the model (each method carries `cap`, the capability method it
-- runs), the others n/a with capability's reason. o.quick: short ladders and fewer variants;
-- o.methods: a set of names to keep.
function M.catalogue(ctx, o)
  o = o or {}
  local methods, na = {}, {}
  hmm_family(ctx, o, methods, na)
  constrained_hmm_family(ctx, o, methods, na)
  slow_hmm_family(ctx, o, methods, na)
  sam_family(ctx, o, methods, na)
  sam_dae_family(ctx, o, methods, na)
  vmi_family(ctx, o, methods, na)
  direct_family(ctx, o, methods, na)
  if not o.no_peers then peer_family(ctx, o, methods, na) end
  if o.methods then
    local keep = {}
    for _, m in ipairs(methods) do if o.methods[m.name] then keep[#keep + 1] = m end end
    methods = keep
  end
  return methods, na
end

--- What each knob of method m means, in words (kapitza solve method=list and --help): "N = ...,
-- n = ...". The end time T is K whole fast periods (the atlas's and solve's rounding).
M.KNOBS = {
  direct = { n = "steps per fast period (h = period/n, n K steps to T)" },
  HMM = { N = "macro steps over T (H = T/N, whole periods)", n = "micro-steps per fast period in each force estimate" },
  SAM = { N = "macro steps over T (H = T/N)", n = "micro-steps per fast period (each macro step integrates periods)",
          tol = "the macro controller's tolerance (rtol = atol)" },
  LISP = { N = "macro steps over T (H = T/N)", n = "micro-steps per fast period" },
  MR = { N = "macro steps over T, each of K/N > 4 whole periods", n = "micro-steps per fast period" },
  VMI = { N = "macro steps over T (dT = T/N)", p = "micro-steps of the fast part per macro step (dT/p should resolve the fast period)" },
  peer = { tol = "the integrator's tolerance (rtol = atol)" },
}
function M.knob_words(m)
  local w, t = M.KNOBS[m.family] or {}, {}
  for k in (m.knob .. ","):gmatch("([^,]+),") do t[#t + 1] = string.format("%s = %s", k, w[k] or "(see the method)") end
  return table.concat(t, "; ")
end

-- The capability method (lib/lua/kapitza/capability.lua) an atlas name stands for, with its options.
local function cap_of(name)
  if name == "HMM-V" or name == "HMM-A2" then return "hmm" end
  if name:match("^HMM%-slow%-") then return "hmm-slow" end
  if name == "HMM-shake-shake" then return "hmm-shake" end
  if name == "HMM-rattle-shake" then return "hmm-rattle" end
  if name == "SAM-herk3/herk3" then return "sam-dae" end
  local fam, micro = name:match("^(%u+)%-%w+/(%w+)$")
  if fam == "SAM" or fam == "LISP" then return fam:lower() .. (micro == "strang" and "-strang" or "") end
  if name == "MR-rk4" or name == "MR-strang" then return name == "MR-strang" and "mr-strang" or "mr" end
  if name:match("^VMI%-%u%u$") then return "vmi" end
  if kz.steppers[name] and name ~= "names" then return name end
  return nil
end

--- Why the method `name` (an atlas name) does not run on ctx's model, in one line: capability's
-- reason (the part the model lacks), the atlas's own (n/a entries na), or, for a name no family
-- has, the names there are. methods: the catalogue's for this model.
function M.why_not(ctx, name, methods, na)
  local c = cap_of(name)
  if c then
    local ok, why = cap.check(ctx.model, c)
    if not ok then
      if why:find("the model has no period", 1, true) and tostring(ctx.period_source):match("^estimated") then
        why = why .. string.format(" (kapitza check estimates it as %.6g: give period = %.6g to use it)", ctx.period, ctx.period)
      end
      return string.format("%s does not apply to this model: %s", name, why)
    end
  end
  for _, n in ipairs(na or {}) do
    for part in (n.name .. ","):gmatch("%s*([^,]+),") do
      if part == name or part:match("^" .. name:gsub("%p", "%%%0") .. " ") then
        return string.format("%s does not run on this model: %s", name, n.reason)
      end
    end
  end
  local names = {}
  for _, m in ipairs(methods or {}) do names[#names + 1] = m.name end
  return string.format("no method '%s' for this model (it has %s; method=list explains them)", name,
                       #names > 0 and table.concat(names, ", ") or "none")
end

--- The capability methods (lib/lua/kapitza/capability.lua's names) that apply to the model but that no
-- method of the atlas's catalogue runs: a list of { method, label } (empty when the atlas covers
-- every one).
function M.not_in_atlas(ctx)
  local methods = M.catalogue(ctx, { quick = false, no_peers = true })
  local covered = {}
  for _, m in ipairs(methods) do if m.cap then covered[m.cap] = true end end
  local t = {}
  for _, r in ipairs(cap.table(ctx.model)) do
    if r.ok and not covered[r.method] then t[#t + 1] = { method = r.method, label = r.label } end
  end
  return t
end

return M
