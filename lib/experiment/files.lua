-- files.lua -- directories and files without a shell, for the tools that handle output trees
-- (scripts/compare.lua, scripts/sweep.lua, tests/regression_spec.lua, lib/experiment/cli_atlas.lua): list a
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
]])
local C = ffi.C
local DT_DIR, DT_UNKNOWN = 4, 0

local function errmsg() return ffi.string(C.kzf_strerror(ffi.errno())) end

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

--- Write `text` to `path` atomically: a temporary file path.tmp created exclusively (a stale one,
-- or a link planted under that name, is removed first, never followed), then renamed. On any
-- failure (a full disk shows at the write or at the close) the temporary file is removed and
-- nil and a one-line reason naming `path` are returned.
function M.write_atomic(path, text)
  local parent = path:match("^(.*)/[^/]*$")
  if parent and parent ~= "" then
    local ok, err = M.mkdir_p(parent)
    if not ok then return nil, err end
  end
  local tmp = path .. ".tmp"
  os.remove(tmp)
  local f, err = io.open(tmp, "wx")
  if not f then return nil, string.format("cannot write %s: %s", path, tostring(err):gsub("^[^:]*: ", "")) end
  local ok, werr = f:write(text)
  local cok, cerr = f:close()
  if not ok or not cok then
    os.remove(tmp)
    return nil, string.format("cannot write %s: %s", path, tostring(werr or cerr):gsub("^[^:]*: ", ""))
  end
  local rok, rerr = os.rename(tmp, path)
  if not rok then
    os.remove(tmp)
    return nil, string.format("cannot write %s: %s", path, tostring(rerr):gsub("^[^:]*: ", ""))
  end
  return true
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
