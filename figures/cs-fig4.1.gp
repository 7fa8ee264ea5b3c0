# Calvo & Sanz-Serna Figure 4.1: the vibrated double pendulum in descriptor form. Columns: the
# macro steps Hs; rows: q1, q2, Lambda1, Lambda2 against t for the HMMs `methods` at the
# frequencies `omegas`, with the references in angle coordinates (the averaged omega -> infinity
# motion, the direct solution at `refomegas`). Drawn by scenarios/cs-fig4.1.lua from the run's data:
# datadir, outfile, Hs, omegas, refomegas, methods, filtering (the force average, in words), q2label
# (and root, for the style).
load root.'/figures/style.gpi'
set terminal svg size 1000,1300 dynamic enhanced font 'Helvetica,12' linewidth 1.2 background rgb 'white'
set output outfile
f = datadir.'/cs-fig4.1.tsv'
fl = datadir.'/cs-fig4.1-lambda.tsv'
fr = datadir.'/cs-fig4.1-ref.tsv'
nH = words(Hs)
nW = words(omegas)
nM = words(methods)
nR = words(refomegas)
# the i-th reference frequency (gnuplot parses an empty loop's body once: keep it numeric)
rw(i) = (i <= nR ? real(word(refomegas, i)) : 1)
is(x, y) = abs(x / y - 1) < 1e-9
run(m, H, w, c) = (strcol('method') eq m && is(column('H'), H) && is(column('omega'), w)) ? column(c) : NaN
avg(c) = (strcol('ref') eq 'averaged') ? column(c) : NaN
dir(w, c) = (strcol('ref') eq 'direct' && is(column('omega'), w)) ? column(c) : NaN
wlabel(w) = sprintf("ω = 10^{%d}", int(floor(log10(w) + 0.5)))
Hlabel(H) = sprintf("H = 1/%d s", int(floor(1.0 / H + 0.5)))
cols = "q1 q2 L1 L2"
set xlabel "t [s]"
set multiplot layout 4, nH margins 0.08, 0.98, 0.13, 0.95 spacing 0.07, 0.05 title "Double pendulum in descriptor form, asynchronous HMMs with ".filtering
do for [iq = 1:4] {
  c = word(cols, iq)
  set ylabel (iq == 1 ? "q_1 [rad]" : iq == 2 ? q2label." [rad]" : iq == 3 ? "Λ_1" : "Λ_2")
  do for [ih = 1:nH] {
    H = real(word(Hs, ih))
    set title (iq == 1 ? Hlabel(H) : "")
    last = (iq == 4 && ih == nH)
    if (last) { set key at screen 0.5, 0.005 center bottom vertical maxrows 3 box opaque samplen 3 } else { unset key }
    if (iq <= 2) {
      plot for [im = 1:nM] for [iw = 1:nW] f using 't':(run(word(methods, im), H, real(word(omegas, iw)), c)) \
             with lines ls iw dt im lw (im == 1 ? 2.6 - 0.6 * (iw - 1) : 1.0) title (last ? word(methods, im).' '.wlabel(real(word(omegas, iw))) : ''), \
           fr using 't':(avg(c)) with lines ls 10 lw 1.6 title (last ? 'averaged ω → ∞ (angle ODE)' : ''), \
           for [ir = 1:nR] fr using 't':(dir(rw(ir), c)) with lines ls 9 lw 0.8 title (last ? 'direct, '.wlabel(rw(ir)) : '')
    } else {
      plot for [im = 1:nM] for [iw = 1:nW] fl using 't':(run(word(methods, im), H, real(word(omegas, iw)), c)) \
             with lines ls iw dt im lw (im == 1 ? 2.6 - 0.6 * (iw - 1) : 1.0) title (last ? word(methods, im).' '.wlabel(real(word(omegas, iw))) : ''), \
           NaN with lines ls 10 lw 1.6 title (last ? 'averaged ω → ∞ (angle ODE)' : ''), \
           for [ir = 1:nR] NaN with lines ls 9 lw 0.8 title (last ? 'direct, '.wlabel(rw(ir)) : '')
    }
  }
}
unset multiplot
