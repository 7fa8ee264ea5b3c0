# Ober-Bloebaum et al. Figure 6.15: spring ring, trapezoidal-midpoint: macro-node errors split into slow (solid) and fast (dashed) parts, q (blue) and p (red) versus dT,
# p = 5 (left) and p = 10 (right), log-log, with slope-1 and slope-2 guides.
# needs: vmi-fig6.15
load 'figures/style.gpi'
set terminal svg size 1000,440 dynamic enhanced font 'Helvetica,12' linewidth 1.2 background rgb 'white'
set output outfile
set multiplot layout 1,2 title "spring ring, trapezoidal-midpoint: slow/fast errors versus ΔT"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "ΔT"
set key bottom right font ',10'
f = 'paper/data/vmi-fig6.15.tsv'
stats f using 3 nooutput
do for [p in "5 10"] {
  set title 'p = '.p
  set ylabel (p eq "5" ? "error" : "")
  plot f using 'dT':($1 == p+0 ? $7 : 1/0) with linespoints ls 1 title 'q^s (slow)', \
       f using 'dT':($1 == p+0 ? $8 : 1/0) with linespoints ls 1 dt 2 title 'q^f (fast)', \
       f using 'dT':($1 == p+0 ? $9 : 1/0) with linespoints ls 2 title 'p^s (slow)', \
       f using 'dT':($1 == p+0 ? $10 : 1/0) with linespoints ls 2 dt 2 title 'p^f (fast)', \
       1e-2*(x/0.01)**1 with lines ls 9 title 'slope 1', 1e-4*(x/0.01)**2 with lines ls 10 title 'slope 2'
}
unset multiplot
