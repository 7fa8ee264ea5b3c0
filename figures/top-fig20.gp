# Fredbo Figure 20: the slow variables (40), HMM (x) against the reference (grey) and, for xi2, xi3,
# the trivial baseline Pi1 = Pi2 = 0 (dashed). Drawn by
# scenarios/top-fig20.lua from the run's data: datadir, outfile, label (and root, for the style).
load root.'/figures/style.gpi'
set terminal svg size 960,720 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig20.tsv'
g = datadir.'/top-fig20-ref.tsv'
set multiplot layout 2,2 title label
set xlabel "t [s]"
set key outside below horizontal
set bmargin 7 # up to two key rows below the x label
set format y "%.8g"
names = "xi2 xi3 xi4 xi5"
do for [i=1:4] {
  c = word(names, i)
  set title (i == 1 ? "ξ_2 = Π_1 − sin ωt" : (i == 2 ? "ξ_3 = Π_2 + cos ωt" : (i == 3 ? "ξ_4 = Γ_1^2 + Γ_2^2" : "ξ_5 = θ = arccos Γ_3")))
  # xi2, xi3: also the trivial baseline Pi1 = Pi2 = 0 (-sin nu t, cos nu t), which the HMM does not beat
  if (i <= 2) {
    plot g using 't':c with lines lc rgb '#999999' lw 2 title 'reference (RK4)', \
         f using 't':c with points ls 2 pt 2 ps 0.6 title 'HMM', \
         g using 't':(column(c.'_pi0')) with lines lc rgb '#000000' lw 1.2 dt 2 title 'Π_1 = Π_2 = 0'
  } else {
    plot g using 't':c with lines lc rgb '#999999' lw 2 title 'reference (RK4)', f using 't':c with points ls 2 pt 2 ps 0.6 title 'HMM'
  }
}
unset multiplot
