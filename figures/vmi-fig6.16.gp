# Ober-Bloebaum et al. Figure 6.16: FPU, trapezoidal-trapezoidal: errors in q (blue) and p (red) on macro (solid) and micro (dashed) nodes versus dT,
# p = 5 (left) and p = 10 (right), log-log, with slope-1 and slope-2 guides.
# needs: vmi-fig6.16
load 'figures/style.gpi'
set terminal svg size 1000,440 dynamic enhanced font 'Helvetica,12' linewidth 1.2 background rgb 'white'
set output outfile
set multiplot layout 1,2 title "FPU, trapezoidal-trapezoidal: errors versus ΔT"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "ΔT"
set key bottom right font ',10'
f = 'paper/data/vmi-fig6.16.tsv'
stats f using 3 nooutput
do for [p in "5 10"] {
  set title 'p = '.p
  set ylabel (p eq "5" ? "error" : "")
  plot f using 'dT':($1 == p+0 ? $3 : 1/0) with linespoints ls 1 title 'q, macro', \
       f using 'dT':($1 == p+0 ? $5 : 1/0) with linespoints ls 1 dt 2 title 'q, micro', \
       f using 'dT':($1 == p+0 ? $4 : 1/0) with linespoints ls 2 title 'p, macro', \
       f using 'dT':($1 == p+0 ? $6 : 1/0) with linespoints ls 2 dt 2 title 'p, micro', \
       1e-2*(x/0.01)**1 with lines ls 9 title 'slope 1', 1e-4*(x/0.01)**2 with lines ls 10 title 'slope 2'
}
unset multiplot
