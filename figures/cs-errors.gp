# Errors in the averaged angle Q versus the macro step H for Calvo & Sanz-Serna Tables 2.1-2.3:
# every omega and the averaged (Verlet on (2.5)) reference, log-log, with a slope-2 guide.
# needs: cs-table2.1 cs-table2.2 cs-table2.3
# section: cs-table2.3
load 'figures/style.gpi'
set terminal svg size 1080,400 dynamic enhanced font 'Helvetica,12' linewidth 1.2 background rgb 'white'
set output outfile
set logscale xy
set format y "10^{%L}"
set xrange [0.01:0.12]
set yrange [2e-3:1]
set xlabel "H [s]"
set key bottom right font ',10'
set multiplot layout 1,3 title "Maximum error in Q over 0 ≤ t ≤ 1 s"
guide(x) = 0.4 * (x / 0.1)**2
om(w) = sprintf("ω = 10^{%d}", int(log10(w) + 0.5))
do for [tab in "2.1 2.2 2.3"] {
  f = 'paper/tables/cs-table'.tab.'.tsv'
  set title 'Table '.tab.(tab eq "2.1" ? ': synchronous, exp. kernel' : (tab eq "2.2" ? ': asynchronous, exp. kernel' : ': asynchronous, simple filtering'))
  set ylabel (tab eq "2.1" ? "error in Q [rad]" : "")
  ws = (tab eq "2.3") ? "1000 10000 1000000 100000000" : "10000 1000000 100000000"
  plot for [w in ws] f using 1:($2 == w+0 ? $4 : 1/0) with linespoints ls (int(log10(w+0)+0.5)-2) title om(w+0), \
       f using 1:5 with linespoints ls 7 dt 2 title 'Averaged', \
       guide(x) with lines ls 9 title 'slope 2'
}
unset multiplot
