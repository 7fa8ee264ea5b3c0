# Fredbo Table 1 as a figure: our errors in xi3 (filled) and the printed ones (open) against
# N = T/H, with the largest value of xi3 itself (dashed) for each omega. Drawn by
# scenarios/top-table1.lua from the run's data: datadir, outfile, omegas (and root, for the style).
load root.'/figures/style.gpi'
set output outfile
f = datadir.'/top-table1.tsv'
set logscale xy
set format y "10^{%L}"
set format x "10^{%L}"
set xlabel "N = T/H"
set ylabel "max error in ξ_3"
set key outside right top
set title "Table 1: HMM-LF-rk4, h = 10/ω^2, η = 10h"
sel(i) = abs(column('omega')/word(omegas, i) - 1) < 1e-9
plot for [i=1:words(omegas)] f using (sel(i) ? column('N') : 1/0):'error' with linespoints ls i pt 7 title sprintf("ω = %s (ours)", word(omegas, i)), \
     for [i=1:words(omegas)] f using (sel(i) ? column('N') : 1/0):'error_thesis' with points ls i pt 6 ps 1.2 title sprintf("ω = %s (thesis)", word(omegas, i)), \
     for [i=1:words(omegas)] f using (sel(i) ? column('N') : 1/0):'max_xi3' with lines ls i dt 2 lw 1 title sprintf("max ξ_3, ω = %s", word(omegas, i))
