-- bench-environment.lua -- the machine the benchmark timings of paper/bench/ were measured on:
-- compiler, LuaJIT, gnuplot, Markdown renderer, operating system and architecture, CPU model. Written by `make
-- bench` (every scripts/bench-*.lua runs there), never by `make figures`: the woven paper's bytes
-- must not depend on the machine that rebuilt it, so machine facts live beside the timings.
--   luajit scripts/bench-environment.lua [--out DIR]   -> DIR/bench/environment.md
local root = arg[0]:match("^(.*)/scripts/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"

local cli = S.bench_args("bench-environment", arg, root, { quick = true })

-- The first line a fixed command prints (the commands are constants: no user text reaches the shell).
local function first_line(cmd)
  local p = io.popen(cmd .. " 2>/dev/null")
  local l = p and p:read("*l") or nil
  if p then p:close() end
  if not l or l == "" then return "not found" end
  return (l:gsub("|", "/"))
end

local function cpu_model()
  local f = io.open("/proc/cpuinfo", "r")
  if not f then return "unknown" end
  for line in f:lines() do
    local m = line:match("^model name%s*:%s*(.-)%s*$")
    if m then f:close(); return (m:gsub("|", "/")) end
  end
  f:close()
  return "unknown"
end

local rows = {
  { "C compiler", first_line("${CC:-cc} --version") },
  { "LuaJIT", first_line("luajit -v") },
  { "gnuplot", first_line("gnuplot --version") },
  { "Markdown renderer", first_line("cmark-gfm --version") },
  { "system", first_line("uname -sm") }, -- not the kernel release: the woven paper must not name the build machine's
  { "CPU", cpu_model() },
}
local md = { "### The machine of these timings", "",
             "Recorded by `make bench` with the timings above; `make figures` never rewrites it.", "",
             "| tool | version |", "|---|---|" }
for _, r in ipairs(rows) do md[#md + 1] = "| " .. r[1] .. " | " .. r[2] .. " |" end
S.write_atomic(cli.out .. "/bench/environment.md", table.concat(md, "\n") .. "\n")
io.stderr:write("bench-environment: wrote " .. cli.out .. "/bench/environment.md\n")
