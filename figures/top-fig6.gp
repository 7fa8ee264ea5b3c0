# Fredbo Figure 6: Q and P of HMM-VE-ve (Algorithm 2) against the averaged solution (13) and the
# bias-corrected Verlet solution. Drawn by scenarios/top-fig6.lua from the run's data: datadir,
# outfile, omega, H, scheme (and root, for the style) come from the scenario.
load root.'/figures/style.gpi'
set terminal svg size 960,440 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
f = datadir.'/top-fig6.tsv'
g = datadir.'/top-fig6-avg.tsv'
set multiplot layout 1,2 title sprintf("%s, ω = %g s^{-1}, H = %g", scheme, omega, H)
set xlabel "t [s]"
set key outside below horizontal
set bmargin 8 # three key rows below the x label, not on it
set ylabel "Q [rad]"
plot g using 't':'Q' with lines ls 1 lw 1.5 title 'averaged (13)', \
     f using 't':'Q' with points ls 2 pt 6 ps 0.5 title 'HMM', \
     '' using 't':'Q_sv' with lines ls 9 title 'Verlet on biased (13)'
set ylabel "P [rad s^{-1}]"
plot g using 't':'P' with lines ls 1 lw 1.5 title 'averaged (13)', \
     f using 't':'P' with points ls 2 pt 6 ps 0.5 title 'HMM', \
     '' using 't':'P_sv' with lines ls 9 title 'Verlet on biased (13)'
unset multiplot
