-- The C library installed (make install / make uninstall): the staged tree holds the header, the
-- versioned shared library with its SONAME and symlinks, the static library, kapitza.pc and the
-- Lua modules; pkg-config describes it; the C example (tests/c/example.c) builds through
-- pkg-config against the stage, shared and static, runs, and prints the numbers the Lua binding
-- computes; the installed kapitza.lua loads the installed library from any directory; a DESTDIR
-- install stays inside DESTDIR and uninstall removes it all.
local kz = require "kapitza"
local hmm = require "kapitza.hmm"
local models = require "kapitza.models"
local U = require "testutil"

-- make without the caller's make variables (make -j check passes its jobserver in MAKEFLAGS)
local MAKE = "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u KZ_LIB make --no-print-directory -C " .. U.root

local lines = U.lines

local function has(cmd) return U.run("command -v " .. cmd .. " >/dev/null") == 0 end

describe("make install", function()
  local dir, prefix, pc
  setup(function()
    dir = U.tmpdir()
    prefix = dir .. "/usr"
    pc = string.format("export PKG_CONFIG_PATH='%s/lib/pkgconfig'; ", prefix)
    local st, _, err = U.run(string.format("%s install PREFIX='%s' >/dev/null", MAKE, prefix))
    assert.are.equal(0, st, err)
  end)
  teardown(function() U.rmdir(dir) end)

  it("installs the header, the versioned shared library and its links, the static library, kapitza.pc, the Lua modules", function()
    local files = {}
    for _, f in ipairs(U.files(prefix)) do files[f] = true end
    local v = kz.version
    local major = v:match("^(%d+)")
    for _, f in ipairs { "include/kapitza.h", "lib/libkapitza.so." .. v, "lib/libkapitza.a", "lib/pkgconfig/kapitza.pc",
                         "share/lua/5.1/kapitza.lua", "share/lua/5.1/kapitza/config.lua", "share/lua/5.1/kapitza/hmm.lua",
                         "share/lua/5.1/kapitza/models.lua", "share/lua/5.1/kapitza/usermodel.lua" } do
      assert.truthy(files[f], f .. " not installed")
    end
    local _, l1 = U.run(string.format("readlink '%s/lib/libkapitza.so.%s'", prefix, major))
    local _, l2 = U.run(string.format("readlink '%s/lib/libkapitza.so'", prefix))
    assert.are.equal("libkapitza.so." .. v .. "\n", l1)
    assert.are.equal("libkapitza.so." .. major .. "\n", l2)
    local _, soname = U.run(string.format("readelf -d '%s/lib/libkapitza.so.%s'", prefix, v))
    assert.truthy(soname:find("Library soname: [libkapitza.so." .. major .. "]", 1, true), soname)
    local _, members = U.run(string.format("ar t '%s/lib/libkapitza.a'", prefix))
    assert.truthy(members:find("kz_hmm.o", 1, true) and members:find("kz_step_rk4.o", 1, true), members)
    -- every public header, kapitza.h and its modules in include/kapitza/, as in the source tree
    local hdrs = { "kapitza.h" }
    for _, h in ipairs(U.files(U.root .. "/lib/include/kapitza")) do hdrs[#hdrs + 1] = "kapitza/" .. h end
    assert.truthy(#hdrs >= 9, "module headers: " .. #hdrs - 1)
    for _, h in ipairs(hdrs) do
      local _, hdr = U.run(string.format("cmp '%s/include/%s' '%s/lib/include/%s' && echo same", prefix, h, U.root, h))
      assert.are.equal("same\n", hdr, h)
    end
    -- what the installed model loader compiles: every papers' model file, its C and the preamble
    local shipped = 0
    for _, f in ipairs(U.files(U.root .. "/lib/models")) do
      if f:match("%.lua$") or f == "kz_model.h" or (f:match("%.c$") and not f:match("^kz_")) then
        local _, same = U.run(string.format("cmp '%s/share/lua/5.1/kapitza/models/%s' '%s/lib/models/%s' && echo same",
                                            prefix, f, U.root, f))
        assert.are.equal("same\n", same, f)
        shipped = shipped + 1
      end
    end
    assert.is_true(shipped >= 18, "model files, sources and preamble: " .. shipped)
  end)

  it("pkg-config describes it", function()
    assert.is_true(has("pkg-config"), "pkg-config is missing (Debian: apt-get install pkgconf)")
    local st, out, err = U.run(pc .. "pkg-config --modversion kapitza")
    assert.are.equal(0, st, err)
    assert.are.equal(kz.version .. "\n", out)
    local _, flags = U.run(pc .. "pkg-config --cflags --libs kapitza")
    assert.are.equal(string.format("-I%s/include -L%s/lib -lkapitza", prefix, prefix), flags:gsub("%s+$", ""))
    local _, static = U.run(pc .. "pkg-config --static --libs kapitza")
    assert.truthy(static:find("-lkapitza -llapack -lm", 1, true), static)
  end)

  it("the C example builds through pkg-config, shared and static, runs, and prints the Lua binding's numbers", function()
    local exe = dir .. "/example"
    local cflags = "-std=c11 -Wall -Wextra -Werror -pedantic"
    local st, _, err = U.run(string.format("%scc %s $(pkg-config --cflags kapitza) tests/c/example.c -o '%s' " ..
      "$(pkg-config --libs kapitza) -Wl,-rpath,$(pkg-config --variable=libdir kapitza)", pc, cflags, exe))
    assert.are.equal(0, st, err)
    local st2, _, err2 = U.run(string.format("%scc %s -static $(pkg-config --cflags kapitza) tests/c/example.c -o '%s-static' " ..
      "$(pkg-config --static --libs kapitza)", pc, cflags, exe))
    assert.are.equal(0, st2, err2)
    local _, dyn = U.run(string.format("readelf -d '%s'", exe))
    assert.truthy(dyn:find("NEEDED.-%[libkapitza%.so%.%d+%]"), dyn)
    local _, sdyn = U.run(string.format("readelf -d '%s-static'", exe))
    assert.is_nil(sdyn:find("libkapitza", 1, true), sdyn)
    local s1, out1, e1 = U.run(string.format("cd / && env -u KZ_LIB -u LD_LIBRARY_PATH '%s'", exe))
    local s2, out2, e2 = U.run(string.format("cd / && '%s-static'", exe))
    assert.are.equal(0, s1, e1)
    assert.are.equal(0, s2, e2)
    assert.are.equal(out1, out2)
    local got = {}
    for _, l in ipairs(lines(out1)) do
      local k, v = l:match("^(%S+)%s+(.*)$")
      got[k] = v
    end
    -- the same computations through the Lua binding: the same library code, the same numbers
    assert.are.equal(kz.version, got.version)
    assert.are.equal(table.concat(kz.steppers.names, " "), got.steppers)
    local omega = 1e4
    local period = 2 * math.pi / omega
    local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = omega, theta0 = 0 }
    local nsteps = math.floor(0.2 / period * 100 + 0.5)
    local y, c = kz.run(pend.sys, "rk4", 0, period / 100, nsteps, { 0.5, 0 })
    assert.are.equal(tostring(c.micro_steps), got.direct_steps)
    assert.are.equal(string.format("%.17g", y[1]), got.direct_q)
    assert.are.equal(string.format("%.17g", y[2]), got.direct_p)
    local Q, P, w = hmm.run(pend, { preset = "cs2", kernel = "uniform", H = 0.01, T = 1, eta = period, h = period / 64, Q0 = 0.5, P0 = 0 })
    assert.are.equal(tostring(w.force_evals), got.hmm_evals)
    assert.are.equal(string.format("%.17g", Q[#Q]), got.hmm_Q)
    assert.are.equal(string.format("%.17g", P[#P]), got.hmm_P)
    assert.is_true(tonumber(got.hmm_error) < 0.01)
    assert.are.equal("KZ_EGRID T", got.bad_H)
  end)

  it("the installed kapitza.lua loads the installed library (not the build tree), from any directory", function()
    local cache = dir .. "/cache"
    local prog = [[
local kz = require "kapitza"
local hmm, um = require "kapitza.hmm", require "kapitza.usermodel"
local maps = {}
for l in io.lines("/proc/self/maps") do local p = l:match("(/%S*libkapitza%S*)$"); if p then maps[p] = true end end
for p in pairs(maps) do print("mapped " .. p) end
print("installed " .. tostring(kz.installed) .. " " .. kz.lib_path)
local osc = { name = "osc", nq = 1, params = { "k" }, c = { accel = "f", source =
  "static int f(const kz_par *p, double t, const double *q, double *a) { (void)t; a[0] = -p->k * q[0]; return KZ_OK; }" } }
local y = kz.run(um.model(osc, { k = 1 }).sys, "rk4", 0, 1e-3, 1000, { 1, 0 })
print(string.format("cos1 %.6f", y[1]))
local models = require "kapitza.models" -- the papers' models, from their installed model files
local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 100 }
print("models " .. models.dir .. " " .. pend.library)
print(string.format("pend %.17g", kz.run(pend.sys, "rk4", 0, 1e-4, 100, { 0.5, 0 })[1]))
]]
    local f = assert(io.open(dir .. "/prog.lua", "wb"))
    f:write(prog)
    f:close()
    local st, out, err = U.run(string.format("cd / && env -u KZ_LIB KZ_CACHE='%s' LUA_PATH='%s/share/lua/5.1/?.lua;;' luajit '%s/prog.lua'",
                                             cache, prefix, dir))
    assert.are.equal(0, st, err)
    local lib = string.format("%s/lib/libkapitza.so.%s", prefix, kz.version)
    assert.truthy(out:find("mapped " .. lib, 1, true), out)
    assert.is_nil(out:find(U.root, 1, true), out)
    assert.truthy(out:find("installed true " .. prefix .. "/lib/libkapitza.so." .. kz.version:match("^%d+"), 1, true), out)
    assert.truthy(out:find("cos1 0.540302", 1, true), out)
    assert.truthy(out:find("models " .. prefix .. "/share/lua/5.1/kapitza/models " .. prefix .. "/share/lua/5.1/kapitza/models/pendulum.lua", 1, true), out)
    local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 100 }
    assert.truthy(out:find(string.format("pend %.17g", kz.run(pend.sys, "rk4", 0, 1e-4, 100, { 0.5, 0 })[1]), 1, true), out)
  end)

  it("a PREFIX with a space installs there (nothing beside it), pkg-config escapes it, the C example builds and runs; uninstall removes it", function()
    local pre = dir .. "/pre fix"
    local st, _, err = U.run(string.format("cd '%s' && %s install PREFIX='%s' >/dev/null", dir, MAKE, pre))
    assert.are.equal(0, st, err)
    local _, stray = U.run(string.format("ls -A '%s'", dir))
    assert.is_nil(stray:find("\nfix\n", 1, true) or stray:match("^fix\n"), stray) -- the word after the space
    local _, rstray = U.run(string.format("ls -d '%s/fix' '%s/pre' 2>/dev/null", U.root, dir))
    assert.are.equal("", rstray)
    local files = U.files(pre)
    assert.is_true(#files >= 10, table.concat(files, " "))
    local pcs = string.format("export PKG_CONFIG_PATH='%s/lib/pkgconfig'; ", pre)
    local _, prefix_var = U.run(pcs .. "pkg-config --variable=prefix kapitza")
    assert.are.equal(pre:gsub(" ", "\\ ") .. "\n", prefix_var)
    -- as a Makefile recipe uses it: the shell reads the escaped space
    local exe = dir .. "/example space"
    local st2, _, err2 = U.run(string.format("%seval \"cc -std=c11 $(pkg-config --cflags kapitza) tests/c/example.c -o '%s' " ..
      "$(pkg-config --libs kapitza) -Wl,-rpath,$(pkg-config --variable=libdir kapitza)\"", pcs, exe))
    assert.are.equal(0, st2, err2)
    local s3, out3, e3 = U.run(string.format("cd / && env -u KZ_LIB -u LD_LIBRARY_PATH '%s'", exe))
    assert.are.equal(0, s3, e3)
    assert.truthy(out3:find("version " .. kz.version, 1, true), out3)
    -- the installed Lua binding finds its library under the spaced prefix
    local s4, out4, e4 = U.run(string.format("cd / && env -u KZ_LIB LUA_PATH='%s/share/lua/5.1/?.lua;;' luajit -e " ..
      "'local kz = require \"kapitza\"; print(kz.lib_path)'", pre))
    assert.are.equal(0, s4, e4)
    assert.are.equal(pre .. "/lib/libkapitza.so." .. kz.version:match("^%d+") .. "\n", out4)
    local s5, _, e5 = U.run(string.format("%s uninstall PREFIX='%s' >/dev/null", MAKE, pre))
    assert.are.equal(0, s5, e5)
    local _, left = U.run(string.format("find '%s' -type f -o -type l", pre))
    assert.are.equal("", left)
  end)

  it("a relative PREFIX is made absolute (from the directory make runs in) so kapitza.pc works; an empty one is refused", function()
    local st, _, err = U.run(string.format("%s install DESTDIR='%s/rel' PREFIX=opt/kz >/dev/null", MAKE, dir))
    assert.are.equal(0, st, err)
    -- the files land under DESTDIR + the absolute prefix, i.e. <repository>/opt/kz
    local base = dir .. "/rel" .. U.root .. "/opt/kz"
    local h = io.open(base .. "/lib/pkgconfig/kapitza.pc")
    assert.truthy(h, base)
    local pcfile = h:read("*a")
    h:close()
    assert.truthy(pcfile:find("prefix=" .. U.root:gsub(" ", "\\ ") .. "/opt/kz\n", 1, true), pcfile)
    assert.truthy(pcfile:find("includedir=${prefix}/include\n", 1, true), pcfile)
    local _, stray = U.run("ls -d opt 2>/dev/null")
    assert.are.equal("", stray) -- nothing written into the repository itself
    local st2, _, err2 = U.run(string.format("%s install PREFIX= >/dev/null", MAKE))
    assert.are_not.equal(0, st2)
    assert.truthy(err2:find("PREFIX is empty", 1, true), err2)
  end)

  it("DESTDIR: a staged install stays inside DESTDIR, pkg-config works with its sysroot, uninstall removes it all", function()
    local stage = dir .. "/stage"
    local st, _, err = U.run(string.format("%s install DESTDIR='%s' PREFIX=/usr >/dev/null", MAKE, stage))
    assert.are.equal(0, st, err)
    local files = U.files(stage)
    assert.is_true(#files >= 10)
    for _, f in ipairs(files) do assert.truthy(f:match("^usr/"), f) end
    local _, pcfile = U.run(string.format("cat '%s/usr/lib/pkgconfig/kapitza.pc'", stage))
    assert.truthy(pcfile:find("prefix=/usr\n", 1, true), pcfile)
    local _, flags = U.run(string.format("PKG_CONFIG_PATH='%s/usr/lib/pkgconfig' PKG_CONFIG_SYSROOT_DIR='%s' pkg-config --cflags --libs kapitza",
                                         stage, stage))
    assert.are.equal(string.format("-I%s/usr/include -L%s/usr/lib -lkapitza", stage, stage), flags:gsub("%s+$", ""))
    local st2, _, err2 = U.run(string.format("%s uninstall DESTDIR='%s' PREFIX=/usr >/dev/null", MAKE, stage))
    assert.are.equal(0, st2, err2)
    local _, left = U.run(string.format("find '%s' -type f -o -type l", stage))
    assert.are.equal("", left)
  end)
end)
