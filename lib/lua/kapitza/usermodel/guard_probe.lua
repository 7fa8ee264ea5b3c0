-- userguard_probe.lua -- a guarded C model after loading (lib/lua/kapitza/usermodel/guard.lua documents it): the
-- handlers installed, a fault's message read back, and each guarded function's trial calls in a
-- forked child with an alarm. Installed into userguard by userguard.lua:
-- require("kapitza.usermodel.guard_probe")(M, U).
return function(M, U)
local kz, ffi, C = U.kz, U.ffi, U.C
local GUARDED, who_c, part_roles = U.GUARDED, U.who_c, U.part_roles

local registry, by_path = {}, {} -- loaded guarded objects: { ns, name, parts }

-- The trial calls' arrays: each between GUARD_CELLS cells of a marked NaN on either side (its
-- payload spells "kzguar"), looked at after the call, so a write one or a few cells past either
-- end of an array is reported as such (a write further away is not seen: README). Inputs are
-- compared with a copy after the call: a function that writes into its const inputs is named.
local GUARD_CELLS, GUARD = 8, 0x7ff86b7a67756172ULL
local u64p = ffi.typeof("uint64_t *")
local function arena(keep, n, value)
  local b = ffi.new("double[?]", n + 2 * GUARD_CELLS)
  local u = ffi.cast(u64p, b)
  for i = 0, n + 2 * GUARD_CELLS - 1 do u[i] = GUARD end
  keep[#keep + 1] = b
  local a = b + GUARD_CELLS
  if value then for i = 0, n - 1 do a[i] = value end end
  return a
end
-- The first guard cell written (its index relative to the array: < 0 before, >= n past), or nil.
local function overrun(a, n)
  local u = ffi.cast(u64p, a - GUARD_CELLS)
  for i = GUARD_CELLS - 1, 0, -1 do if u[i] ~= GUARD then return i - GUARD_CELLS end end
  for i = 0, GUARD_CELLS - 1 do if u[GUARD_CELLS + n + i] ~= GUARD then return n + i end end
  return nil
end

-- A part function's trial call: its exported shim kzu_p_<id> with every input array all
-- pt[2], its phase or time pt[1] (a flow's step 0.1), fresh output arrays, each array between
-- guard cells. Returns the status and the arrays { name, ptr, n, input (const: compared), value }.
local function role_caller(p)
  local decl = { "const void *par" }
  for _, q in ipairs(p.params) do decl[#decl + 1] = q[1] .. " " .. q[2] end
  pcall(ffi.cdef, string.format("int %s(%s);", p.sym, table.concat(decl, ", ")))
  return function(ns, par, pt, keep)
    local args, arrays = {}, {}
    for i, q in ipairs(p.params) do
      if q[1] == "double" then
        args[i] = q[2] == "h" and 0.1 or pt[1]
      else
        local n = p.inplace or 1
        for _, o in ipairs(p.outs) do if o[2] == q[2] then n = o[3] end end
        for _, o in ipairs(p.ins) do if o[1] == i + 1 then n = o[2] end end
        n = math.max(1, n)
        local input = q[1] == "const double *"
        local b = arena(keep, n, (input or p.inplace) and pt[2] or nil)
        args[i] = b
        arrays[#arrays + 1] = { name = q[2], ptr = b, n = n, input = input, value = pt[2] }
      end
    end
    return ns[p.sym](par, unpack(args, 1, #p.params)), arrays
  end
end

--- Install the guards of a loaded object (once per object).
function M.install(ns, path, name, parts)
  for _, p in ipairs(parts) do if p.role and not p.call then p.call = role_caller(p) end end
  if by_path[path] then return end
  -- a crash or an exit() in the model's code removes the run's staging folder first
  local okc, cleanup = pcall(function() return C.kz_runner_cleanup end)
  ns.kzu_guard_install(okc and cleanup or nil)
  -- the wall-clock limit on one call of its code (lib/core/kz_watch.c)
  require("kapitza.usermodel.watch").add_c(ns.kzu_watch_record())
  local e = { ns = ns, name = name, parts = parts }
  by_path[path] = e
  registry[#registry + 1] = e
end

--- The message for a failed C call whose status is KZ_EMODEL because a guarded wrapper found an
-- output unset (nil otherwise); reads and clears every object's record. Installed as
-- kz.model_fault, which kz.fail consults.
function M.fault_message(status)
  local part, index, at = ffi.new("int[1]"), ffi.new("int[1]"), ffi.new("double[1]")
  local msg
  for _, e in ipairs(registry) do
    if e.ns.kzu_fault_take(part, index, at) ~= 0 and not msg and status == C.KZ_EMODEL then
      local p = e.parts[part[0] + 1]
      local k, out = index[0], p.outs[1]
      for _, o in ipairs(p.outs) do
        out = o
        if k < o[3] then break end
        k = k - o[3]
      end
      msg = string.format("%s left %s[%d] unset", who_c(e.name, p), out[2], k)
      if p.arg == "theta" then msg = msg .. string.format(" at theta = %.17g", at[0]) end
    end
  end
  return msg
end
kz.model_fault = M.fault_message

local POINTS = { { 0, 0 }, { 0.3, 0.5 }, { 1, -0.25 } } -- (t or theta, every component of x)

local function wait_status(st)
  local low = st % 128
  if low == 0 then return "exit", math.floor(st / 256) % 256 end
  return "signal", low
end

--- Call each guarded function of a loaded C model at the trial points in a forked child; raise
-- a one-line message when one crashes, exits, hangs or leaves an output unset there.
function M.probe(name, ns, parts, par, L)
  if #parts == 0 then return end
  -- the trial calls' limit: the run's (lib/lua/kapitza/usermodel/watch.lua), in whole seconds (0: none)
  local secs, where = require("kapitza.usermodel.watch").limit()
  local limit = math.ceil(secs)
  local fds = ffi.new("int[2]")
  if ffi.C.pipe(fds) ~= 0 then return end -- no probe: the guards in the process still hold
  local gc = collectgarbage("isrunning")
  collectgarbage("stop") -- no finalizer may run in the child
  local pid = ffi.C.fork()
  if pid == 0 then
    local ok, res = pcall(function()
      ffi.C.close(fds[0])
      local null = ffi.C.open("/dev/null", 1)
      if null >= 0 then ffi.C.dup2(null, 1); ffi.C.dup2(null, 2) end
      ffi.C.signal(14, nil) -- SIGALRM: the default action (the process may have ignored it)
      ffi.C.alarm(limit)
      local fp, fi, fa = ffi.new("int[1]"), ffi.new("int[1]"), ffi.new("double[1]")
      for k, p in ipairs(parts) do
        for j, pt in ipairs(POINTS) do
          local at = string.format("at %d %d\n", k, j) -- what runs, should it never return
          ffi.C.write(fds[1], at, #at)
          local keep, st, arrays = {}, nil, nil
          if p.role then
            st, arrays = p.call(ns, par, pt, keep)
          else
            local nout = p.outs[1][3]
            local x, out = arena(keep, p.nin, pt[2]), arena(keep, nout)
            arrays = { { name = p.inp or "x", ptr = x, n = p.nin, input = true, value = pt[2] }, { name = p.outs[1][2], ptr = out, n = nout } }
            st = ns[p.sym](par, pt[1], x, out)
          end
          -- a write past either end of an array, then an input changed, then an output unset
          for _, a in ipairs(arrays) do
            local i = overrun(a.ptr, a.n)
            if i then return string.format("overrun %d %d %s %d %d", k, j, a.name, i, a.n) end
          end
          for _, a in ipairs(arrays) do
            if a.input then
              for i = 0, a.n - 1 do
                if a.ptr[i] ~= a.value then return string.format("input %d %d %s %d %.17g", k, j, a.name, i, a.ptr[i]) end
              end
            end
          end
          if st == C.KZ_EMODEL and ns.kzu_fault_take(fp, fi, fa) ~= 0 then
            return string.format("unset %d %d %d", k, j, fi[0])
          end
        end
      end
      return "ok"
    end)
    local msg = (ok and res or "error") .. "\n"
    ffi.C.write(fds[1], msg, #msg)
    ffi.C._exit(0)
  end
  if gc then collectgarbage("restart") end
  ffi.C.close(fds[1])
  if pid < 0 then ffi.C.close(fds[0]); return end
  local chunks, buf = {}, ffi.new("char[256]")
  while true do
    local n = tonumber(ffi.C.read(fds[0], buf, 256))
    if n > 0 then chunks[#chunks + 1] = ffi.string(buf, n)
    elseif n == 0 or ffi.errno() ~= 4 then break end -- 4: EINTR
  end
  ffi.C.close(fds[0])
  local status = ffi.new("int[1]")
  local waited
  repeat waited = ffi.C.waitpid(pid, status, 0) until waited >= 0 or ffi.errno() ~= 4
  local said = table.concat(chunks)
  local last = said:match("([^\n]*)\n$") or ""
  if last == "ok" or last == "error" then return end
  local k, j, idx = last:match("^unset (%d+) (%d+) (%d+)$")
  local ok_, oj, oname, oi, on = last:match("^overrun (%d+) (%d+) ([%w_]+) (%-?%d+) (%d+)$")
  local ik, ij, iname, ii, iv = last:match("^input (%d+) (%d+) ([%w_]+) (%d+) (%S+)$")
  k, j = k or ok_ or ik, j or oj or ij
  if not k then k, j = last:match("^at (%d+) (%d+)$") end
  local p, pt = parts[tonumber(k) or 1], POINTS[tonumber(j) or 1]
  local what = who_c(name, p)
  local trial = p.arg and string.format("in a trial call (%s = %g, inputs all %g) in a child process", p.arg, pt[1], pt[2])
                or string.format("in a trial call (inputs all %g) in a child process", pt[2])
  if oname then
    oi, on = tonumber(oi), tonumber(on)
    error(string.format("%s wrote %s[%d], %s %s (%d number%s) %s: an out-of-bounds write", what, oname, oi,
                        oi < 0 and "before the start of" or "past the end of", oname, on, on == 1 and "" or "s", trial), 0)
  end
  if iname then
    error(string.format("%s changed its input %s[%d] (to %s; it is const) %s", what, iname, tonumber(ii), iv, trial), 0)
  end
  if idx then
    local i, o = tonumber(idx), p.outs[1]
    for _, oo in ipairs(p.outs) do
      o = oo
      if i < oo[3] then break end
      i = i - oo[3]
    end
    error(string.format("%s left %s[%d] unset %s", what, o[2], i, trial), 0)
  end
  if waited < 0 then error(string.format("%s did not finish %s", what, trial), 0) end
  local how, n = wait_status(status[0])
  if how == "signal" and n == 14 then
    error(string.format("%s did not return within %d s %s (the limit on one call of the model's code: %s)", what, limit, trial, where), 0)
  elseif how == "signal" then
    error(string.format("%s crashed with signal %d (%s) %s", what, n, ffi.string(ffi.C.strsignal(n)), trial), 0)
  elseif n == M.EXIT_STATUS then
    error(string.format("%s called exit() %s", what, trial), 0)
  elseif n == C.KZ_WATCH_FORK_STATUS then -- lib/core/kz_watch.c ended the child: its code forked
    error(string.format("%s called fork() %s (a model's code must not start processes)", what, trial), 0)
  end
  error(string.format("%s ended the process (exit status %d) %s", what, n, trial), 0)
end
end
