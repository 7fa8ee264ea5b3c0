# Fredbo Figure 20: the slow variables (40), HMM (x) against the reference (grey). Drawn by
# scenarios/top-fig20.lua from the run's data: datadir, outfile, label (and root, for the style).
load root.'/figures/style.gpi'
set terminal svg size 960,640 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig20.tsv'
g = datadir.'/top-fig20-ref.tsv'
set multiplot layout 2,2 title label
set xlabel "t [s]"
set key off
set format y "%.8g"
names = "xi2 xi3 xi4 xi5"
do for [i=1:4] {
  c = word(names, i)
  set title (i == 1 ? "ξ_2 = Π_1 − sin ωt" : (i == 2 ? "ξ_3 = Π_2 + cos ωt" : (i == 3 ? "ξ_4 = Γ_1^2 + Γ_2^2" : "ξ_5 = θ = arccos Γ_3")))
  plot g using 't':c with lines lc rgb '#999999' lw 2, f using 't':c with points ls 2 pt 2 ps 0.6
}
unset multiplot
