-- scenario_files.lua -- a scenario's output files (lib/lua/kapitza/scenario.lua documents the
-- contract): directories without a shell, atomic writes, the staging folder under a lock on the
-- output directory, the commit that moves it into place and removes the scenario's stale files, the
-- discard on any failure; data and table files (tsv), and reading tables and published references.
-- Installed into the scenario class by scenario.lua: require("kapitza.scenario.files")(M, U).
return function(M, U)
local die = U.die

-- The runner's system calls (lib/core/kz_runner.c): a signal guard for the staging folder, removal
-- without a shell, a lock on the output directory, whether a process is alive. An older build of
-- the library without them (KZ_LIB) still runs, with a shell's rm and without guard or lock.
local runner
do
  local kz = package.loaded.kapitza
  if kz and pcall(function() return kz.C.kz_runner_guard, kz.C.kz_runner_alive end) then
    local ffi = require "ffi"
    pcall(ffi.cdef, "char *strerror(int errnum);")
    runner = { C = kz.C, ffi = ffi }
  end
end

---------------------------------------------------------------------------------------------------
-- Files
---------------------------------------------------------------------------------------------------

-- Directories are created once per process, without a shell: mkdir(2) through the FFI on each
-- missing component (EEXIST is fine), `mkdir -p` only if the FFI declaration is unavailable.
local made_dirs = {}
local made = made_dirs
local ffi_ok, ffi = pcall(require, "ffi")
local sys_mkdir = ffi_ok and pcall(ffi.cdef, "int kz_sc_mkdir(const char *path, unsigned int mode) __asm__(\"mkdir\");")
local function mkdir_p(dir)
  if dir == "" or made[dir] then return end
  if sys_mkdir then
    local path = dir:sub(1, 1) == "/" and "" or "."
    for part in dir:gmatch("[^/]+") do
      path = path .. "/" .. part
      if not made[path] then
        ffi.C.kz_sc_mkdir(path, tonumber("755", 8))
        made[path] = true
      end
    end
    local f = io.open(dir .. "/.", "r")
    if not f then error("cannot create directory " .. dir, 0) end
    f:close()
  else
    local ok = os.execute(string.format("mkdir -p '%s'", dir:gsub("'", "'\\''")))
    if ok ~= 0 and ok ~= true then error("cannot create directory " .. dir, 0) end
  end
  made[dir] = true
end

-- The reason of an I/O error message ("path: No space left on device" -> "No space left on device").
local function reason(err) return (tostring(err):match("([^:]+)$") or tostring(err)):gsub("^%s+", "") end

--- Write `text` to `path` atomically (temporary name in the same folder, then rename). A failure
-- (a full disk, a folder that cannot be written) is an error naming `name` (default: path), and
-- leaves no temporary file.
function M.write_atomic(path, text, name)
  name = name or path
  mkdir_p(path:match("^(.*)/[^/]*$") or "")
  local tmp = path .. ".tmp"
  local f, err = io.open(tmp, "wb")
  if not f then error("cannot write " .. name .. ": " .. reason(err), 0) end
  local ok, werr = f:write(text)
  local cok, cerr = f:close()
  if not ok or not cok then
    os.remove(tmp)
    error("cannot write " .. name .. ": " .. reason(werr or cerr), 0)
  end
  local rok, rerr = os.rename(tmp, path)
  if not rok then
    os.remove(tmp)
    error("cannot write " .. name .. ": " .. reason(rerr), 0)
  end
end

local function pid()
  local ffi = require "ffi"
  if not pcall(function() return ffi.C.getpid end) then ffi.cdef "int getpid(void);" end
  return ffi.C.getpid()
end

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local F = require "kapitza.files"

local function list(dir)
  local t = {}
  for _, e in ipairs(F.entries(dir) or {}) do t[#t + 1] = e.name end
  return t
end

-- Lua pattern of a literal string.
local function literal(s) return (s:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0")) end

-- A staging folder carries a marker file naming its own identity, written when this process made
-- it: a later run removes a stale one (its process gone) only when the folder is a real directory
-- of this user whose marker matches its device and inode, i.e. one a run made, not a folder or
-- link of that name put there by anyone else.
local MARK = ".kz-stage"
local function mark_text(id) return string.format("kapitza staging folder %s %s\n", tostring(id.dev), tostring(id.ino)) end
local function uid()
  if not pcall(function() return ffi.C.getuid end) then ffi.cdef "unsigned int getuid(void);" end
  return tonumber(ffi.C.getuid())
end
local function stale_stage(path)
  local st = F.stat(path, false)
  if not st or st.kind ~= "dir" or st.uid ~= uid() then return nil end
  local id = { path = path, dev = st.dev, ino = st.ino }
  if F.read(path .. "/" .. MARK) ~= mark_text(id) then return nil end
  return id
end

--- The staging folder DIR/.kz-stage-<id>-<pid>: checks that --out can be written before any
-- computation (called by parse). --out must be a directory or not exist (then it is made, with
-- its missing parents, and removed again if the run fails); a path that exists and is anything
-- else (a file, a FIFO, a device, a dangling link) is refused in one line, exit status 2, and left
-- exactly as it was. A symbolic link to a directory is followed, and said on stderr. Staging
-- folders of this scenario left by a run that was killed (their process is gone) are removed
-- first, each only if its marker names its own identity. The folder is made new (a folder of that
-- name already there and marked is removed: its process is gone, it had our pid), and a signal
-- (SIGINT, SIGTERM, SIGHUP) from now on removes it before the process dies (lib/core/kz_runner.c),
-- as every removal here, only while each path is still the folder this process made.
function M:open_stage()
  local out = self.P.out
  local chk, why = F.check_out(out, "--out")
  if not chk then die(self.id, why) end
  if chk.link and not os.getenv("KZ_QUIET") then
    io.stderr:write(string.format("%s: --out %s is a symbolic link: writing into the directory it points to, %s\n",
                                  self.id, out, chk.link))
  end
  local made = F.make_dirs(out)
  if not made then die(self.id, string.format("--out %s: cannot create or write that directory", out)) end
  self.made_out = made
  local me = pid()
  if runner then
    local pat = "^%.kz%-stage%-" .. literal(self.id) .. "%-(%d+)$"
    for _, name in ipairs(list(out)) do
      local other = tonumber(name:match(pat))
      if other and other ~= me and runner.C.kz_runner_alive(other) == 0 then
        local id = stale_stage(out .. "/" .. name)
        if id then F.remove_tree(id) end
      end
    end
  end
  local stage = string.format("%s/.kz-stage-%s-%d", out, self.id, me)
  local ok2 = false
  for _ = 1, 2 do
    if F.mkdir(stage) then ok2 = true; break end
    local id = stale_stage(stage)
    if not id then break end
    F.remove_tree(id)
  end
  local sid = ok2 and F.identity(stage)
  ok2 = sid and F.write_new(stage .. "/" .. MARK, mark_text(sid))
  if not ok2 then
    if sid then F.remove_tree(sid) end
    F.unmake(made)
    die(self.id, string.format("--out %s: cannot create or write that directory", out))
  end
  self.stage, self.stage_id = stage, sid
  local created = #made > 0 and made[#made].path or nil
  if runner then
    runner.C.kz_runner_guard(stage, created)
    for i = #made - 1, 1, -1 do runner.C.kz_runner_guard_created(made[i].path) end
  end
  made_dirs[stage] = true
  self.written = {}
end

--- Path under the output root where this run writes (the staging folder while it runs).
function M:path(rel) return (self.stage or self.P.out) .. "/" .. rel end

-- the files of this scenario in DIR/sub: <id>.<ext> or <id>-<anything>
local function owned(id, name)
  local stem = name:gsub("%.[^.]*$", "")
  return stem == id or name:sub(1, #id + 1) == id .. "-"
end

--- Move the staged files into DIR and remove this scenario's files that the run did not write.
-- Concurrent runs into one DIR: each commit holds an exclusive lock on DIR itself (flock; no lock
-- file), so the files of one run are moved in and the stale ones removed as one step; the run that
-- commits last leaves a complete set of its own files, never a mix. SIGINT, SIGTERM and SIGHUP are
-- held meanwhile (delivered after the commit).
function M:commit()
  local out = self.P.out
  self:cells_flush() -- a sweep's shard: its cells with its files (lib/lua/kapitza/scenario/cells.lua)
  local fd
  if runner then
    runner.C.kz_runner_hold_signals(1)
    local pfd, err = runner.ffi.new("int[1]"), runner.ffi.new("int[1]")
    if runner.C.kz_runner_lock(out, pfd, err) == 0 then
      fd = pfd[0]
    else
      io.stderr:write(string.format("%s: cannot lock --out %s (%s): files moved in without a lock\n", self.id, out,
                                    runner.ffi.string(runner.ffi.C.strerror(err[0]))))
    end
  end
  local ok, err = pcall(function()
    for rel in pairs(self.written) do
      local dst = out .. "/" .. rel
      mkdir_p(dst:match("^(.*)/[^/]*$") or out)
      local rok, rerr = os.rename(self.stage .. "/" .. rel, dst)
      if not rok then error("cannot move " .. rel .. " into " .. out .. ": " .. reason(rerr), 0) end
    end
    for _, sub in ipairs { "data", "tables", "figures" } do
      for _, name in ipairs(list(out .. "/" .. sub)) do
        if owned(self.id, name) and not self.written[sub .. "/" .. name] then
          -- this scenario's own earlier output (a file, or a link of that name): never a folder
          local st = F.stat(out .. "/" .. sub .. "/" .. name, false)
          if st and (st.kind == "file" or st.kind == "link") then os.remove(out .. "/" .. sub .. "/" .. name) end
        end
      end
    end
  end)
  if fd then runner.C.kz_runner_unlock(fd) end
  if ok then self.committed = true end
  F.remove_tree(self.stage_id)
  -- a signal that came meanwhile is delivered now, to the guard (the process dies of it, DIR complete)
  if runner then runner.C.kz_runner_hold_signals(0) end
  self:discard()
  if not ok then error(err, 0) end
end

--- Remove the staging folder and whatever is in it.
function M:discard()
  if not self.stage then return end
  F.remove_tree(self.stage_id)
  if runner then runner.C.kz_runner_unguard() end
  self.stage, self.stage_id = nil, nil
  -- the --out folders this run created go too, if still theirs and empty
  if not self.committed then F.unmake(self.made_out) end
end

-- A gnuplot string literal (single quotes doubled).

function M.fmt(v)
  if type(v) == "number" then
    if v == math.floor(v) and math.abs(v) < 2^53 then return string.format("%d", v) end
    return string.format("%.17g", v)
  end
  return tostring(v)
end

--- Tab-separated text: header line then one row per entry (rows: arrays, or tables keyed by column).
function M.tsv(columns, rows, comments)
  local out = {}
  for _, c in ipairs(comments or {}) do out[#out + 1] = "# " .. c end
  out[#out + 1] = table.concat(columns, "\t")
  for _, row in ipairs(rows) do
    local cells = {}
    for j, c in ipairs(columns) do
      local v = row[c]
      if v == nil then v = row[j] end
      cells[j] = M.fmt(v)
    end
    out[#out + 1] = table.concat(cells, "\t")
  end
  return table.concat(out, "\n") .. "\n"
end

function M:write_tsv(rel, columns, rows, comments)
  self:write_text(rel, M.tsv(columns, rows, comments))
end

function M:write_text(rel, text)
  M.write_atomic(self:path(rel), text, (self.P and self.P.out or ".") .. "/" .. rel)
  if self.written then self.written[rel] = true end
end

--- Read a whitespace- or tab-separated file with a header line ('#' lines skipped).
-- Returns rows keyed by column name (numbers converted where possible), the columns, and the
-- comment lines (without '# ').
function M.read_table(path)
  local f = io.open(path, "rb")
  if not f then return nil, "cannot open " .. path end
  local cols, rows, comments = nil, {}, {}
  for line in f:lines() do
    if line:match("^#") then
      comments[#comments + 1] = line:gsub("^#%s?", "")
    elseif line:match("%S") then
      local cells = {}
      for c in line:gmatch("[^\t]+") do cells[#cells + 1] = c end
      if #cells == 1 then
        cells = {}
        for c in line:gmatch("%S+") do cells[#cells + 1] = c end
      end
      if not cols then
        cols = cells
      else
        local row = {}
        for j, c in ipairs(cols) do row[c] = tonumber(cells[j]) or cells[j] end
        rows[#rows + 1] = row
      end
    end
  end
  f:close()
  return rows, cols, comments
end

--- The published reference table paper/reference/<id>.tsv (always read from the repository,
-- whatever --out says).
function M:reference(name)
  local kz = require "kapitza"
  return M.read_table(kz.root .. "/paper/reference/" .. (name or self.id) .. ".tsv")
end

U.mkdir_p, U.reason, U.sh_quote = mkdir_p, reason, sh_quote
end
