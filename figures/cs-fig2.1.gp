# Calvo & Sanz-Serna Figure 2.1: angle q and velocity dq/dt of the vibrated pendulum, with the
# averaged Q and P of (2.5) overlaid. Drawn by scenarios/cs-fig2.1.lua from the run's data:
# datadir, outfile, omega, q0, l, g, vmax (and root, for the style) come from the scenario.
load root.'/figures/style.gpi'
set terminal svg size 960,440 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
f = datadir.'/cs-fig2.1.tsv'
set multiplot layout 1,2 title sprintf("Vibrated pendulum, ℓ = %g m, g = %g m s^{-2}, v_{max} = %g m s^{-1}, ω = %g s^{-1}, q(0) = %g, dq/dt(0) = 0", l, g, vmax, omega, q0)
set xlabel "t [s]"
set key outside below horizontal
set ylabel "angle [rad]"
plot f using 't':'q' with lines ls 1 lw 1 title 'q(t)', \
     '' using 't':'Q' with lines ls 2 lw 2 title 'Q(t), averaged (2.5)'
set ylabel "angular velocity [rad s^{-1}]"
plot f using 't':'p' with lines ls 1 lw 1 title 'dq/dt', \
     '' using 't':'P' with lines ls 2 lw 2 title 'P = dQ/dt'
unset multiplot
