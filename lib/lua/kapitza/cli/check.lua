-- cli_check.lua -- `kapitza check MODEL.lua`: load a model file, check it (the parts it declares,
-- the derivatives it gives), its time scales and the methods that can run it (lib/lua/kapitza/cli.lua).
local U = require "kapitza.cli.common"
local out, die, help_wanted, fmt_list, split_args, load_model = U.out, U.die, U.help_wanted, U.fmt_list, U.split_args, U.load_model

local function eval_force(kz, sys, dim, y0, t)
  local y, f, r = kz.vec(dim, y0), kz.vec(dim), kz.report()
  kz.call("kz_sys_eval", sys, t or 0, y, f, r)
  local t2 = {}
  for i = 1, dim do t2[i] = f[i - 1] end
  return t2
end

local function all_finite(t)
  for _, v in ipairs(t) do if not (v == v and v < math.huge and v > -math.huge) then return false end end
  return true
end

-- The parts a model declares, one line each (lib/lua/kapitza/usermodel/parts.lua built them into the model).
local function parts_lines(mf, m, spec)
  local L = {}
  local fns = spec[mf.how] or {}
  local function cname(f) return mf.how == "c" and string.format(" (C function '%s')", tostring(f)) or "" end
  if mf.vmi then
    L[#L + 1] = string.format("equations of motion: from the potentials (vmi): y = (q_s, q_f, p_s, p_f), the Hamiltonian equations of " ..
                              "K + V + W")
  else
    L[#L + 1] = string.format("equations of motion: %s%s", mf.nq > 0 and "accel" or "rhs", cname(fns[mf.nq > 0 and "accel" or "rhs"]))
  end
  if m.vib then
    L[#L + 1] = string.format("fast phase: theta = omega t + theta0, omega = %.6g, theta0 = %.6g%s", m.vib.omega, m.vib.theta0,
                              spec.even_in_theta and "; even in theta" or "")
    L[#L + 1] = fns.reconstruct and ("reconstruct: given" .. cname(fns.reconstruct)) or
                "reconstruct: none (the HMM takes the identity q = Q, v = P)"
  elseif mf.period then
    L[#L + 1] = string.format("period: %.6g (the model's; no fast phase)", mf.period)
  end
  if fns.averaged then L[#L + 1] = "averaged: given" .. cname(fns.averaged) end
  if m.sys and m.sys.flow_a ~= nil and m.sys.flow_b ~= nil then
    L[#L + 1] = string.format("flows: a and b%s", mf.how == "c" and fns.flows and
                              string.format(" (C functions '%s', '%s')", fns.flows.a, fns.flows.b) or "")
  else
    L[#L + 1] = "flows: none"
  end
  if m.con then
    local nq = m.dim / 2
    local minv = {}
    for i = 0, nq - 1 do minv[#minv + 1] = string.format("%.6g", 1 / m.con.minv[i]) end
    L[#L + 1] = string.format("constraints: m = %d on nq = %d positions, masses (%s), Newton tolerance %.3g on max |g_i|, at most %d iterations",
                              m.con.m, nq, table.concat(minv, ", "), m.con.tol, m.con.max_iter)
  else
    L[#L + 1] = "constraints: none"
  end
  if type(m.slow) == "table" and next(m.slow) then
    local names, t = {}, {}
    for k in pairs(m.slow) do names[#names + 1] = k end
    table.sort(names)
    for _, k in ipairs(names) do
      local fr = {}
      if m.slow[k].frozen ~= nil then for i = 0, m.dim - 1 do if m.slow[k].frozen[i] ~= 0 then fr[#fr + 1] = tostring(i + 1) end end end
      t[#t + 1] = string.format("%s (r = %d slow variables of %d%s)", k, m.slow[k].r, m.slow[k].dim,
                                #fr > 0 and ("; frozen components " .. table.concat(fr, ", ")) or "")
    end
    L[#L + 1] = "slow sets: " .. table.concat(t, ", ")
  else
    L[#L + 1] = "slow sets: none"
  end
  if mf.vmi then
    local vm = m.model
    local ms, mfm = {}, {}
    for i = 0, vm.ns - 1 do ms[#ms + 1] = string.format("%.6g", vm.ms[i]) end
    for i = 0, vm.nf - 1 do mfm[#mfm + 1] = string.format("%.6g", vm.mf[i]) end
    L[#L + 1] = string.format("vmi split: ns = %d slow and nf = %d fast positions, masses (%s) and (%s); potentials V%s",
                              vm.ns, vm.nf, table.concat(ms, ", "), table.concat(mfm, ", "), vm.W ~= nil and " and W" or " (W = 0)")
  else
    L[#L + 1] = "vmi split: none"
  end
  if m.invariants then
    local v = m.invariants(mf.y0)
    local t = {}
    for _, k in ipairs(m.invariant_names) do t[#t + 1] = string.format("%s = %.6g", k, v[k]) end
    L[#L + 1] = "invariants at y0: " .. table.concat(t, ", ")
  else
    L[#L + 1] = "invariants: none"
  end
  return L
end

-- The derivatives the parts need: given or formed, and modelparts.check's verdict at y0. Returns
-- the lines and the first disagreement's message (nil when none).
local function derivative_lines(mf, m)
  local parts, Dv = require "kapitza.usermodel.parts", require "kapitza.usermodel.derivatives"
  local L, bad = {}, nil
  local verdict = {}
  for _, r in ipairs(parts.check(m, mf.y0)) do verdict[r.part] = r end
  for _, d in ipairs(m.derivatives or {}) do
    local r = verdict[d.part]
    if d.how ~= "given" then
      L[#L + 1] = string.format("%s: formed by central differences (step eps^(1/3) max(1, |x|), about 4e-11 relative)", d.part)
    elseif not r then
      L[#L + 1] = string.format("%s: given (not checked: no initial state)", d.part)
    elseif r.ok then
      L[#L + 1] = string.format("%s: given; agrees with central differences at y0 (largest relative difference %.2g, tolerance %g)",
                                d.part, r.rel, Dv.tol)
    else
      L[#L + 1] = string.format("%s: given; DISAGREES at y0: %s", d.part, r.message)
      bad = bad or r.message
    end
  end
  if #L == 0 then L[1] = "none needed (no constraints, slow sets or vmi split)" end
  return L, bad
end

return function(argv)
  if help_wanted(argv, 2) then out(U.usage.check); os.exit(0) end
  local path = argv[2]
  if not path or path:match("^%-") or path:match("=") then die("check", "give a model file (kapitza check --help)") end
  local o = split_args("check", argv, 3, { ["--lua"] = true })
  o.kv = U.timeout("check", o.kv)
  local mf = load_model("check", path, o.kv, o.flags["--lua"], { timeout = true })
  local kz = require "kapitza"
  local MF = require "kapitza.modelfile"
  local AU = require "kapitza.atlas.user"
  local AC = require "kapitza.atlas.catalogue"
  local cap = require "kapitza.capability"
  local m, spec = mf.model, mf.spec
  local disagree, twins_differ
  local ok, e = pcall(function()
    out(string.format("model %s (%s)", mf.name, mf.path))
    local form
    if mf.vmi then
      form = string.format("mechanical split (vmi), ns + nf = %d positions (y = (q, p), dim %d)", mf.npos, mf.dim)
    elseif mf.nq > 0 then
      form = string.format("second order, nq = %d (y = (q, v), dim %d): q'' = a(%s, q)", mf.nq, mf.dim, m.vib and "theta" or "t")
    else
      form = string.format("first order, dim = %d: y' = f(%s, y)", mf.dim, m.vib and "theta" or "t")
    end
    out(string.format("  form: %s; %s functions%s", form, mf.how == "c" and "C" or "Lua",
                      m.lib_path and (" (compiled: " .. m.lib_path .. ")") or ""))
    local vals = {}
    for _, p in ipairs(spec.params) do vals[#vals + 1] = string.format("%s=%s", p, string.format("%.6g", mf.values[p] or 0)) end
    out("  parameters: " .. table.concat(vals, " "))
    if mf.npos > 0 then
      local q, v = {}, {}
      for i = 1, mf.npos do q[i], v[i] = mf.y0[i], mf.y0[mf.npos + i] end
      out(string.format("  initial state: q0 = (%s), %s = (%s); T = %.6g", fmt_list(q), mf.vmi and "p0" or "v0", fmt_list(v), mf.T))
    else
      out(string.format("  initial state: y0 = (%s); T = %.6g", fmt_list(mf.y0), mf.T))
    end
    out("parts:")
    for _, l in ipairs(parts_lines(mf, m, spec)) do out("  " .. l) end
    out("derivatives:")
    local dl
    dl, disagree = derivative_lines(mf, m)
    for _, l in ipairs(dl) do out("  " .. l) end
    -- checks of the functions at the initial state
    out("checks at the initial state:")
    local force = mf.vmi and "field" or (mf.nq > 0 and "accel" or "rhs")
    local f = eval_force(kz, m.sys, mf.dim, mf.y0, 0)
    local off = mf.nq > 0 and mf.nq or 0
    local fa = {}
    for i = off + 1, mf.dim do fa[#fa + 1] = f[i] end
    if not all_finite(f) then error(string.format("the %s at y0, t = 0 is not finite: (%s)", force, fmt_list(fa)), 0) end
    out(string.format("  %s at y0, t = 0: (%s): finite", force, fmt_list(fa)))
    if spec.c and spec.lua then
      local other = mf.how == "c" and "lua" or "c"
      local okt, twin = pcall(MF.load, path, o.kv, { how = other })
      if okt then
        -- every part both ways give, compared through the structs the methods call
        -- (lib/lua/kapitza/cli/twins.lua): the force at three phases, then each other part
        local cm, lm = m, twin.model
        if mf.how == "lua" then cm, lm = twin.model, m end
        local rows = require("kapitza.cli.twins").compare(mf, cm, lm, { 0, 0.37 * (mf.period or 1), 0.81 * (mf.period or 1) })
        -- a derivative one side gives and the other forms (central differences, ~4e-11 relative)
        -- enters a vmi model's field: agreement to 1e-8 relative then, else to round-off
        local formed = {}
        for _, mm in ipairs { m, twin.model } do
          for _, d in ipairs(mm.derivatives or {}) do formed[d.part] = (formed[d.part] or 0) + (d.how == "given" and 0 or 1) end
        end
        local mixed = false
        for _, n in pairs(formed) do mixed = mixed or n == 1 end
        for _, r in ipairs(rows) do
          -- the parts whose derivatives one side forms: the looser tolerance
          local tol = (mixed and (mf.vmi or r.part:match("^constraints") or r.part:match("^slow"))) and 1e-8 or 1e-12
          if r.failed then
            out(string.format("  C and Lua, %s: one of them failed (%s): THEY DIFFER", r.part, r.failed))
            twins_differ = twins_differ or string.format("the C and Lua functions differ: %s failed on one side (%s)", r.part, r.failed)
          else
            local agree = r.diff <= tol * math.max(1, r.scale)
            out(string.format("  C and Lua, %s: largest difference %.2g (of %.2g)%s%s", r.part, r.diff, r.scale,
                              agree and ": they agree" or ": THEY DIFFER",
                              tol > 1e-12 and " (to 1e-8 relative: one side forms derivatives by central differences)" or ""))
            if not agree then
              twins_differ = twins_differ or string.format("the C and Lua functions differ: %s by %.2g (of %.2g)", r.part, r.diff, r.scale)
            end
          end
        end
      else
        out("  the " .. other .. " twin does not load: " .. tostring(twin))
      end
    end
    if m.vib and m.vib.reconstruct ~= nil and mf.nq > 0 then
      local fn = mf.how == "lua" and spec.lua and spec.lua.reconstruct or nil
      local Y, y = kz.vec(mf.dim, mf.y0), kz.vec(mf.dim)
      local theta0 = mf.values.theta0 or 0
      local st = fn and fn(m.par, theta0 + 1, Y, y) or m.vib.reconstruct(m.par, theta0 + 1, Y, y)
      if st ~= nil and st ~= 0 then error("reconstruct refused the initial state (status " .. tostring(st) .. ")", 0) end
      local t = {}
      for i = 1, mf.dim do t[i] = y[i - 1] end
      if not all_finite(t) then error(string.format("reconstruct at theta0 + 1, Y = y0 is not finite: (%s)", fmt_list(t)), 0) end
      out(string.format("  reconstruct at theta0 + 1 from Y = y0: y = (%s): finite", fmt_list(t)))
    end
    if m.averaged_force and m.con then
      out("  averaged force: NOT compared with an estimate (the model has constraints: the HMM's force estimate here is " ..
          "the unconstrained one; the constrained HMM averages the constrained motion): `averaged` is not checked")
    elseif m.averaged_force and not m.vib then
      out("  averaged force: NOT compared with an estimate (the model is not fast-forced: the HMM's estimate needs the phase)")
    elseif m.averaged_force and m.vib and mf.nq > 0 and not m.con and not mf.period then
      out("  averaged force: not compared with the HMM's estimate (no fast period: omega is not > 0)")
    elseif m.averaged_force and m.vib and mf.nq > 0 and not m.con then
      local hmm = require "kapitza.hmm"
      local Y = {}
      for i = 1, mf.dim do Y[i] = mf.y0[i] end
      for i = 1, mf.nq do Y[mf.nq + i] = 0 end
      local F = hmm.force(m, { preset = "ste", micro = "rk4", kernel = "uniform", eta = mf.period, h = mf.period / 64 }, 0, Y)
      local A = m.averaged_force(mf.nq == 1 and Y[1] or MF.slow_part(mf, Y))
      if type(A) == "number" then A = { A } end
      local d, s = 0, 0
      for i = 1, mf.nq do d, s = d + (A[i] - F[i]) ^ 2, s + A[i] * A[i] end
      out(string.format("  averaged force at (q0, 0): (%s); the HMM's estimate of it (RK4 micro, 64 steps per period, " ..
                        "uniform kernel over one period): (%s); relative difference %.2g (O(1/omega) expected)",
                        fmt_list(A), fmt_list(F), math.sqrt(d) / math.max(math.sqrt(s), 1e-300)))
    end
    -- time scales
    local sc = MF.scales(mf)
    out("time scales:")
    out(string.format("  fast: period = %.6g (%s)", sc.period, sc.period_source))
    out(string.format("  slow: tau = %.6g%s (half the range of the slow state over its largest rate of change, from %s at " ..
                      "whole periods over %d periods = %.6g)", sc.tau, sc.tau_bound and " or more (nothing moved)" or "",
                      sc.stepper == "herk3" and "HERK3 (the constraints kept)" or "RK4", sc.K, sc.window))
    if sc.avg_omega then
      out(string.format("  averaged equation at q0: slow angular frequency %.6g (1/Omega = %.6g)", sc.avg_omega, 1 / sc.avg_omega))
    end
    out(string.format("  separation: tau/period = %.3g", sc.tau / sc.period))
    -- methods: lib/lua/kapitza/capability.lua's table, by family
    out("methods (lib/lua/kapitza/capability.lua: yes, or why not), by family:")
    local rows, fams, byfam = cap.table(m), {}, {}
    for _, r in ipairs(rows) do
      if not byfam[r.family] then byfam[r.family] = {}; fams[#fams + 1] = r.family end
      local t = byfam[r.family]
      t[#t + 1] = r
    end
    local w = 0
    for _, r in ipairs(rows) do w = math.max(w, #r.method) end
    for _, fam in ipairs(fams) do
      out("  " .. fam .. ":")
      for _, r in ipairs(byfam[fam]) do
        local why = r.why
        if not r.ok and why:find("the model has no period", 1, true) and sc.period_source:match("^estimated") then
          why = why .. string.format(" (estimated above as %.6g: give it as period = %.6g to use it)", sc.period, sc.period)
        end
        out(string.format("    %-3s %-" .. w .. "s  %s", r.ok and "yes" or "no", r.method, r.ok and r.label or why))
      end
    end
    -- what the atlas runs (the names `kapitza solve method=` takes)
    local ctx = AU.setup(mf, { reference = false })
    ctx.tau = sc.tau
    local names = {}
    local methods, na = AC.catalogue(ctx, { quick = false })
    for _, mm in ipairs(methods) do names[#names + 1] = mm.name end
    out("kapitza atlas runs: " .. table.concat(names, ", "))
    local okk, key = pcall(require("kapitza.atlas.run").curated_key, path)
    if okk and key then -- a papers' model file (lib/lua/kapitza/atlas/run.lua)
      out(string.format("  (on this file kapitza atlas runs the paper's atlas instead, scenarios/atlas-%s.lua: its own methods " ..
                        "over its stiffness list; the names above are kapitza solve's)", key))
    end
    -- what it leaves out for reasons of its own (capability's are above), grouped by reason
    local reasons, byreason = {}, {}
    for _, n in ipairs(na) do
      if not n.reason:match("^the model ") then
        if not byreason[n.reason] then byreason[n.reason] = {}; reasons[#reasons + 1] = n.reason end
        local t = byreason[n.reason]
        t[#t + 1] = n.name
      end
    end
    for _, r in ipairs(reasons) do out(string.format("  not run: %s: %s", table.concat(byreason[r], ", "), r)) end
    local missing = AC.not_in_atlas(ctx)
    if #missing > 0 then
      local t = {}
      for _, r in ipairs(missing) do t[#t + 1] = r.method end
      out("not in the atlas yet: " .. table.concat(t, ", ") .. " (they apply; run them through the Lua API)")
    end
  end)
  if not ok then U.fail("check", e) end
  if disagree then die("check", disagree, 1) end
  if twins_differ then die("check", twins_differ, 1) end
end
