# Fredbo Figure 23: the vertically vibrated top (41) (blue) against the averaged equation (48)
# (red: the coefficient `avg`; dashed: the printed coefficient; grey: no vibration). Drawn by
# scenarios/top-fig22.lua and top-fig23.lua from the run's data: datadir, outfile, id (the data
# file), omega, A, l, avg (and root, for the style) come from the scenario.
load root.'/figures/style.gpi'
set terminal svg size 1000,640 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
if (!exists("id")) id = 'top-fig23'
f = datadir.'/'.id.'.tsv'
set multiplot layout 3,1 title sprintf("The vibrated top (41), ω = %g, A = %g, l = %g, against (48) (%s)", omega, A, l, avg)
set key outside right top
set xlabel "t [s]"
set ylabel "π_1"
plot f using 't':'pi1' with lines ls 1 lw 0.5 title '(41)', '' using 't':'P1' with lines ls 2 lw 2 title '(48)'
set ylabel "Γ_1"
plot f using 't':'gamma1' with lines ls 1 lw 0.8 title '(41)', '' using 't':'G1' with lines ls 2 lw 2 title '(48)', \
     '' using 't':'G1_printed' with lines ls 9 title '(48) printed'
set ylabel "Γ_3"
plot f using 't':'gamma3' with lines ls 1 lw 0.8 title '(41)', '' using 't':'G3' with lines ls 2 lw 2 title '(48)', \
     '' using 't':'G3_printed' with lines ls 9 title '(48) printed', '' using 't':'G3_free' with lines lc rgb '#999999' title 'no vibration'
unset multiplot
