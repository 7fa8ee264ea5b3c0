# Calvo & Sanz-Serna Figure 2.1: angle q and velocity dq/dt of the vibrated pendulum, omega = 200,
# with the averaged Q and P of (2.5) overlaid.
# needs: cs-fig2.1
load 'figures/style.gpi'
set terminal svg size 960,400 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
set multiplot layout 1,2 title "Vibrated pendulum, ω = 200 s^{-1}, q(0) = 0.5, dq/dt(0) = 0"
set xlabel "t [s]"
set ylabel "angle [rad]"
set key bottom left
plot 'paper/data/cs-fig2.1.tsv' using 't':'q' with lines ls 1 lw 1 title 'q(t)', \
     '' using 't':'Q' with lines ls 2 lw 2 title 'Q(t), averaged (2.5)'
set ylabel "angular velocity [rad s^{-1}]"
plot 'paper/data/cs-fig2.1.tsv' using 't':'p' with lines ls 1 lw 1 title 'dq/dt', \
     '' using 't':'P' with lines ls 2 lw 2 title 'P = dQ/dt'
unset multiplot
