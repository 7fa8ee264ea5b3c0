-- Any list length a result can be computed from (issue 21, item 4), generated for every scenario:
-- its list parameters come from `--params` (lib/lua/kapitza/scenario.lua), and each list key is run in
-- --quick, into a fresh --out, with
--   one     the key set to its first value (the --quick list's, else the default's);
--   two     its first two values (the --quick list's, else the default's second value);
--   repeat  its first value twice;
--   empty   'key=' for an optional list (flagged optional: E.optional).
-- Every run must either succeed — exit 0, files written, no staging folder left, and in every
-- claims table a verdict yes/no/partly/n/a with evidence, no 'nan', and no yes/no/partly on
-- nothing ('0 of 0', an empty range 'inf–') — or be refused: exit 2, one line on stderr naming the
-- key and a reason (no traceback, no 'attempt to ...'), nothing written. A repeated value must be
-- refused or merged (a merged run's files have the rows of the one-value run).
--
-- Every run that succeeds is also checked for the structure of its claims (tests/claimcheck.lua:
-- counted evidence, premises, published parameters, texts from values, labels as given).
-- Cost: 117 list keys, about 350 runs, 50–60 s on a quiet machine. Every case runs every time: a
-- subset would let a scenario break on the days it is not drawn. KZ_LISTS_ONLY=<id> runs the
-- keys of one scenario (while fixing it).
local S = require "kapitza.scenario"
local U = require "testutil"
local CC = require "claimcheck"

local params_of = {}
local function params(id)
  params_of[id] = params_of[id] or U.params(id)
  return params_of[id]
end


local q = U.q -- shell quoting

local function split(line, sep)
  local t = {}
  for f in (line .. sep):gmatch("([^" .. sep .. "]*)" .. sep) do t[#t + 1] = f end
  return t
end

-- the list parameters of a scenario: {key, optional, values} in --params order
local function lists(id)
  local t = {}
  for _, p in ipairs(params(id)) do
    if p.list then
      local vals = split(p.quick ~= "" and p.quick or p.default, ",")
      if #vals < 2 then -- a second value from the default list
        for _, v in ipairs(p.default ~= "" and split(p.default, ",") or {}) do
          if v ~= vals[1] then vals[2] = v break end
        end
      end
      t[#t + 1] = { key = p.key, optional = p.optional, values = vals }
    end
  end
  return t
end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

-- rows (non-comment, non-empty lines after the header) of each data/tables TSV file under dir
local function tsv_rows(dir)
  local t = {}
  for _, f in ipairs(U.files(dir)) do
    if f:match("%.tsv$") then
      local n = -1
      for line in (read(dir .. "/" .. f) or ""):gmatch("[^\n]+") do
        if not line:match("^#") then n = n + 1 end
      end
      t[f] = n
    end
  end
  return t
end

-- Run one case; returns nil when it is fine, else what went wrong (one string).
local function case(id, key, arg)
  local tmp = U.tmpdir()
  local out = tmp .. "/out"
  local st, _, err = U.run(string.format("KZ_QUIET=1 timeout 60 luajit scenarios/%s.lua --quick --out %s %s",
                                         id, q(out), q(key .. "=" .. arg)))
  local what = string.format("%s %s=%s: ", id, key, arg)
  local problem, rows
  local files = U.files(out)
  for _, f in ipairs(U.files(tmp)) do
    if f:match("%.kz%-stage%-") then problem = what .. "a staging folder is left: " .. f end
  end
  if problem then
  elseif st == 0 then
    if #files == 0 then problem = what .. "exit 0 and nothing written" end
    for _, c in ipairs(U.claims_tables(out)) do
      local text = read(out .. "/" .. c.file)
      if text:lower():find("%f[%w]nan%f[%W]") or text:find("inf–-inf", 1, true) then
        problem = what .. c.file .. " holds a nan or an empty range: " .. (text:match("[^\n]*[Nn]a[Nn][^\n]*") or text:match("[^\n]*inf–%-inf[^\n]*") or "")
      end
      for _, r in ipairs(c.rows) do
        local v = tostring(r.holds)
        if not (v == "yes" or v == "no" or v == "partly" or v == "n/a") then
          problem = what .. c.file .. " " .. tostring(r.claim) .. ": verdict " .. v
        elseif not tostring(r.reproduced or ""):match("[^%s—]") then
          problem = what .. c.file .. " " .. tostring(r.claim) .. ": a verdict without evidence"
        elseif v ~= "n/a" and (tostring(r.reproduced):find("0 of 0", 1, true) or tostring(r.reproduced):find("inf–", 1, true)) then
          problem = what .. c.file .. " " .. tostring(r.claim) .. ": verdict " .. v .. " on nothing: " .. tostring(r.reproduced)
        end
      end
    end
    if not problem then -- the structure of the claims, at the parameters of this run
      local bad = CC.run(out, CC.effective(params(id), true, { key .. "=" .. arg }))
      if #bad > 0 then problem = what .. (CC.report(bad)) end
    end
    rows = tsv_rows(out)
  elseif st == 2 then
    local lines = split(err:gsub("\n$", ""), "\n")
    if #lines ~= 1 or lines[1] == "" then
      problem = what .. "refused with " .. #lines .. " lines on stderr: " .. err
    elseif not lines[1]:find("%f[%w_]" .. key .. "%f[^%w_]") then
      problem = what .. "the refusal does not name the key: " .. err
    elseif lines[1]:find("attempt to", 1, true) or lines[1]:find("traceback", 1, true) or lines[1]:find("%.lua:%d+:") then
      problem = what .. "a Lua error, not a refusal: " .. err
    elseif #files > 0 then
      problem = what .. "refused but wrote " .. files[1]
    end
  else
    problem = what .. "exit status " .. st .. ": " .. (err:match("[^\n]*%S[^\n]*") or "")
  end
  U.rmdir(tmp)
  return problem, st, rows
end

local scenarios = U.scenarios() -- scenarios/*.lua, not scenarios/examples/

local only = os.getenv("KZ_LISTS_ONLY")

describe("lists: repeats and the --params listing", function()
  it("a value given twice in another spelling (1/10 and 0.1) is refused by the parser, naming the key", function()
    local st, _, err = U.run("luajit scenarios/cs-table2.2.lua --quick --out /tmp/kz-never-lists H=1/10,0.1")
    assert.are.equal(2, st)
    assert.are.equal("cs-table2.2: parameter 'H': the value 0.1 is given twice\n", err)
    assert.is_nil(io.open("/tmp/kz-never-lists/."))
    assert.is_true(S.same(1 / 10, 0.1) and S.same({ 1, "a" }, { 1, "a" }) and not S.same(1, 1 + 1e-9))
  end)

  it("--params lists every parameter, with its kind, range and --quick value", function()
    local by = {}
    for _, p in ipairs(U.params("sam-fig6")) do by[p.key] = p end
    assert.is_true(by.n.list and by.n.integer and not by.n.optional)
    assert.are.equal("4,8,16,32", by.n.default)
    assert.are.equal("4,8,16", by.n.quick)
    assert.is_true(by.order_n.optional)
    assert.is_false(by.H.list)
    assert.are.equal("", by.H.quick)
    assert.are.equal(math.pi / 2500, tonumber(by.H.default))
    local st, out = U.run("luajit scenarios/sam-fig6.lua --params")
    assert.are.equal(0, st)
    local _, lines = out:gsub("\n", "")
    local _, help = select(2, U.run("luajit scenarios/sam-fig6.lua --help")):gsub("\n%s+default: ", "")
    assert.are.equal(help + 1, lines) -- a header and one line per parameter --help lists
  end)
end)

describe("every list key with one value, two, a repeat, and emptied when optional", function()
  for _, id in ipairs(scenarios) do
    for _, k in ipairs((not only or only == id) and lists(id) or {}) do
      it(string.format("%s %s: one value, two, a repeat%s", id, k.key, k.optional and ", emptied" or ""), function()
        local bad = {}
        local v1, v2 = k.values[1], k.values[2]
        local p, st1, rows1 = case(id, k.key, v1)
        bad[#bad + 1] = p
        if v2 then bad[#bad + 1] = (case(id, k.key, v1 .. "," .. v2)) end
        local pr, str, rowsr = case(id, k.key, v1 .. "," .. v1)
        bad[#bad + 1] = pr
        if not pr and str == 0 then -- merged: the files of the one-value run, with its rows
          if st1 ~= 0 then
            bad[#bad + 1] = string.format("%s %s: %s refused, %s,%s accepted", id, k.key, v1, v1, v1)
          else
            for f, n in pairs(rowsr) do
              if rows1[f] ~= n then
                bad[#bad + 1] = string.format("%s %s=%s,%s: %s has %d rows, %s alone %s (a repeat is neither merged nor refused)",
                                              id, k.key, v1, v1, f, n, v1, tostring(rows1[f]))
              end
            end
          end
        end
        if k.optional then bad[#bad + 1] = (case(id, k.key, "")) end
        assert.are.equal(0, #bad, table.concat(bad, "\n"))
      end)
    end
  end
end)
