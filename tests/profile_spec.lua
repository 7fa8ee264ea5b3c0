-- KZ_PROFILE (lib/lua/kapitza/profile.lua): a scenario run with it writes its totals when the process ends,
-- through the scenario framework's exit (which closes the Lua state so that the writer runs).
local U = require "testutil"

describe("KZ_PROFILE", function()
  it("a scenario's run writes the time inside C, the calls and the clock span", function()
    local dir = U.tmpdir()
    local prof = dir .. "/run.prof"
    local st, _, err = U.run(string.format("KZ_PROFILE=%s luajit scenarios/cs-table2.2.lua --quick --out %s omega=1e4 H=1/10,1/20",
                                           prof, dir .. "/out"))
    assert.are.equal(0, st, err)
    local f = assert(io.open(prof), "no profile written")
    local p, fns = {}, 0
    for l in f:lines() do
      local k, v = l:match("^(%S+) (%S+)$")
      if k then p[k] = tonumber(v) end
      if l:match("^fn kz_") then fns = fns + 1 end
    end
    f:close()
    U.rmdir(dir)
    assert.truthy(p.c_calls and p.c_calls > 0, "c_calls")
    assert.truthy(p.c_seconds and p.c_seconds > 0, "c_seconds")
    assert.truthy(p.lua_end and p.lua_start and p.lua_end - p.lua_start >= p.c_seconds, "clock span")
    assert.truthy(fns > 0, "per-function lines")
  end)
end)
