# Calvo, Chartier, Murua & Sanz-Serna Figure 3: efficiency diagrams (error vs RK4 micro-steps),
# perturbed Kepler problem, RK4 micro-integration. Top: N = 8, three eps; bottom: eps = 2^-12,
# N = 2, 4, 8. Circles: conventional RK4; stars: SAM; crosses: LISP; plus: multirevolution (32).
# needs: sam-fig3
load 'figures/style.gpi'
set terminal svg size 760,1000 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
top = 'paper/data/sam-fig3-top.tsv'
bot = 'paper/data/sam-fig3-bottom.tsv'
sel(m, e) = (strcol('method') eq m && abs(column('eps') / e - 1) < 1e-9) ? column('work') : NaN
selN(m, N) = (strcol('method') eq m && column('N') == N) ? column('work') : NaN
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "work [RK4 micro-steps]"
set ylabel "error at τ_{end}  (Euclidean norm in x, v)"
set key outside right top box opaque samplen 2
set multiplot layout 2,1
set title "Top: N = 8 macro-steps, Δτ = 2π/n, n = 16…128"
plot for [k=12:14] top using (sel('SAM', 2.0**-k)):'error' with linespoints ls (k-11) pt 3 ps 1.1 title sprintf("SAM ε=2^{-%d}", k), \
     for [k=12:14] top using (sel('conventional', 2.0**-k)):'error' with linespoints ls (k-11) pt 6 dt 2 title sprintf("RK4 ε=2^{-%d}", k)
set title "Bottom: ε = 2^{-12}, N = 2, 4, 8"
plot bot using (selN('conventional', 0)):'error' with linespoints ls 7 pt 6 title "RK4", \
     for [i=1:3] bot using (selN('SAM', 2**i)):'error' with linespoints ls i pt 3 ps 1.1 title sprintf("SAM N=%d", 2**i), \
     for [i=1:3] bot using (selN('LISP', 2**i)):'error' with linespoints ls i pt 2 dt 3 title sprintf("LISP N=%d", 2**i), \
     for [i=1:3] bot using (selN('MR', 2**i)):'error' with linespoints ls i pt 1 dt 4 title sprintf("MR N=%d", 2**i)
unset multiplot
