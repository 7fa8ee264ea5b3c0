# Ober-Bloebaum et al. Figure 6.8: spring ring, kinetic, potential (V + W) and total energy (top)
# and the relative energy error (E - E0)/E0 (bottom) versus t for p = 1, 5, 10, trapezoidal-trapezoidal (left rectangle in V and W), dT = 0.01.
# needs: vmi-fig6.8
load 'figures/style.gpi'
set terminal svg size 1200,640 dynamic enhanced font 'Helvetica,12' linewidth 1.0 background rgb 'white'
set output outfile
set multiplot layout 2,3 title "Spring ring, trapezoidal-trapezoidal (left rectangle in V and W), ΔT = 0.01"
set xlabel "t"
set xrange [0:50]
set key top right font ',10' spacing 0.9
do for [p in "1 5 10"] {
  f = 'paper/data/vmi-fig6.8-p'.p.'.tsv'
  set title 'p = '.p
  set ylabel (p eq "1" ? "energy" : "")
  set yrange [0:*]
  plot f using 't':'kinetic' with lines ls 1 lw 1 title 'kinetic', \
       '' using 't':'potential' with lines ls 3 lw 1 title 'potential V+W', \
       '' using 't':'total' with lines ls 2 lw 1.5 title 'total'
}
set format y "%.1te%T"
unset key
do for [p in "1 5 10"] {
  f = 'paper/data/vmi-fig6.8-p'.p.'.tsv'
  set title ''
  set ylabel (p eq "1" ? "(E - E_0)/E_0" : "")
  set yrange [*:*]
  plot f using 't':'relerr' with lines ls 2 lw 0.8 notitle
}
unset multiplot
