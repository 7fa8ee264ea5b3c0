-- scenario_figure.lua -- a scenario's figures: figures/<name>.gp run by gnuplot on the data the run
-- wrote, into DIR/figures/<name>.svg (written under a temporary name and renamed), skipped with a
-- message when no gnuplot runs. Installed into the scenario class by scenario.lua:
-- require("kapitza.scenario.figure")(M, U).
return function(M, U)
local mkdir_p, reason, sh_quote = U.mkdir_p, U.reason, U.sh_quote

local function gp_quote(s) return "'" .. tostring(s):gsub("'", "''") .. "'" end
-- A path for gnuplot: gnuplot reads a data file name that begins with '<' as a shell command, an
-- output name that begins with '|' as a pipe and a name that begins with '$' as a datablock, so a
-- relative path (an --out of '<cmd;', '|cmd', '$HOME') is given as ./path.
local function gp_path(p) return p:sub(1, 1) == "/" and p or "./" .. p end

-- Is the SVG at path complete (its closing tag at the end)? gnuplot exits 0 when a full disk or a
-- file size limit cut its output short.
local function svg_complete(path)
  local f = io.open(path, "rb")
  if not f then return false end
  local n = f:seek("end") or 0
  f:seek("set", math.max(0, n - 64))
  local tail = f:read("*a") or ""
  f:close()
  return tail:match("</svg>%s*$") ~= nil
end

-- The exit code of os.execute's result (LuaJIT: the raw wait status; Lua 5.2 mode: true/nil,
-- "exit"/"signal", code) and the signal that killed the command (a shell reports it as 128 + n).
local function exit_status(a, b, c)
  if type(a) == "number" then
    if a % 256 ~= 0 then return -1, a % 128 end
    local code = math.floor(a / 256)
    return code, code > 128 and code < 160 and code - 128 or nil
  end
  if b == "signal" then return -1, c end
  local code = c or (a and 0 or 1)
  return code, code > 128 and code < 160 and code - 128 or nil
end

local function file_size(path)
  local f = io.open(path, "rb")
  if not f then return 0 end
  local n = f:seek("end")
  f:close()
  return n or 0
end

-- Is there a gnuplot that runs at all (cached per process)?
local gnuplot_runs
local function gnuplot_usable()
  if gnuplot_runs == nil then
    gnuplot_runs = exit_status(os.execute("gnuplot --version >/dev/null 2>&1")) == 0
  end
  return gnuplot_runs
end

--- Draw figures/<name>.gp into DIR/figures/<name>.svg from the data this run wrote. The script
-- receives root (the repository, for the style file), datadir and tabledir (this run's DIR/data
-- and DIR/tables) and outfile, plus `vars`: what the run was (series lists as space-separated
-- strings, ranges, labels), so that legends and ranges come from the data, never from the
-- script. Written under a temporary name and renamed. Without a gnuplot that runs (none on the
-- PATH, or one that fails even `gnuplot --version`) the figure is skipped with a message on
-- stderr and the data are written; a working gnuplot that fails on the script, or writes no
-- figure, is an error of the run. Returns true when the figure was drawn. The script: `script`
-- when given, else <name>.gp beside the running scenario file (one kept outside the repository),
-- else the library's figures/<name>.gp.
function M:figure(name, vars, script)
  local kz = require "kapitza"
  local beside = arg and arg[0] and ((arg[0]:match("^(.*)/[^/]*$") or ".") .. "/" .. name .. ".gp")
  local bf = beside and io.open(beside, "rb")
  if bf then bf:close() end
  script = script or (bf and beside) or (kz.root .. "/figures/" .. name .. ".gp")
  local out = self:path("figures/" .. name .. ".svg")
  mkdir_p(self:path("figures"))
  local assigns = { "root=" .. gp_quote(gp_path(kz.root)), "datadir=" .. gp_quote(gp_path(self:path("data"))),
                    "tabledir=" .. gp_quote(gp_path(self:path("tables"))), "outfile=" .. gp_quote(gp_path(out .. ".tmp")) }
  local keys = {}
  for k in pairs(vars or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = vars[k]
    if type(v) == "table" then
      local t = {}
      for i, x in ipairs(v) do t[i] = M.fmt(x) end
      v = table.concat(t, " ")
    end
    -- a path under this run's folder (a datafile): as a path for gnuplot
    local base = self.stage or (self.P and self.P.out)
    if type(v) == "string" and base and v:sub(1, #base + 1) == base .. "/" then v = gp_path(v) end
    assigns[#assigns + 1] = k .. "=" .. (type(v) == "number" and M.fmt(v) or gp_quote(v))
  end
  -- gnuplot's messages go to a file in the staging folder (ours; a temporary file without one)
  local log = self.stage and (self.stage .. "/.gnuplot-" .. name .. ".log") or os.tmpname()
  local cmd = string.format("gnuplot -e %s %s >%s 2>&1", sh_quote(table.concat(assigns, "; ")), sh_quote(script),
                            sh_quote(log))
  local t0 = kz.prof and kz.prof.now()
  local code, sig = exit_status(os.execute(cmd))
  if kz.prof then kz.prof.external(kz.prof.now() - t0) end
  local f = io.open(log, "rb")
  local msg = f and f:read("*a") or ""
  if f then f:close() end
  os.remove(log)
  if code == 0 and file_size(out .. ".tmp") > 0 and not svg_complete(out .. ".tmp") then
    os.remove(out .. ".tmp")
    error(string.format("gnuplot wrote %s/figures/%s.svg cut short (no closing tag: a full disk, or a file size limit?)",
                        self.P.out, name), 0)
  end
  if code == 0 and file_size(out .. ".tmp") > 0 then
    local rok, rerr = os.rename(out .. ".tmp", out)
    if not rok then error(string.format("cannot write %s/figures/%s.svg: %s", self.P.out, name, reason(rerr)), 0) end
    if self.written then self.written["figures/" .. name .. ".svg"] = true end
    self.drawn = self.drawn or {}
    self.drawn[name] = true
    return true
  end
  os.remove(out .. ".tmp")
  if sig == 2 or sig == 15 or sig == 1 then -- gnuplot was interrupted (system() ignores SIGINT meanwhile)
    local ffi = require "ffi"
    pcall(ffi.cdef, "int raise(int sig);")
    ffi.C.raise(sig)
  end
  local first = (msg:match("[^\n]*%S[^\n]*") or ""):gsub("^%s+", "")
  local shown = script:sub(1, #kz.root + 1) == kz.root .. "/" and script:sub(#kz.root + 2) or script
  if not gnuplot_usable() then
    -- no word from it: its output could not even be sent anywhere (too few file descriptors)
    local why = first ~= "" and first or string.format("exit status %d and no message (could the shell start it at all? " ..
                                                        "too few file descriptors, ulimit -n?)", code)
    io.stderr:write(string.format("%s: figure %s skipped (%s), the data are written\n", self.id, name,
                                  code == 127 and "gnuplot not found" or ("gnuplot does not run: " .. why)))
    return false
  end
  if code == 0 then
    error(string.format("gnuplot wrote no figure from %s%s", shown, first ~= "" and (": " .. first) or ""), 0)
  end
  error(string.format("gnuplot failed on %s: %s", shown, first ~= "" and first or ("exit status " .. code)), 0)
end

--- Format a value for a data or table file: integers as integers, other numbers %.17g.
end
