-- out_paths_spec.lua -- issue 25, item 1: nothing is removed that the run did not create. Every
-- command that takes an output path (a scenario, kapitza run/atlas, sweep emit/merge/ensemble;
-- compare reads two) is given, as that path, each kind of thing that is not a directory — a
-- regular file, a symbolic link to a file, a dangling link, a FIFO, a character device (made here,
-- as root only) — and must refuse in one line with exit status 2 and leave it exactly as it was
-- (kind, device and inode, size, content or link target). A link to a directory is followed and
-- said. A run that fails leaves no folder it created, and a staging folder of a dead process is
-- removed only when its marker names its own identity.
local T = require "testutil"
local F = require "kapitza.files"

local root = T.root
local K = "luajit " .. root .. "/bin/kapitza"

-- every command, with the output path as %s
local commands = {
  { "scenario", "luajit scenarios/cs-table2.2.lua --quick --out %s" },
  { "kapitza run", K .. " run scenarios/cs-table2.2.lua --quick --out %s" },
  { "kapitza atlas", K .. " atlas tests/models/pend2.lua --quick --out %s methods=rk4" },
  { "sweep emit", "luajit scripts/sweep.lua emit cs-table2.2 %s --over H=1/10,1/20 --quick" },
  { "sweep merge", "luajit scripts/sweep.lua merge %s" },
  { "sweep ensemble", "luajit scripts/sweep.lua ensemble scenarios/examples/forced_pendulum2d.lua %s --over vmax=2,3 n=100" },
  { "compare (fresh)", "luajit scripts/compare.lua %s paper" },
  { "compare (kept)", "luajit scripts/compare.lua paper %s" },
}

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
local is_root = (function()
  local p = io.popen("id -u")
  local u = p:read("*l")
  p:close()
  return u == "0"
end)()

-- The things, made fresh in d: name -> shell command that makes it.
local function make_things(d)
  local things = {
    { "file", "printf 'keep me\\n' > " .. q(d .. "/file") },
    { "link-to-file", "printf 'target\\n' > " .. q(d .. "/target") .. " && ln -s target " .. q(d .. "/link-to-file") },
    { "dangling", "ln -s nowhere " .. q(d .. "/dangling") },
    { "fifo", "mkfifo " .. q(d .. "/fifo") },
  }
  if is_root then things[#things + 1] = { "device", "mknod " .. q(d .. "/device") .. " c 1 3" } end
  for _, t in ipairs(things) do assert(os.execute(t[2]) == 0, t[2]) end
  return things
end

-- What identifies a path exactly as it is.
local function snapshot(p)
  local st = F.stat(p, false)
  if not st then return "absent" end
  local extra = ""
  if st.kind == "file" then extra = F.read(p) or "?" end
  if st.kind == "link" then
    local h = io.popen("readlink " .. q(p))
    extra = h:read("*l") or ""
    h:close()
  end
  return string.format("%s %s %s %d %s", st.kind, tostring(st.dev), tostring(st.ino), st.size, extra)
end

describe("an output path that exists and is not a directory", function()
  for _, c in ipairs(commands) do
    it(c[1] .. ": refused in one line, exit 2, and left exactly as it was", function()
      local d = T.tmpdir()
      local things = make_things(d)
      for _, t in ipairs(things) do
        local p = d .. "/" .. t[1]
        local before = snapshot(p)
        local list_before = table.concat(T.files(d), ",")
        -- (a FIFO opened for reading would block: the timeout turns a hang into a failure)
        local st, _, err = T.run("timeout 60 " .. string.format(c[2], q(p)))
        assert.are.equal(2, st, c[1] .. " on " .. t[1] .. ": " .. err)
        local lines = select(2, err:gsub("\n", ""))
        assert.are.equal(1, lines, c[1] .. " on " .. t[1] .. ": one line expected, got: " .. err)
        assert.is_nil(err:find("traceback", 1, true))
        assert.are.equal(before, snapshot(p), c[1] .. " changed " .. t[1])
        assert.are.equal(list_before, table.concat(T.files(d), ","), c[1] .. " wrote beside " .. t[1])
      end
      T.rmdir(d)
    end)
  end
end)

describe("what a run creates and removes", function()
  it("a link to a directory is followed on purpose and said; the link and its target stay", function()
    local d = T.tmpdir()
    assert(os.execute(string.format("mkdir %s && ln -s real %s", q(d .. "/real"), q(d .. "/link"))) == 0)
    local st, _, err = T.run("luajit scenarios/cs-table2.2.lua --quick --out " .. q(d .. "/link"))
    assert.are.equal(0, st, err)
    assert.truthy(err:find("symbolic link", 1, true))
    assert.are.equal("link", F.stat(d .. "/link", false).kind)
    assert.truthy(F.read(d .. "/real/tables/cs-table2.2.tsv"))
    T.rmdir(d)
  end)

  it("a run stopped by a signal, or refused, removes the folders it made (and only those)", function()
    local d = T.tmpdir()
    local st, _, err = T.run("KZ_MAX_WORK=1 luajit scenarios/cs-table2.2.lua --quick --out " .. q(d .. "/a/b/c"))
    assert.are.equal(2, st, err)
    assert.is_nil(F.stat(d .. "/a", false), "the refused run left " .. d .. "/a")
    -- SIGTERM in the middle of the run (inside a C call): the stage and a/b/c go, d stays
    os.execute(string.format("cd %s && (luajit scenarios/cs-table2.2.lua --out %s omega=1e8 H=1/2560 & p=$!; sleep 1.5; kill -TERM $p; wait $p) 2>/dev/null",
                             q(root), q(d .. "/a/b/c")))
    assert.is_nil(F.stat(d .. "/a", false), "the interrupted run left " .. d .. "/a")
    assert.are.equal("dir", F.stat(d, false).kind)
    -- a folder that was there before stays, even empty
    assert(os.execute("mkdir " .. q(d .. "/a")) == 0)
    os.execute(string.format("cd %s && (luajit scenarios/cs-table2.2.lua --out %s omega=1e8 H=1/2560 & p=$!; sleep 1.5; kill -TERM $p; wait $p) 2>/dev/null",
                             q(root), q(d .. "/a/b")))
    assert.are.equal("dir", F.stat(d .. "/a", false).kind)
    assert.is_nil(F.stat(d .. "/a/b", false))
    T.rmdir(d)
  end)

  it("a staging folder of a dead process is removed only when its marker names its own identity", function()
    local d = T.tmpdir()
    -- a look-alike made by someone else (no marker), and one with a marker copied from elsewhere
    assert(os.execute(string.format("mkdir -p %s %s && echo mine > %s && echo 'kapitza staging folder 1 2' > %s",
      q(d .. "/.kz-stage-cs-table2.2-999999"), q(d .. "/.kz-stage-cs-table2.2-999998"),
      q(d .. "/.kz-stage-cs-table2.2-999999/user-file"), q(d .. "/.kz-stage-cs-table2.2-999998/.kz-stage"))) == 0)
    local st, _, err = T.run("luajit scenarios/cs-table2.2.lua --quick --out " .. q(d))
    assert.are.equal(0, st, err)
    assert.truthy(F.read(d .. "/.kz-stage-cs-table2.2-999999/user-file"))
    assert.are.equal("dir", F.stat(d .. "/.kz-stage-cs-table2.2-999998", false).kind)
    -- a real stale stage (made by a run, then its process killed) is removed by the next run
    os.execute(string.format("cd %s && (luajit scenarios/cs-table2.2.lua --out %s omega=1e8 H=1/2560 & p=$!; sleep 1.5; kill -9 $p; wait $p) 2>/dev/null", q(root), q(d)))
    local n0 = 0
    for _, e in ipairs(F.entries(d)) do if e.name:match("^%.kz%-stage%-cs%-table2%.2%-%d+$") then n0 = n0 + 1 end end
    T.run("luajit scenarios/cs-table2.2.lua --quick --out " .. q(d))
    local n1 = 0
    for _, e in ipairs(F.entries(d)) do if e.name:match("^%.kz%-stage%-cs%-table2%.2%-%d+$") then n1 = n1 + 1 end end
    assert.are.equal(2, n1, "the two look-alikes stay, the killed run's stage goes (before: " .. n0 .. ")")
    T.rmdir(d)
  end)

  it("files.remove_tree removes a folder only while it is the one recorded, and never follows a link in it", function()
    local d = T.tmpdir()
    assert(os.execute(string.format("mkdir -p %s %s && echo x > %s && ln -s %s %s", q(d .. "/t/sub"), q(d .. "/outside"),
      q(d .. "/outside/keep"), q(d .. "/outside"), q(d .. "/t/sub/link"))) == 0)
    local id = F.identity(d .. "/t")
    -- replaced by another folder of the same name: refused
    assert(os.execute(string.format("mv %s %s && mkdir %s", q(d .. "/t"), q(d .. "/t2"), q(d .. "/t"))) == 0)
    assert.is_nil((F.remove_tree(id)))
    assert.are.equal("dir", F.stat(d .. "/t", false).kind)
    assert(os.execute(string.format("rmdir %s && mv %s %s", q(d .. "/t"), q(d .. "/t2"), q(d .. "/t"))) == 0)
    assert.is_true(F.remove_tree(id))
    assert.is_nil(F.stat(d .. "/t", false))
    assert.truthy(F.read(d .. "/outside/keep"))
    T.rmdir(d)
  end)
end)
