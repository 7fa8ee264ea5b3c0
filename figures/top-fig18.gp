# Fredbo Figure 18: theta - theta0 against phi for each omega, reference (line) and HMM (points).
# Drawn by scenarios/top-fig18.lua from the run's data: datadir, outfile, omegas, theta0 (and
# root, for the style) come from the scenario.
load root.'/figures/style.gpi'
set terminal svg size 1100,400 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig18.tsv'
g = datadir.'/top-fig18-ref.tsv'
set multiplot layout 1,words(omegas) title sprintf("Inclination against azimuth (scaled by ω, ω^2), θ_0 = %g", theta0)
set xlabel "ω φ [rad]"
set ylabel "ω^2 (θ − θ_0) [rad]"
set format x "%g"
set format y "%g"
set key outside below horizontal
sel(i) = abs(column('omega')/word(omegas, i) - 1) < 1e-9
# scaled so that the panels compare: phi ~ 1/omega, theta - theta0 ~ 1/omega^2
xs(i) = sel(i) ? column('phi') * word(omegas, i) : 1/0
ys(i) = column('dtheta') * word(omegas, i)**2
do for [i=1:words(omegas)] {
  set title sprintf("ω = %s", word(omegas, i))
  plot g using (xs(i)):(ys(i)) with lines lc rgb '#777777' lw 1 title 'RK4', \
       f using (xs(i)):(ys(i)) every 2 with points ls 2 pt 1 ps 0.3 title 'HMM (32), every 2nd node'
}
unset multiplot
