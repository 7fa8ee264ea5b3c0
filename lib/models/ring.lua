-- ring.lua -- the 3-D spring ring of Ober-Bloebaum, Wenger, Gail & Leyendecker, "Variational
-- multirate integrators" (Sec. 6, Fig. 6.2), as a model file (lib/lua/kapitza/usermodel.lua's format, the
-- vmi part): six bodies of mass `mass` on a ring, state (qs, qf, ps, pf), qs the odd bodies 1, 3,
-- 5, qf the even ones 2, 4, 6 (three coordinates each). Its potentials V and W, with their
-- gradients and Hessians adding into the method's arrays (vmi.accumulate), are in ring.c (c.file),
-- the model's one source, which the library's C API (kz_vmi_ring_model, any number of pairs of
-- bodies) compiles too. g_sign = 1 is the physical sign of gravity; -1 the printed one.
-- The case of Sec. 6: mass = 2, eps = 5, omega1 = 2, omega2 = 4000, g = 9.81, the bodies on the
-- circle of radius 2 at height -2, bodies 2, 3, 4, 5 moved by the paper's offsets, velocities
-- along the directions u12, u36 of the unperturbed circle (helper initial_state), over [0, 10].

-- the initial state of Sec. 6: radius r, height h, velocity directions from the circle
-- ("unperturbed") or from the moved positions ("repositioned")
local function initial_state(p, o)
  o = o or {}
  local r, h = o.r or 2, o.h or 2
  local q = {}
  for i = 1, 6 do q[i] = { r * math.sin((i - 1) * math.pi / 3), -r * math.cos((i - 1) * math.pi / 3), -h } end
  local shift = { [3] = { 0.3, 0.3, 0 }, [5] = { 0.2, -0.3, -0.3 }, [2] = { 0.2, -0.2, 0 }, [4] = { -0.3, 0.4, 0 } }
  local q0 = {}
  for i = 1, 6 do
    local s = shift[i] or { 0, 0, 0 }
    q0[i] = { q[i][1] + s[1], q[i][2] + s[2], q[i][3] + s[3] }
  end
  local base = (o.directions or "unperturbed") == "unperturbed" and q or q0
  local function unit(a, b)
    local d = { a[1] - b[1], a[2] - b[2], a[3] - b[3] }
    local n = math.sqrt(d[1] * d[1] + d[2] * d[2] + d[3] * d[3])
    return { d[1] / n, d[2] / n, d[3] / n }
  end
  local u12, u36 = unit(base[1], base[2]), unit(base[3], base[6])
  local v = { { 5 * u12[1], 5 * u12[2], 5 * u12[3] }, { -30 * u12[1], -30 * u12[2], -30 * u12[3] },
              { -5 * u36[1], -5 * u36[2], -5 * u36[3] }, { 50, 40, -10 }, { 0, 0, 0 }, { 50, 40, 10 } }
  local y0 = {}
  for i = 1, 6 do -- odd bodies slow (offset 0), even fast (offset 9); momenta after 18
    local off = (i % 2 == 1) and 3 * ((i - 1) / 2) or 9 + 3 * (i / 2 - 1)
    for c = 1, 3 do
      y0[off + c] = q0[i][c]
      y0[18 + off + c] = p.mass * v[i][c]
    end
  end
  return y0
end

return {
  name = "ring", atlas = "ring", params = { "mass", "eps", "omega1", "omega2", "g", "g_sign" },
  description = "the spring ring of Ober-Bloebaum et al. Sec. 6: quartic ring springs, slow and stiff anchors",
  values = { mass = 2, eps = 5, omega1 = 2, omega2 = 4000, g = 9.81, g_sign = 1 },
  vmi = { ns = 9, nf = 9, mass_s = "mass", mass_f = "mass", accumulate = true },
  y0 = function(p) return initial_state(p) end,
  T = 10, period = function(p) return 2 * math.pi / math.sqrt(p.omega2 / p.mass) end, -- the fast bodies' springs
  helpers = { initial_state = initial_state },
  c = { vmi = { V = "V", V_gradient = "V_gradient", V_hessian = "V_hessian", W = "W", W_gradient = "W_gradient",
                W_hessian = "W_hessian" }, file = "ring.c" },
}
