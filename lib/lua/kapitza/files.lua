-- files.lua -- directories and files without a shell, for the tools that handle output trees
-- (scripts/compare.lua, scripts/sweep.lua, tests/regression_spec.lua, lib/lua/kapitza/cli/atlas.lua): list a
-- tree with opendir/readdir through the FFI, resolve a path (realpath), create directories with mkdir(2), and write a file
-- atomically through a temporary name created exclusively (no link followed), removed again on
-- any failure (a full disk leaves nothing behind). Linux (glibc's struct dirent on 64-bit).
local ffi = require "ffi"

local M = {}

-- Own names for the C functions (asm aliases), so that no other module's declarations clash.
pcall(ffi.cdef, [[
typedef struct kzf_DIR kzf_DIR;
struct kzf_dirent { uint64_t d_ino; int64_t d_off; unsigned short d_reclen; unsigned char d_type; char d_name[256]; };
kzf_DIR *kzf_opendir(const char *name) __asm__("opendir");
struct kzf_dirent *kzf_readdir(kzf_DIR *d) __asm__("readdir");
int kzf_closedir(kzf_DIR *d) __asm__("closedir");
int kzf_mkdir(const char *path, unsigned int mode) __asm__("mkdir");
char *kzf_strerror(int errnum) __asm__("strerror");
char *kzf_realpath(const char *path, char *resolved) __asm__("realpath");
void *kzf_signal(int sig, void *handler) __asm__("signal");
]])
local C = ffi.C
local DT_DIR, DT_UNKNOWN = 4, 0

local function errmsg() return ffi.string(C.kzf_strerror(ffi.errno())) end

local function getpid()
  if not pcall(function() return C.getpid end) then pcall(ffi.cdef, "int getpid(void);") end
  return C.getpid()
end

--- Ignore SIGXFSZ in this process (and the programs it starts): past a file size limit (ulimit
-- -f) a write then fails with EFBIG ("File too large"), which every writer here reports in one
-- line and cleans up after, instead of the process dying of the signal midway with its staging
-- folder, half a sweep or a temporary file left behind. (Signal 25 on Linux x86-64 and arm64.)
function M.no_sigxfsz() C.kzf_signal(25, ffi.cast("void *", 1)) end -- 1: SIG_IGN

--- The canonical absolute path of an existing file or directory (links resolved, realpath(3)),
-- or nil when there is none.
function M.real(path)
  local buf = ffi.new("char[4096]")
  local r = C.kzf_realpath(path, buf)
  return r ~= nil and ffi.string(r) or nil
end

--- The names in directory `dir` (not . and ..), sorted, each with its kind ("dir" or "file":
-- anything that is not a directory, a symbolic link included, which is never descended).
-- Returns nil and the reason when the directory cannot be opened.
function M.entries(dir)
  local d = C.kzf_opendir(dir)
  if d == nil then return nil, dir .. ": " .. errmsg() end
  local t = {}
  while true do
    local e = C.kzf_readdir(d)
    if e == nil then break end
    local name = ffi.string(e.d_name)
    if name ~= "." and name ~= ".." then
      local kind = e.d_type == DT_DIR and "dir" or "file"
      if e.d_type == DT_UNKNOWN then -- a file system that does not say: try it as a directory
        local sub = C.kzf_opendir(dir .. "/" .. name)
        if sub ~= nil then kind = "dir"; C.kzf_closedir(sub) end
      end
      t[#t + 1] = { name = name, kind = kind }
    end
  end
  C.kzf_closedir(d)
  table.sort(t, function(a, b) return a.name < b.name end)
  return t
end

--- True when `path` is a directory that can be listed.
function M.is_dir(path)
  local d = C.kzf_opendir(path)
  if d == nil then return false end
  C.kzf_closedir(d)
  return true
end

--- Every file below `dir` as paths relative to it ("data/x.tsv"), sorted. nil and the reason
-- when `dir` (or a directory below it) cannot be read.
function M.tree(dir)
  local out = {}
  local function walk(path, rel)
    local es, err = M.entries(path)
    if not es then return nil, err end
    for _, e in ipairs(es) do
      local r = rel == "" and e.name or (rel .. "/" .. e.name)
      if e.kind == "dir" then
        local ok, err2 = walk(path .. "/" .. e.name, r)
        if not ok then return nil, err2 end
      else
        out[#out + 1] = r
      end
    end
    return true
  end
  local ok, err = walk(dir, "")
  if not ok then return nil, err end
  table.sort(out)
  return out
end

--- Create `dir` and its missing parents (mode 0755). Returns true, or nil and the reason.
function M.mkdir_p(dir)
  local path = dir:sub(1, 1) == "/" and "" or "."
  for part in dir:gmatch("[^/]+") do
    path = path .. "/" .. part
    C.kzf_mkdir(path, tonumber("755", 8)) -- an existing directory (EEXIST) is fine
  end
  if not M.is_dir(dir) then return nil, "cannot create directory " .. dir end
  return true
end

--- Write `text` to `path` atomically: a temporary file path.<pid>-<random>.tmp created
-- exclusively (never over an existing file or link of that name), then renamed. On any
-- failure (a full disk shows at the write or at the close) the temporary file is removed and
-- nil and a one-line reason naming `path` are returned.
function M.write_atomic(path, text)
  local parent = path:match("^(.*)/[^/]*$")
  local made = {} -- the folders this call makes: removed again (by identity, if empty) when it fails
  if parent and parent ~= "" then
    local m, err = M.make_dirs(parent)
    if not m then return nil, err end
    made = m
  end
  local function failed(why)
    M.unmake(made)
    return nil, string.format("cannot write %s: %s", path, tostring(why):gsub("^[^:]*: ", ""))
  end
  -- a fresh name each time, created exclusively: nothing of that name (a file, a link) is removed
  -- or followed
  local f, err, tmp
  for _ = 1, 8 do
    tmp = string.format("%s.%d-%06x.tmp", path, getpid(), math.random(0, 0xffffff))
    f, err = io.open(tmp, "wx")
    if f or not tostring(err):match("File exists") then break end
  end
  if not f then return failed(err) end
  local ok, werr = f:write(text)
  local cok, cerr = f:close()
  if not ok or not cok then
    os.remove(tmp)
    return failed(werr or cerr)
  end
  local rok, rerr = os.rename(tmp, path)
  if not rok then
    os.remove(tmp)
    return failed(rerr)
  end
  return true
end

---------------------------------------------------------------------------------------------------
-- Output directories: what a command may write into, create and remove (issue 25, item 1)
---------------------------------------------------------------------------------------------------
-- A command given an output path (--out DIR, a sweep's DIR) never removes or replaces what was
-- there: a path that exists and is not a directory is refused before anything happens, and what
-- the command removes afterwards (a staging folder, an output folder it created and left empty)
-- is checked by identity (device and inode recorded when it was made), never by name alone.
-- lstat/stat come from the library (lib/core/kz_fs.c: struct stat is platform-specific).

local kz_C
local function lib()
  if not kz_C then
    local kz = require "kapitza"
    kz_C = kz.C
  end
  return kz_C
end

local kinds = { [0] = "other", "file", "dir", "link", "fifo", "char", "block", "socket" }
local kind_words = {
  file = "a regular file", dir = "a directory", link = "a symbolic link", fifo = "a named pipe (FIFO)", char = "a character device",
  block = "a block device", socket = "a socket", other = "not a directory",
}

--- lstat (follow: stat) of path: { kind = "file"|"dir"|"link"|"fifo"|"char"|"block"|"socket"|"other",
-- dev, ino, uid, mode, size }, or nil and the errno value.
function M.stat(path, follow)
  local C = lib()
  local st, err = ffi.new("kz_fs_info"), ffi.new("int[1]")
  if C.kz_fs_stat(path, follow and 1 or 0, st, err) ~= 0 then return nil, err[0] end
  return { kind = kinds[tonumber(st.kind)] or "other", dev = st.dev, ino = st.ino, uid = tonumber(st.uid),
           mode = tonumber(st.mode), size = tonumber(st.size) }
end

--- What a kind of file is called in a message ("a regular file", "a named pipe (FIFO)", ...).
function M.kind_words(kind) return kind_words[kind] or kind end

--- Check an output path before a command writes anything: nil and a one-line reason when it
-- exists and is not a directory (a regular file, a FIFO, a device, a socket, a symbolic link to
-- anything but a directory, a dangling one), or when a component of it is such a file; else a
-- table { exists = bool, link = target or nil }. A symbolic link to a directory is followed on
-- purpose: `link` holds where it points, for the caller to say so. Nothing is touched.
function M.check_out(path, what)
  what = what or "output directory"
  if type(path) ~= "string" or path == "" then return nil, what .. ": no path given" end
  local st = M.stat(path, false)
  if not st then
    -- missing: each existing ancestor must be a directory (or a link to one)
    local p = path
    while true do
      p = p:match("^(.*)/[^/]+/*$")
      if not p or p == "" then break end
      local a = M.stat(p, true)
      if a and a.kind ~= "dir" then
        return nil, string.format("%s %s: %s is %s, not a directory (left as it is)", what, path, p, M.kind_words(a.kind))
      end
      if a then break end
    end
    return { exists = false }
  end
  if st.kind == "dir" then return { exists = true } end
  if st.kind == "link" then
    local t = M.stat(path, true)
    local target = M.real(path)
    if t and t.kind == "dir" then return { exists = true, link = target or "?" } end
    return nil, string.format("%s %s exists and is a symbolic link to %s, not a directory: refused (left as it is)",
                              what, path, t and (M.kind_words(t.kind) .. (target and (" " .. target) or "")) or "nothing (dangling)")
  end
  return nil, string.format("%s %s exists and is %s, not a directory: refused (left as it is)", what, path, M.kind_words(st.kind))
end

--- Check an input file before it is opened: nil and a one-line reason when path does not exist
-- or is not a regular file (through links): a FIFO would block the open, a device would be read
-- without end. Else its stat (followed). Nothing is opened.
function M.check_in(path, what)
  what = what or "input file"
  if type(path) ~= "string" or path == "" then return nil, what .. ": no path given" end
  local st, e = M.stat(path, true)
  if not st then
    return nil, string.format("%s %s: cannot open it: %s", what, path, e == 2 and "no such file" or ffi.string(C.kzf_strerror(e)))
  end
  if st.kind ~= "file" then
    return nil, string.format("%s %s is %s, not a regular file: refused (not opened)", what, path, M.kind_words(st.kind))
  end
  return st
end

--- Create `dir` and its missing parents (mode 0755), recording each folder this call made with
-- its identity: returns that list (deepest last; empty when dir existed), or nil and the reason.
-- A component that exists and is not a directory stops it (nothing is replaced).
function M.make_dirs(dir)
  local made = {}
  local path = dir:sub(1, 1) == "/" and "" or "."
  for part in dir:gmatch("[^/]+") do
    path = path .. "/" .. part
    if C.kzf_mkdir(path, tonumber("755", 8)) == 0 then
      local st = M.stat(path, false)
      if st then made[#made + 1] = { path = path, dev = st.dev, ino = st.ino } end
    end
  end
  if not M.is_dir(dir) then
    M.unmake(made)
    return nil, "cannot create directory " .. dir
  end
  return made
end

--- Remove the folders M.make_dirs made (deepest first), each only if it is still the same folder
-- (device, inode) and empty.
function M.unmake(made)
  local Cl = lib()
  local err = ffi.new("int[1]")
  for i = #(made or {}), 1, -1 do
    local d = made[i]
    if Cl.kz_fs_rmdir_if(d.path, d.dev, d.ino, err) ~= 0 then break end
  end
end

--- mkdir(path) with mode 0755: true when this call made it (an existing path of any kind: false).
function M.mkdir(path) return C.kzf_mkdir(path, tonumber("755", 8)) == 0 end

--- A new file at path holding text (O_CREAT|O_EXCL|O_NOFOLLOW: never over an existing file or
-- link): true, or nil and the reason.
function M.write_new(path, text)
  local Cl = lib()
  local err = ffi.new("int[1]")
  if Cl.kz_fs_create(path, text, #text, err) == 0 then return true end
  return nil, ffi.string(C.kzf_strerror(err[0]))
end

--- The identity of the directory path (no link followed): { path, dev, ino }, or nil.
function M.identity(path)
  local st = M.stat(path, false)
  if not st or st.kind ~= "dir" then return nil end
  return { path = path, dev = st.dev, ino = st.ino }
end

--- Remove the tree of a folder recorded by M.identity (or M.make_dirs), only while it is still
-- that folder; links inside are removed, never followed. true, or nil and the reason.
function M.remove_tree(id)
  if not id then return nil, "nothing recorded" end
  local Cl = lib()
  local err = ffi.new("int[1]")
  if Cl.kz_fs_remove_tree(id.path, id.dev, id.ino, err) == 0 then return true end
  return nil, ffi.string(C.kzf_strerror(err[0]))
end

--- The contents of a file, or nil.
function M.read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

return M
