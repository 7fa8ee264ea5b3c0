# Fredbo Figure 11: Pi and Gamma of the fast top (31) by RK4. Drawn by scenarios/top-fig11.lua
# from the run's data: datadir, outfile, omega, h (and root, for the style) come from the scenario.
load root.'/figures/style.gpi'
set terminal svg size 960,720 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig11.tsv'
set multiplot layout 3,2 title sprintf("The spinning top (31), ω = %g, RK4 h = %g", omega, h)
set xlabel "t [s]"
set key off
set format y "%.7g"
names = "Pi1 Gamma1 Pi2 Gamma2 Pi3 Gamma3"
labels = "Π_1 Γ_1 Π_2 Γ_2 Π_3 Γ_3"
do for [i=1:6] {
  c = word(names, i)
  set title word(labels, i)
  plot f using 't':c with lines ls (i % 2 ? 1 : 2) lw 0.8
}
unset multiplot
