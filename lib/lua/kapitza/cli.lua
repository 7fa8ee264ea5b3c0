-- cli.lua -- the `kapitza` command (bin/kapitza finds the library and calls M.main(arg)):
--   kapitza run FILE.lua [--out DIR] [key=value ...]     a scenario, anywhere on disk
--   kapitza check MODEL.lua [--lua] [key=value ...]      load a model file, check it, time scales, methods
--   kapitza solve MODEL.lua method=NAME [knob=v ...] [--error] [--lua] [key=value ...]   one run
--   kapitza atlas MODEL.lua --out DIR [--quick] [tol=...] [T=...] [key=value ...]        the atlas
--   kapitza sweep emit|run|status|merge|task|ensemble ... sweeps (scripts/sweep.lua)
-- Bad input: one line "kapitza VERB: message" on stderr, exit status 2, nothing written.
local M = {}
local U = require "kapitza.cli.common"
local out, die, help_wanted, exists = U.out, U.die, U.help_wanted, U.exists

M.usage = U.usage
M.check = require "kapitza.cli.check"
M.solve = require "kapitza.cli.solve"
M.atlas = require "kapitza.cli.atlas"

---------------------------------------------------------------------------------------------------
-- run
---------------------------------------------------------------------------------------------------

function M.run(argv)
  local file = argv[2]
  if not file or file == "--help" or file == "-h" then
    if file then out(M.usage.run); os.exit(0) end
    die("run", "give a scenario file (kapitza run --help)")
  end
  local okf, why = require("kapitza.files").check_in(file, "scenario file") -- a FIFO or a device: not opened
  if not okf then die("run", why) end
  local chunk, err = loadfile(file)
  if not chunk then die("run", "cannot load " .. tostring(err)) end
  local rest = {}
  for k = 3, #argv do rest[#rest + 1] = argv[k] end
  arg = { [0] = file } -- the scenario's own command line (lib/lua/kapitza/scenario.lua reads arg[0])
  for k, v in ipairs(rest) do arg[k] = v end
  local ok, e = pcall(chunk, unpack(rest))
  if not ok then die("run", file .. ": " .. U.text(e), 1) end
  -- a model file returns its spec at once (a scenario runs and returns nothing): said, not a success
  if type(e) == "table" and type(e.name) == "string" and type(e.params) == "table" then
    die("run", string.format("%s is a model file (it returns the model spec '%s'), not a scenario: kapitza check, solve " ..
                             "or atlas take it", file, e.name))
  end
end

---------------------------------------------------------------------------------------------------
-- sweep
---------------------------------------------------------------------------------------------------

function M.sweep(argv)
  if not argv[2] or help_wanted(argv, 2) then
    if argv[2] then out(M.usage.sweep); os.exit(0) end
    die("sweep", "give emit, run, status, merge, task or ensemble (kapitza sweep --help)")
  end
  local kz = require "kapitza"
  local script = kz.root .. "/scripts/sweep.lua"
  if not exists(script) then die("sweep", "scripts/sweep.lua is not installed beside the library (" .. script .. ")") end
  local chunk, err = loadfile(script)
  if not chunk then die("sweep", err) end
  local rest = {}
  for k = 2, #argv do rest[#rest + 1] = argv[k] end
  arg = { [0] = script }
  for k, v in ipairs(rest) do arg[k] = v end
  local ok, e = pcall(chunk, unpack(rest))
  if not ok then die("sweep", e, 1) end
end

---------------------------------------------------------------------------------------------------

function M.main(argv)
  local verb = argv[1]
  if verb == nil then io.stderr:write(M.usage.main, "\n"); os.exit(2) end
  if verb == "--help" or verb == "-h" or verb == "help" then out(M.usage.main); os.exit(0) end
  local f = ({ run = M.run, check = M.check, solve = M.solve, atlas = M.atlas, sweep = M.sweep })[verb]
  if not f then die(nil, string.format("unknown verb '%s' (run, check, solve, atlas, sweep; kapitza --help)", verb)) end
  -- the library must load before anything else (one line if it is not built)
  local ok, e = pcall(require, "kapitza")
  if not ok then die(verb, e) end
  -- a file size limit: an error in one line, not a death by SIGXFSZ half-way through writing
  require("kapitza.files").no_sigxfsz()
  -- check and solve write nothing: SIGINT, SIGTERM, SIGHUP end them at once, inside a long C call
  -- too (LuaJIT's own handler acts only when the call returns); the writing verbs guard their
  -- staging folder themselves (lib/lua/kapitza/scenario/files.lua)
  if verb == "check" or verb == "solve" then e.C.kz_runner_guard(nil, nil) end
  -- anything a verb raises is one line (U.fail: a refusal without a Lua position, exit 2; a
  -- position, a bug, exit 1), never a traceback under "luajit:"
  local okf, err = pcall(f, argv)
  if not okf then U.fail(verb, err) end
end

return M
