-- usercache.lua -- the compile cache of lib/lua/kapitza/usermodel.lua, which trusts nobody.
--
-- A user model's C source is compiled once into a shared object named by a hash of everything
-- that went into it, kept in a cache directory and loaded with ffi.load (which runs the object's
-- constructors: loading a planted object runs its author's code). So:
--  * a cache directory is used only when it is a real directory (lstat: a symbolic link is
--    refused, never followed), owned by this user, writable by nobody else, below directories
--    owned by root or this user that nobody else can write to (or that are sticky, like /tmp);
--    missing ones are created with mode 0700 (lib/core/kz_fs.c);
--  * an object is loaded only when it is a regular file owned by this user that nobody else can
--    write to, in such a directory; one that does not load is removed;
--  * files are created under fresh temporary names with O_CREAT|O_EXCL|O_NOFOLLOW (mode 0600),
--    compiled to a temporary name and renamed into place; error paths remove them, and every
--    compile first removes this user's temporaries left by processes that no longer exist (a
--    compile killed midway) or older than an hour;
--  * the compiler runs through the shell with every word single-quoted: CC and KZ_CFLAGS are
--    split at white space into words, each passed as one argument (no quoting, no expansion);
--  * the object is linked with -Wl,-z,defs against libm (and libc): a source that names a
--    function it does not define is a link error, reported in one line, and nothing is cached.
-- Errors are one-line messages (without the model's name: lib/lua/kapitza/usermodel.lua adds it).
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C
local bit = require "bit"

local M = {}

--- Work done by this process: C sources compiled, cached objects loaded (counters for tests).
M.stats = { compiles = 0, loads = 0 }

-- Functions of libc used here (pcall: another module may have declared them already).
for _, d in ipairs { "int getpid(void);", "unsigned int getuid(void);", "char *getcwd(char *buf, size_t size);",
                     "int kill(int pid, int sig);", "char *strerror(int errnum);", "int chmod(const char *path, unsigned int mode);" } do
  pcall(ffi.cdef, d)
end

local ESRCH, EEXIST = 3, 17

---------------------------------------------------------------------------------------------------
-- FNV-1a, 64 bits (Fowler, Noll, Vo), with LuaJIT's 64-bit bit operations on uint64_t cdata.
---------------------------------------------------------------------------------------------------

local FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325ULL, 0x100000001b3ULL

--- The FNV-1a 64 hash of a string, as 16 hex digits.
function M.hash(s)
  local h = FNV_OFFSET
  for i = 1, #s do h = bit.bxor(h, s:byte(i)) * FNV_PRIME end
  return bit.tohex(h)
end

---------------------------------------------------------------------------------------------------
-- Who owns what
---------------------------------------------------------------------------------------------------

local function uid() return tonumber(ffi.C.getuid()) end
local function pid() return tonumber(ffi.C.getpid()) end
local function strerror(e) return ffi.string(ffi.C.strerror(e)) end

-- The kz_fs_info of path (follow: through a final link), or nil and errno.
local function stat(path, follow)
  local st, err = ffi.new("kz_fs_info"), ffi.new("int[1]")
  if C.kz_fs_stat(path, follow and 1 or 0, st, err) ~= 0 then return nil, err[0] end
  return st
end

local function octal(m) return string.format("%04o", m) end

-- path made absolute (the checks walk its parents).
local function absolute(path)
  if path:sub(1, 1) == "/" then return path end
  local buf = ffi.new("char[?]", 4096)
  if ffi.C.getcwd(buf, 4096) == nil then return nil end
  return ffi.string(buf) .. "/" .. path
end

-- Why a parent directory others could use to swap ours is refused (nil: it is fine).
local function parent_problem(path, me)
  local st, e = stat(path, true)
  if not st then return e == 2 and "missing" or string.format("its parent %s: %s", path, strerror(e)) end
  if st.kind ~= C.KZ_FS_DIR then return string.format("its parent %s is not a directory", path) end
  local owner = tonumber(st.uid)
  if owner ~= 0 and owner ~= me then
    return string.format("its parent %s is owned by uid %d, neither you (uid %d) nor root", path, owner, me)
  end
  if bit.band(st.mode, 18) ~= 0 and bit.band(st.mode, 512) == 0 then -- 022 without the sticky bit 01000
    return string.format("its parent %s is writable by others (mode %s)", path, octal(st.mode))
  end
  return nil
end

--- Why dir cannot hold this user's compiled objects (nil when it can). create: make it (and its
-- missing parents) with mode 0700 first.
function M.dir_problem(dir, create)
  local me = uid()
  local abs = absolute(dir)
  if not abs then return "the working directory cannot be read" end
  local parts = {}
  for comp in abs:gmatch("[^/]+") do parts[#parts + 1] = comp end
  if #parts == 0 then return "is the root directory" end
  local p0 = parent_problem("/", me)
  if p0 then return p0 end
  local path = ""
  for i = 1, #parts - 1 do
    path = path .. "/" .. parts[i]
    local why = parent_problem(path, me)
    if why == "missing" then
      if not create then return "does not exist" end
      local err = ffi.new("int[1]")
      if C.kz_fs_mkdir(path, err) ~= 0 and err[0] ~= EEXIST then
        return string.format("cannot create %s: %s", path, strerror(err[0]))
      end
      why = parent_problem(path, me)
    end
    if why then return why end
  end
  local st, e = stat(abs, false)
  if not st and e == 2 and create then
    local err = ffi.new("int[1]")
    if C.kz_fs_mkdir(abs, err) ~= 0 and err[0] ~= EEXIST then return "cannot be created: " .. strerror(err[0]) end
    st, e = stat(abs, false)
  end
  if not st then return e == 2 and "does not exist" or strerror(e) end
  if st.kind == C.KZ_FS_LINK then return "is a symbolic link (not followed)" end
  if st.kind ~= C.KZ_FS_DIR then return "is not a directory" end
  if tonumber(st.uid) ~= me then return string.format("is owned by uid %d, not by you (uid %d)", tonumber(st.uid), me) end
  if bit.band(st.mode, 18) ~= 0 then return string.format("is writable by others (mode %s)", octal(st.mode)) end
  return nil
end

--- Why the file at path must not be loaded (nil when it may).
function M.file_problem(path)
  local st, e = stat(path, false)
  if not st then return e == 2 and "does not exist" or strerror(e) end
  if st.kind == C.KZ_FS_LINK then return "is a symbolic link (not followed)" end
  if st.kind ~= C.KZ_FS_FILE then return "is not a regular file" end
  if tonumber(st.uid) ~= uid() then return string.format("is owned by uid %d, not by you (uid %d)", tonumber(st.uid), uid()) end
  if bit.band(st.mode, 18) ~= 0 then return string.format("is writable by others (mode %s)", octal(st.mode)) end
  return nil
end

---------------------------------------------------------------------------------------------------
-- Where
---------------------------------------------------------------------------------------------------

--- The cache directories, in order of preference: KZ_CACHE alone when set; else
-- $XDG_CACHE_HOME/kapitza, $HOME/.cache/kapitza, the source tree's build/cache,
-- /tmp/kapitza-cache-<uid>. Each is used only when M.dir_problem finds nothing wrong.
function M.dirs()
  local env = os.getenv("KZ_CACHE")
  if env and env ~= "" then return { { dir = env, chosen = true } } end
  local t = {}
  local xdg, home = os.getenv("XDG_CACHE_HOME"), os.getenv("HOME")
  if xdg and xdg:sub(1, 1) == "/" then t[#t + 1] = { dir = xdg .. "/kapitza" } end
  if home and home:sub(1, 1) == "/" then t[#t + 1] = { dir = home .. "/.cache/kapitza" } end
  if not kz.installed then t[#t + 1] = { dir = kz.root .. "/build/cache" } end
  t[#t + 1] = { dir = "/tmp/kapitza-cache-" .. uid() }
  return t
end

---------------------------------------------------------------------------------------------------
-- Temporary files
---------------------------------------------------------------------------------------------------

local function random_hex()
  local f = io.open("/dev/urandom", "rb")
  local s = f and f:read(6)
  if f then f:close() end
  if not s or #s < 6 then return string.format("%06x%06x", math.random(0, 0xffffff), math.random(0, 0xffffff)) end
  return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- A new file path .. ".<pid>.<random>.tmp" holding data, created exclusively (never through a
-- link); returns its name.
local function create_tmp(path, data)
  local err = ffi.new("int[1]")
  for _ = 1, 8 do
    local name = string.format("%s.%d.%s.tmp", path, pid(), random_hex())
    if C.kz_fs_create(name, data, #data, err) == 0 then return name end
    if err[0] ~= EEXIST then error(string.format("cannot create %s: %s", name, strerror(err[0])), 0) end
  end
  error("cannot create a temporary file beside " .. path, 0)
end

-- The names in dir (nil when it cannot be read).
local function list(dir)
  local cap = 65536
  for _ = 1, 6 do
    local buf, len, err = ffi.new("char[?]", cap), ffi.new("size_t[1]"), ffi.new("int[1]")
    local st = C.kz_fs_list(dir, buf, cap, len, err)
    if st == 0 then
      local t, s = {}, ffi.string(buf, len[0])
      for name in s:gmatch("([^%z]+)%z") do t[#t + 1] = name end
      return t
    end
    if st ~= C.KZ_EBUFFER then return nil end
    cap = tonumber(len[0]) + 1
  end
  return nil
end

local STALE_AGE = 3600 -- seconds after which any temporary of this user is stale

--- Remove this user's temporaries in dir left by processes that are gone (killed midway) or
-- older than an hour; returns how many were removed.
function M.clean_stale(dir)
  local names, n, now, me = list(dir), 0, os.time(), uid()
  for _, name in ipairs(names or {}) do
    local owner = name:match("%.(%d+)%.%w+%.tmp$")
    if owner then
      local path = dir .. "/" .. name
      local st = stat(path, false)
      if st and st.kind == C.KZ_FS_FILE and tonumber(st.uid) == me then
        local r = ffi.C.kill(tonumber(owner), 0)
        local gone = r ~= 0 and ffi.errno() == ESRCH -- EPERM: alive, another user's
        if gone or now - st.mtime > STALE_AGE then
          if os.remove(path) then n = n + 1 end
        end
      end
    end
  end
  return n
end

---------------------------------------------------------------------------------------------------
-- The compiler
---------------------------------------------------------------------------------------------------

local function words(s)
  local t = {}
  for w in s:gmatch("%S+") do t[#t + 1] = w end
  return t
end

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

--- The compiler's words: CC (default cc) and the flags (KZ_CFLAGS, default -O2, between the
-- fixed ones), each split at white space.
function M.compiler()
  local cc = os.getenv("CC")
  if not cc or not cc:match("%S") then cc = "cc" end
  local flags = os.getenv("KZ_CFLAGS")
  if not flags or not flags:match("%S") then flags = "-O2" end
  local f = { "-std=c11", "-D_DEFAULT_SOURCE" }
  for _, w in ipairs(words(flags)) do f[#f + 1] = w end
  -- the ensemble wrappers' member loops (lib/lua/kapitza/usermodel.lua): OpenMP SIMD and the vector math
  -- library; loop and SLP vectorisation stay off elsewhere, so a scalar function never calls a
  -- vector sin (the ensemble wrappers turn loop vectorisation back on for themselves alone).
  -- ISO C (-std=c11): no floating-point contraction; the scalar results are those of -O2 alone.
  -- -z nodelete: the object stays mapped once loaded (its watch record, kzu_watch, is read by the
  -- library's monitor thread until the process ends; LuaJIT closes what it loaded as its state closes)
  for _, w in ipairs { "-fopenmp-simd", "-fno-math-errno", "-fno-tree-loop-vectorize", "-fno-tree-slp-vectorize",
                       "-fPIC", "-shared", "-Wl,-z,defs", "-Wl,-z,nodelete" } do f[#f + 1] = w end
  return words(cc), f
end

-- Run argv (a list of words) with stdout and stderr captured; returns exit code, output.
local function run(argv)
  local q = {}
  for i, w in ipairs(argv) do q[i] = sh_quote(w) end
  local p, perr = io.popen(table.concat(q, " ") .. ' 2>&1; echo "kz-exit-status $?"', "r")
  if not p then return -1, "cannot start a shell: " .. tostring(perr) end
  local out = p:read("*a") or ""
  p:close()
  local body, code = out:match("^(.-)kz%-exit%-status (%d+)%s*$")
  if not code then return 1, out end
  return tonumber(code), body
end

-- The first line of a compiler log that reports an error (else its first line).
local function first_error(log)
  local first
  for line in (log .. "\n"):gmatch("([^\n]*)\n") do
    line = line:gsub("^%s+", ""):gsub("%s+$", "")
    if line ~= "" then
      first = first or line
      if line:match("[Ee]rror") and not line:match("^collect2:") then return line end
    end
  end
  return first or "(no message)"
end

-- The one-line message for a failed compile.
local function compile_message(name, code, log, cc, src)
  if code == -1 or log:match("[Cc]annot fork") or log:match("fork: ") then -- no process could be started
    return string.format("cannot start the C compiler '%s': %s (no new process: too many processes, or out of memory?)", cc,
                         first_error(log))
  end
  if code == 127 and not log:match("%.c:%d+") then return string.format("C compiler '%s' not found (set CC)", cc) end
  if log:match("File too large") then
    return string.format("the compiler could not write its files: %s (the file size limit, ulimit -f?; %s)", first_error(log), cc)
  end
  local sym = log:match("undefined reference to [`']([^'\n]+)'")
  if sym then
    local where = log:match("([%w_]+%.c:%d+:%d+):[^\n]-implicit declaration of function [`']" .. sym:gsub("%p", "%%%0") .. "'")
    return string.format("the C source uses '%s', which it does not define (%sundefined at link time: only libc and " ..
                         "libm are linked; full source %s)", sym, where and (where .. "; ") or "", src)
  end
  return string.format("the C source does not compile: %s (%s; full source %s)", first_error(log), cc, src)
end

for _, d in ipairs { "int fork(void);", "int pipe(int fd[2]);", "intptr_t read(int fd, void *buf, size_t n);",
                     "int close(int fd);", "int waitpid(int pid, int *status, int options);", "void _exit(int status);",
                     "int dup2(int oldfd, int newfd);", "void (*signal(int sig, void (*handler)(int)))(int);",
                     "unsigned int alarm(unsigned int seconds);", "intptr_t write(int fd, const void *buf, size_t n);" } do
  pcall(ffi.cdef, d)
end

-- Load the object at path in a forked child first: an object whose constructors end the process
-- (one built with KZ_CFLAGS=-fsanitize=address ends it at load: its runtime is not loaded first),
-- even with status 0 (exit(0) in a constructor), or never return (a constructor that loops), must
-- not take this one down, and is not kept. The child says it loaded by a line of its own after
-- the load, and has the model code's wall-clock limit (lib/lua/kapitza/usermodel/watch.lua) as an
-- alarm. Returns nil, or why it does not load (the first line it wrote: the loader's message, or
-- how the child ended). A fork that fails skips the trial (nil).
local LOADED = "\1kapitza: loaded\n"
local function trial_load(path)
  local fds = ffi.new("int[2]")
  if ffi.C.pipe(fds) ~= 0 then return nil end
  local secs = math.ceil((require("kapitza.usermodel.watch").limit()))
  local gc = collectgarbage("isrunning")
  collectgarbage("stop") -- no finalizer may run in the child
  local child = ffi.C.fork()
  if child == 0 then
    ffi.C.close(fds[0])
    ffi.C.dup2(fds[1], 1)
    ffi.C.dup2(fds[1], 2)
    ffi.C.signal(14, nil) -- SIGALRM: the default action (the process may have ignored it)
    ffi.C.alarm(secs)
    local ok, err = pcall(ffi.load, path)
    local said = ok and LOADED or (tostring(err):gsub("\n.*", "") .. "\n")
    ffi.C.write(fds[1], said, #said)
    ffi.C._exit(ok and 0 or 3)
  end
  if gc then collectgarbage("restart") end
  ffi.C.close(fds[1])
  if child < 0 then ffi.C.close(fds[0]); return nil end
  local chunks, buf = {}, ffi.new("char[512]")
  while #chunks < 64 do
    local n = tonumber(ffi.C.read(fds[0], buf, 512))
    if n > 0 then chunks[#chunks + 1] = ffi.string(buf, n)
    elseif n == 0 or ffi.errno() ~= 4 then break end -- 4: EINTR
  end
  ffi.C.close(fds[0])
  local status, waited = ffi.new("int[1]"), nil
  repeat waited = ffi.C.waitpid(child, status, 0) until waited >= 0 or ffi.errno() ~= 4
  if waited < 0 then return nil end
  local st, text = status[0], table.concat(chunks)
  if st == 0 and text:sub(-#LOADED) == LOADED then return nil end
  local said = text:gsub("\1kapitza: loaded\n", ""):match("^%s*([^\n]*[^%s])") or ""
  local how = st % 128 == 0 and string.format("exit status %d", math.floor(st / 256) % 256) or string.format("signal %d", st % 128)
  if st % 128 == 14 then how = string.format("it did not finish loading within %d s (a constructor that never returns?)", secs)
  elseif st == 0 then how = "exit status 0 before the load returned (exit() in a constructor?)" end
  return said ~= "" and string.format("%s (the loading process ended: %s)", said, how) or ("the loading process ended: " .. how)
end

local loaded = {} -- cache key -> { ns = library namespace, path = shared object }

--- The shared object of translation units `sources` ({ { ext = ".c", text = ... }, ... }, the
-- first the user's): loaded from the cache, or compiled into it. Returns the library namespace,
-- its path, whether this call compiled it, and the cache key.
function M.build(name, sources)
  local cc, flags = M.compiler()
  local parts = { "kapitza-usermodel-2", kz.version, table.concat(cc, " "), table.concat(flags, " "), "-lm" }
  for _, s in ipairs(sources) do parts[#parts + 1] = s.ext; parts[#parts + 1] = s.text end
  local key = M.hash(table.concat(parts, "\0"))
  if loaded[key] then return loaded[key].ns, loaded[key].path, false, key end
  local base = name .. "-" .. key
  local dirs, why = M.dirs(), {}
  -- a hit: a trusted object in a trusted directory
  for _, c in ipairs(dirs) do
    if not M.dir_problem(c.dir, false) then
      local so = c.dir .. "/" .. base .. ".so"
      if not M.file_problem(so) then
        local ok, ns = pcall(ffi.load, so)
        if ok then
          M.stats.loads = M.stats.loads + 1
          loaded[key] = { ns = ns, path = so }
          return ns, so, false, key
        end
        os.remove(so) -- it does not load: not kept
      end
    end
  end
  -- a miss: compile into the first usable directory
  local dir
  for _, c in ipairs(dirs) do
    local problem = M.dir_problem(c.dir, true)
    if not problem then dir = c.dir; break end
    why[#why + 1] = c.dir .. " " .. problem
  end
  if not dir then
    if dirs[1].chosen then error(string.format("the cache directory KZ_CACHE=%s: refused", why[1]), 0) end
    error("no usable cache directory for the compiled C source (" .. table.concat(why, "; ") .. "; set KZ_CACHE)", 0)
  end
  M.clean_stale(dir)
  local tmps, final = {}, {}
  local function cleanup()
    for _, t in ipairs(tmps) do os.remove(t) end
  end
  -- a file size limit (ulimit -f) makes a write fail with EFBIG instead of killing the process
  -- with SIGXFSZ midway (its temporaries left behind); the compiler inherits this and reports it
  local SIGXFSZ = 25
  local xfsz = ffi.C.signal(SIGXFSZ, ffi.cast("void (*)(int)", 1)) -- SIG_IGN
  local ok, res = pcall(function()
    local args = { "env", "-u", "LD_PRELOAD", "LC_ALL=C" } -- LD_PRELOAD: the ASan runtime under the sanitizer tests
    for _, w in ipairs(cc) do args[#args + 1] = w end
    for _, w in ipairs(flags) do args[#args + 1] = w end
    local so = dir .. "/" .. base .. ".so"
    local so_tmp = create_tmp(so, "")
    tmps[#tmps + 1] = so_tmp
    args[#args + 1] = "-o"; args[#args + 1] = so_tmp; args[#args + 1] = "-x"; args[#args + 1] = "c"
    for i, s in ipairs(sources) do
      local path = dir .. "/" .. base .. s.ext
      local t = create_tmp(path, s.text)
      tmps[#tmps + 1] = t
      final[i] = path
      args[#args + 1] = t
    end
    args[#args + 1] = "-lm"
    local code, log = run(args)
    if code ~= 0 then
      os.rename(tmps[2], final[1]) -- the user's source kept for inspection
      error(compile_message(name, code, log, table.concat(cc, " "), final[1]), 0)
    end
    for i = 1, #sources do os.rename(tmps[i + 1], final[i]) end
    ffi.C.chmod(so_tmp, 448) -- 0700, whatever the umask
    local why_not = trial_load(so_tmp)
    if why_not then error(string.format("the compiled object does not load: %s; not kept (compiler flags: %s)", why_not,
                                        table.concat(flags, " ")), 0) end
    if not os.rename(so_tmp, so) then error("cannot move the compiled object into " .. so, 0) end
    return so
  end)
  if xfsz ~= ffi.cast("void (*)(int)", -1) then ffi.C.signal(SIGXFSZ, xfsz) end -- SIG_ERR aside
  cleanup()
  if not ok then error(res, 0) end
  local so = res
  M.stats.compiles = M.stats.compiles + 1
  local problem = M.file_problem(so)
  if problem then error(string.format("the compiled object %s %s: not loaded", so, problem), 0) end
  local okl, ns = pcall(ffi.load, so)
  if not okl then
    os.remove(so)
    error("cannot load " .. so .. ": " .. tostring(ns):gsub("\n.*", ""), 0)
  end
  loaded[key] = { ns = ns, path = so }
  return ns, so, true, key
end

return M
