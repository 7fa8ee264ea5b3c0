# Fredbo Figure 17: the slow variables (37), HMM (x) against the reference (grey). Drawn by
# scenarios/top-fig17.lua from the run's data: datadir, outfile, label (and root, for the style).
load root.'/figures/style.gpi'
set terminal svg size 960,720 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig17.tsv'
g = datadir.'/top-fig17-ref.tsv'
set multiplot layout 2,2 title label
set xlabel "t [s]"
set key outside below horizontal
set bmargin 5.5 # one key row below the x label
set format y "%.8g"
names = "xi2 phidot thetadot psidot"
do for [i=1:4] {
  c = word(names, i)
  set title (i == 1 ? "ξ_2 = Π_1^2 + Π_2^2" : (i == 2 ? "ξ_3 = dφ/dt" : (i == 3 ? "ξ_4 = dθ/dt" : "ξ_5 = dψ/dt")))
  plot g using 't':c with lines lc rgb '#999999' lw 2 title 'reference (RK4)', f using 't':c with points ls 2 pt 2 ps 0.6 title 'HMM'
}
unset multiplot
