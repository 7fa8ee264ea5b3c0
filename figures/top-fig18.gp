# Fredbo Figure 18: theta - theta0 against phi for each omega, reference (line) and HMM (points),
# unscaled: the nutation amplitude falls like omega^-2 (the axes show it) while the number of
# cycles grows like omega; each panel holds at most the first `shown` of the run's `cycles`
# nutation cycles. Drawn by scenarios/top-fig18.lua from the run's data: datadir, outfile,
# omegas, theta0, shown, cycles, amps (and root, for the style) come from the scenario.
load root.'/figures/style.gpi'
set terminal svg size 1100,420 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig18.tsv'
g = datadir.'/top-fig18-ref.tsv'
set multiplot layout 1,words(omegas) title sprintf("Inclination against azimuth, θ_0 = %g (unscaled)", theta0)
set xlabel "φ [rad]"
set ylabel "θ − θ_0 [rad]"
set format x "%g"
set format y "%g"
# about three x tics per panel, at 1, 2 or 5 times a power of ten
nice(x) = (nm = 10**floor(log10(x)), nr = x / nm, (nr < 1.5 ? 1 : (nr < 3.5 ? 2 : (nr < 7.5 ? 5 : 10))) * nm)
set key outside below horizontal
set bmargin 8
sel(i) = abs(column('omega')/word(omegas, i) - 1) < 1e-9
xs(i) = sel(i) ? column('phi') : 1/0
do for [i=1:words(omegas)] {
  stats g using (xs(i)) nooutput
  set xtics nice(STATS_max / 3)
  set title sprintf("ω = %s: %s of %s nutation cycles\nmax θ − θ_0 = %.3g rad", word(omegas, i), word(shown, i), word(cycles, i), word(amps, i) + 0)
  plot g using (xs(i)):'dtheta' with lines lc rgb '#777777' lw 1 title 'RK4', \
       f using (xs(i)):'dtheta' every 2 with points ls 2 pt 1 ps 0.3 title 'HMM (32), every 2nd node'
}
unset multiplot
