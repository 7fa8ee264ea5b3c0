-- bench-atlas.lua -- the efficiency atlas in CPU seconds, beside the peers (issue 12, item 2).
-- For every problem of lib/lua/kapitza/atlas/problems.lua at its default stiffness values, the same runs as
-- scenarios/atlas-<problem>.lua (every library method over its ladder) and every peer compiled
-- into build/libkzpeers.so (GSL rk8pd, msadams, rk4imp; CVODE Adams, BDF; ARKODE ERK8 and, where
-- the problem has a fast part to split off, MRIStep) at rtol = atol = 1e-2 ... 1e-10, each
-- measured against the same reference by the problem's own error. Timing as in the benchmark
-- rules (lib/lua/kapitza/atlas.lua, A.campaign): one process, the runs of one stiffness interleaved over 3
-- repetitions, medians (runs under 2 ms timed in batches; a run over 0.5 s once; a ladder stops
-- after a run over 1.5 s). CPU seconds are the process's (os.clock) around the call as a user
-- makes it, for the library and the peers alike.
-- Writes DIR/bench/atlas-<problem>.tsv (every run: error, force evaluations, CPU seconds), .md
-- (the cheapest library method and the best peer at each target and stiffness, their ratio in
-- CPU seconds and in force evaluations) and .gpvars (what figures/bench-atlas-<problem>.gp
-- draws: error against CPU seconds). Peers not built are listed as skipped, with the package.
--   luajit scripts/bench-atlas.lua [--out DIR] [--quick] [--only pendulum,kepler,...]
local root = arg[0]:match("^(.*)/scripts/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local A = require "kapitza.atlas"
local AW = require "kapitza.atlas.write"
local AP = require "kapitza.atlas.problems"
local peers = require "kapitza.peers"

local cli = S.bench_args("bench-atlas", arg, root, { quick = true, only = true })
local out, quick, only = cli.out, cli.quick, cli.only

local order = { "pendulum", "ste", "kepler", "vdp", "fpu", "ring", "top", "dpend" }
local tols = quick and { 1e-3, 1e-6, 1e-9 } or { 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10 }
local reps, budget = quick and 1 or 3, quick and 0.5 or 1.5
local available, skipped = {}, {}
for _, n in ipairs(peers.names) do
  if peers.available(n) then available[#available + 1] = n else skipped[#skipped + 1] = n .. ": " .. peers.why(n) end
end
for _, s in ipairs(skipped) do io.stderr:write("bench-atlas: skipped " .. s .. "\n") end

local function finite(x) return type(x) == "number" and x == x and x < math.huge end

-- The peers' runs at one stiffness as campaign entries.
local function peer_entries(ctx, notes)
  local t = {}
  for _, n in ipairs(available) do
    if n == "arkode-mri" and not ctx.peer.fast then
      notes[n] = "n/a: the problem has no fast part written as a system of its own to split off"
    else
      for k, tol in ipairs(tols) do
        t[#t + 1] = { group = n, run = function()
          -- MRIStep (SUNDIALS 6) has no slow-step control: slow step period / 2^(k-1), whole in [0, t1]
          local H = ctx.period / 2 ^ (k - 1)
          local r, msg = peers.integrate(n, ctx.peer.sys, 0, ctx.peer.y0, ctx.peer.t1, tol, { fast = ctx.peer.fast, H = H })
          if not r then return nil, msg end
          local e = ctx.peer.err(r.y)
          if not finite(e) then return nil, string.format("%s at tol %g: non-finite error", n, tol) end
          return { method = n, family = "peer", knob = "tol", x = tol, x2 = 0, status = "ok", error = e,
                   force_evals = r.rhs_evals, micro_steps = r.steps, newton_iters = r.jac_evals }
        end }
      end
    end
  end
  return t
end

local columns = { "si", "stiffness", "method", "family", "knob", "x", "x2", "status", "error", "force_evals", "micro_steps",
                  "newton_iters", "seconds", "front", "env" }

-- The cheapest library method and the best peer at target e, stiffness si, by `key`.
local function best_of(rows, si, e, methods, key)
  local lib, peer
  for _, r in ipairs(A.ranking(rows, si, e, methods, key)) do
    if r.family == "peer" then peer = peer or r else lib = lib or r end
  end
  return lib, peer
end

local function bench(key)
  local prob = AP[key]
  local P = {}
  for _, p in ipairs(A.params(prob, A.names(prob))) do P[p[1]] = p[2] end
  if quick then for k, v in pairs(prob.quick or {}) do P[k] = v end end
  P.methods = nil
  local methods = A.catalogue(prob, P)
  local st = prob.stiff
  local show = st.show or function(s) return string.format("%g", s) end
  local rows, failed, notes = {}, {}, {}
  local t0 = os.clock()
  for si, s in ipairs(P[st.key]) do
    local ctx = prob.setup(P, s)
    local entries = A.entries(ctx, methods)
    for _, e in ipairs(peer_entries(ctx, notes)) do entries[#entries + 1] = e end
    local list, fails = A.campaign(entries, { reps = reps, budget = budget })
    for _, r in ipairs(list) do r.si, r.stiffness = si, s; rows[#rows + 1] = r end
    for _, f in ipairs(fails) do failed[#failed + 1] = string.format("%s = %s: %s", st.key, show(s), f) end
    io.stderr:write(string.format("bench-atlas: %s %s = %s: %d runs, %.1f s so far\n", key, st.key, show(s), #list, os.clock() - t0))
  end
  -- every curve: the library's methods, then the peers that ran
  local all = {}
  for _, m in ipairs(methods) do all[#all + 1] = m end
  local ran = {}
  for _, r in ipairs(rows) do if r.family == "peer" then ran[r.method] = true end end
  for _, n in ipairs(available) do if ran[n] then all[#all + 1] = { name = n, family = "peer" } end end
  -- the work ratio (force evaluations) first, then the curves by CPU seconds (written)
  A.mark_fronts(rows, "force_evals")
  local work = {}
  for k, e in ipairs(P.target) do
    work[k] = {}
    for si in ipairs(P[st.key]) do
      local lib, peer = best_of(rows, si, e, all, "force_evals")
      work[k][si] = { lib = lib, peer = peer }
    end
  end
  A.mark_fronts(rows, "seconds")
  rows = A.order(rows, all)
  local head = { "bench-atlas " .. key .. ": " .. prob.title .. "; error = " .. prob.error_what,
    string.format("CPU seconds: median of %d interleaved runs in one process (one run when over 0.5 s); peers at rtol = atol = tol", reps),
    "force_evals: the library's count, or the peer's field evaluations (finite-difference Jacobians included); " ..
    "newton_iters: Jacobian evaluations for the peers; front/env: the curves by CPU seconds (lib/lua/kapitza/atlas.lua)" }
  S.write_atomic(out .. "/bench/atlas-" .. key .. ".tsv", S.tsv(columns, rows, head))
  -- the summary
  local md = { string.format("#### %s: CPU seconds and the peers (`make bench`)\n", prob.title),
    string.format("The runs of the scenario and every peer at rtol = atol = %s … %s, timed in one process (median of %d " ..
      "interleaved runs; a ladder stops after a run over %g s). For each target error and %s: the cheapest library " ..
      "method and the best peer in CPU seconds (log-log interpolation along each curve; ≤ : an upper bound, the " ..
      "cheapest run was already more accurate), the peer's time over the library's (above 1: the library is faster), " ..
      "and the same ratio in force evaluations for the methods cheapest in those. Every run: `bench/atlas-%s.tsv`.\n",
      S.sci(tols[1], 0 + 1), S.sci(tols[#tols], 0 + 1), reps, budget, st.label, key) }
  local trow = {}
  for k, e in ipairs(P.target) do
    local body = {}
    for si, s in ipairs(P[st.key]) do
      local lib, peer = best_of(rows, si, e, all, "seconds")
      local w = work[k][si]
      local function cell(r) return r and string.format("%s %s", r.method, A.cost_str(r.work, r.bound)) or "–" end
      body[#body + 1] = { show(s), cell(lib), cell(peer), (lib and peer) and string.format("%.3g", peer.work / lib.work) or "–",
                          cell(w.lib), cell(w.peer), (w.lib and w.peer) and string.format("%.3g", w.peer.work / w.lib.work) or "–" }
      trow[#trow + 1] = { target = e, si = si, stiffness = s, lib = lib and lib.method or "-", lib_seconds = lib and lib.work or 0,
                          peer = peer and peer.method or "-", peer_seconds = peer and peer.work or 0 }
    end
    md[#md + 1] = string.format("\nTarget error %s:\n", S.sci(e, 2))
    md[#md + 1] = S.md_table({ st.label, "cheapest library method [CPU s]", "best peer [CPU s]", "peer / library",
                               "cheapest library method [force evals]", "best peer [force evals]", "peer / library" }, body)
  end
  if #skipped > 0 then md[#md + 1] = "\nSkipped peers: " .. table.concat(skipped, "; ") .. ".\n" end
  local nn = {}
  for n, why in pairs(notes) do nn[#nn + 1] = n .. " " .. why end
  table.sort(nn)
  if #nn > 0 then md[#md + 1] = "\nNot run: " .. table.concat(nn, "; ") .. ".\n" end
  if #failed > 0 then
    md[#md + 1] = string.format("\n%d runs stopped without a finite error (left out; first: %s).\n", #failed, failed[1])
  end
  S.write_atomic(out .. "/bench/atlas-" .. key .. ".md", table.concat(md, "\n"))
  -- what figures/bench-atlas-<key>.gp draws
  local cols, pts, dts = AW.styles(all)
  local names = {}
  for j, m in ipairs(all) do names[j] = m.name end
  local xlo, xhi = AW.range(rows, "seconds")
  local ylo, yhi = AW.error_range(rows, P.target)
  local v = { string.format("datafile = '%s/bench/atlas-%s.tsv'", out, key), "methods = '" .. table.concat(names, " ") .. "'",
              "colours = '" .. table.concat(cols, " ") .. "'", "pts = '" .. table.concat(pts, " ") .. "'",
              "dts = '" .. table.concat(dts, " ") .. "'", "nstiff = " .. #P[st.key], "ntargets = " .. #P.target,
              "xcol = 'seconds'", "xlabel = 'CPU seconds (median of interleaved runs)'",
              string.format("ylabel = '%s'", prob.error_label or "error"),
              string.format("title = '%s: CPU seconds, with the peers'", prob.title:gsub("'", "''")),
              string.format("xmin = %.6g; xmax = %.6g; ymin = %.6g; ymax = %.6g", xlo, xhi, ylo, yhi) }
  for si, s in ipairs(P[st.key]) do v[#v + 1] = string.format("stiff%d = '%s'", si, (st.gp or show)(s)) end
  for k, e in ipairs(P.target) do v[#v + 1] = string.format("target%d = %.17g", k, e) end
  S.write_atomic(out .. "/bench/atlas-" .. key .. ".gpvars", "# written by scripts/bench-atlas.lua\n" .. table.concat(v, "\n") .. "\n")
  return trow
end

for _, key in ipairs(order) do
  if not only or only[key] then bench(key) end
end
