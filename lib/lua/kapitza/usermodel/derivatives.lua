-- derivatives.lua -- derivatives a user's model leaves out, formed by central differences, and the
-- check of the derivatives it gives (lib/lua/kapitza/usermodel/parts.lua).
--
-- The choice: central differences rather than forward-mode dual numbers, because the same rule
-- then serves both ways of writing a model (a C source cannot be re-run on dual numbers; a Lua
-- function could only through a replaced `math` environment, which breaks on cdata arrays).
--   step     h_j = eps^(1/3) max(1, |x_j|)  (eps = 2^-52, eps^(1/3) = 6.06e-6)
--   accuracy truncation h^2 |f'''| / 6 plus round-off eps |f| / h: about eps^(2/3) = 3.7e-11
--            relative to the size of f and its derivatives when x is of order one and f varies on
--            scales of order one (a length scale L << 1 in the model's units costs (h/L)^2: give
--            the derivative, or write the model in units where it is of order one)
--   cost     2 n evaluations of the function per Jacobian with n inputs (a Hessian formed from an
--            analytic gradient: 2 n gradients; from a formed gradient: 4 n^2 function values,
--            accurate to about eps^(1/3) relative: enough for Newton's matrix, which only sets
--            the convergence rate, never the converged answer)
-- The same rule is generated in C for the C-source path (modelparts.lua: kzu_fd).
local D = {}

--- The relative step eps^(1/3).
D.rel = 2 ^ (-52 / 3)

--- The acceptance of a given derivative: relative 1e-5 (see D.compare).
D.tol = 1e-5

--- Central differences of f at x: J (m x n, row-major, 0-based) with J[i n + j] = d f_i / d x_j.
-- f(xw, out) evaluates into out (m numbers) at xw (n numbers, a double buffer) and returns nothing
-- on success or a non-nil failure value, which is returned. x, J: 0-based arrays (cdata or tables
-- with index 0). s: scratch { xw (n), fp (m), fm (m) } (cdata doubles), reused between calls.
-- step (optional): the relative step instead of D.rel.
function D.jacobian(f, n, m, x, J, s, step)
  local rel = step or D.rel
  local xw, fp, fm = s.xw, s.fp, s.fm
  for j = 0, n - 1 do xw[j] = x[j] end
  for j = 0, n - 1 do
    local xj = x[j]
    local h = rel * math.max(1, math.abs(xj))
    local xp, xm = xj + h, xj - h
    xw[j] = xp
    local bad = f(xw, fp)
    if bad == nil then xw[j] = xm; bad = f(xw, fm) end
    xw[j] = xj
    if bad ~= nil then return bad end
    local d = xp - xm
    for i = 0, m - 1 do J[i * n + j] = (fp[i] - fm[i]) / d end
  end
  return nil
end

--- Scratch for D.jacobian with n inputs and m outputs.
function D.scratch(ffi, n, m)
  return { xw = ffi.new("double[?]", math.max(n, 1)), fp = ffi.new("double[?]", math.max(m, 1)),
           fm = ffi.new("double[?]", math.max(m, 1)) }
end

--- Compare a given m x n matrix A (row-major, 0-based) with central differences F (step h) and
-- F2 (step h/2). Entry (i, j) disagrees when
--   |A_ij - F2_ij| > tol * max(s_i, 1e-3 s) + 2 |F_ij - F2_ij|
-- with s_i the largest |A_ij|, |F2_ij| in row i and s the largest over all rows: relative tol per
-- row, rows far below the largest measured against a thousandth of it, and the differences'
-- own truncation error (estimated by the two steps) allowed for, so a badly scaled model gives
-- no false alarm while a wrong term of relative size above tol is caught. Returns the worst
-- entry { i, j, a, f, rel } (rel: |A - F2| over the tolerance scale, disagreeing when > tol after
-- the allowance) and whether all agree.
function D.compare(A, F, F2, m, n, tol)
  tol = tol or D.tol
  local s = 0
  local rs = {}
  for i = 0, m - 1 do
    local r = 0
    for j = 0, n - 1 do r = math.max(r, math.abs(A[i * n + j]), math.abs(F2[i * n + j])) end
    rs[i], s = r, math.max(s, r)
  end
  local worst, ok = { rel = 0 }, true
  for i = 0, m - 1 do
    local scale = math.max(rs[i], 1e-3 * s, 1e-300)
    for j = 0, n - 1 do
      local a, f, f2 = A[i * n + j], F[i * n + j], F2[i * n + j]
      local diff = math.abs(a - f2)
      local allow = tol * scale + 2 * math.abs(f - f2)
      local bad = not (diff <= allow) -- NaN disagrees
      local rel = diff / scale
      if rel ~= rel then rel = math.huge end
      if bad then
        if ok or rel > worst.rel then worst = { i = i, j = j, a = a, f = f2, rel = rel } end
        ok = false
      elseif ok and rel > worst.rel then
        worst = { i = i, j = j, a = a, f = f2, rel = rel }
      end
    end
  end
  return worst, ok
end

return D
