-- ensemble_pool_spec.lua -- threads paid for once and observers in C (issue 28; lib/methods/kz_pool.c,
-- kz_ens_obs.c, lib/lua/kapitza/ensemble.lua): the chunk layout depends on M alone; thread counts 1, 2 and 3
-- give identical bits for every ensemble method, with observers, a stopped and a failing member;
-- the pool survives thousands of calls, a failing call, and a second Lua state with its own pool;
-- every observer equals the same quantity computed in Lua from the member's scalar run (direct)
-- or from the method's own output rows (the HMM, SAM, the slow-variable HMM); bad observers are
-- refused naming the field.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C
local models = require "kapitza.models"
local sam = require "kapitza.sam"
local ens = require "kapitza.ensemble"

local TOL = 1e-12 -- member against scalar run: libmvec's sine against libm's (ensemble_spec.lua)

local function with(base, extra)
  local t = {}
  for k, v in pairs(base) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end

local function agree(a, b, what)
  local d = math.abs(a - b) / math.max(1, math.abs(b))
  assert(d <= TOL, string.format("%s: ensemble %.17g, scalar %.17g (rel %.2e)", what, a, b, d))
end

local function same_bits(a, b, what)
  assert(#a == #b, what .. ": lengths")
  for i = 1, #a do
    local x, y = a[i], b[i]
    if type(x) == "table" then same_bits(x, y, what .. "[" .. i .. "]")
    else assert(x == y or (x ~= x and y ~= y), string.format("%s[%d]: %.17g against %.17g", what, i, x, y)) end
  end
end

local function isnan(x) return x ~= x end

-- 150 members: three chunks (56, 48, 46), every parameter varied
local M = 150
local amps, oms, ls, gs, th0, q0s = {}, {}, {}, {}, {}, {}
for m = 1, M do
  amps[m] = 0.4 + 0.03 * m
  oms[m] = 40 + 0.7 * m
  ls[m] = 0.15 + 0.001 * m
  gs[m] = 9.5 + 0.004 * m
  th0[m] = 0.01 * (m % 13)
  q0s[m] = 0.05 + 0.004 * m
end
local function pend(m) return models.pendulum { l = ls[m], g = gs[m], vmax = amps[m], omega = oms[m], theta0 = th0[m] } end
local function ens_pend() return ens.pendulum { l = ls, g = gs, vmax = amps, omega = oms, theta0 = th0 } end

describe("the chunks of an ensemble #asan", function()
  it("depend on M alone: contiguous, whole vectors of 8 but the last, 64..256 members", function()
    for _, Mn in ipairs { 1, 7, 8, 63, 64, 65, 150, 200, 1000, 4097, 16384, 16391, 262144 } do
      local m0 = ffi.new("long long[1]")
      local start, k, sizes = 0, 0, {}
      while true do
        local n = C.kz_ens_chunk(Mn, k, m0)
        if n == 0 then break end
        assert.are.equal(start, tonumber(m0[0]))
        sizes[#sizes + 1] = n
        start, k = start + n, k + 1
      end
      assert.are.equal(Mn, start)
      for i, n in ipairs(sizes) do
        assert.is_true(n <= 256, "at most 256")
        if i < #sizes then assert.are.equal(0, n % 8, "whole vectors") end
        if i < #sizes then assert.is_true(n >= 32, Mn .. ": chunk " .. i .. " has " .. n) end
      end
      -- the shares differ by at most one vector (and the last may end short)
      for i = 2, #sizes - 1 do assert.is_true(math.abs(sizes[i] - sizes[1]) <= 8) end
    end
    -- the documented rule: B = ceil(M / 64) rounded up to whole vectors, 64 <= B <= 256, ceil(M / B) chunks
    for _, Mn in ipairs { 1, 100, 1000, 4097, 6000, 10000, 16384, 16391, 262144 } do
      local B = math.min(256, math.max(64, math.ceil(math.ceil(Mn / 64) / 8) * 8))
      local nc = 0
      while C.kz_ens_chunk(Mn, nc, nil) > 0 do nc = nc + 1 end
      assert.are.equal(math.ceil(Mn / B), nc, "chunks of " .. Mn)
    end
    local s = {}
    for k = 0, 3 do s[k + 1] = C.kz_ens_chunk(200, k, nil) end
    assert.are.same({ 56, 48, 48, 48 }, s)
    assert.are.equal(0, C.kz_ens_chunk(200, 4, nil))
    assert.are.equal(0, C.kz_ens_chunk(200, -1, nil))
    assert.are.equal(0, C.kz_ens_chunk(0, 0, nil))
    assert.are.equal(3, C.kz_obs_checks(7, 3))
    assert.are.equal(1, C.kz_obs_checks(0, 5))
    assert.are.equal(-1, C.kz_obs_checks(5, 0))
  end)
end)

describe("threads 1, 2 and 3 give identical bits #asan", function()
  it("direct RK4 and Verlet with observers, a stopped member and a failing one", function()
    local vm = { unpack(amps) }
    vm[56] = 1e120 -- the last member of chunk 0 leaves the bound at once
    local e = ens.pendulum { l = ls, g = gs, vmax = vm, omega = oms, theta0 = th0 }
    for _, st in ipairs { "rk4", "verlet", "dp5" } do -- (dp5 swaps its force chain every step)
      local ref
      for _, th in ipairs { 1, 2, 3 } do
        local q, v, f, w, ob = ens.run(e, { stepper = st, h = 2e-4, n = 700, q0 = q0s, threads = th,
          observe = { every = 7, max = "q", cross = { "q", level = 0.45, abs = true, stop = true }, sample = true,
                      final = "hamiltonian" } })
        local got = { q, v, f, ob.max.q, ob.cross.q, ob.sample.q, ob.sample.v, ob.final.hamiltonian, { w.force_evals } }
        if ref then same_bits(got, ref, st .. " threads " .. th) else ref = got end
      end
      assert.are.equal(2, ref[3][56])
      local stopped = 0
      for m = 1, M do if ref[3][m] == 3 then stopped = stopped + 1 end end
      assert.is_true(stopped > 5 and stopped < M - 5, "some members stop, not all: " .. stopped)
    end
  end)

  it("the HMM, SAM and the slow-variable HMM", function()
    local eh = ens.pendulum { l = ls, g = gs, vmax = amps, omega = 1e4, theta0 = 0.2 }
    local o = { preset = "cs1", kernel = "exp2", H = 1 / 20, T = 0.25, eta = 4 * 2 * math.pi / 1e4,
                h = 2 * math.pi / 1e4 / 16, micro = "rk4", Q0 = q0s, P0 = 0.1, observe = { max = "q", every = 2 } }
    local es = ens.pendulum { l = ls, g = gs, vmax = amps, omega = 60, theta0 = th0 }
    local top = models.top {}
    local x0s = {}
    for m = 1, 5 do x0s[m] = top.x0(1e3, 1e-3 * m, 0.2 + 0.01 * m) end
    local so = { set = "32", H = 0.01 / 20, T = 0.01 / 4, eta = 1e-4, h = 1e-5, x0 = x0s }
    local ref
    for _, th in ipairs { 1, 2, 3 } do
      local Q, P, fh, _, obh = ens.hmm(eh, with(o, { threads = th }))
      local ys, fs, _, obs = ens.sam(es, { n = 16, period = 2 * math.pi / 60, H = 0.05, tout = { 0.05, 0.1 }, q0 = q0s,
                                           threads = th, observe = { sample = true } })
      local xs, fx = ens.slow(top, with(so, { threads = th }))
      local got = { Q[#Q], P[#P], fh, obh.max.q, ys[2][1], ys[2][2], fs, obs.sample.q[2], xs[1][3], xs[5][6], fx }
      if ref then same_bits(got, ref, "threads " .. th) else ref = got end
    end
  end)
end)

describe("the worker pool #asan", function()
  local e = ens.pendulum { l = 0.2, g = 9.8, vmax = { unpack(amps, 1, 120) }, omega = 100 }
  local function short(th) return (ens.run(e, { h = 1e-4, n = 32, q0 = 0.1, threads = th })) end

  it("is made once per thread count and survives thousands of short calls", function()
    assert.are.equal(ens.pool(2), ens.pool(2))
    assert.is_nil(ens.pool(1))
    assert.are.equal(3, C.kz_pool_threads(ens.pool(3)))
    assert.are.equal(1, C.kz_pool_threads(nil))
    local ref = short(1)
    for k = 1, 3000 do
      local q = short(1 + k % 3)
      if k % 250 == 0 then same_bits(q, ref, "call " .. k) end
    end
  end)

  it("goes on after a failing call", function()
    local r, f = kz.report(), ffi.new("int[120]")
    local y = kz.vec(240)
    -- a call that fails (a step of zero) and one whose model fails for a member (see ensemble_spec)
    assert.are.equal(C.KZ_EDOMAIN, C.kz_ens_run(kz.stepper("rk4"), e.c, 0, 0, 1, y, f, nil, 0, ens.pool(2), r))
    local ok = pcall(ens.run, e, { h = 1e-4, n = 32, q0 = 0.1, threads = 2, observe = { max = "x" } })
    assert.is_false(ok)
    same_bits(short(2), short(1), "after failures")
  end)

  it("serves two Lua states, each with its own pool, and outlives the other's", function()
    pcall(ffi.cdef, [[
      typedef struct kz_test_lua_State kz_test_lua_State;
      kz_test_lua_State *luaL_newstate(void);
      void luaL_openlibs(kz_test_lua_State *L);
      int luaL_loadstring(kz_test_lua_State *L, const char *s);
      int lua_pcall(kz_test_lua_State *L, int nargs, int nresults, int errfunc);
      const char *lua_tolstring(kz_test_lua_State *L, int idx, size_t *len);
      void lua_settop(kz_test_lua_State *L, int idx);
      void lua_close(kz_test_lua_State *L);
    ]])
    local L2 = ffi.C.luaL_newstate()
    ffi.C.luaL_openlibs(L2)
    local code = string.format([[
      package.path = %q
      local ens = require "kapitza.ensemble"
      local amps = {}
      for m = 1, 120 do amps[m] = 0.4 + 0.03 * m end
      local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = 100 }
      local q = ens.run(e, { h = 1e-4, n = 32, q0 = 0.1, threads = 2 })
      local t = {}
      for m = 1, 120 do t[m] = string.format("%%a", q[m]) end
      return table.concat(t, " ")
    ]], package.path)
    local function run2()
      assert.are.equal(0, ffi.C.luaL_loadstring(L2, code))
      local st = ffi.C.lua_pcall(L2, 0, 1, 0)
      local s = ffi.string(ffi.C.lua_tolstring(L2, -1, nil))
      ffi.C.lua_settop(L2, 0)
      assert.are.equal(0, st, s)
      local q = {}
      for x in s:gmatch("%S+") do q[#q + 1] = tonumber(x) end
      return q
    end
    local ref = short(2)
    for _ = 1, 3 do
      same_bits(run2(), ref, "the second state")
      same_bits(short(2), ref, "the first state")
    end
    ffi.C.lua_close(L2) -- its pool is collected: its threads are joined
    same_bits(short(2), ref, "after the second state closed")
  end)
end)

describe("observers agree with the same quantities computed in Lua #asan", function()
  it("direct RK4: max, crossing (up, down, |.|), samples and the Hamiltonian, member by member", function()
    local e = ens_pend()
    local h, n, every = 1e-4, 600, 25
    local _, _, failed, _, ob = ens.run(e, { h = h, n = n, q0 = q0s, v0 = 0.3, threads = 2, observe = {
      every = every, max = { "q", "v" }, cross = { { "q", level = 0.5, abs = true }, { "v", level = -2, dir = "down", every = 5 } },
      sample = { "v", every = 100 }, final = "hamiltonian" } })
    local _, _, _, _, oq = ens.run(e, { h = h, n = n, q0 = q0s, v0 = 0.3, observe = { sample = { "q", every = 200 } } })
    local _, _, _, _, oa = ens.run(e, { h = h, n = n, q0 = q0s, v0 = 0.3, observe = { sample = { every = 300 } } })
    assert.are.same({ 0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06 }, (function()
      local t = {}
      for j, x in ipairs(ob.sample.t) do t[j] = math.floor(x * 1e4 + 0.5) / 1e4 end
      return t
    end)())
    local crossed = 0
    for m = 1, M, 3 do
      assert.are.equal(0, failed[m])
      local s = pend(m)
      local y, r = kz.vec(2, { q0s[m], 0.3 }), kz.report()
      local mq, mv, tq, tv = math.abs(q0s[m]), 0.3, nil, nil
      if math.abs(q0s[m]) >= 0.5 then tq = 0 end -- the start is a check
      for k = 1, n do
        kz.call("kz_run", kz.stepper("rk4"), s.sys, (k - 1) * h, h, 1, y, r)
        local t = k * h
        if k % every == 0 then
          mq, mv = math.max(mq, math.abs(y[0])), math.max(mv, math.abs(y[1]))
          if not tq and math.abs(y[0]) >= 0.5 then tq = t end
        end
        if k % 5 == 0 and not tv and y[1] <= -2 then tv = t end
        if k % 100 == 0 then agree(ob.sample.v[k / 100 + 1][m], y[1], "sample v member " .. m .. " step " .. k) end
        if k % 200 == 0 then agree(oq.sample.q[k / 200 + 1][m], y[0], "sample q member " .. m .. " step " .. k) end
        if k % 300 == 0 then
          agree(oa.sample.q[k / 300 + 1][m], y[0], "sample (all) q member " .. m .. " step " .. k)
          agree(oa.sample.v[k / 300 + 1][m], y[1], "sample (all) v member " .. m .. " step " .. k)
        end
      end
      agree(ob.max.q[m], mq, "max q member " .. m)
      agree(ob.max.v[m], mv, "max v member " .. m)
      if tq then
        crossed = crossed + 1
        assert.is_true(math.abs(ob.cross.q[m] - tq) <= 1e-12, m .. ": " .. ob.cross.q[m] .. " " .. tq)
      else assert.is_true(isnan(ob.cross.q[m]), "no crossing, member " .. m) end
      if tv then assert.is_true(math.abs(ob.cross.v[m] - tv) <= 1e-12) else assert.is_true(isnan(ob.cross.v[m])) end
      local T = n * h
      local H = 0.5 * y[1] * y[1] + (gs[m] + amps[m] * oms[m] * math.cos(oms[m] * T + th0[m])) * math.cos(y[0]) / ls[m]
      agree(ob.final.hamiltonian[m], H, "H member " .. m)
    end
    assert.is_true(crossed > 3 and crossed < 45, "crossings " .. crossed)
  end)

  it("the HMM, SAM and the slow-variable HMM: over their output rows", function()
    local eh = ens.pendulum { l = ls, g = gs, vmax = amps, omega = 1e4, theta0 = 0.2 }
    local Q, P, fh, _, ob = ens.hmm(eh, { preset = "cs1", kernel = "exp2", H = 1 / 20, T = 0.5, eta = 4 * 2 * math.pi / 1e4,
      h = 2 * math.pi / 1e4 / 16, micro = "rk4", Q0 = q0s, P0 = 0.1, threads = 2,
      observe = { every = 3, max = "v", cross = { "q", level = 0.6 }, sample = "q", final = "hamiltonian" } })
    for m = 1, M, 7 do
      assert.are.equal(0, fh[m])
      local mx, tc = 0, nil
      for j = 0, #Q - 1, 3 do
        mx = math.max(mx, math.abs(P[j + 1][m]))
        if not tc and Q[j + 1][m] >= 0.6 then tc = j / 20 end
        assert.are.equal(Q[j + 1][m], ob.sample.q[j / 3 + 1][m])
      end
      assert.are.equal(mx, ob.max.v[m])
      if tc then assert.is_true(math.abs(ob.cross.q[m] - tc) < 1e-14) else assert.is_true(isnan(ob.cross.q[m])) end
      local H = 0.5 * P[#P][m] ^ 2 + (gs[m] + amps[m] * 1e4 * math.cos(1e4 * 0.5 + 0.2)) * math.cos(Q[#Q][m]) / ls[m]
      agree(ob.final.hamiltonian[m], H, "HMM H member " .. m)
    end
    local es = ens.pendulum { l = ls, g = gs, vmax = amps, omega = 60, theta0 = th0 }
    local tout = { 0.05, 0.1, 0.15 }
    local ys, _, _, os_ = ens.sam(es, { n = 16, period = 2 * math.pi / 60, H = 0.05, tout = tout, q0 = q0s, threads = 3,
                                        observe = { max = "q", cross = { "v", level = 0, dir = "down" } } })
    for m = 1, M, 11 do
      local mx, tc = 0, nil
      for j = 1, 3 do
        mx = math.max(mx, math.abs(ys[j][1][m]))
        if not tc and ys[j][2][m] <= 0 then tc = tout[j] end
      end
      assert.are.equal(mx, os_.max.q[m])
      if tc then assert.are.equal(tc, os_.cross.v[m]) else assert.is_true(isnan(os_.cross.v[m])) end
      local mi = sam.micro(models.pendulum { l = ls[m], g = gs[m], vmax = amps[m], omega = 60, theta0 = th0[m] }, "rk4")
      local ss = sam.sam(mi, { n = 16, period = 2 * math.pi / 60, H = 0.05, tout = tout, y0 = { q0s[m], 0 } })
      agree(ys[3][1][m], ss[3][1], "SAM q member " .. m)
    end
    local top = models.top {}
    local x0s = {}
    for m = 1, 4 do x0s[m] = top.x0(1e3, 1e-3 * m, 0.2 + 0.01 * m) end
    local xs, _, _, ox = ens.slow(top, { set = "32", H = 0.01 / 20, T = 0.01 / 4, eta = 1e-4, h = 1e-5, x0 = x0s, threads = 2,
                                         observe = { max = "y3", sample = { "y1", every = 2 } } })
    for m = 1, 4 do
      local mx = 0
      for j = 1, #xs[m][3] do mx = math.max(mx, math.abs(xs[m][3][j])) end
      assert.are.equal(mx, ox.max.y3[m])
      assert.are.equal(xs[m][1][3], ox.sample.y1[2][m])
    end
  end)
end)

describe("observers refuse what they cannot do, naming it #asan", function()
  local e = ens.pendulum { l = 0.2, g = 9.8, vmax = { 1, 2, 3 }, omega = 50 }
  local function bad(status, param, set, n, every_rows)
    local o = ffi.new("kz_obs[1]")
    o[0].kind, o[0].comp, o[0].every, o[0].out, o[0].nout = C.KZ_OBS_MAX, 0, 1, kz.vec(64), 64
    set(o[0])
    local y, f, r = kz.vec(6, { 0.1, 0.2, 0.3, 0, 0, 0 }), ffi.new("int[3]"), kz.report()
    local st
    if every_rows then
      local p = require("kapitza.hmm").params { preset = "cs1", kernel = "exp2", H = 0.1, T = 0.2, eta = 0.2, h = 0.01 }
      local eh = ens.pendulum { l = 0.2, g = 9.8, vmax = { 1, 2, 3 }, omega = 50 }
      st = C.kz_ens_hmm_run(eh.c, p, y, kz.vec(18), 3, f, o, 1, nil, r)
    else
      st = C.kz_ens_run(kz.stepper("rk4"), e.c, 0, 1e-3, n or 10, y, f, o, 1, nil, r)
    end
    assert.are.equal(status, st)
    assert.are.equal(param, ffi.string(r.param))
  end
  it("from C", function()
    bad(C.KZ_EDOMAIN, "kind", function(o) o.kind = 7 end)
    bad(C.KZ_EDOMAIN, "every", function(o) o.every = 0 end)
    bad(C.KZ_EDOMAIN, "comp", function(o) o.comp = 2 end)
    bad(C.KZ_EDOMAIN, "comp", function(o) o.comp = -1 end)
    bad(C.KZ_ENONFINITE, "level", function(o) o.kind, o.level = C.KZ_OBS_CROSS, 0 / 0 end)
    bad(C.KZ_EMODEL, "stop", function(o) o.kind, o.stop = C.KZ_OBS_CROSS, 1 end, nil, true)
    bad(C.KZ_ENULL, "out", function(o) o.out = nil end)
    bad(C.KZ_EBUFFER, "out", function(o) o.nout = 2 end)
    bad(C.KZ_EBUFFER, "out", function(o) o.kind, o.comp, o.nout = C.KZ_OBS_SAMPLE, -1, 6 * 11 - 1 end)
    bad(C.KZ_ENULL, "fn", function(o) o.kind = C.KZ_OBS_FINAL end)
    local r = kz.report()
    assert.are.equal(C.KZ_ENULL, C.kz_ens_run(kz.stepper("rk4"), e.c, 0, 1e-3, 1, kz.vec(6), ffi.new("int[3]"), nil, 1, nil, r))
    assert.are.equal("observers", ffi.string(r.param))
    -- a sample buffer of exactly the checks is enough
    local o = ffi.new("kz_obs[1]")
    o[0].kind, o[0].comp, o[0].every, o[0].out, o[0].nout = C.KZ_OBS_SAMPLE, -1, 1, kz.vec(66), 66
    assert.are.equal(0, C.kz_ens_run(kz.stepper("rk4"), e.c, 0, 1e-3, 10, kz.vec(6, { 0.1, 0.2, 0.3, 0, 0, 0 }),
                                     ffi.new("int[3]"), o, 1, nil, kz.report()))
  end)
  it("from Lua", function()
    local function fails(pat, ob)
      local ok, err = pcall(ens.run, e, { h = 1e-3, n = 10, q0 = 0.1, observe = ob })
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find(pat, 1, true), tostring(err))
    end
    fails("unknown key 'maks'", { maks = "q" })
    fails("unknown component 'x'", { max = "x" })
    fails("unknown component '3'", { max = 3 })
    fails("every must be a whole number", { every = 0, max = "q" })
    fails("two crossing observers on q", { cross = { { "q", level = 1 }, { 1, level = 2 } } })
    fails("cross needs a finite level", { cross = { "q" } })
    fails("cross has no key 'lvl'", { cross = { "q", lvl = 1 } })
    fails("has no such invariant", { final = "energy" })
    local ok, err = pcall(ens.hmm, ens.pendulum { l = 0.2, g = 9.8, vmax = 1, omega = 50, M = 2 },
                          { H = 0.1, T = 0.2, eta = 0.2, h = 0.01, Q0 = 0.1, observe = { cross = { "q", level = 1, stop = true } } })
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("stop is for ens.run", 1, true), tostring(err))
  end)
end)
