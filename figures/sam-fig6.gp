# Calvo, Chartier, Murua & Sanz-Serna Figure 6: efficiency diagrams (error in q1 at t_end against
# HERK3 micro-steps) for the double pendulum DAE in GGL form. Top: SAM with Ntop macro-steps and
# conventional HERK3 for each eps; bottom: eps_bottom, conventional HERK3 and SAM for each number
# of macro-steps in Nbottom (H = t_end/N). Circles: conventional; stars: SAM. Drawn by
# scenarios/sam-fig6.lua from the run's data: datadir, outfile, eps, Ntop, eps_bottom, Nbottom,
# t_end (and root, for the style).
load root.'/figures/style.gpi'
set terminal svg size 760,1000 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
top = datadir.'/sam-fig6-top.tsv'
bot = datadir.'/sam-fig6-bottom.tsv'
is(x, y) = abs(x / y - 1) < 1e-9
sel(m, e) = (strcol('method') eq m && is(column('eps'), e)) ? column('work') : NaN
selN(m, N) = (strcol('method') eq m && column('N') == N) ? column('work') : NaN
elabel(e) = sprintf("ε = 10^{%d}", int(floor(log10(e) + 0.5)))
Hlabel(N) = sprintf("H = π/%d", int(floor(N * pi / t_end + 0.5)))
nE = words(eps)
nB = words(Nbottom)
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "work [HERK3 micro-steps]"
set ylabel "error in q_1 at t_{end}"
set key outside right top box opaque samplen 2
set multiplot layout 2,1
set title sprintf("Top: SAM with N = %d macro-steps (H = π/2500) and conventional HERK3", Ntop)
plot for [i = 1:nE] top using (sel('SAM', real(word(eps, i)))):'error' with linespoints ls i pt 3 ps 1.3 title 'SAM '.elabel(real(word(eps, i))), \
     for [i = 1:nE] top using (sel('conventional', real(word(eps, i)))):'error' with linespoints ls i pt 6 dt 2 title 'HERK3 '.elabel(real(word(eps, i)))
set title sprintf("Bottom: %s, SAM for %d macro-steps and conventional HERK3", elabel(eps_bottom), nB)
plot bot using (selN('conventional', 0)):'error' with linespoints ls 7 pt 6 dt 2 title 'HERK3', \
     for [i = 1:nB] bot using (selN('SAM', int(word(Nbottom, i)))):'error' with linespoints ls i pt 3 ps 1.3 title 'SAM '.Hlabel(int(word(Nbottom, i)))
unset multiplot
