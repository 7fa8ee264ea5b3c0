# Ober-Bloebaum et al. Figure 6.18: FPU, total computing time (left) and total number of Newton
# iterations (right) versus p, dt = 0.001 fixed, Q1 (MM), Q2 (TM), Q3 (TT); structured solver (solid)
# and dense LU (dashed). Times are machine-dependent.
# needs: vmi-fig6.18
load 'figures/style.gpi'
set terminal svg size 1000,440 dynamic enhanced font 'Helvetica,12' linewidth 1.2 background rgb 'white'
set output outfile
set multiplot layout 1,2 title "FPU, Δt = 0.001, t_N = 10: computing time and Newton iterations"
set logscale xy
set xlabel "p"
set key top left font ',10'
set format y "10^{%L}"
t = 'paper/data/vmi-fig6.18-timing.tsv'
d = 'paper/data/vmi-fig6.18.tsv'
sel(s, v, c) = (strcol(1) eq s && strcol(2) eq v) ? column(c) : NaN
set ylabel "total computing time t_{cpu} [s]"
plot t using 3:(sel("MM", "structured", 5)) with linespoints ls 1 title 'Q1 (MM)', \
     t using 3:(sel("TM", "structured", 5)) with linespoints ls 2 title 'Q2 (TM)', \
     t using 3:(sel("TT", "structured", 5)) with linespoints ls 3 title 'Q3 (TT)', \
     t using 3:(sel("MM", "dense", 5)) with linespoints ls 1 dt 2 title 'Q1, dense LU', \
     t using 3:(sel("TM", "dense", 5)) with linespoints ls 2 dt 2 title 'Q2, dense LU', \
     t using 3:(sel("TT", "dense", 5)) with linespoints ls 3 dt 2 title 'Q3, dense LU'
set ylabel "total Newton iterations"
set key top right
plot d using 3:(sel("MM", "structured", 5)) with linespoints ls 1 title 'Q1 (MM)', \
     d using 3:(sel("TM", "structured", 5)) with linespoints ls 2 title 'Q2 (TM)', \
     d using 3:(sel("TT", "structured", 5)) with linespoints ls 3 title 'Q3 (TT)'
unset multiplot
