-- peers.lua -- the peer integrators of other libraries (GSL, SUNDIALS) on the library's systems,
-- through build/libkzpeers.so (scripts/peers/, `make peers`). Optional: when the shared object or
-- a peer's library is missing, M.available(name) is false and M.why(name) says what to install.
--
--   local peers = require "kapitza.peers"
--   if peers.available("gsl-rk8pd") then
--     local r = peers.integrate("gsl-rk8pd", model.sys, 0, y0, T, 1e-8, { ref = yref, nerr = 1 })
--     -- r.steps, r.rhs_evals, r.seconds, r.error, r.y
--   end
local kz = require "kapitza"
local ffi = kz.ffi

local M = {}

M.names = { "gsl-rk8pd", "gsl-msadams", "gsl-rk4imp", "cvode-adams", "cvode-bdf", "arkode-erk8", "arkode-mri" }
M.package = { gsl = "libgsl-dev", sundials = "libsundials-dev" }
local family = { ["gsl-rk8pd"] = "gsl", ["gsl-msadams"] = "gsl", ["gsl-rk4imp"] = "gsl", ["cvode-adams"] = "sundials",
                 ["cvode-bdf"] = "sundials", ["arkode-erk8"] = "sundials", ["arkode-mri"] = "sundials" }
M.path = kz.root .. "/build/libkzpeers.so"

local function header(path)
  local f = assert(io.open(path, "rb"))
  local out = {}
  for line in f:lines() do if not line:match("^%s*#") then out[#out + 1] = line end end
  f:close()
  return table.concat(out, "\n")
end
ffi.cdef(header(kz.root .. "/scripts/peers/kzpeers.h"))
local ok, lib = pcall(ffi.load, M.path)
M.lib = ok and lib or nil -- kept in the module: never collected

local id = {}
for i, n in ipairs(M.names) do id[n] = i - 1 end

--- Is the peer compiled into build/libkzpeers.so?
function M.available(name)
  assert(id[name], "peers: unknown peer '" .. tostring(name) .. "'")
  return M.lib ~= nil and M.lib.kzp_available(id[name]) == 1
end

--- Why a peer is not available (nil when it is).
function M.why(name)
  if M.available(name) then return nil end
  if not M.lib then return "build/libkzpeers.so not built (make peers)" end
  local pkg = M.package[family[name]]
  return string.format("%s not installed (sudo apt-get install %s; or make deps-peers)", pkg, pkg)
end

--- Integrate the kz_sys s from (t0, y0) to t1 with peer `name` at tolerance tol (rtol = atol = tol
-- unless o.rtol/o.atol). o: ref (Lua array: error over the first o.nerr components), fast and H
-- (arkode-mri: the fast part of the field as a kz_sys, the fixed slow step). Returns {tol, steps,
-- fast_steps, fails, rhs_evals, jac_evals, seconds, error, y} or nil and a message when the peer
-- failed.
function M.integrate(name, s, t0, y0, t1, tol, o)
  o = o or {}
  if not M.available(name) then return nil, M.why(name) end
  local d = s.dim
  local res, yout = ffi.new("kzp_result"), kz.vec(d)
  local st = M.lib.kzp_integrate(id[name], s, o.fast, o.H or 0, t0, kz.vec(d, y0), t1, o.rtol or tol, o.atol or tol,
                                 o.ref and kz.vec(d, o.ref) or nil, o.nerr or 0, yout, res)
  if st ~= 0 then
    return nil, string.format("%s: %s (peer flag %d) at tol %g", name, ffi.string(kz.C.kz_strerror(st)), res.status, tol)
  end
  local y = {}
  for i = 1, d do y[i] = yout[i - 1] end
  return { peer = name, tol = tol, steps = tonumber(res.steps), fast_steps = tonumber(res.fast_steps),
           fails = tonumber(res.fails), rhs_evals = tonumber(res.rhs_evals), jac_evals = tonumber(res.jac_evals),
           seconds = res.seconds, error = res.error, y = y }
end

return M
