-- layout.lua -- the dependency graph of the C files, read from the built objects' symbol tables.
--   luajit scripts/layout.lua            print every edge "a.c -> b.c: symbols" and every circle
-- File A depends on file B when A's object has an undefined global symbol that B's object defines
-- (nm -P). The files are the library's (lib/FOLDER/kz_*.c, objects build/obj/FOLDER/*.o from `make`) and the peers'
-- (scripts/peers/*.c, compiled here into a temporary directory with every backend switched on, so
-- that the dispatcher names each backend; a backend whose library headers are missing is left out
-- and named). A circle is a strongly connected set of two or more files; one shortest cycle through
-- it is printed with the symbols on its edges. Exit status: 0 without a circle, 1 with one, 2 when
-- an object is missing (run make first). Also a module for tests/layout_spec.lua.
local M = {}

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function lines(cmd)
  local p = assert(io.popen(cmd))
  local t = {}
  for l in p:lines() do t[#t + 1] = l end
  p:close()
  return t
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

--- The library's units: { src = "lib/DIR/kz_x.c", obj = ROOT/build/obj/DIR/kz_x.o } for every
-- lib/DIR/kz_*.c (the Makefile's SRC and OBJ; a model's own source lib/models/<name>.c is part of
-- the adapter kz_<name>.c that includes it); missing: the objects not built.
function M.library_units(root)
  local units, missing = {}, {}
  for _, path in ipairs(lines("ls " .. q(root) .. "/lib/*/kz_*.c 2>/dev/null")) do
    local name = path:match("/lib/([^/]+/[^/]+)%.c$")
    local u = { src = "lib/" .. name .. ".c", obj = root .. "/build/obj/" .. name .. ".o" }
    units[#units + 1] = u
    if not exists(u.obj) then missing[#missing + 1] = u.obj end
  end
  return units, missing
end

--- The peers' units, compiled into dir with every backend on: units and the files left out
-- ({ src, why }: a library header not installed). A compile error of another kind is raised.
function M.peer_units(root, dir)
  local units, skipped = {}, {}
  for _, path in ipairs(lines("ls " .. q(root) .. "/scripts/peers/*.c 2>/dev/null")) do
    local name = path:match("([^/]+)%.c$")
    local obj, err = dir .. "/" .. name .. ".o", dir .. "/" .. name .. ".err"
    local cmd = string.format("cc -std=c11 -D_DEFAULT_SOURCE -O2 -fPIC -I%s -DKZP_HAVE_GSL -DKZP_HAVE_SUNDIALS -c %s -o %s 2>%s",
                              q(root .. "/lib/include"), q(path), q(obj), q(err))
    local ok = os.execute(cmd)
    local src = "scripts/peers/" .. name .. ".c"
    if ok == 0 or ok == true then
      units[#units + 1] = { src = src, obj = obj }
    else
      local f = io.open(err, "rb")
      local msg = f and f:read("*a") or ""
      if f then f:close() end
      local header = msg:match("fatal error: ([^:]+): No such file or directory")
      if not header then error("layout: " .. src .. " does not compile:\n" .. msg) end
      skipped[#skipped + 1] = { src = src, why = header .. " not installed" }
    end
  end
  return units, skipped
end

--- The graph of units: nodes (sources, sorted) and edges[a][b] = sorted symbols a takes from b.
function M.graph(units)
  local by_obj, nodes = {}, {}
  local args = {}
  for _, u in ipairs(units) do
    by_obj[u.obj] = u.src
    nodes[#nodes + 1] = u.src
    args[#args + 1] = q(u.obj)
  end
  table.sort(nodes)
  local def, undef = {}, {}
  if #args > 0 then
    for _, l in ipairs(lines("nm -A -P " .. table.concat(args, " "))) do
      local obj, sym, ty = l:match("^(.-): (%S+) (%a)")
      local src = obj and by_obj[obj]
      if src then
        if ty == "U" then
          undef[src] = undef[src] or {}
          undef[src][sym] = true
        elseif ty:match("%u") or ty == "i" or ty == "u" then -- global (and GNU ifunc / unique)
          def[sym] = def[sym] or src
        end
      end
    end
  end
  local edges = {}
  for a, syms in pairs(undef) do
    for sym in pairs(syms) do
      local b = def[sym]
      if b and b ~= a then
        edges[a] = edges[a] or {}
        edges[a][b] = edges[a][b] or {}
        table.insert(edges[a][b], sym)
      end
    end
  end
  for _, out in pairs(edges) do for _, syms in pairs(out) do table.sort(syms) end end
  return { nodes = nodes, edges = edges }
end

local function targets(g, a)
  local t = {}
  for b in pairs(g.edges[a] or {}) do t[#t + 1] = b end
  table.sort(t)
  return t
end

--- The circles of g: strongly connected sets of two or more nodes (Tarjan), each
-- { members = sorted nodes, cycle = { n1, n2, ..., n1 } a shortest cycle through members[1] }.
function M.circles(g)
  local index, low, on, stack, sccs, n = {}, {}, {}, {}, {}, 0
  local function visit(v)
    n = n + 1
    index[v], low[v] = n, n
    stack[#stack + 1], on[v] = v, true
    for _, w in ipairs(targets(g, v)) do
      if not index[w] then
        visit(w)
        low[v] = math.min(low[v], low[w])
      elseif on[w] then
        low[v] = math.min(low[v], index[w])
      end
    end
    if low[v] == index[v] then
      local c = {}
      repeat
        local w = table.remove(stack)
        on[w] = nil
        c[#c + 1] = w
      until w == v
      if #c > 1 then sccs[#sccs + 1] = c end
    end
  end
  for _, v in ipairs(g.nodes) do if not index[v] then visit(v) end end
  local out = {}
  for _, c in ipairs(sccs) do
    table.sort(c)
    local inside = {}
    for _, v in ipairs(c) do inside[v] = true end
    -- breadth-first from members[1] back to itself, inside the set
    local start, prev, queue, found = c[1], {}, { c[1] }, nil
    local head = 1
    while head <= #queue and not found do
      local v = queue[head]
      head = head + 1
      for _, w in ipairs(targets(g, v)) do
        if w == start then found = v break end
        if inside[w] and not prev[w] then prev[w] = v; queue[#queue + 1] = w end
      end
    end
    local cyc = { start }
    local v = found
    while v ~= start do table.insert(cyc, 2, v); v = prev[v] end
    cyc[#cyc + 1] = start
    out[#out + 1] = { members = c, cycle = cyc }
  end
  table.sort(out, function(a, b) return a.members[1] < b.members[1] end)
  return out
end

--- One circle as text: its members, one shortest cycle, and every edge inside it with the symbols.
function M.describe(g, c)
  local t = { string.format("circle of %d files: %s", #c.members, table.concat(c.members, ", ")),
              "  cycle: " .. table.concat(c.cycle, " -> ") }
  local inside = {}
  for _, v in ipairs(c.members) do inside[v] = true end
  for _, a in ipairs(c.members) do
    for _, b in ipairs(targets(g, a)) do
      if inside[b] then t[#t + 1] = string.format("  %s -> %s: %s", a, b, table.concat(g.edges[a][b], ", ")) end
    end
  end
  return table.concat(t, "\n")
end

--- The whole C graph of the repository at root (library and peers); tmp: a directory for the
-- peers' objects. Returns the graph, the peers left out, the library objects missing.
function M.repository(root, tmp)
  local lib, missing = M.library_units(root)
  local peers, skipped = M.peer_units(root, tmp)
  for _, u in ipairs(peers) do lib[#lib + 1] = u end
  if #missing > 0 then return nil, skipped, missing end
  return M.graph(lib), skipped, missing
end

if arg and arg[0] and arg[0]:match("layout%.lua$") then
  local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.."
  local tmp = lines("mktemp -d")[1]
  local g, skipped, missing = M.repository(root, tmp)
  os.execute("rm -rf " .. q(tmp))
  if not g then
    io.stderr:write("layout: objects not built (run make): " .. table.concat(missing, " ") .. "\n")
    os.exit(2)
  end
  for _, s in ipairs(skipped) do print("left out: " .. s.src .. " (" .. s.why .. ")") end
  for _, a in ipairs(g.nodes) do
    for _, b in ipairs(targets(g, a)) do print(a .. " -> " .. b .. ": " .. table.concat(g.edges[a][b], ", ")) end
  end
  local cs = M.circles(g)
  for _, c in ipairs(cs) do print(M.describe(g, c)) end
  print(string.format("%d files, %d circles", #g.nodes, #cs))
  os.exit(#cs == 0 and 0 or 1)
end

return M
