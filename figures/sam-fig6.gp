# Calvo, Chartier, Murua & Sanz-Serna Figure 6: efficiency diagrams (error in q1 at t_end against
# HERK3 micro-steps) for the double pendulum DAE in GGL form. Top: SAM with Ntop macro-steps and
# conventional HERK3 for each eps; bottom: eps_bottom, conventional HERK3 and SAM for each number
# of macro-steps in Nbottom (H = t_end/N). Circles: conventional; stars: SAM. Drawn by
# scenarios/sam-fig6.lua from the run's data: datadir, outfile, eps, Ntop, eps_bottom, Nbottom,
# t_end, conv (1: the conventional runs were made), stepper (the micro-solver's name; the
# macro-solver is HERK3), and the labels as the run's parameters were given (never rounded):
# epslabels, epsbottomlabel, Htoplabel, Hlabels (one word per bottom H) (and root, for the style).
load root.'/figures/style.gpi'
set terminal svg size 760,1000 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
top = datadir.'/sam-fig6-top.tsv'
bot = datadir.'/sam-fig6-bottom.tsv'
is(x, y) = abs(x / y - 1) < 1e-9
sel(m, e) = (strcol('method') eq m && is(column('eps'), e)) ? column('work') : NaN
selN(m, N) = (strcol('method') eq m && column('N') == N) ? column('work') : NaN
elabel(i) = 'ε = '.word(epslabels, i)
nE = words(eps)
nB = words(Nbottom)
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel sprintf("work [%s micro-steps]", stepper)
set ylabel "error in q_1 at t_{end}"
set key outside right top box opaque samplen 2
set multiplot layout 2,1
convtxt = conv ? sprintf(" and conventional %s", stepper) : ""
set title sprintf("Top: SAM with N = %d macro-steps (H = %s)%s", Ntop, Htoplabel, convtxt)
if (conv) {
  plot for [i = 1:nE] top using (sel('SAM', real(word(eps, i)))):'error' with linespoints ls i pt 3 ps 1.3 title 'SAM '.elabel(i), \
       for [i = 1:nE] top using (sel('conventional', real(word(eps, i)))):'error' with linespoints ls i pt 6 dt 2 title stepper.' '.elabel(i)
} else {
  plot for [i = 1:nE] top using (sel('SAM', real(word(eps, i)))):'error' with linespoints ls i pt 3 ps 1.3 title 'SAM '.elabel(i)
}
set title sprintf("Bottom: ε = %s, SAM with %d macro-step sizes H (one curve each)%s", epsbottomlabel, nB, convtxt)
if (conv) {
  plot bot using (selN('conventional', 0)):'error' with linespoints ls 7 pt 6 dt 2 title stepper, \
       for [i = 1:nB] bot using (selN('SAM', int(word(Nbottom, i)))):'error' with linespoints ls i pt 3 ps 1.3 title 'SAM H = '.word(Hlabels, i)
} else {
  plot for [i = 1:nB] bot using (selN('SAM', int(word(Nbottom, i)))):'error' with linespoints ls i pt 3 ps 1.3 title 'SAM H = '.word(Hlabels, i)
}
unset multiplot
