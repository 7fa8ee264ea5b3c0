-- No circle in the C code (issue 19, item 3): the file graph read from the built objects' symbol
-- tables (scripts/layout.lua: A depends on B when A's object has an undefined global symbol that
-- B's object defines) of the library (build/obj/*.o) and of the peers (scripts/peers/*.c, compiled
-- into a temporary directory with every backend on) has no strongly connected set of two or more
-- files. A circle is printed with the symbols that tie it.
local U = require "testutil"
local L = dofile(U.root .. "/scripts/layout.lua")

describe("layout", function()
  it("finds the circles of a made-up graph, and none where there is none", function()
    local function g(edges)
      local nodes, e = {}, {}
      for a, bs in pairs(edges) do
        nodes[#nodes + 1] = a
        e[a] = {}
        for _, b in ipairs(bs) do e[a][b] = { "f_" .. b } end
      end
      table.sort(nodes)
      return { nodes = nodes, edges = e }
    end
    local cyc = g({ a = { "b" }, b = { "c" }, c = { "a", "d" }, d = {}, e = { "f" }, f = { "e" } })
    local cs = L.circles(cyc)
    assert.are.equal(2, #cs)
    assert.are.same({ "a", "b", "c" }, cs[1].members)
    assert.are.same({ "a", "b", "c", "a" }, cs[1].cycle)
    assert.are.same({ "e", "f", "e" }, cs[2].cycle)
    assert.is_truthy(L.describe(cyc, cs[1]):find("c -> a: f_a", 1, true))
    assert.are.same({}, L.circles(g({ a = { "b", "c" }, b = { "c" }, c = {} })))
  end)

  local tmp = U.tmpdir()
  local graph, skipped, missing = L.repository(U.root, tmp)
  U.rmdir(tmp)
  for _, s in ipairs(skipped) do pending(s.src .. " left out of the graph: " .. s.why) end

  it("reads every library object and the peers' dispatcher", function()
    assert.are.same({}, missing, "run make first")
    -- edges the code is known to have: the symbol tables were read
    assert.is_truthy(graph.edges["lib/methods/kz_hmm_slow.c"]["lib/methods/kz_hmm.c"])
    assert.is_truthy(graph.edges["lib/steppers/kz_step.c"]["lib/steppers/kz_step_verlet.c"])
    assert.is_truthy(graph.edges["scripts/peers/peer_common.c"]["lib/core/kz_core.c"])
  end)

  it("has no circle among the C files", function()
    local cs = L.circles(graph)
    local t = {}
    for _, c in ipairs(cs) do t[#t + 1] = L.describe(graph, c) end
    assert(#cs == 0, "circles in the C code:\n" .. table.concat(t, "\n"))
  end)
end)
