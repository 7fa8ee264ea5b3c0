-- atlas_run.lua -- the one driver of the efficiency atlas: what `kapitza atlas MODEL.lua`
-- (lib/lua/kapitza/cli/atlas.lua) and the eight scenarios scenarios/atlas-<problem>.lua run.
--
-- Two routes through the same engine (lib/lua/kapitza/atlas.lua: A.run_one, A.mark_fronts, A.order;
-- the model file set up by lib/lua/kapitza/atlas/user.lua's AU.setup on both):
--  * the paper's atlas of a problem (lib/lua/kapitza/atlas/problems.lua): the command line is the
--    problem's scenario parameters (its stiffness list, target=, methods=, its own keys; --out,
--    --quick, --force, --help, --params: lib/lua/kapitza/scenario.lua's parser, bad input one line,
--    exit 2, nothing written), the sweep over the stiffness values, untimed and deterministic
--    (A.sweep), the outputs (lib/lua/kapitza/atlas/write.lua) and the problem's claims (prob.claims,
--    lib/lua/kapitza/atlas/problem_claims.lua). scenarios/atlas-<problem>.lua is R.scenario(problem,
--    arg); `kapitza atlas` takes this route for a papers' model file that names its problem
--    (`atlas = "<problem>"` in lib/models/<name>.lua: R.curated_key), so both write the same
--    files, byte for byte;
--  * a model of one's own (any other model file): the generic catalogue
--    (lib/lua/kapitza/atlas/catalogue.lua) at the model's own parameters, timed (AU.sweep over
--    A.campaign), the outputs AU.write (R.user); given a comma list for one of its parameters,
--    the same at each value and the work's growth with it (R.user_sweep,
--    lib/lua/kapitza/atlas/user_sweep.lua: A.work_at, A.work_exponent as the papers' atlases).
-- Both run protected (scenario.lua's S.protected): files staged, moved into --out only when the
-- whole run succeeded, one line and nothing written otherwise.
local S = require "kapitza.scenario"
local A = require "kapitza.atlas"
local AC = require "kapitza.atlas.claims"
local AW = require "kapitza.atlas.write"
local AP = require "kapitza.atlas.problems"

local R = {}

---------------------------------------------------------------------------------------------------
-- The paper's atlas of a problem
---------------------------------------------------------------------------------------------------

--- The scenario object of problem prob: its parameters (A.params), --quick values and work
-- estimate; `command` is what its --help names (default luajit scenarios/<id>.lua).
function R.new(prob, command)
  return S.new { id = prob.id, title = prob.title, params = A.params(prob, A.names(prob)), quick = prob.quick,
                 work = prob.est, command = command }
end

--- The atlas of problem prob at parameters P through the staged scenario sc: the sweep, its data,
-- tables and figure, and the problem's claims (tables/<id>-claims.{tsv,md}). Returns the rows.
function R.curated(sc, prob, P)
  local rows, ctxs, methods, na = A.sweep(sc, prob, P)
  AW.write(sc, prob, P, rows, ctxs, methods, na)
  local cl = AC.claims(sc)
  prob.claims(cl, prob, P, rows, methods)
  cl:write("Work = force evaluations read from the curves (interpolated); exponents fitted against " ..
           (prob.stiff.rate_label or prob.stiff.label) .. " over the values where the method reaches the target.",
           sc.id .. "-claims")
  return rows
end

--- Run problem `key`'s atlas from the command line argv (a scenario's: --out DIR, --quick, key=value
-- ...). Protected (S.protected: commits and exits) when called from the main script
-- (scenarios/atlas-<key>.lua run by luajit or `kapitza run`) or with o.main (`kapitza atlas`);
-- otherwise (a tool loading the scenario to check its arguments, scripts/sweep.lua) it only
-- parses and runs. o.command: the command --help names.
function R.scenario(key, argv, o)
  o = o or {}
  local prob = assert(AP[key], "atlas_run.scenario: no atlas problem '" .. tostring(key) .. "'")
  local function body()
    local sc = R.new(prob, o.command)
    R.curated(sc, prob, sc:parse(argv))
  end
  if (o.main and not S.protecting) or S.is_main(2) then S.protected(body) else body() end
end

--- The problem whose atlas a model file runs: the spec's `atlas` field, honoured only for the
-- library's own file lib/models/<name>.lua (the same file, links resolved, as lib/lua/kapitza/models.lua
-- loads). Returns the key, or nil and (for a field that is not honoured) the reason in words.
function R.curated_key(path)
  local ok, spec = pcall(require("kapitza.modelfile").spec, path)
  if not ok or spec.atlas == nil then return nil end
  local F, models = require "kapitza.files", require "kapitza.models"
  local lib = F.real(models.path(spec.name))
  if not (lib and F.real(path) == lib) then
    return nil, string.format("atlas = '%s' names a paper's atlas, run only from the library's own model file " ..
                              "(lib/models/%s.lua); this file gets the atlas of a model of one's own", tostring(spec.atlas), spec.name)
  end
  if not AP[spec.atlas] then error(string.format("model %s: atlas = '%s' is not an atlas problem", path, tostring(spec.atlas)), 0) end
  return spec.atlas
end

---------------------------------------------------------------------------------------------------
-- A model of one's own
---------------------------------------------------------------------------------------------------

-- The generic atlas of the loaded model file mf at its one parameter set: the setup (reference,
-- time scales), the catalogue and the timed sweep, with progress through sc labelled `label`.
-- Returns the context, the rows, the methods and the n/a entries.
local function user_point(sc, mf, o, label)
  local AU, AC2 = require "kapitza.atlas.user", require "kapitza.atlas.catalogue"
  sc:progress_start(1, label)
  local ctx = AU.setup(mf, { tol = o.tol, refm = o.quick and 32 or 64, refmax = o.refmax })
  local methods, na = AC2.catalogue(ctx, { quick = o.quick, methods = o.keep })
  local total = 1 -- the reference, then every run in each timed repetition (AU.sweep's progress)
  for _, m in ipairs(methods) do total = total + #m.ladder * (o.reps or 3) end
  sc:progress_start(total, label)
  sc:progress(string.format("reference (%d steps per period), tau = %.3g", ctx.refm, ctx.tau))
  local rows = AU.sweep(ctx, methods, { reps = o.reps, budget = o.budget, progress = function(w) sc:progress(w) end })
  return ctx, rows, methods, na
end

-- The runs that did not finish, on stderr: one line per method and cause (a failure's message
-- without its step and time, or "diverged: the error is not finite"), and the families none of
-- whose runs finished. Returns those families (a list; empty when each family has a run that
-- finished). rows: the data rows (status "ok", "diverged", "failed"; msg for a failure).
function R.failures(rows)
  local by, order, fam, famorder, nbad = {}, {}, {}, {}, 0
  for _, r in ipairs(rows) do
    local f = fam[r.family]
    if not f then f = { runs = 0, ok = 0 }; fam[r.family] = f; famorder[#famorder + 1] = r.family end
    f.runs = f.runs + 1
    if r.status == "ok" then f.ok = f.ok + 1
    else
      nbad = nbad + 1
      local cause = r.status == "diverged" and "diverged: the error is not finite"
                    or tostring(r.msg or "failed"):gsub(" %(?at step %-?%d+%)?", ""):gsub(" %(?at t = [^)%s]+%)?", "")
      local key = r.method .. "\0" .. cause
      if not by[key] then by[key] = { method = r.method, cause = cause, n = 0 }; order[#order + 1] = key end
      by[key].n = by[key].n + 1
    end
  end
  local dead = {}
  for _, name in ipairs(famorder) do if fam[name].ok == 0 then dead[#dead + 1] = name end end
  if nbad > 0 then
    io.stderr:write(string.format("kapitza atlas: %d of %d runs did not finish, by method and cause:\n", nbad, #rows))
    for _, k in ipairs(order) do
      local b = by[k]
      io.stderr:write(string.format("  %s: %d run%s: %s\n", b.method, b.n, b.n == 1 and "" or "s", b.cause))
    end
  end
  for _, name in ipairs(dead) do
    io.stderr:write(string.format("kapitza atlas: no run of the family %s finished (%d runs)\n", name, fam[name].runs))
  end
  return dead
end

-- A best row on stdout: "tol 0.01     method=... (error ..., N evaluations, S s)".
local function best_line(b)
  return string.format("tol %-8.3g %s", b.tol, b.params ~= "-" and string.format("%s  (error %.2g, %d evaluations, %.3g s)",
                       b.params, b.error, b.evaluations, b.seconds) or "none of the runs reaches it")
end

--- The atlas of the loaded model file mf (lib/lua/kapitza/modelfile.lua), its arguments checked by the
-- caller: o.out, o.quick, o.tol (nil: AU.default_tol), o.refmax, o.reps, o.budget, o.keep (a set
-- of method names, or nil: all), o.say(line) (the cheapest configurations, on stdout). Protected
-- (one line "kapitza atlas: ...", nothing written, on failure); exits.
function R.user(mf, o)
  local AU = require "kapitza.atlas.user"
  local sc = S.new { id = "atlas-" .. mf.name, title = "kapitza atlas " .. mf.path, params = {} }
  sc.P = { out = o.out }
  local dead = {}
  S.protected(function()
    sc:open_stage()
    local ctx, rows, methods, na = user_point(sc, mf, o, sc.id)
    local best = AU.write(sc, ctx, rows, methods, na)
    sc:commit()
    io.stderr:write(string.format("kapitza atlas: %d runs of %d methods; wrote %s/data/%s.tsv, %s/tables/%s-best.{tsv,md}%s\n",
                                  #rows, #methods, o.out, sc.id, o.out, sc.id,
                                  (sc.drawn or {})[sc.id] and string.format(", %s/figures/%s.svg", o.out, sc.id) or " (no figure)"))
    for _, b in ipairs(best) do
      if b.by == "evaluations" then o.say(best_line(b)) end
    end
    dead = R.failures(rows)
  end, { label = "kapitza atlas", status = function() return #dead > 0 and 1 or 0 end }) -- written, but a whole family failed: 1
end

--- The stiffness sweep of a model of one's own: the generic atlas at each value of o.key
-- (o.values), each from its own model file load (mfs[i], the model at o.values[i]: its own
-- reference, period and ladders), written together by lib/lua/kapitza/atlas/user_sweep.lua (the
-- runs value by value, the cheapest configuration per value, the work's scaling with the value
-- and its exponent, the figures). The other arguments as R.user's; progress per value. Exits.
function R.user_sweep(mfs, o)
  local AUS = require "kapitza.atlas.user_sweep"
  local sc = S.new { id = "atlas-" .. mfs[1].name, title = "kapitza atlas " .. mfs[1].path, params = {} }
  sc.P = { out = o.out }
  local dead = {}
  S.protected(function()
    sc:open_stage()
    local pts, nruns = {}, 0
    for i, mf in ipairs(mfs) do
      local v = o.values[i]
      local ctx, rows, methods, na = user_point(sc, mf, o, string.format("%s %s=%s (%d/%d)", sc.id, o.key, S.fmt(v), i, #mfs))
      pts[i] = { value = v, ctx = ctx, rows = rows, methods = methods, na = na }
      nruns = nruns + #rows
    end
    local best, sca = AUS.write(sc, o.key, pts)
    sc:commit()
    local drawn, figs = sc.drawn or {}, {}
    for _, f in ipairs { sc.id, sc.id .. "-scaling" } do if drawn[f] then figs[#figs + 1] = string.format("%s/figures/%s.svg", o.out, f) end end
    io.stderr:write(string.format("kapitza atlas: %d runs at %d values of %s; wrote %s/data/%s.tsv, %s/tables/%s-{best,scaling}.{tsv,md}%s\n",
                                  nruns, #mfs, o.key, o.out, sc.id, o.out, sc.id, #figs > 0 and (", " .. table.concat(figs, ", ")) or " (no figure)"))
    local all = {}
    for _, pt in ipairs(pts) do for _, r in ipairs(pt.rows) do all[#all + 1] = r end end
    dead = R.failures(all)
    for _, b in ipairs(best) do
      if b.by == "evaluations" then o.say(string.format("%s=%-8s %s", o.key, S.fmt(b.value), best_line(b))) end
    end
    for _, tol in ipairs(pts[1].ctx.tol) do
      local t = {}
      for _, e in ipairs(sca) do if e.tol == tol and e.p then t[#t + 1] = string.format("%s %.2f", e.method, e.p) end end
      o.say(string.format("tol %-8.3g work ∝ %s^p: %s", tol, o.key, #t > 0 and table.concat(t, ", ") or "no exponent (too few values reached)"))
    end
  end, { label = "kapitza atlas", status = function() return #dead > 0 and 1 or 0 end })
end

return R
