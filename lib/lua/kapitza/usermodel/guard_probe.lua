-- userguard_probe.lua -- a guarded C model after loading (lib/lua/kapitza/usermodel/guard.lua documents it): the
-- handlers installed, a fault's message read back, and each guarded function's trial calls in a
-- forked child with an alarm. Installed into userguard by userguard.lua:
-- require("kapitza.usermodel.guard_probe")(M, U).
return function(M, U)
local kz, ffi, C = U.kz, U.ffi, U.C
local GUARDED, who_c, part_roles = U.GUARDED, U.who_c, U.part_roles

local registry, by_path = {}, {} -- loaded guarded objects: { ns, name, parts }

-- A part function's trial call: its exported shim kzu_p_<id> with every input array all
-- pt[2], its phase or time pt[1] (a flow's step 0.1), fresh output arrays.
local function role_caller(p)
  local decl = { "const void *par" }
  for _, q in ipairs(p.params) do decl[#decl + 1] = q[1] .. " " .. q[2] end
  pcall(ffi.cdef, string.format("int %s(%s);", p.sym, table.concat(decl, ", ")))
  return function(ns, par, pt)
    local args = {}
    for i, q in ipairs(p.params) do
      if q[1] == "double" then
        args[i] = q[2] == "h" and 0.1 or pt[1]
      else
        local n = p.inplace or 1
        for _, o in ipairs(p.outs) do if o[2] == q[2] then n = o[3] end end
        for _, o in ipairs(p.ins) do if o[1] == i + 1 then n = o[2] end end
        n = math.max(1, n)
        local b = ffi.new("double[?]", n)
        if q[1] == "const double *" or p.inplace then for k = 0, n - 1 do b[k] = pt[2] end end
        args[i] = b
      end
    end
    return ns[p.sym](par, unpack(args, 1, #p.params))
  end
end

--- Install the guards of a loaded object (once per object).
function M.install(ns, path, name, parts)
  for _, p in ipairs(parts) do if p.role and not p.call then p.call = role_caller(p) end end
  if by_path[path] then return end
  -- a crash or an exit() in the model's code removes the run's staging folder first
  local okc, cleanup = pcall(function() return C.kz_runner_cleanup end)
  ns.kzu_guard_install(okc and cleanup or nil)
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
      ffi.C.alarm(M.PROBE_SECONDS)
      local x, out = ffi.new("double[?]", L.dim), ffi.new("double[?]", L.dim)
      local fp, fi, fa = ffi.new("int[1]"), ffi.new("int[1]"), ffi.new("double[1]")
      for k, p in ipairs(parts) do
        for j, pt in ipairs(POINTS) do
          for i = 0, L.dim - 1 do x[i] = pt[2] end
          local at = string.format("at %d %d\n", k, j) -- what runs, should it never return
          ffi.C.write(fds[1], at, #at)
          local st
          if p.role then st = p.call(ns, par, pt) else st = ns[p.sym](par, pt[1], x, out) end
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
  if not k then k, j = last:match("^at (%d+) (%d+)$") end
  local p, pt = parts[tonumber(k) or 1], POINTS[tonumber(j) or 1]
  local what = who_c(name, p)
  local trial = p.arg and string.format("in a trial call (%s = %g, inputs all %g) in a child process", p.arg, pt[1], pt[2])
                or string.format("in a trial call (inputs all %g) in a child process", pt[2])
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
    error(string.format("%s did not return within %d s %s", what, M.PROBE_SECONDS, trial), 0)
  elseif how == "signal" then
    error(string.format("%s crashed with signal %d (%s) %s", what, n, ffi.string(ffi.C.strsignal(n)), trial), 0)
  elseif n == M.EXIT_STATUS then
    error(string.format("%s called exit() %s", what, trial), 0)
  end
  error(string.format("%s ended the process (exit status %d) %s", what, n, trial), 0)
end
end
