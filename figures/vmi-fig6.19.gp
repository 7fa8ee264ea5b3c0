# Ober-Bloebaum et al. Figure 6.19: FPU, time per macro step for the linear solves t_dx (left) and the
# Jacobian t_Jacobi (right) versus p, Q1-Q3, structured elimination (solid) and dense LU (dashed),
# with slope-1 and slope-3 guides. Times are machine-dependent.
# needs: vmi-fig6.19
load 'figures/style.gpi'
set terminal svg size 1000,440 dynamic enhanced font 'Helvetica,12' linewidth 1.2 background rgb 'white'
set output outfile
set multiplot layout 1,2 title "FPU, Δt = 0.001: time per macro step versus p"
set logscale xy
set xlabel "p"
set key top left font ',10'
set format y "10^{%L}"
t = 'paper/data/vmi-fig6.19-timing.tsv'
sel(s, v, c) = (strcol(1) eq s && strcol(2) eq v) ? column(c) : NaN
do for [c in "5 6"] {
  set ylabel (c eq "5" ? "t_{Δx} per macro step [s]" : "t_{Jacobi} per macro step [s]")
  plot t using 3:(sel("MM", "structured", c+0)) with linespoints ls 1 title 'Q1 (MM)', \
       t using 3:(sel("TM", "structured", c+0)) with linespoints ls 2 title 'Q2 (TM)', \
       t using 3:(sel("TT", "structured", c+0)) with linespoints ls 3 title 'Q3 (TT)', \
       t using 3:(sel("MM", "dense", c+0)) with linespoints ls 1 dt 2 title 'Q1, dense LU', \
       t using 3:(sel("TM", "dense", c+0)) with linespoints ls 2 dt 2 title 'Q2, dense LU', \
       t using 3:(sel("TT", "dense", c+0)) with linespoints ls 3 dt 2 title 'Q3, dense LU', \
       1e-6*x with lines ls 9 title 'slope 1', 1e-8*x**3 with lines ls 10 title 'slope 3'
}
unset multiplot
