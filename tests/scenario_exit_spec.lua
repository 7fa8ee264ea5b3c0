-- Every exit of a scenario leaves its output directory as it was, or complete (issue 17, items 5,
-- 6, 7, 9): refusals after the command line, signals, a full disk, concurrent runs, a missing or
-- broken gnuplot; every scenario refuses work it cannot finish; numbers are read strictly. Each
-- test drives the real command line.
local U = require "testutil"
local S = require "kapitza.scenario"

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function lines(s)
  local n = 0
  for _ in s:gmatch("[^\n]+") do n = n + 1 end
  return n
end

-- Every path below dir (files and folders, hidden ones too), sorted.
local function tree(dir)
  local p = io.popen(string.format("cd %s 2>/dev/null && find . -mindepth 1 | sort", sh_quote(dir)))
  local t = {}
  for l in p:lines() do t[#t + 1] = l:gsub("^%./", "") end
  p:close()
  return t
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

local function sleep(s) os.execute("sleep " .. s) end

-- Start a command in the background: returns a handle whose :pid() and :status() (nil while it
-- runs; the shell's $?, 128 + n for a signal n) read what the wrapper shell wrote.
local function spawn(cmd)
  local d = U.tmpdir()
  os.execute(string.format("cd %s && ( %s >%s/out 2>%s/err & echo $! >%s/pid; wait $!; echo $? >%s/st.tmp; mv %s/st.tmp %s/st ) >/dev/null 2>&1 &",
                           sh_quote(U.root), cmd, d, d, d, d, d, d))
  local h = { dir = d }
  function h.read(name)
    local f = io.open(d .. "/" .. name)
    if not f then return nil end
    local s = f:read("*a")
    f:close()
    return s
  end
  function h.pid() return tonumber(h.read("pid") or "") end
  function h.status() return tonumber(h.read("st") or "") end
  function h.wait(limit) -- seconds; the status, or nil if it did not end
    for _ = 1, limit * 20 do
      local st = h.status()
      if st then return st end
      sleep(0.05)
    end
  end
  function h.clean() U.rmdir(d) end
  return h
end

local function wait_for(pred, limit)
  for _ = 1, limit * 20 do
    if pred() then return true end
    sleep(0.05)
  end
  return false
end

local function stage_of(dir)
  for _, name in ipairs(tree(dir)) do
    if name:match("^%.kz%-stage%-") and not name:find("/", 1, true) then return dir .. "/" .. name end
  end
end

-- The parameter table of a scenario, read without running it (its parse raises the spec).
local function spec_of(id)
  local saved_parse, saved_arg = S.parse, arg
  S.parse = function(self) error({ spec = self }, 0) end
  arg = { [0] = U.root .. "/scenarios/" .. id .. ".lua" }
  local chunk = assert(loadfile(arg[0]))
  local ok, e = pcall(chunk)
  S.parse, arg = saved_parse, saved_arg
  S.current = nil
  assert(not ok and type(e) == "table" and e.spec, id .. ": could not read its parameters: " .. tostring(e))
  return e.spec
end

local function params(spec, quick)
  local P = { quick = quick, force = false, out = "paper" }
  for _, p in ipairs(spec.params) do
    P[p[1]] = p[2]
    if quick and spec.quick[p[1]] ~= nil then P[p[1]] = spec.quick[p[1]] end
  end
  return P
end

local scenarios = U.scenarios() -- scenarios/*.lua, not scenarios/examples/

describe("every scenario refuses work it cannot finish (issue 17, item 6)", function()
  it("every scenario has a work estimate, a positive finite number at its defaults and at --quick", function()
    assert.is_true(#scenarios >= 61)
    local bad = {}
    for _, id in ipairs(scenarios) do
      local spec = spec_of(id)
      if not spec.work then bad[#bad + 1] = id .. ": no work estimate" else
        for _, quick in ipairs { false, true } do
          local n, what = spec.work(params(spec, quick))
          if type(n) ~= "number" or not (n > 0 and n < math.huge) or type(what) ~= "string" then
            bad[#bad + 1] = string.format("%s%s: %s %s", id, quick and " --quick" or "", tostring(n), tostring(what))
          end
        end
      end
    end
    assert.are.equal(0, #bad, table.concat(bad, "\n"))
  end)

  -- The estimates written for issue 17 against the force evaluations a --quick run counts (top-fig3
  -- evaluates kernels, not forces; top-fig11 adds its periodogram at 0.1 evaluation a term).
  local counted = { "cs-fig4.1", "cs-table2.1", "cs-table2.2", "cs-table2.3", "ex-hpendulum", "sam-fig5", "sam-fig6",
                    "ste-constants", "ste-fig3.1", "ste-fig3.2", "ste-fig3.3", "ste-fig3.4", "ste-fig3.5", "ste-force",
                    "top-fig5", "top-fig6", "top-fig11", "top-fig12", "top-fig13", "top-fig14", "top-fig15", "top-fig16",
                    "top-fig17", "top-fig18", "top-fig19", "top-fig20", "top-fig21", "top-fig22", "top-fig23", "top-table1",
                    "vmi-fig5.1" }
  it("the estimates are within a factor 3 of the force evaluations counted in a --quick run", function()
    local dir, bad = U.tmpdir(), {}
    for _, id in ipairs(counted) do
      local st, _, err = U.run(string.format("KZ_QUIET=1 luajit tests/work_count.lua scenarios/%s.lua --quick --out %s",
                                             id, sh_quote(dir .. "/" .. id)))
      local n = tonumber(err:match("work_count (%S+)"))
      local est = spec_of(id).work(params(spec_of(id), true))
      if st ~= 0 or not n or not (est <= 3 * n and est >= n / 3) then
        bad[#bad + 1] = string.format("%s: status %d, estimate %.3g, counted %s", id, st, est, tostring(n))
      end
    end
    U.rmdir(dir)
    assert.are.equal(0, #bad, table.concat(bad, "\n"))
  end)

  it("ste-fig3.1 eps=1e-12 T=1e4 h_per_eps=1e5 is refused at once, naming the estimate and --force", function()
    local dir = U.tmpdir()
    local st, _, err = U.run("luajit scenarios/ste-fig3.1.lua --out " .. dir .. "/out eps=1e-12 T=1e4 h_per_eps=1e5")
    assert.are.equal(2, st, err)
    assert.are.equal(1, lines(err), err)
    -- the HMM alone is about 2e12; the direct runs at direct_eps with h = eps/h_per_eps add 7e13
    local est = tonumber(err:match("about (%S+) force evaluations"))
    assert.truthy(est and est > 1e12, err)
    assert.truthy(err:find("--force", 1, true), err)
    assert.are.same({}, tree(dir))
    U.rmdir(dir)
  end)

  it("KZ_MAX_WORK must be a positive finite number; --force overrides the limit", function()
    local dir = U.tmpdir()
    for _, v in ipairs { "nan", "inf", "-1", "0", "abc", "1e400", "", "2e10 " } do
      local st, _, err = U.run(string.format("KZ_MAX_WORK=%s luajit scenarios/ste-force.lua --quick --force --out %s/out", sh_quote(v), dir))
      assert.are.equal(2, st, v .. ": " .. err)
      assert.are.equal(1, lines(err), err)
      assert.truthy(err:find("KZ_MAX_WORK", 1, true), err)
    end
    local st, _, err = U.run("KZ_MAX_WORK=1e3 luajit scenarios/ste-force.lua --quick --out " .. dir .. "/out")
    assert.are.equal(2, st, err)
    assert.truthy(err:find("limit 1e+03", 1, true) and err:find("--force", 1, true), err)
    st, _, err = U.run("KZ_QUIET=1 KZ_MAX_WORK=1e3 luajit scenarios/ste-force.lua --quick --force --out " .. dir .. "/out")
    assert.are.equal(0, st, err)
    assert.truthy(exists(dir .. "/out/tables/ste-force.md"))
    U.rmdir(dir)
  end)

  it("--help: --quick lists what it changes, --force says what it does and the estimate at the defaults", function()
    local st, out = U.run("luajit scenarios/ste-fig3.2.lua --help")
    assert.are.equal(0, st)
    assert.truthy(out:match("\n  %-%-quick [^\n]*%(changes: H%)"), out)
    local force = out:match("\n  %-%-force ([^\n]*)")
    assert.truthy(force and force:find("KZ_MAX_WORK", 1, true) and not force:find("changes", 1, true), out)
    assert.truthy(out:find("estimated work at the defaults: about 5.7e+08 force evaluations", 1, true), out)
  end)
end)

describe("numbers are read strictly (issue 17, item 7)", function()
  it("the grammar: decimals, exponents, fractions, powers, pi; no spaces, no sums, nothing non-finite", function()
    for s, v in pairs { ["0.2"] = 0.2, [".5"] = 0.5, ["-3"] = -3, ["+4"] = 4, ["1e-3"] = 1e-3, ["1E5"] = 1e5, ["1/160"] = 1 / 160,
                        ["2^-10"] = 2 ^ -10, ["pi/4"] = math.pi / 4, ["2*pi"] = 2 * math.pi, ["(1/3)*2"] = (1 / 3) * 2 } do
      assert.are.equal(v, S.number(s), s)
    end
    for _, s in ipairs { "1--2", "0 .2", " 1", "1-2", "1+2", "2**3", "2e", "e5", "1/0", "0/0", "1e400", "inf", "nan", "pipi",
                         "2^3^2", "(1", "1)", "0x10", "1,5", "os.exit(1)", "--1", "" } do
      assert.is_nil(S.number(s), s)
    end
  end)

  it("property: on random strings, a value is returned only where Lua's own arithmetic reads the same number", function()
    local alphabet = { "0", "1", "2", "5", "9", ".", "e", "E", "+", "-", "*", "/", "^", "(", ")", "pi", " ", "i", "n", "f", "," }
    math.randomseed(17)
    local accepted, bad = 0, {}
    for _ = 1, 3000 do
      local t = {}
      for j = 1, math.random(1, 7) do t[j] = alphabet[math.random(#alphabet)] end
      local s = table.concat(t)
      local ok, v = pcall(S.number, s)
      if not ok or (v ~= nil and (type(v) ~= "number" or v ~= v or math.abs(v) == math.huge)) then
        bad[#bad + 1] = s .. ": " .. tostring(v)
      elseif v ~= nil then
        accepted = accepted + 1
        local expr = s:gsub("pi", "(math.pi)"):gsub("^%+", ""):gsub("([%^%(])%+", "%1") -- Lua has no unary +
        local f = loadstring("return " .. expr)
        local lua = f and select(2, pcall(f))
        if lua ~= v then bad[#bad + 1] = string.format("%s: %.17g, Lua reads %s", s, v, tostring(lua)) end
      end
    end
    assert.is_true(accepted > 100, "too few valid strings drawn")
    assert.are.equal(0, #bad, table.concat(bad, "\n"))
  end)

  it("malformed values are refused naming the key in one line, exit 2, nothing written", function()
    local dir = U.tmpdir()
    for _, a in ipairs { "l=1--2", "l=0 .2", "l=1-2", "l=2 * 0.1", "eps=1e-6.", "H=0.5,0.1--2", "q=-inf", "l=inf", "l=nan" } do
      local st, _, err = U.run(string.format("luajit scenarios/ste-fig3.2.lua --out %s/out %s", dir, sh_quote(a)))
      local key = a:match("^[^=]+")
      assert.are.equal(2, st, a .. ": " .. err)
      assert.are.equal(1, lines(err), err)
      assert.truthy(err:find("parameter '" .. key .. "'", 1, true), err)
    end
    assert.are.same({}, tree(dir))
    U.rmdir(dir)
  end)

  it("inf is read where it is a key's default (q=inf of the ste error figures)", function()
    -- the refusal for work comes after the command line was read: q=inf was accepted
    local st, _, err = U.run("KZ_MAX_WORK=1 luajit scenarios/ste-fig3.4.lua --out /nonexistent/kz q=inf")
    assert.are.equal(2, st, err)
    assert.truthy(err:find("the run would take", 1, true), err)
    local _, out = U.run("luajit scenarios/ste-fig3.4.lua --help")
    assert.truthy(out:find("or inf", 1, true), out)
  end)
end)

describe("every exit leaves the output directory as it was, or complete (issue 17, item 5)", function()
  -- refusals made by the scenarios themselves after the command line was read (direct os.exit)
  local refusals = {
    { "top-fig11", "h=1 T=0.1" }, { "top-fig13", "N=30,70" }, { "top-fig14", "alpha=2,3" }, { "top-fig17", "runs=1e-6:3" },
    { "top-fig20", "ref_sub=3" }, { "sam-fig6", "H=0.3" }, { "cs-fig4.1", "H=1/80,1/90" }, { "top-fig13", "schemes=FE" },
  }
  it("a refusal after the command line leaves no staging folder and a directory as it was", function()
    local dir = U.tmpdir()
    local f = assert(io.open(dir .. "/keep.txt", "w"))
    f:write("x\n")
    f:close()
    for _, r in ipairs(refusals) do
      local st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --out %s %s", r[1], dir, r[2]))
      assert.are.equal(2, st, r[1] .. " " .. r[2] .. ": " .. err)
      assert.are.same({ "keep.txt" }, tree(dir), r[1] .. " " .. r[2])
      st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --out %s/new %s", r[1], dir, r[2]))
      assert.are.equal(2, st, err)
      assert.is_false(exists(dir .. "/new/."), r[1] .. ": the --out it created is removed")
    end
    U.rmdir(dir)
  end)

  it("SIGTERM removes the staging folder; SIGINT ends a long C call at once, leaving nothing", function()
    for _, case in ipairs { { "TERM", 15, true }, { "INT", 2, false } } do
      local dir = U.tmpdir()
      local out = case[3] and dir or (dir .. "/new") -- an existing --out, or one the run creates
      if case[3] then
        local f = assert(io.open(dir .. "/keep.txt", "w"))
        f:write("x\n")
        f:close()
      end
      -- sam-fig5 at n = 2^22 (and a cheap reference, refm = 8): its first SAM run is one C call of
      -- about half a minute, which LuaJIT's own SIGINT handler would not interrupt
      local h = spawn(string.format("KZ_QUIET=1 exec luajit scenarios/sam-fig5.lua --force --out %s n=4194304 eps=2^-9 refm=8", out))
      assert.is_true(wait_for(function() return stage_of(out) ~= nil end, 20), "the run started")
      sleep(0.5)
      assert.is_nil(h.status(), "still running")
      os.execute("kill -" .. case[1] .. " " .. h.pid())
      local st = h.wait(10)
      if not st then os.execute("kill -KILL " .. h.pid()) end -- (a failure: do not leave it running)
      assert.are.equal(128 + case[2], st, "killed by SIG" .. case[1] .. ": " .. tostring(h.read("err")))
      assert.are.same(case[3] and { "keep.txt" } or {}, tree(dir))
      h.clean()
      U.rmdir(dir)
    end
  end)

  it("a staging folder left by a killed run is removed by the next run; a live one is not", function()
    local dir = U.tmpdir()
    local p = io.popen("sh -c 'echo $$'")
    local dead = tonumber(p:read("*l"))
    p:close()
    local live = spawn("exec sleep 30")
    assert.is_true(wait_for(function() return live.pid() ~= nil end, 5))
    -- each made as a run makes it: with the marker naming the folder's own identity (a folder of
    -- that name without it is not a run's, and is left: tests/out_paths_spec.lua)
    local F = require "kapitza.files"
    for _, pid in ipairs { dead, live.pid() } do
      local stage = string.format("%s/.kz-stage-ste-force-%d", dir, pid)
      os.execute(string.format("mkdir -p %s/data && echo x > %s/data/ste-force.tsv", stage, stage))
      local st = F.stat(stage, false)
      assert(F.write_new(stage .. "/.kz-stage", string.format("kapitza staging folder %s %s\n", tostring(st.dev), tostring(st.ino))))
    end
    local st, _, err = U.run("KZ_QUIET=1 luajit scenarios/ste-force.lua --quick --out " .. dir)
    assert.are.equal(0, st, err)
    assert.is_false(exists(string.format("%s/.kz-stage-ste-force-%d/.", dir, dead)), "the dead run's stage is removed")
    assert.is_true(exists(string.format("%s/.kz-stage-ste-force-%d/.", dir, live.pid())), "the live run's stage is kept")
    os.execute("kill " .. live.pid())
    live.wait(5)
    live.clean()
    U.rmdir(dir)
  end)

  it("a full disk is one line naming the file, exit 1, and nothing is left behind", function()
    local dir = U.tmpdir()
    local mounted = os.execute(string.format("mount -t tmpfs -o size=12k kz-full %s 2>/dev/null", dir))
    if mounted ~= 0 and mounted ~= true then
      pending("cannot mount a tmpfs here (needs root)")
      U.rmdir(dir)
      return
    end
    local ok, e = pcall(function()
      local st, _, err = U.run("KZ_QUIET=1 luajit scenarios/ste-constants.lua --quick --out " .. dir .. "/out")
      assert.are.equal(1, st, err)
      assert.are.equal(1, lines(err), err)
      assert.truthy(err:match("^ste%-constants: cannot write " .. dir:gsub("%p", "%%%0") .. "/out/data/ste%-constants[^ ]*%.tsv: No space left on device\n$"), err)
      assert.are.same({}, tree(dir))
    end)
    os.execute("umount " .. dir)
    U.rmdir(dir)
    assert(ok, e)
  end)

  it("concurrent runs into one --out: each commit holds a lock on the directory, so the last is whole", function()
    local kz = require "kapitza"
    local ffi = kz.ffi
    local dir = U.tmpdir()
    local fd, err = ffi.new("int[1]"), ffi.new("int[1]")
    assert.are.equal(0, kz.C.kz_runner_lock(dir, fd, err))
    local h = spawn("KZ_QUIET=1 exec luajit scenarios/ste-force.lua --quick --out " .. dir)
    -- the run computes and draws into its staging folder, then waits for the lock
    local done = wait_for(function()
      local s = stage_of(dir)
      return s and exists(s .. "/tables/ste-force.md")
    end, 20)
    sleep(0.5)
    local waiting = h.status() == nil and not exists(dir .. "/tables/ste-force.md")
    kz.C.kz_runner_unlock(fd[0])
    local st = h.wait(20)
    assert.is_true(done, "the run staged its files")
    assert.is_true(waiting, "nothing moved into the directory while another held the lock")
    assert.are.equal(0, st, h.read("err"))
    assert.truthy(exists(dir .. "/tables/ste-force.md"))
    assert.is_nil(stage_of(dir))
    h.clean()
    U.rmdir(dir)
  end)
end)

describe("without a gnuplot that runs, the figure is skipped and the data written (issue 17, item 9)", function()
  local function fake_bin(dir, gnuplot)
    os.execute(string.format("mkdir -p %s && ln -s \"$(command -v luajit)\" %s/luajit && ln -s \"$(command -v ls)\" %s/ls", dir, dir, dir))
    if gnuplot then
      local f = assert(io.open(dir .. "/gnuplot", "w"))
      f:write("#!/bin/sh\n", gnuplot, "\n")
      f:close()
      os.execute("chmod +x " .. dir .. "/gnuplot")
    end
  end
  local data = { "data/ste-constants-kernel.tsv", "data/ste-constants-potential.tsv", "data/ste-constants-reference.tsv",
                 "data/ste-constants-values.tsv",
                 "tables/ste-constants.md", "tables/ste-constants.tsv" }

  it("no gnuplot on the PATH, or one that does not run: exit 0, the data, 'figure ... skipped'", function()
    for _, case in ipairs { { nil, "gnuplot not found" }, { "echo 'gnuplot: broken' >&2; exit 3", "gnuplot does not run: gnuplot: broken" } } do
      local dir = U.tmpdir()
      fake_bin(dir .. "/bin", case[1])
      local st, _, err = U.run(string.format("KZ_QUIET=1 PATH=%s/bin luajit scenarios/ste-constants.lua --quick --out %s/out", dir, dir))
      assert.are.equal(0, st, err)
      assert.are.equal("ste-constants: figure ste-constants skipped (" .. case[2] .. "), the data are written\n", err)
      local files = {}
      for _, f in ipairs(U.files(dir .. "/out")) do files[#files + 1] = f end
      assert.are.same(data, files)
      U.rmdir(dir)
    end
  end)

  it("a gnuplot that runs but fails on the script: exit 1, its message, nothing written", function()
    local p = io.popen("command -v gnuplot")
    local real = p:read("*l")
    p:close()
    if not real then pending("no gnuplot installed") return end
    for _, case in ipairs {
      { "echo 'line 3: undefined variable: x' >&2\nexit 1", "gnuplot failed on figures/ste-constants.gp: line 3: undefined variable: x" },
      { "echo 'warning: nothing to plot' >&2\nexit 0", "gnuplot wrote no figure from figures/ste-constants.gp: warning: nothing to plot" },
    } do
      local dir = U.tmpdir()
      fake_bin(dir .. "/bin", string.format("[ \"$1\" = --version ] && exec %s --version\n%s", sh_quote(real), case[1]))
      local st, _, err = U.run(string.format("KZ_QUIET=1 PATH=%s/bin luajit scenarios/ste-constants.lua --quick --out %s/out", dir, dir))
      assert.are.equal(1, st, err)
      assert.are.equal("ste-constants: " .. case[2] .. "\n", err)
      assert.are.same({ "bin", "bin/gnuplot", "bin/ls", "bin/luajit" }, tree(dir))
      U.rmdir(dir)
    end
  end)
end)
