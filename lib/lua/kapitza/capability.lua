-- capability.lua -- which methods a model can use, and why not the others (issue 18, item 2).
--
-- Every method family states the parts of a model it needs; a model is any table in the shape of
-- lib/lua/kapitza/models.lua (built-in, lib/lua/kapitza/usermodel.lua, lib/lua/kapitza/vmi.lua), whose parts are read off its fields:
--   system        sys (a kz_sys): y' = f(t, y), for direct integration, SAM, ...
--   second order  sys.nq > 0 with sys.accel: y = (q, v), v' = a(t, q) (Verlet, SHAKE, the HMM)
--   fast phase    vib (a kz_vib): a parameter 'omega', f(theta, y) (the HMMs)
--   period        period, or the fast phase's 2 pi / omega (SAM, LISP, multirevolution)
--   splitting     sys.flow_a and sys.flow_b (Strang, SAM's splitting micro-stepper)
--   constraints   con (a kz_constraints, also sys.con) (SHAKE, RATTLE, HERK3, their HMM, SAM on the DAE)
--   slow sets     slow[<name>] (kz_slow) (the slow-variable HMM)
--   vmi           model (a kz_vmi_model) (the variational multirate integrators)
--   averaged      avg (a kz_sys): a reference for averaging methods, never required
-- check(model, method [, opts]) -> true, or nil and a one-line reason naming the missing part
-- and the method ("the model has no splitting: micro=strang needs flows a and b");
-- require(...) raises that reason; table(model) lists every method with ok and why (for
-- `kapitza check`). Methods refuse at set-up through require (hmm.lua, sam.lua, vmi.lua).
local kz = require "kapitza"
local bit = require "bit"
local ffi, C = kz.ffi, kz.C

local M = {}

---------------------------------------------------------------------------------------------------
-- The parts
---------------------------------------------------------------------------------------------------

local function has_sys(m) return m.sys ~= nil end
local function second_order(s) return s ~= nil and s.nq > 0 and s.accel ~= nil end
local function has_flows(m) return m.sys ~= nil and m.sys.flow_a ~= nil and m.sys.flow_b ~= nil end
local function has_con(m) return m.con ~= nil end
local function has_vmi(m) return m.model ~= nil and type(m.model) == "cdata" and ffi.istype("kz_vmi_model", m.model) end
local function has_fast(m) return m.vib ~= nil end
local function has_period(m) return (type(m.period) == "number" and m.period > 0) or m.vib ~= nil end

--- The parts a model has: a table of booleans (and the slow sets' names).
function M.parts(m)
  local sets = {}
  if type(m.slow) == "table" then for k in pairs(m.slow) do sets[#sets + 1] = k end end
  table.sort(sets)
  return { system = has_sys(m), second_order = second_order(m.sys), fast = has_fast(m), period = has_period(m),
           flows = has_flows(m), constraints = has_con(m), slow = #sets > 0 and sets or nil, vmi = has_vmi(m),
           averaged = m.avg ~= nil, invariants = m.invariants ~= nil }
end

-- A model with a parameter 'omega' that is not fast-forced (a vmi model's, a plain number).
local function plain_omega(m)
  if type(m) ~= "table" or m.vib ~= nil or type(m.spec) ~= "table" or type(m.spec.params) ~= "table" then return false end
  for _, p in ipairs(m.spec.params) do if p == "omega" then return true end end
  return false
end

-- The one-line reasons, by part (method: how the method is named in the message; m the model).
local why = {
  system = function(method) return "the model has no equations of motion (sys): " .. method .. " integrates y' = f(t, y)" end,
  second_order = function(method, m)
    if has_vmi(m) then -- a vmi model is in second-order form only with unit masses (kz_vmi_sys)
      return "the model keeps momenta p = M v in its state (its vmi masses are not all 1): " .. method ..
             " needs the second-order form y = (q, v)"
    end
    return "the model is in first-order form (dim): " .. method .. " needs the second-order form (nq, accel)"
  end,
  fast = function(method, m)
    if plain_omega(m) then -- a vmi model: 'omega' is one of its numbers, its equations autonomous
      return "the model is not fast-forced (its 'omega' is a plain parameter: a vmi model's equations come from V and W, " ..
             "with no phase): " .. method .. " needs a force driven by the fast phase theta = omega t + theta0"
    end
    return "the model is not fast-forced (no parameter 'omega'): " .. method .. " needs the fast phase theta = omega t + theta0"
  end,
  fast_second_order = function(method)
    return "the model's fast-forced form is first order (dim): " .. method .. " needs the second-order form (nq, accel)"
  end,
  period = function(method, m)
    if plain_omega(m) then
      return "the model has no period: " .. method .. " needs the period of its fast oscillation: give period = ... in the spec " ..
             "(a number, a parameter's name or function(p); a vmi model's 'omega' does not set it)"
    end
    return "the model has no period: " .. method .. " needs the period of its oscillation (a parameter 'omega', or period = ... in the spec)"
  end,
  flows = function(method) return "the model has no splitting: " .. method .. " needs flows a and b" end,
  constraints = function(method)
    return "the model has no constraints: " .. method .. " needs constraints g(q) and the masses (constraints = { m = ..., mass = ... })"
  end,
  slow = function(method) return "the model has no slow variables: " .. method .. " needs slow = { <set> = { r = ... } } with xi" end,
  constrained = function(method)
    return "the model has constraints: " .. method .. " ignores them (use shake, rattle, herk3, hmm-shake, hmm-rattle or sam-dae)"
  end,
  vmi = function(method)
    return "the model has no multirate split: " .. method .. " needs vmi = { ns = ..., nf = ... } with the potentials V and W"
  end,
}

---------------------------------------------------------------------------------------------------
-- The methods
---------------------------------------------------------------------------------------------------

-- The stepper's needs (enum kz_step_needs) on a system: the first missing part, or nil.
local function stepper_needs(T, s, con, name)
  local needs = T.needs
  if s == nil then return "system" end
  if bit.band(needs, C.KZ_NEEDS_ACCEL) ~= 0 and not second_order(s) then return "second_order" end
  if bit.band(needs, C.KZ_NEEDS_FLOWS) ~= 0 and not (s.flow_a ~= nil and s.flow_b ~= nil) then return "flows" end
  if bit.band(needs, C.KZ_NEEDS_CONSTRAINTS) ~= 0 and not con then return "constraints" end
  return nil, name
end

--- The methods, in the order `kapitza check` lists them: name -> { family, label, needs(m, opts) ->
-- missing part or nil, and the method as the message names it }. The families are the atlas's
-- (its data's family column, `kapitza solve method=list`): M.families, one set everywhere.
M.methods = { names = {} }
M.families = { "direct", "HMM", "SAM", "LISP", "MR", "VMI" }
local function add(name, family, label, needs)
  M.methods[name] = { name = name, family = family, label = label, needs = needs }
  M.methods.names[#M.methods.names + 1] = name
end

-- direct integration with every registry stepper
for _, sname in ipairs(kz.steppers.names) do
  local T = kz.steppers[sname]
  local constrained = bit.band(T.needs, C.KZ_NEEDS_CONSTRAINTS) ~= 0
  add(sname, "direct", (constrained and "constrained stepper " or "stepper ") .. sname,
      function(m)
        if not constrained and has_con(m) then return "constrained", "stepper=" .. sname end
        return (stepper_needs(T, m.sys, has_con(m))), "stepper=" .. sname
      end)
end

-- A micro-stepper choice on the model's system (opts.micro, default rk4).
local function micro_needs(m, opts, default)
  local micro = opts and opts.micro or default
  local T = kz.steppers[micro]
  if not T or micro == "names" then return nil end -- an unknown name is the options' error
  return (stepper_needs(T, m.sys, has_con(m))), "micro=" .. micro
end

add("hmm", "HMM", "HMM (fast-forced, Calvo & Sanz-Serna; Sharp, Tsai & Engquist)", function(m, o)
  if not has_fast(m) then return "fast", "the HMM" end
  if not (m.vib.nq > 0 and m.vib.accel ~= nil) then return "fast_second_order", "the HMM" end
  if has_con(m) then return "constrained", "the HMM" end
  local micro = o and o.micro
  if micro and kz.steppers[micro] and micro ~= "names" then
    local T = kz.steppers[micro]
    if bit.band(T.needs, C.KZ_NEEDS_FLOWS + C.KZ_NEEDS_CONSTRAINTS) ~= 0 then
      return bit.band(T.needs, C.KZ_NEEDS_FLOWS) ~= 0 and "flows" or "constraints", "the HMM with micro=" .. micro
    end
  end
  return nil
end)
for _, f in ipairs { { "sam", "SAM", "SAM" }, { "lisp", "LISP", "LISP" }, { "mr", "multirevolution", "MR" } } do
  local key, label, family = f[1], f[2], f[3]
  add(key, family, label .. " with micro=rk4", function(m, o)
    if not (has_period(m) or (o and o.period)) then return "period", label end
    if has_con(m) then return "constrained", label end
    return micro_needs(m, o, "rk4")
  end)
  add(key .. "-strang", family, label .. " with micro=strang", function(m, o)
    if not (has_period(m) or (o and o.period)) then return "period", label end
    if has_con(m) then return "constrained", label end
    return micro_needs(m, { micro = "strang" }, "strang")
  end)
end
add("hmm-slow", "HMM", "slow-variable HMM (Fredbo Algorithms 3-4)", function(m, o)
  if not has_fast(m) then return "fast", "the slow-variable HMM" end
  if type(m.slow) ~= "table" or next(m.slow) == nil then return "slow", "the slow-variable HMM" end
  if has_con(m) then return "constrained", "the slow-variable HMM" end
  return nil
end)
for _, f in ipairs { { "hmm-shake", "SHAKE-SHAKE" }, { "hmm-rattle", "RATTLE-SHAKE" } } do
  add(f[1], "HMM", "constrained HMM " .. f[2] .. " (Calvo & Sanz-Serna Sec. 4)", function(m)
    if not has_fast(m) then return "fast", "the constrained HMM" end
    if not (m.vib.nq > 0 and m.vib.accel ~= nil) then return "fast_second_order", "the constrained HMM" end
    if not has_con(m) then return "constraints", "the constrained HMM" end
    return nil
  end)
end
add("sam-dae", "SAM", "SAM on the index-2 DAE with HERK3 (Calvo et al. Sec. 6)", function(m, o)
  if not (has_period(m) or (o and o.period)) then return "period", "SAM on the DAE" end
  if not has_con(m) then return "constraints", "SAM on the DAE" end
  return nil
end)
add("vmi", "VMI", "variational multirate integrator (Ober-Bloebaum et al.)", function(m)
  if not has_vmi(m) then return "vmi", "the variational multirate integrator" end
  return nil
end)

---------------------------------------------------------------------------------------------------
-- The checks
---------------------------------------------------------------------------------------------------

--- Can `model` use `method` (a name of M.methods; opts.micro refines the HMM and SAM families,
-- e.g. check(m, "sam", { micro = "strang" }); opts.period = true: the caller gives the period, as
-- the bindings' options do)? true, or nil and the one-line reason.
function M.check(model, method, opts)
  if type(model) ~= "table" then return nil, "the model must be a table (lib/lua/kapitza/models.lua, lib/lua/kapitza/usermodel.lua)" end
  local e = M.methods[method]
  if not e or method == "names" then
    return nil, string.format("unknown method '%s' (one of %s)", tostring(method), table.concat(M.methods.names, ", "))
  end
  local part, name = e.needs(model, opts)
  if part == nil then return true end
  return nil, why[part](name or e.label, model)
end

--- check, raising its reason as a one-line error prefixed by `who` (the function refusing).
function M.require(model, method, opts, who, level)
  local ok, msg = M.check(model, method, opts)
  if not ok then error(string.format("%s: %s", who, msg), (level or 2) + 1) end
  return true
end

--- Every method with { method, family, label, ok, why } (why: nil when ok).
function M.table(model)
  local rows = {}
  for _, name in ipairs(M.methods.names) do
    local e = M.methods[name]
    local ok, msg = M.check(model, name)
    rows[#rows + 1] = { method = name, family = e.family, label = e.label, ok = ok == true, why = msg }
  end
  return rows
end

return M
