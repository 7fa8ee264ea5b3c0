# Ober-Bloebaum et al. Figure 6.9: the spring ring's angular momentum L1, L2, L3 against t (top),
# L3(t) - L3(0) at the plotted Newton tolerance (middle) and the largest |L3(t) - L3(0)| against
# the Newton tolerance (bottom; tables/<id>.tsv), one column per p. Drawn by scenarios/vmi-fig6.9.lua
# from its data: id, ps, tmax, tol and title come from the run.
load root.'/figures/style.gpi'
np = words(ps)
eval svg(60 + 420 * np, 1000)
set output outfile
set multiplot layout 3, np title title
set key outside below horizontal samplen 1.5 spacing 1.0 font ',10' noopaque
set bmargin 6 # room for the x label above the key
tab = tabledir.'/'.id.'.tsv'
do for [i = 1:np] {
  p = word(ps, i)
  set title 'p = '.p
  set xrange [0 : tmax]
  set xlabel "t"
  set ylabel (i == 1 ? "angular momentum" : "")
  plot datadir.'/'.id.'-p'.p.'.tsv' using 't':'L1' with lines ls 1 title 'L_1', '' using 't':'L2' with lines ls 3 title 'L_2', \
       '' using 't':'L3' with lines ls 2 lw 2 title 'L_3'
}
set format y "%.1e"
do for [i = 1:np] {
  p = word(ps, i)
  set title ''
  set ylabel (i == 1 ? "L_3(t) − L_3(0)" : "")
  plot datadir.'/'.id.'-p'.p.'.tsv' using 't':'dL3' with lines ls 2 lw 1 title sprintf('L_3(t) − L_3(0), Newton tolerance %g', tol)
}
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [*:*]
set yrange [*:*]
set xlabel "Newton tolerance"
do for [i = 1:np] {
  p = word(ps, i)
  set ylabel (i == 1 ? "max |L_3(t) − L_3(0)|" : "")
  plot tab using 'tol':(column('p') == p + 0 ? column('L3_drift') : NaN) with linespoints ls 2 title 'drift of L_3', \
       tab using 'tol':(column('p') == p + 0 ? column('tol') : NaN) with lines ls 9 title 'the tolerance'
}
unset multiplot
