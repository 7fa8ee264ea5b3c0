-- usersource.lua -- the C text of a model of one's own (lib/lua/kapitza/usermodel.lua): its c.source, or
-- the file c.file names (a relative path is taken from the folder of the model file the spec was
-- loaded from: M.locate), and the preamble every model's C is compiled after,
-- lib/models/kz_model.h (the library's adapters lib/models/kz_<name>.c include the same file).
local kz = require "kapitza"

local M = {}

--- The folder of the papers' model files, their C and kz_model.h: lib/models/ in the source tree,
-- kapitza/models/ when installed (make install): this module is kapitza/usermodel/source.lua.
M.models_dir = kz.installed and ((debug.getinfo(1, "S").source:match("^@(.*)/usermodel/[^/]*$") or ".") .. "/models")
               or (kz.root .. "/lib/models")

local origin = setmetatable({}, { __mode = "k" }) -- a spec's c table -> the folder of its model file

--- Mark the spec loaded from the model file at path (and its sub-specs, e.g. lib/models/dpend.lua's
-- lagrange): a relative c.file is then taken from that file's folder. Returns spec.
function M.locate(spec, path)
  local dir = path:match("^(.*)/[^/]*$") or "."
  if type(spec) == "table" then
    for _, t in pairs(spec) do
      if type(t) == "table" and type(t.c) == "table" then origin[t.c] = dir end
    end
    if type(spec.c) == "table" then origin[spec.c] = dir end
  end
  return spec
end

--- The model's C text and the name its lines are counted in (for #line): c.source and
-- "<name>.c", or the file c.file and its path. bad(spec, msg) raises the error.
function M.text(spec, bad)
  local c = spec.c
  if c.file == nil then return c.source, spec.name .. ".c" end
  local path = c.file
  if path:sub(1, 1) ~= "/" then
    if not origin[c] then
      bad(spec, string.format("c.file '%s' is relative to the model file's folder: load the file with modelfile.spec " ..
                              "(usermodel.locate), or give an absolute path", path))
    end
    path = origin[c] .. "/" .. path
  end
  local f, err = io.open(path, "rb")
  local text = f and f:read("*a")
  if f then f:close() end
  if type(text) ~= "string" then bad(spec, string.format("c.file: cannot read %s (%s)", path, tostring(err or "not a file"))) end
  return text, path
end

local preamble -- lib/models/kz_model.h, read once
--- The text of lib/models/kz_model.h.
function M.preamble()
  if not preamble then
    local path = M.models_dir .. "/kz_model.h"
    local f = io.open(path, "rb")
    preamble = f and f:read("*a")
    if f then f:close() end
    if type(preamble) ~= "string" then error("usermodel: the preamble of the models' C, " .. path .. ", cannot be read", 0) end
  end
  return preamble
end

return M
