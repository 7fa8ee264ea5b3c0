# Fredbo Figure 21: xi2 and xi3 of (40) by the HMM (x) over a long interval against the reference
# (grey) and the trivial baseline Pi1 = Pi2 = 0 (dashed). Drawn by scenarios/top-fig21.lua from the run's data: datadir, outfile, label (and root).
load root.'/figures/style.gpi'
set terminal svg size 960,660 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig21.tsv'
g = datadir.'/top-fig21-ref.tsv'
set multiplot layout 2,1 title label
set xlabel "t [s]"
set key outside below horizontal
set bmargin 7 # up to two key rows below the x label
do for [i=1:2] {
  c = (i == 1 ? "xi2" : "xi3")
  set title (i == 1 ? "ξ_2 = Π_1 − sin ωt" : "ξ_3 = Π_2 + cos ωt")
  plot g using 't':c with lines lc rgb '#999999' lw 1.5 title 'reference (RK4)', \
       f using 't':c every 4 with points ls 2 pt 1 ps 0.4 title 'HMM (every 4th node)', \
       g using 't':(column(c.'_pi0')) with lines lc rgb '#000000' lw 1 dt 2 title 'Π_1 = Π_2 = 0'
}
unset multiplot
