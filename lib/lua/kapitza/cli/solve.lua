-- cli_solve.lua -- `kapitza solve MODEL.lua method=NAME`: one run of one method on a model file
-- (lib/lua/kapitza/cli.lua).
local U = require "kapitza.cli.common"
local out, die, help_wanted, fmt_list, split_args, take, load_model = U.out, U.die, U.help_wanted, U.fmt_list, U.split_args, U.take, U.load_model

return function(argv)
  if help_wanted(argv, 2) then out(U.usage.solve); os.exit(0) end
  local path = argv[2]
  if not path or path:match("^%-") or path:match("=") then die("solve", "give a model file (kapitza solve --help)") end
  local o = split_args("solve", argv, 3, { ["--lua"] = true, ["--error"] = true, ["--force"] = true })
  o.kv = U.timeout("solve", o.kv)
  local method = take("solve", o.kv, { method = true }).method
  if not method then die("solve", "give method=NAME (method=list lists them)") end
  -- the method's knobs are known once the catalogue is built: take every knob name of any method
  local knobs = { N = true, n = true, p = true, tol = true, timeout = true }
  local kn, rest = take("solve", o.kv, { method = true, N = true, n = true, p = true, tol = true })
  local mf = load_model("solve", path, rest, o.flags["--lua"], knobs)
  local AU = require "kapitza.atlas.user"
  local AC = require "kapitza.atlas.catalogue"
  local S = require "kapitza.scenario"
  local okc, ctx = pcall(AU.setup, mf, { reference = o.flags["--error"] == true })
  if not okc then U.fail("solve", ctx) end
  local methods, na = AC.catalogue(ctx, {})
  if method == "list" then
    for _, m in ipairs(methods) do
      out(string.format("%-20s %-8s knobs %-6s %s", m.name, m.family, m.knob, AC.knob_words(m)))
      out(string.format("%-36s %s", "", m.label))
    end
    return
  end
  local mm
  for _, m in ipairs(methods) do if m.name == method then mm = m end end
  if not mm then die("solve", AC.why_not(ctx, method, methods, na)) end
  local keys = {}
  for k in (mm.knob .. ","):gmatch("([^,]+),") do keys[#keys + 1] = k end
  local x = {}
  for i, k in ipairs(keys) do
    if not kn[k] then die("solve", string.format("method %s needs %s=...", method, k)) end
    x[i] = S.number(kn[k])
    if not x[i] or x[i] <= 0 then die("solve", string.format("%s: '%s' is not a number > 0", k, kn[k])) end
    if k ~= "tol" and x[i] ~= math.floor(x[i]) then die("solve", string.format("%s: '%s' is not a whole number", k, kn[k])) end
    if k ~= "tol" and x[i] > 2 ^ 31 - 1 then
      die("solve", string.format("%s: %s is too large (a count of steps: at most 2147483647)", k, kn[k]))
    end
    if k == "tol" and not (x[i] >= 1e-15 and x[i] < 1) then die("solve", string.format("tol: %s is outside [1e-15, 1)", kn[k])) end
  end
  for k in pairs(kn) do
    if k ~= "method" then
      local used = false
      for _, kk in ipairs(keys) do used = used or kk == k end
      if not used then die("solve", string.format("method %s has no knob '%s' (its knobs: %s)", method, k, mm.knob)) end
    end
  end
  -- the work, before anything runs: a direct stepper's n steps per fast period over K periods
  -- (its est), two knobs N x n (or N x p) micro-steps at up to 32 (8 Newton) evaluations each, an
  -- adaptive method (tol) at least 60 evaluations a period; --error adds the reference's 12 x 64
  local w
  if mm.est then w = mm.est(ctx, x[1])
  elseif mm.knob == "N,n" then w = 32 * x[1] * x[2]
  elseif mm.knob == "N,p" then w = 8 * x[1] * x[2]
  else w = 60 * ctx.K end
  if o.flags["--error"] then w = w + 12 * 64 * ctx.K end
  U.check_work("solve", w, string.format("%s at %s; %d fast periods", method, AU.params_of(mm, x[1], x[2] or 0):gsub("^method=%S+ ", ""),
                                        ctx.K), o.flags["--force"])
  local y
  local run = mm.run
  local t0 = os.clock()
  local okr, err, c = pcall(function()
    -- keep the final state: wrap the context's error functions
    local cx = setmetatable({}, { __index = ctx })
    cx.err = function(s) y = s; return ctx.err(s) end
    cx.err_slow = function(Q) y = type(Q) == "number" and { Q } or Q; return ctx.err_slow(Q) end
    return run(cx, x[1], x[2] or 0)
  end)
  local secs = os.clock() - t0
  if not okr then U.fail("solve", err) end
  if err == nil then die("solve", string.format("this point of %s does not exist for the model (e.g. the multirevolution method needs K/N > 4 whole periods per step)", method)) end
  out(string.format("%s on %s: T = %.17g (%d fast periods)", AU.params_of(mm, x[1], x[2] or 0), mf.name, ctx.T, ctx.K))
  out(string.format("  %s(T) = (%s)", #y == mf.dim and "y" or (mf.nq > 0 and "q" or "y"), fmt_list(y, "%.17g")))
  out(string.format("  evaluations %d, micro steps %d, CPU seconds %.3g", c.force_evals or 0, c.micro_steps or 0, secs))
  if o.flags["--error"] then
    out(string.format("  error %.3g against the reference (%s with %d and %d steps per period, Richardson; its own error ~%.1e)",
                      err, ctx.ref_what, ctx.refm, 2 * ctx.refm, ctx.ref_est))
  end
end
