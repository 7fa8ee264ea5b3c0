# Fredbo Figure 5: q and p = dq/dt of the vibrated pendulum (12) with the averaged Q and P of (13).
# Drawn by scenarios/top-fig5.lua from the run's data: datadir, outfile, omega, q0, p0 (and root,
# for the style) come from the scenario.
load root.'/figures/style.gpi'
set terminal svg size 960,440 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
f = datadir.'/top-fig5.tsv'
set multiplot layout 1,2 title sprintf("Inverted pendulum (12), ω = %g s^{-1}, q(0) = %g, p(0) = %g", omega, q0, p0)
set xlabel "t [s]"
set key outside below horizontal
set bmargin 5.5 # the key below the x label, not on it
set ylabel "angle [rad]"
plot f using 't':'q' with lines ls 1 lw 1 title 'q(t)', \
     '' using 't':'Q' with lines ls 2 lw 2 title 'Q(t), averaged (13)'
set ylabel "angular velocity [rad s^{-1}]"
plot f using 't':'p' with lines ls 1 lw 0.6 title 'p = dq/dt', \
     '' using 't':'P' with lines ls 2 lw 2 title 'P, averaged (13)'
unset multiplot
