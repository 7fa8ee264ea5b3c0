-- A multirate model with a vmi split AND flows AND a period (tests/models/mrflows.lua: the FPU
-- chain with one stiff spring; issue 25, item 2) through every family that takes it, C and Lua
-- alike, on the command line (bin/kapitza solve / atlas), each checked against references
-- written here and independent of the library: a hand-written Strang loop of the same two flows,
-- and a fine RK4 of Hamilton's equations. Before the fix, the flows were handed the system's
-- parameter pointer, which for a vmi model is its kz_vmi_model: C flows read garbage for omega
-- (the stiff spring did not turn: errors of order 1), Lua flows stopped with "a callback ran for
-- a model that no longer exists".
local U = require "testutil"

local KZ = U.root .. "/bin/kapitza"
local MODEL = U.root .. "/tests/models/mrflows.lua"
local q = U.q -- shell quoting
local function kz(args) return U.run(string.format("%s %s", q(KZ), args)) end

-- the model's equations, written again (V = c/4 [(qs - qf)^4 + (qs + qf)^4], W = omega^2/2 qf^2)
local function grad(c, qs, qf)
  local a, b = qs - qf, qs + qf
  return c * (a ^ 3 + b ^ 3), c * (-a ^ 3 + b ^ 3)
end
local function field(w, c, y)
  local gs, gf = grad(c, y[1], y[2])
  return { y[3], y[4], -gs, -gf - w * w * y[2] }
end
local function rk4(w, c, y, T, n)
  local h = T / n
  y = { y[1], y[2], y[3], y[4] }
  for _ = 1, n do
    local k1 = field(w, c, y)
    local y2, y3, y4 = {}, {}, {}
    for i = 1, 4 do y2[i] = y[i] + h / 2 * k1[i] end
    local k2 = field(w, c, y2)
    for i = 1, 4 do y3[i] = y[i] + h / 2 * k2[i] end
    local k3 = field(w, c, y3)
    for i = 1, 4 do y4[i] = y[i] + h * k3[i] end
    local k4 = field(w, c, y4)
    for i = 1, 4 do y[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) end
  end
  return y
end
-- Strang: half a step of the stiff part and free motion (exact), a kick by -grad V, half a step
local function strang(w, c, y, T, n)
  local h = T / n
  y = { y[1], y[2], y[3], y[4] }
  local function a(s)
    local cs, sn = math.cos(w * s), math.sin(w * s)
    y[1] = y[1] + s * y[3]
    y[2], y[4] = cs * y[2] + sn / w * y[4], -w * sn * y[2] + cs * y[4]
  end
  for _ = 1, n do
    a(h / 2)
    local gs, gf = grad(c, y[1], y[2])
    y[3], y[4] = y[3] - h * gs, y[4] - h * gf
    a(h / 2)
  end
  return y
end

-- kapitza solve: T (whole fast periods) and y(T)
local function solve(args)
  local st, out, err = kz("solve " .. q(MODEL) .. " " .. args)
  assert.are.equal(0, st, args .. ": " .. err)
  local T = tonumber(out:match("T = (%S+) %("))
  local y = {}
  for x in out:match("y%(T%) = %(([^)]*)%)"):gmatch("[^, ]+") do y[#y + 1] = tonumber(x) end
  assert.are.equal(4, #y, out)
  return T, y
end
local function perr(a, b) return math.sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2) end -- the positions (as the atlas)

describe("a vmi model with flows and a period (issue 25, item 2)", function()
  local omega, c, y0 = 800, 1, { 1, 1 / 800, 1, 1 }
  local K = 256                            -- T = 2 is 256 fast periods at omega = 800
  local T0 = K * 2 * math.pi / omega
  local ref = rk4(omega, c, y0, T0, 256 * K) -- fine RK4 at T, 256 steps per fast period

  it("Strang: C and Lua flows get the model's parameters; equal to a hand-written Strang loop and close to RK4", function()
    local T, yc = solve("method=strang n=32 omega=800")
    local _, yl = solve("method=strang n=32 omega=800 --lua")
    assert.is_true(math.abs(T - T0) < 1e-12, tostring(T))
    local hand = strang(omega, c, y0, T, 32 * K)
    for i = 1, 4 do
      assert.is_true(math.abs(yc[i] - hand[i]) <= 1e-12 * (1 + math.abs(hand[i])), string.format("C y[%d] %.17g vs %.17g", i, yc[i], hand[i]))
      assert.is_true(math.abs(yl[i] - hand[i]) <= 1e-12 * (1 + math.abs(hand[i])), string.format("Lua y[%d] %.17g vs %.17g", i, yl[i], hand[i]))
    end
    assert.is_true(perr(yc, ref) < 1e-6, tostring(perr(yc, ref)))
  end)

  -- the averaging methods with Strang micro-steps: within their averaging and macro error of the
  -- reference, as their RK4-micro twins are, C and Lua alike
  for _, case in ipairs {
    { "SAM-rk4/strang", "SAM-rk4/rk4", "N=64 n=32", 2e-4 },
    { "LISP-rk4/strang", "LISP-rk4/rk4", "N=64 n=32", 1e-3 },
    { "MR-strang", "MR-rk4", "N=16 n=32", 1e-3 },
  } do
    it(case[1] .. " (C and Lua) against the fine RK4 and its RK4-micro twin", function()
      local T, yc = solve("method=" .. case[1] .. " " .. case[3] .. " omega=800")
      local _, yl = solve("method=" .. case[1] .. " " .. case[3] .. " omega=800 --lua")
      local _, yt = solve("method=" .. case[2] .. " " .. case[3] .. " omega=800")
      assert.is_true(math.abs(T - T0) < 1e-12, tostring(T))
      local e, et = perr(yc, ref), perr(yt, ref)
      assert.is_true(e < case[4], string.format("%s: error %.3g against RK4", case[1], e))
      assert.is_true(math.abs(e - et) < 0.2 * et + 1e-5, string.format("%s: error %.3g, its RK4-micro twin's %.3g", case[1], e, et))
      for i = 1, 4 do assert.is_true(math.abs(yc[i] - yl[i]) <= 1e-12 * (1 + math.abs(yc[i])), string.format("C %.17g, Lua %.17g", yc[i], yl[i])) end
    end)
  end

  it("the variational multirate integrators (C and Lua) against the fine RK4", function()
    for _, m in ipairs { "VMI-MM", "VMI-TM", "VMI-TT" } do
      local _, yc = solve("method=" .. m .. " N=256 p=8 omega=800")
      local _, yl = solve("method=" .. m .. " N=256 p=8 omega=800 --lua")
      assert.is_true(perr(yc, ref) < 3e-3, string.format("%s: error %.3g", m, perr(yc, ref)))
      assert.is_true(perr(yc, yl) < 1e-9, string.format("%s: C and Lua differ by %.3g", m, perr(yc, yl)))
    end
  end)

  it("the atlas runs every family on it: Strang, SAM/LISP/MR with Strang micro-steps, VMI; their runs succeed", function()
    local d = U.tmpdir()
    local st, _, err = kz("atlas " .. q(MODEL) .. " --out " .. q(d .. "/a") .. " --quick tol=1e-3 T=0.5 omega=800")
    local f = io.open(d .. "/a/data/atlas-mrflows.tsv")
    local text = f and f:read("*a") or ""
    if f then f:close() end
    U.rmdir(d)
    assert.are.equal(0, st, err)
    local T = tonumber(text:match("T = %d+ fast periods = (%S+)"))
    assert.truthy(T, text:sub(1, 300))
    local referr = tonumber(text:match("estimated at (%S+) "))
    assert.truthy(referr, text:sub(1, 600))
    local seen, head = {}, nil
    for line in text:gmatch("[^\n]+") do
      if not line:match("^#") then
        local cells = {}
        for x in (line .. "\t"):gmatch("([^\t]*)\t") do cells[#cells + 1] = x end
        if not head then
          head = {}
          for j, x in ipairs(cells) do head[x] = j end
        else
          local name, e = cells[head.method], tonumber(cells[head.error])
          if name:match("strang") or name:match("^VMI") then
            assert.are.equal("ok", cells[head.status], line)
            assert.is_true(e < 5e-3, line)
            seen[name] = true
          end
          -- a Strang run's error, against the hand-written loop and the fine RK4 here
          local n = cells[head.params]:match("^method=strang n=(%d+)$")
          if n then
            local Ka = math.floor(T / (2 * math.pi / omega) + 0.5)
            local mine = perr(strang(omega, c, y0, T, tonumber(n) * Ka), rk4(omega, c, y0, T, 256 * Ka))
            assert.is_true(math.abs(e - mine) < referr + 0.05 * mine, -- within the atlas reference's stated error
                            string.format("%s: the atlas says %.3g, here %.3g", line, e, mine))
          end
        end
      end
    end
    for _, m in ipairs { "strang", "SAM-rk4/strang", "LISP-rk4/strang", "MR-strang", "VMI-MM", "VMI-TT" } do
      assert.truthy(seen[m], m .. " not in the atlas: " .. text:sub(1, 400))
    end
  end)

  it("a flow that goes NaN mid-run: the message names the step and time where it happened, not the end", function()
    local src = io.open(MODEL):read("*a")
    local d = U.tmpdir()
    -- the kick turns NaN after t = 0.3 (of T = 2): C and Lua
    src = src:gsub("y%[2%] %-= h %* p%->c %* s;", "y[2] -= h * p->c * s; if (t > 0.3) y[2] = NAN;", 1)
    src = src:gsub("y%[2%], y%[3%] = y%[2%] %- h %* p%.c %* s,", "y[2], y[3] = (t > 0.3 and 0 / 0 or y[2] - h * p.c * s),", 1)
    local f = io.open(d .. "/nanflow.lua", "w")
    f:write(src)
    f:close()
    for _, lua in ipairs { "", " --lua" } do
      local st, out, err = kz("solve " .. q(d .. "/nanflow.lua") .. " method=strang n=16" .. lua)
      assert.are.equal(2, st, out .. err)
      local step, t = err:match("at step (%d+) at t = (%S+)")
      assert.truthy(step, err)
      t = tonumber(t)
      assert.is_true(t > 0.3 and t < 0.32, err) -- the step whose kick starts after 0.3 (h = period/16 = 0.0079)
    end
    U.rmdir(d)
  end)
end)
