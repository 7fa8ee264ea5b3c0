-- sweep_cluster_spec.lua -- sweeps on a real cluster (issue 29, item 4): a one-node Slurm started
-- here (munged, slurmctld and slurmd from a configuration generated in a temporary folder, run as
-- daemons with pid files, SLURM_CONF pointing to it; MaxArraySize 5) and GNU parallel over ssh to
-- an sshd started here (a generated host key, a key for root, a port of its own). Every command of
-- the README's section "Sweeps beyond one machine" is run, with its folders /shared/sw and
-- /shared/grid made temporary ones and its hosts host1, host2 this machine:
--  * a scenario sweep of 6 points (more than MaxArraySize: two arrays) submitted through the
--    written batch script, one task cancelled while held: status and merge name it, the rerun
--    line status prints completes it, the merge (also as a Slurm job after the arrays, by
--    --dependency=singleton) equals a single run, every file byte for byte and the data at
--    relative tolerance 0;
--  * an ensemble grid in 3 shards as array tasks: the merged file and figure equal the one call's;
--  * the scenario sweep over ssh with GNU parallel: the same.
-- The daemons this spec started are stopped by their pids (teardown, whatever happened). Without
-- root, Slurm, munge, GNU parallel or sshd the part that needs them is skipped, saying why.
local U = require "testutil"
local F = require "kapitza.files"
local ffi = require "ffi"

local q = U.q -- shell quoting
local function read(p) return F.read(p) end
local function sleep(s) os.execute("sleep " .. s) end

local PATH = "PATH=/usr/sbin:/sbin:$PATH"
local function have(cmd) return U.run(PATH .. " command -v " .. cmd .. " >/dev/null") == 0 end
local is_root = U.run("test \"$(id -u)\" = 0") == 0
local function missing(cmds)
  local t = {}
  for _, c in ipairs(cmds) do if not have(c) then t[#t + 1] = c end end
  return #t > 0 and table.concat(t, ", ") or nil
end
local slurm_missing = missing { "munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel", "sinfo" }
local ssh_missing = missing { "sshd", "ssh", "ssh-keygen", "parallel" }

-- Two free TCP ports on 127.0.0.1 (bound to port 0, read back, closed).
pcall(ffi.cdef, [[
struct kzt_sockaddr_in { uint16_t family; uint16_t port; uint32_t addr; uint8_t zero[8]; };
int kzt_socket(int domain, int type, int protocol) __asm__("socket");
int kzt_bind(int fd, const struct kzt_sockaddr_in *a, uint32_t len) __asm__("bind");
int kzt_getsockname(int fd, struct kzt_sockaddr_in *a, uint32_t *len) __asm__("getsockname");
int kzt_close(int fd) __asm__("close");
]])
local function free_ports(n)
  local fds, ports = {}, {}
  for i = 1, n do
    local fd = ffi.C.kzt_socket(2, 1, 0)
    local a = ffi.new("struct kzt_sockaddr_in", { family = 2, port = 0, addr = 0x0100007f })
    assert(fd >= 0 and ffi.C.kzt_bind(fd, a, ffi.sizeof(a)) == 0, "cannot bind a socket")
    local len = ffi.new("uint32_t[1]", ffi.sizeof(a))
    ffi.C.kzt_getsockname(fd, a, len)
    ports[i] = bit.bor(bit.lshift(bit.band(a.port, 0xff), 8), bit.rshift(a.port, 8))
    fds[i] = fd
  end
  for _, fd in ipairs(fds) do ffi.C.kzt_close(fd) end
  return ports
end

-- The commands of the README's section "Sweeps beyond one machine" (its indented lines, without
-- the comments after two spaces and #), in order.
local function readme_commands()
  local text = assert(read(U.root .. "/README.md"))
  local sec = (text .. "\n## "):match("\n### Sweeps beyond one machine\n(.-)\n##? ")
  assert(sec, "README.md has no section 'Sweeps beyond one machine'")
  local cmds = {}
  for line in sec:gmatch("[^\n]+") do
    local c = line:match("^    (%S.*)$")
    if c then cmds[#cmds + 1] = (c:gsub("%s%s+#.*$", "")) end
  end
  return cmds
end

local function alive(pid)
  local s = read("/proc/" .. pid .. "/stat")
  return s ~= nil and not s:match("^%d+ %b() Z")
end

describe("sweeps on a cluster", function()
  local T, env, pids, out = nil, "", {}, {}
  local cmds = readme_commands()
  local sw, grid -- the README's /shared/sw and /shared/grid
  -- the README's folders as this spec's (quoted: they hold a space)
  local function sub(c, g)
    return (c:gsub("/shared/sw", function() return q(sw) end):gsub("/shared/grid", function() return q(g or grid) end))
  end
  local function readme(pattern)
    for _, c in ipairs(cmds) do if c:find(pattern, 1, true) then return sub(c) end end
    error("the README's section has no command with " .. pattern)
  end
  local ran = {}
  local function run(cmd, what)
    for i, c in ipairs(cmds) do -- (a README line run as it is, or with further options at its end)
      if sub(c) == cmd or cmd:sub(1, #sub(c) + 1) == sub(c) .. " " then ran[i] = true end
    end
    local st, o, e = U.run(env .. " " .. cmd)
    out[#out + 1] = string.format("$ %s\n-> %d\n%s%s", cmd, st, o, e)
    return st, o, e
  end
  local function logs()
    local t = {}
    for _, f in ipairs { "slurmctld.log", "slurmd.log", "munged.log" } do
      local s = T and read(T .. "/" .. f) or ""
      t[#t + 1] = "== " .. f .. " (end)\n" .. s:sub(-1500)
    end
    return table.concat(out, "\n"):sub(-3000) .. "\n" .. table.concat(t, "\n")
  end
  -- wait until `squeue -h -n NAME` (the README's line) prints nothing
  local function wait_empty(cmd, secs)
    local t0 = os.time()
    while os.time() - t0 < secs do
      local st, o = run(cmd)
      if st == 0 and o == "" then return true end
      sleep(0.5)
    end
    error("the jobs did not end within " .. secs .. " s\n" .. logs(), 0)
  end
  local function same_files(a, b)
    local n = 0
    for _, subd in ipairs { "data", "tables", "figures" } do
      for _, f in ipairs(F.tree(b .. "/" .. subd) or {}) do
        local x, y = read(a .. "/" .. subd .. "/" .. f), read(b .. "/" .. subd .. "/" .. f)
        assert.is_truthy(x, subd .. "/" .. f .. " not merged")
        assert.is_true(x == y, subd .. "/" .. f .. " differs from the single run")
        n = n + 1
      end
      for _, f in ipairs(F.tree(a .. "/" .. subd) or {}) do
        assert.is_truthy(read(b .. "/" .. subd .. "/" .. f), subd .. "/" .. f .. " is not a file of the single run")
      end
    end
    return n
  end

  -- the daemons start with the first case that needs them (not in setup: busted runs setup also
  -- when a tag filter, make check's #asan pass, selects none of the cases)
  local started, tried, why_not, start_err = false, false, nil, nil
  local start_daemons
  local function start()
    if tried then
      if start_err then error(start_err, 0) end
      return started
    end
    tried = true
    local ok, r = pcall(start_daemons)
    if not ok then start_err = tostring(r); error(start_err, 0) end
    return r
  end
  function start_daemons()
    if not is_root then why_not = "not root (starting munged, slurmctld and slurmd needs root)"; return false end
    if slurm_missing then why_not = "Slurm or munge not installed (" .. slurm_missing .. " missing: apt-get install slurm-wlm munge)"; return false end
    T = U.tmpdir()
    os.execute("chmod 755 " .. q(T))
    local host = (read("/proc/sys/kernel/hostname") or "localhost"):gsub("%s+$", "")
    local ports = free_ports(2)
    local cpus = tonumber((io.popen("nproc"):read("*l"))) or 1
    local conf = table.concat({
      "ClusterName=kztest", string.format("SlurmctldHost=%s(127.0.0.1)", host), "SlurmUser=root", "SlurmdUser=root",
      "SlurmctldPort=" .. ports[1], "SlurmdPort=" .. ports[2], "AuthType=auth/munge", "CredType=cred/munge",
      "AuthInfo=socket=" .. T .. "/munge.sock", "StateSaveLocation=" .. T .. "/state", "SlurmdSpoolDir=" .. T .. "/spool",
      "SlurmctldPidFile=" .. T .. "/slurmctld.pid", "SlurmdPidFile=" .. T .. "/slurmd.pid",
      "SlurmctldLogFile=" .. T .. "/slurmctld.log", "SlurmdLogFile=" .. T .. "/slurmd.log",
      "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none", "SchedulerType=sched/builtin",
      "SelectType=select/cons_tres", "SelectTypeParameters=CR_CPU", "MaxArraySize=5", "JobCompType=jobcomp/none",
      "AccountingStorageType=accounting_storage/none", "JobAcctGatherType=jobacct_gather/none", "MpiDefault=none",
      "ReturnToService=2", "SlurmctldTimeout=30", "SlurmdTimeout=30", "InactiveLimit=0", "MinJobAge=300", "KillWait=5",
      string.format("NodeName=%s NodeAddr=127.0.0.1 CPUs=%d RealMemory=500 State=UNKNOWN", host, cpus),
      string.format("PartitionName=kz Nodes=%s Default=YES MaxTime=INFINITE State=UP", host),
    }, "\n") .. "\n"
    assert(F.write_atomic(T .. "/slurm.conf", conf))
    assert(U.run(string.format("mkdir -p %s/state %s/spool && dd if=/dev/urandom of=%s/munge.key bs=1024 count=1 2>/dev/null && chmod 400 %s/munge.key",
                               q(T), q(T), q(T), q(T))) == 0)
    env = string.format("%s SLURM_CONF=%s", PATH, q(T .. "/slurm.conf"))
    local function daemon(name, cmd)
      local st, _, e = U.run(cmd)
      for _ = 1, 100 do
        local p = tonumber((read(T .. "/" .. name .. ".pid") or ""):match("%d+") or "")
        if p and alive(p) then pids[#pids + 1] = p; return end
        sleep(0.1)
      end
      error(string.format("%s did not start (exit %d): %s\n%s", name, st, e, logs()), 0)
    end
    daemon("munged", string.format("%s munged --force --key-file=%s --socket=%s --pid-file=%s --log-file=%s --seed-file=%s", PATH,
                                   q(T .. "/munge.key"), q(T .. "/munge.sock"), q(T .. "/munged.pid"), q(T .. "/munged.log"), q(T .. "/munged.seed")))
    daemon("slurmctld", env .. " slurmctld -c")
    daemon("slurmd", env .. " slurmd")
    local t0 = os.time()
    while true do
      local _, o = U.run(env .. " sinfo -h -o %T")
      if o:match("idle") then break end
      if os.time() - t0 > 60 then error("the node did not become idle: " .. o .. "\n" .. logs(), 0) end
      sleep(0.3)
    end
    started = true
    sw, grid = T .. "/shared sw", T .. "/shared-grid" -- (a space in a path: quoting all the way)
    return true
  end

  teardown(function()
    if started then U.run(env .. " scancel --user=root") end
    for i = #pids, 1, -1 do -- stop what this spec started, by pid, last started first
      local p = pids[i]
      os.execute("kill -TERM " .. p .. " 2>/dev/null")
      for _ = 1, 100 do
        if not alive(p) then break end
        sleep(0.1)
      end
      if alive(p) then os.execute("kill -KILL " .. p .. " 2>/dev/null") end
    end
    U.rmdir(T)
  end)

  it("a scenario sweep of more points than MaxArraySize: submitted, one task cancelled, rerun, merged = one run", function()
    if not start() then pending(why_not); return end
    local st, o, e = run(readme("sweep.lua emit cs-table2.2"))
    assert.are.equal(0, st, e)
    assert.matches("MaxArraySize 5 from scontrol show config", e)
    local submit = assert(read(sw .. "/submit.sh"))
    assert.matches("%-%-array=1%-4 \"%$@\" '[^']*/slurm%.sh' 0%)\n", submit) -- 6 points: arrays of at most 4
    assert.matches("%-%-array=1%-2 \"%$@\" '[^']*/slurm%.sh' 4%)\n", submit)
    -- held, so that point 2 is cancelled before it runs; then released
    st, o, e = run(readme("submit.sh") .. " --hold")
    assert.are.equal(0, st, e .. logs())
    local ids = {}
    for id in o:gmatch("%d+") do ids[#ids + 1] = id end
    assert.are.equal(2, #ids, o)
    assert.are.equal(0, (run("scancel " .. ids[1] .. "_2")), logs())
    for _, id in ipairs(ids) do assert.are.equal(0, (run("scontrol release " .. id)), logs()) end
    wait_empty(readme("squeue -h -n kz-cs-table2.2"), 180)
    st, o = run(readme("sweep.lua status"))
    assert.are.equal(1, st, o .. logs())
    assert.matches("5 done, 0 failed, 0 unfinished, 1 missing", o)
    assert.matches("point 0002 %(omega=1e4 H=1/20%): missing: not run", o)
    assert.matches("sbatch %-%-array=2 '[^']*/slurm%.sh' 0\n", o)
    st, _, e = run(readme("sweep.lua merge"))
    assert.are.equal(2, st, e)
    assert.matches("point 0002 %(omega=1e4 H=1/20%): missing", e)
    -- the README's rerun line (the one status printed, but for the quoting), then the merge as a job after it
    st, _, e = run(readme("sbatch --array=2"))
    assert.are.equal(0, st, e .. logs())
    st, _, e = run(readme("--dependency=singleton"))
    assert.are.equal(0, st, e .. logs())
    wait_empty(readme("squeue -h -n kz-cs-table2.2"), 180)
    assert.matches("sweep: merged 6 points of cs%-table2%.2", read(sw .. "/logs/merge.out") or "", 1, false)
    assert.matches("point 0002 %(omega=1e4 H=1/20%) on [^\n]*Slurm job", read(sw .. "/logs/0002.log") or "")
    st, o = run(readme("sweep.lua status"))
    assert.are.equal(0, st, o)
    st, _, e = run(readme("sweep.lua merge"))
    assert.are.equal(0, st, e)
    local one = T .. "/one"
    st, _, e = run(string.format("KZ_QUIET=1 luajit scenarios/cs-table2.2.lua --out %s omega=1e4,1e6 H=1/10,1/20,1/40 periods=20", q(one)))
    assert.are.equal(0, st, e)
    assert.are.equal(6, same_files(sw, one))
    st, o = run(string.format("luajit scripts/compare.lua %s %s 0 --only cs-table2.2", q(sw), q(one)))
    assert.are.equal(0, st, o)
  end)

  it("an ensemble grid in 3 shards as array tasks: merged, the one call's file and figure", function()
    if not start() then pending(why_not); return end
    local st, _, e = run(readme("sweep.lua ensemble"))
    assert.are.equal(0, st, e)
    st, _, e = run(readme("sh /shared/grid/submit.sh"))
    assert.are.equal(0, st, e .. logs())
    wait_empty(readme("squeue -h -n kz-sweep-forced_pendulum2d"), 180)
    st, _, e = run(readme("sweep.lua merge /shared/grid"))
    assert.are.equal(0, st, e .. logs())
    local one = T .. "/grid-one"
    local call
    for _, c in ipairs(cmds) do if c:find("sweep.lua ensemble", 1, true) then call = sub(c, one):gsub(" %-%-shards 3$", "") end end
    st, _, e = run(call)
    assert.are.equal(0, st, e)
    assert.are.equal(2, same_files(grid, one))
  end)

  it("GNU parallel over ssh (a local sshd): the scenario sweep merged = one run", function()
    if not start() then pending(why_not); return end
    if ssh_missing then pending("ssh or GNU parallel not installed (" .. ssh_missing .. " missing: apt-get install openssh-server openssh-client parallel)"); return end
    local made_run = false
    if not F.is_dir("/run/sshd") then made_run = F.mkdir("/run/sshd") end -- (sshd's privilege separation folder)
    local port = free_ports(1)[1]
    assert(U.run(string.format("ssh-keygen -q -t ed25519 -N '' -f %s && ssh-keygen -q -t ed25519 -N '' -f %s && cp %s %s",
                               q(T .. "/hostkey"), q(T .. "/id"), q(T .. "/id.pub"), q(T .. "/authorized_keys"))) == 0)
    assert(F.write_atomic(T .. "/sshd_config", table.concat({ "Port " .. port, "ListenAddress 127.0.0.1", "HostKey " .. T .. "/hostkey",
      "PidFile " .. T .. "/sshd.pid", "AuthorizedKeysFile " .. T .. "/authorized_keys", "StrictModes no", "UsePAM no",
      "PasswordAuthentication no", "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password", "LogLevel ERROR" }, "\n") .. "\n"))
    assert(F.write_atomic(T .. "/ssh_config", table.concat({ "Host host1 host2", "  HostName 127.0.0.1", "  Port " .. port, "  User root",
      "  IdentityFile " .. T .. "/id", "  IdentitiesOnly yes", "  StrictHostKeyChecking no", "  UserKnownHostsFile " .. T .. "/known_hosts",
      "  BatchMode yes", "  LogLevel ERROR" }, "\n") .. "\n"))
    -- the hosts host1, host2 of the README's line: an ssh on the PATH that reads this configuration
    assert(F.write_atomic(T .. "/bin/ssh", string.format("#!/bin/sh\nexec /usr/bin/ssh -F %s \"$@\"\n", q(T .. "/ssh_config"))))
    os.execute("chmod 755 " .. q(T .. "/bin/ssh"))
    local st, _, e = U.run("/usr/sbin/sshd -f " .. q(T .. "/sshd_config"))
    local pid
    for _ = 1, 50 do
      pid = tonumber((read(T .. "/sshd.pid") or ""):match("%d+") or "")
      if pid and alive(pid) then break end
      sleep(0.1)
    end
    if not (pid and alive(pid)) then
      if made_run then os.remove("/run/sshd") end
      pending("sshd did not start (exit " .. st .. "): " .. e)
      return
    end
    pids[#pids + 1] = pid
    local ok, err = pcall(function()
      local oldenv = env
      env = "PATH=" .. q(T .. "/bin") .. ":$PATH " .. env
      st, _, e = run("ssh host1 true")
      assert.are.equal(0, st, "ssh to the local sshd: " .. e)
      sw = T .. "/shared sw2"
      st, _, e = run(readme("sweep.lua emit cs-table2.2"))
      assert.are.equal(0, st, e)
      st, _, e = run(readme("parallel --sshlogin"))
      assert.are.equal(0, st, e)
      st, _, e = run(readme("sweep.lua merge"))
      assert.are.equal(0, st, e)
      assert.are.equal(6, same_files(sw, T .. "/one"))
      env = oldenv
    end)
    if made_run then os.remove("/run/sshd") end
    assert(ok, err)
  end)

  it("every command of the README's section ran", function()
    if not start() then pending(why_not); return end
    local left = {}
    for i, c in ipairs(cmds) do
      if not ran[i] and not (ssh_missing and c:match("^parallel")) then left[#left + 1] = c end
    end
    assert.are.same({}, left)
  end)
end)
