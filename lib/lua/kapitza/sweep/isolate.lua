-- sweep_isolate.lua -- run a computation over points 1..n in a forked child process, so that a point
-- whose model code crashes the process (SIGSEGV, abort, exit() inside a C model call) costs only
-- that point: when the child dies, the points are halved and each half run again in a child of its
-- own, down to the single points that crash (about k log2(n) further calls for k such points).
-- Used by the ensemble sweep (lib/lua/kapitza/sweep/ensemble.lua). Linux (glibc).
local ffi = require "ffi"
local S = require "kapitza.scenario"

local M = {}

for _, d in ipairs { "int fork(void);", "int pipe(int fd[2]);", "intptr_t read(int fd, void *buf, size_t n);",
                     "intptr_t write(int fd, const void *buf, size_t n);", "int close(int fd);",
                     "int waitpid(int pid, int *status, int options);", "void _exit(int status);",
                     "char *strsignal(int sig);" } do
  pcall(ffi.cdef, d)
end
local C = ffi.C
local EX_SOFTWARE = 70 -- an exit() from inside a C model call (lib/lua/kapitza/usermodel/guard.lua)

local function write_all(fd, s)
  local p, n = ffi.cast("const char *", s), #s
  while n > 0 do
    local w = tonumber(C.write(fd, p, n))
    if w < 0 then
      if ffi.errno() ~= 4 then return false end
    else p, n = p + w, n - w end
  end
  return true
end

-- fn(ids) in a child: { value } when it returned, { signal = n } or { exit = status } when not.
local function in_child(fn, ids)
  local fds = ffi.new("int[2]")
  if C.pipe(fds) ~= 0 then return { value = fn(ids) } end -- no pipe: run here, unguarded
  collectgarbage() -- what is garbage now is finalized once, here, not in both processes
  io.stdout:flush()
  io.stderr:flush()
  local pid = C.fork()
  if pid == 0 then
    C.close(fds[0])
    -- the wall-clock limit on the model's calls: its monitor thread is not copied by fork
    -- (lib/core/kz_watch.c): started again here
    pcall(function() require("kapitza.usermodel.watch").arm() end)
    local ok, text = pcall(function() return "ok\n" .. S.cell_encode(fn(ids), "the sweep's results") end)
    if not ok then
      io.stderr:write("sweep: ", tostring(text):gsub("\n.*", ""), "\n")
      io.stderr:flush()
      C._exit(2)
    end
    C._exit(write_all(fds[1], text) and 0 or 2)
  end
  C.close(fds[1])
  if pid < 0 then
    C.close(fds[0])
    return { value = fn(ids) }
  end
  local chunks, buf = {}, ffi.new("char[65536]")
  while true do
    local n = tonumber(C.read(fds[0], buf, 65536))
    if n > 0 then chunks[#chunks + 1] = ffi.string(buf, n)
    elseif n == 0 or ffi.errno() ~= 4 then break end
  end
  C.close(fds[0])
  local status = ffi.new("int[1]")
  local waited
  repeat waited = C.waitpid(pid, status, 0) until waited >= 0 or ffi.errno() ~= 4
  local st = status[0]
  local sig, code = bit.band(st, 0x7f), bit.band(bit.rshift(st, 8), 0xff)
  local text = table.concat(chunks)
  if sig == 0 and code == 0 and text:sub(1, 3) == "ok\n" then
    local ok, v = S.cell_decode(text:sub(4))
    if ok then return { value = v } end
  end
  if sig ~= 0 then return { signal = sig } end
  return { exit = code }
end

--- Run fn(ids) for ids = { 1..n } in a child process; where the child dies of a signal, of an
-- exit() inside model code (status 70), or ends without its results, halve and run again, down
-- to single points. fn returns a list of per-point results in the order of ids (plain values:
-- numbers, strings, tables). Returns the results by point (a crashed point's entry is
-- { crashed = "signal 11 (Segmentation fault)" }), or exits with the child's status when it
-- stopped for another reason (its one-line message already written on stderr).
function M.run(n, fn)
  local out = {}
  local function go(ids)
    local r = in_child(fn, ids)
    if r.value then
      for i, k in ipairs(ids) do out[k] = r.value[i] end
      return
    end
    if r.exit and r.exit ~= 0 and r.exit ~= EX_SOFTWARE then os.exit(r.exit) end
    if #ids == 1 then
      out[ids[1]] = { crashed = r.signal and string.format("signal %d (%s)", r.signal, ffi.string(C.strsignal(r.signal)))
                                 or (r.exit == EX_SOFTWARE and "exit() called in the model's code")
                                 or "the process ended without its results" }
      return
    end
    local h, a, b = math.floor(#ids / 2), {}, {}
    for i = 1, h do a[i] = ids[i] end
    for i = h + 1, #ids do b[i - h] = ids[i] end
    go(a)
    go(b)
  end
  local all = {}
  for k = 1, n do all[k] = k end
  go(all)
  return out
end

--- The ensemble sweep's call over its points pts (their values: points; the first is point
-- `first` of the grid) isolated by M.run: run(sub) runs the call over a list of points and
-- returns rows, statuses, evaluations, the vector width and, with observers' samples, those (per
-- point). A crashed point gets a row of NaN, status failed:crash and 0 evaluations, said on stderr
-- with its values. Returns rows, statuses, evaluations, the width and the samples (or nil).
function M.ensemble(c, pts, points, first, dim, run)
  local res = M.run(#pts, function(ids)
    local sub = {}
    for i, k in ipairs(ids) do sub[i] = pts[k] end
    local r, st, ev, w, sa = run(sub)
    local o = {}
    for i = 1, #ids do o[i] = { r = r[i], s = st[i], e = ev[i], w = w, sa = sa and sa.points[i], names = sa and sa.names, t = sa and sa.t } end
    return o
  end)
  local rows, status, evals, width, samples = {}, {}, {}, nil, nil
  for m = 1, #pts do
    local e = res[m]
    if e.crashed then
      local r = {}
      for i = 1, dim do r[i] = 0 / 0 end
      rows[m], status[m], evals[m] = r, "failed:crash", 0
      local what = {}
      for j, v in ipairs(points[m]) do what[j] = c.over[j].key .. "=" .. v end
      io.stderr:write(string.format("sweep: point %d (%s): the model's code crashed the process (%s): failed:crash, the other points go on\n",
                                    first + m - 1, table.concat(what, " "), e.crashed))
    else
      rows[m], status[m], evals[m], width = e.r, e.s, e.e, e.w
      if e.names then -- the observers' samples of this point (none for a crashed one)
        samples = samples or { names = e.names, t = e.t, points = {} }
        samples.points[m] = e.sa
      end
    end
  end
  return rows, status, evals, width or 0, samples
end

return M
