-- mutate.lua -- mutation testing of the ensemble code (issue 28, item 5): plausible one-token
-- mutants of C files, each built into its own copy of the library and run against the specs that
-- touch the file; a mutant is caught when a spec fails (or the run crashes or hangs), survives
-- otherwise, and is stillborn when it does not compile (not counted).
--
--   luajit scripts/mutate.lua [n=25] [all] [files=a.c,b.c] [list] [only=ID,...] [timeout=120]
--
-- Mutants: in code (not comments, strings or # lines) one token is replaced: + and -, * and /,
-- += and -=, < and <=, > and >=, == and !=, && and ||, a unary ! dropped, an integer n by n + 1
-- (0 by 1, 1 by 0), a floating constant by twice itself (0.0 by 1.0), and an identifier by a sibling it is
-- easily confused with (a parameter array for another, an index for another, t for h: the groups
-- below, per file, where the sibling is in scope). Every site of a file is listed in source order (`list` prints them with their
-- ids FILE:N); `n` sites per file are taken evenly spread over that list (`all`: every one), so the
-- sample is fixed by the source, not chosen. Needs `make` first (the other objects are reused).
-- Mutants shown equivalent by reading (EQUIVALENT below, each with its reason) are not run.
-- A mutant that the specs do not catch on the optimised build is run again as `make check` runs
-- the specs tagged #asan: built with the address and undefined-behaviour sanitizers, against
-- lib/libkapitza-asan.so's other objects (so `make asan` first); a memory error there catches it.
-- Prints one line per mutant and the score: caught / (caught + survived). Writes nothing in the
-- repository (copies in a temporary directory).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.."

local DEFAULT_FILES = { "lib/methods/kz_ens.c", "lib/models/kz_ens_models.c", "lib/steppers/kz_step_strang.c",
                        "lib/steppers/kz_step_ve.c" }
-- the specs that touch each file
local SPECS = {
  ["lib/methods/kz_ens.c"] = { "ensemble_spec", "ensemble_pool_spec", "ensemble_user_spec" },
  ["lib/methods/kz_ens_obs.c"] = { "ensemble_spec", "ensemble_pool_spec" },
  ["lib/methods/kz_ens_methods.c"] = { "ensemble_spec", "ensemble_pool_spec", "ensemble_user_spec" },
  ["lib/methods/kz_pool.c"] = { "ensemble_pool_spec", "ensemble_spec" },
  ["lib/models/kz_ens_models.c"] = { "ensemble_spec", "ensemble_pool_spec" },
  ["lib/steppers/kz_step_strang.c"] = { "steppers_spec", "steppers_time_spec" },
  ["lib/steppers/kz_step_ve.c"] = { "steppers_spec", "steppers_time_spec", "top_spec" },
}
-- identifiers easily taken for one another, per file
local SIBLINGS = {
  ["lib/models/kz_ens_models.c"] = { { "l", "g", "vm", "om", "th" }, { "eps", "g", "l" }, { "ct", "st" } },
  ["lib/methods/kz_ens.c"] = { { "n", "nf" }, { "i", "m", "k" }, { "y", "f" }, { "M", "Mt" } },
  ["lib/methods/kz_ens_obs.c"] = { { "i", "m" }, { "x", "out" } },
  ["lib/steppers/kz_step_strang.c"] = { { "t", "h", "h2" }, { "flow_a", "flow_b" } },
  ["lib/steppers/kz_step_ve.c"] = { { "m", "d" }, { "f0", "g" }, { "y", "ynew" }, { "t", "h" } },
}

-- Mutants shown equivalent by reading the code (no input can tell them from the original, or only
-- an allocation failure can): set aside from the score and listed with the reason. Keyed by file,
-- the source line (trimmed) and the change; a change of the line drops the entry, and the mutant
-- counts again.
local EQUIVALENT = {
  { "lib/methods/kz_ens.c", "for (size_t k = 0; k < nff; k++) out += !(fabs(f[k]) <= bound);", "<=", "<",
    "the count only decides whether the exact per-member pass runs, which tests <= itself: speed only" },
  { "lib/methods/kz_ens.c", "r->rejected += w->rejected;", "+=", "-=", "no ensemble method has a step-size controller: always 0" },
  { "lib/methods/kz_ens.c", "r->jac_evals += w->jac_evals;", "+=", "-=", "no ensemble method assembles a Jacobian: always 0" },
  { "lib/methods/kz_ens.c", "r->newton_iters += w->newton_iters;", "+=", "-=", "no ensemble method iterates Newton: always 0" },
  { "lib/methods/kz_ens.c", "if (i > atomic_load_explicit(&J->first_fail, memory_order_relaxed)) return;", ">", ">=",
    "a chunk is compared before it runs, when first_fail is a lower chunk or none (nc): never equal" },
  { "lib/methods/kz_ens.c", "if (!c->y || !c->tmp || !c->frozen || (stop && !c->held)) {", "||", "&&", "an allocation failure only" },
  { "lib/methods/kz_ens.c", "if (!c->y || !c->tmp || !c->frozen || (stop && !c->held)) {", "&&", "||", "an allocation failure only" },
  { "lib/methods/kz_ens.c", "return ens_field(c, c->e->phase_rhs, theta, y, c->e->dim, f);", "f", "y",
    "the HMM refuses first-order models (kz_hmm_run: the second-order form), the only user of the first-order phase form" },
  { "lib/methods/kz_ens.c", "for (int i = 0; fsal && ch->primed && i < d; i++) ch->f[(size_t)i * c->M + m] = 0.0;", "&&", "||",
    "without FSAL the chain is never primed; with it, primed is set by the first piece, before any member can fail or stop in one" },
  { "lib/methods/kz_ens.c", "for (int i = 0; !bad && i < n; i++) bad = !(fabs(y[(size_t)i * M + m]) <= bound);", "y", "f",
    "a state beyond the bound with every force within it is flagged by kz_chunk_bound at the next check, where every output is taken" },
  { "lib/methods/kz_ens.c", "for (long long k = 1; k < nc; k++)", "1", "0", "compares chunk 0 with itself first" },
  { "lib/steppers/kz_step_ve.c", "static size_t ve_work(int dim) { return 3 * (size_t)dim; }", "3", "4", "more workspace than it uses" },
  { "lib/steppers/kz_step_ve.c", "for (int i = 0; i < m; i++) ynew[i] = y[i] + 0.5 * h * f0[i]; /* u_{n+1/2} */", "<", "<=",
    "ynew[m] is overwritten on the next line" },
  { "lib/steppers/kz_step_ve.c", "for (int i = m; i < d; i++) ynew[i] = y[i] + h * g[i];         /* w_{n+1} */", "y", "ynew",
    "ynew[i] equals y[i] for i >= m there (set on the line before)" },
}

local opt = { n = 25, timeout = 120 }
for _, a in ipairs(arg) do
  local k, v = a:match("^(%w+)=(.*)$")
  if k then opt[k] = v elseif a == "all" or a == "list" then opt[a] = true
  else io.stderr:write("mutate: unknown argument '" .. a .. "'\n"); os.exit(2) end
end
opt.n = tonumber(opt.n)
local files = DEFAULT_FILES
if opt.files then
  files = {}
  for f in (opt.files .. ","):gmatch("([^,]+),") do files[#files + 1] = f end
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end
local function write(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end
local function sh(cmd)
  local ok = os.execute(cmd)
  return ok == 0 or ok == true
end

-- The tokens of C source s in code: { pos, text, kind } (kind: id, num, op), comments, strings,
-- character constants and preprocessor lines skipped.
local function tokens(s)
  local t, i, n, bol = {}, 1, #s, true
  local ops = { "<<=", ">>=", "->", "++", "--", "+=", "-=", "*=", "/=", "<=", ">=", "==", "!=", "&&", "||", "<<", ">>" }
  while i <= n do
    local c = s:sub(i, i)
    if c == "\n" then bol, i = true, i + 1
    elseif c:match("%s") then i = i + 1
    elseif bol and c == "#" then -- a preprocessor line (with continuations)
      repeat
        local e = s:find("\n", i, true) or n + 1
        local cont = s:sub(e - 1, e - 1) == "\\"
        i = e + 1
      until not cont
      bol = true
    elseif s:sub(i, i + 1) == "/*" then i = (s:find("*/", i + 2, true) or n) + 2
    elseif s:sub(i, i + 1) == "//" then i = (s:find("\n", i, true) or n + 1)
    elseif c == '"' or c == "'" then
      local j = i + 1
      while j <= n and s:sub(j, j) ~= c do j = j + (s:sub(j, j) == "\\" and 2 or 1) end
      i, bol = j + 1, false
    else
      bol = false
      local id = s:match("^[%a_][%w_]*", i)
      local num = not id and (s:match("^%d+%.?%d*[eE][%+%-]?%d+", i) or s:match("^%d*%.%d+[eE][%+%-]?%d+", i) or
                              s:match("^%d+%.%d*", i) or s:match("^%.%d+", i) or s:match("^%d+[uUlL]*", i))
      if id then t[#t + 1] = { pos = i, text = id, kind = "id" }; i = i + #id
      elseif num then t[#t + 1] = { pos = i, text = num, kind = "num" }; i = i + #num
      else
        local op = c
        for _, o in ipairs(ops) do if s:sub(i, i + #o - 1) == o then op = o; break end end
        t[#t + 1] = { pos = i, text = op, kind = "op" }
        i = i + #op
      end
    end
  end
  return t
end

local SWAP = { ["+"] = "-", ["-"] = "+", ["*"] = "/", ["/"] = "*", ["+="] = "-=", ["-="] = "+=", ["<"] = "<=",
               ["<="] = "<", [">"] = ">=", [">="] = ">", ["=="] = "!=", ["!="] = "==", ["&&"] = "||", ["||"] = "&&" }
local TYPES = { double = true, int = true, void = true, char = true, long = true, size_t = true, const = true,
                unsigned = true, chunk = true, run_job = true, kz_chunk = true, kz_sys = true, kz_vib = true,
                kz_ens = true, kz_report = true, kz_obs = true, kz_step_type = true, kz_pendulum_ens = true,
                kz_ste_ens = true, kz_chain = true, kz_queue = true, kz_pool = true }

-- The mutation sites of a file: { pos, old, new, line }.
local function sites(path)
  local s = read(root .. "/" .. path)
  local t = tokens(s)
  local out = {}
  local groups = {}
  for _, g in ipairs(SIBLINGS[path] or {}) do
    for j, name in ipairs(g) do groups[name] = groups[name] or { g, j } end
  end
  local function line(pos) local _, k = s:sub(1, pos):gsub("\n", ""); return k + 1 end
  local function add(tok, new)
    local l = line(tok.pos)
    local text = (s:match("^[^\n]*", (s:sub(1, tok.pos):match(".*\n()") or 1)) or ""):match("^%s*(.-)%s*$")
    local why
    for _, q in ipairs(EQUIVALENT) do
      if q[1] == path and q[2] == text and q[3] == tok.text and q[4] == new then why = q[5] end
    end
    out[#out + 1] = { pos = tok.pos, old = tok.text, new = new, line = l, equivalent = why }
  end
  -- the top-level items (a function with its parameters, a declaration): the identifiers of each,
  -- so that a sibling is put only where it is in scope
  local item, names, depth, cur = {}, { {} }, 0, 1
  for k, tok in ipairs(t) do
    item[k] = cur
    if tok.kind == "id" then names[cur][tok.text] = true end
    if tok.text == "{" then depth = depth + 1
    elseif tok.text == "}" then
      depth = depth - 1
      if depth == 0 then cur = cur + 1; names[cur] = {} end
    elseif tok.text == ";" and depth == 0 then cur = cur + 1; names[cur] = {} end
  end
  local function declares(k) -- the identifier at k is being declared (a type before it)
    local p = t[k - 1]
    while p and (p.text == "*" or p.text == "restrict" or p.text == "const") do k = k - 1; p = t[k - 1] end
    return p and TYPES[p.text]
  end
  for k, tok in ipairs(t) do
    local prev, nxt = t[k - 1], t[k + 1]
    if tok.kind == "op" and SWAP[tok.text] then
      local binary = prev and (prev.kind == "num" or (prev.kind == "id" and not TYPES[prev.text]) or prev.text == ")" or prev.text == "]")
      local pointer = tok.text == "*" and (not binary or (nxt and nxt.text == "restrict"))
      if (tok.text ~= "*" and tok.text ~= "-" and tok.text ~= "+") or (binary and not pointer) then add(tok, SWAP[tok.text]) end
    elseif tok.kind == "op" and tok.text == "!" then add(tok, "")
    elseif tok.kind == "num" then
      local int = tok.text:match("^%d+$")
      if int then
        local v = tonumber(int)
        add(tok, tostring(v == 1 and 0 or v + 1))
      elseif tonumber(tok.text) == 0 then add(tok, "1.0")
      else add(tok, string.format("(2 * %s)", tok.text)) end
    elseif tok.kind == "id" and groups[tok.text] and not (nxt and nxt.text == "(") and not declares(k)
           and not (prev and (prev.text == "." or prev.text == "->")) then
      local g, j = groups[tok.text][1], groups[tok.text][2]
      for step = 1, #g - 1 do -- the next sibling in scope
        local other = g[(j + step - 1) % #g + 1]
        if names[item[k]][other] then add(tok, other); break end
      end
    end
  end
  return out, s
end

-- Build a library with one file replaced by text (asan: the sanitizer build); returns its path or
-- nil (does not compile).
local tmp = os.getenv("KZ_MUTATE_DIR") or (io.popen("mktemp -d"):read("*l"))
local function build(path, text, asan)
  local dir = asan and "/build/asan/" or "/build/obj/"
  local obj = path:gsub("^lib/", root .. dir):gsub("%.c$", ".o")
  local src = tmp .. "/" .. path:match("([^/]+)$")
  write(src, text)
  local xflags = ""
  if path:match("kz_ens_models%.c$") then xflags = "-O3 -fopenmp-simd -fno-math-errno"
  elseif path:match("methods/kz_ens%.c$") then xflags = "-O3 -fopenmp-simd" end
  local opt, san = "-O2", ""
  if asan then
    xflags = xflags:gsub("%-O3 ", "")
    opt, san = "-O1 -g -fno-omit-frame-pointer", "-fsanitize=address,undefined -fno-sanitize-recover=undefined"
  end
  local inc = string.format("-I%s/lib/include -I%s/lib/core -I%s/lib/steppers -I%s/lib/methods -I%s/lib/models",
                            root, root, root, root, root)
  local mobj = tmp .. "/mutant.o"
  if not sh(string.format("cc -std=c11 -D_DEFAULT_SOURCE -w %s %s %s %s -fPIC -c %s -o %s 2>/dev/null", inc, opt, san, xflags, src, mobj)) then
    return nil
  end
  local objs = {}
  for o in io.popen("ls " .. root .. dir .. "*/*.o"):lines() do if o ~= obj then objs[#objs + 1] = o end end
  local so = tmp .. "/libkapitza-mutant.so"
  if not sh(string.format("cc -shared %s -o %s %s %s -llapack -lmvec -lm -lpthread 2>/dev/null", san, so, table.concat(objs, " "), mobj)) then
    return nil
  end
  return so
end

local function run_specs(so, specs, asan)
  local lp = string.format("%s/lib/lua/?.lua;%s/lib/experiment/?.lua;%s/tests/?.lua;;", root, root, root)
  local env = ""
  if asan then -- as scripts/check.sh runs the #asan specs
    local function lib(n) return io.popen("gcc -print-file-name=" .. n):read("*l") end
    env = string.format("LD_PRELOAD='%s %s' ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1 " ..
                        "UBSAN_OPTIONS=halt_on_error=1 ", lib("libasan.so"), lib("libubsan.so"))
  end
  for _, sp in ipairs(specs) do
    local out = tmp .. "/spec.tap"
    sh(string.format("cd %s && %sKZ_LIB=%s LUA_PATH='%s' timeout %d luajit /usr/bin/busted -o TAP %s tests/%s.lua > %s 2>&1",
                     root, env, so, lp, tonumber(opt.timeout) * (asan and 3 or 1), asan and "--tags=asan" or "", sp, out))
    local tap = read(out)
    if tap:find("\nnot ok ", 1, true) or tap:find("^not ok ") or not (tap:find("\n1%.%.%d+") or tap:find("^1%.%.%d+")) then
      local first = tap:match("not ok %d+ %- ([^\n]*)") or "no plan line (crash or timeout)"
      return true, sp .. ": " .. first
    end
  end
  return false
end

local only
if opt.only then
  only = {}
  for id in (opt.only .. ","):gmatch("([^,]+),") do only[id] = true end
end
local caught, survived, stillborn, survivors, equivalent = 0, 0, 0, {}, {}
for _, path in ipairs(files) do
  local all, s = sites(path)
  local pick = {}
  if opt.all or only or #all <= opt.n then for i = 1, #all do pick[#pick + 1] = i end
  else for j = 0, opt.n - 1 do pick[#pick + 1] = math.floor(j * #all / opt.n) + 1 end end
  io.write(string.format("== %s: %d sites, %d taken\n", path, #all, #pick))
  for _, i in ipairs(pick) do
    local m = all[i]
    local id = string.format("%s:%d", path:match("([^/]+)%.c$"), i)
    if not only or only[id] then
      local desc = string.format("%-22s line %4d: '%s' -> '%s'", id, m.line, m.old, m.new)
      if opt.list then io.write(desc, m.equivalent and ("  (equivalent: " .. m.equivalent .. ")") or "", "\n")
      elseif m.equivalent then
        equivalent[#equivalent + 1] = desc .. ": " .. m.equivalent
        io.write(desc, "  equivalent: ", m.equivalent, "\n")
      else
        local text = s:sub(1, m.pos - 1) .. m.new .. s:sub(m.pos + #m.old)
        local so = build(path, text)
        if not so then
          stillborn = stillborn + 1
          io.write(desc, "  stillborn (does not compile)\n")
        else
          local specs = SPECS[path] or { "ensemble_spec" }
          local hit, why = run_specs(so, specs)
          if not hit then -- the sanitizer build, as make check runs the #asan specs
            local aso = build(path, text, true)
            if aso then
              hit, why = run_specs(aso, specs, true)
              if hit then why = "(asan) " .. why end
            end
          end
          if hit then caught = caught + 1; io.write(desc, "  caught by ", why, "\n")
          else survived = survived + 1; survivors[#survivors + 1] = desc; io.write(desc, "  SURVIVED\n") end
        end
        io.flush()
      end
    end
  end
end
if not opt.list then
  local total = caught + survived
  io.write(string.format("\nmutants: %d caught, %d survived, %d equivalent (set aside), %d stillborn; score %d/%d = %.1f %%" ..
                         " (counting the equivalent ones as survivors: %d/%d = %.1f %%)\n", caught, survived, #equivalent,
                         stillborn, caught, total, total > 0 and 100 * caught / total or 0, caught, total + #equivalent,
                         total + #equivalent > 0 and 100 * caught / (total + #equivalent) or 0))
  for _, d in ipairs(survivors) do io.write("  survived: ", d, "\n") end
  for _, d in ipairs(equivalent) do io.write("  equivalent: ", d, "\n") end
end
if not os.getenv("KZ_MUTATE_DIR") then os.execute("rm -rf " .. tmp) end
