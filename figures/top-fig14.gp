# Fredbo Figure 14: error in xi3 against eta = alpha h for each micro step h. Drawn by
# scenarios/top-fig14.lua from the run's data: datadir, outfile, omega, N (H = T/N) and hs (the
# micro steps) (and root, for the style) come from the scenario.
load root.'/figures/style.gpi'
set output outfile
f = datadir.'/top-fig14.tsv'
set logscale xy
set format y "10^{%L}"
set xlabel "α = η/h"
set ylabel "max error in ξ_3"
set key outside right top
set title sprintf("HMM-LF-rk4, ω = %g, H = T/%d", omega, N)
plot for [i=1:words(hs)] f using ((column('N') == N && abs(column('h')/word(hs, i) - 1) < 1e-9) ? column('alpha') : 1/0):'error' \
     with linespoints ls i title sprintf("h = %g", real(word(hs, i)))
