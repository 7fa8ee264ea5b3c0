# Fredbo Figure 12: the slow variables (32), HMM (x) against the reference (grey). Drawn by
# scenarios/top-fig12.lua from the run's data: datadir, outfile, label (and root, for the style).
load root.'/figures/style.gpi'
set terminal svg size 960,720 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig12.tsv'
g = datadir.'/top-fig12-ref.tsv'
set multiplot layout 2,2 title label
set xlabel "t [s]"
set key outside below horizontal
set bmargin 5.5 # one key row below the x label
set format y "%.7g"
titles = "ξ_2 = Γ_3|ξ_3 = Π_1^2 + Π_2^2|ξ_4 = Γ_1^2 + Γ_2^2|ξ_5 = Π_1Γ_1 + Π_2Γ_2"
do for [k=2:5] {
  set ylabel word("ξ_2 ξ_3 ξ_4 ξ_5", k-1)
  set title word("Γ_3 Π_1^2+Π_2^2 Γ_1^2+Γ_2^2 Π_1Γ_1+Π_2Γ_2", k-1)
  c = sprintf("xi%d", k)
  plot g using 't':c with lines lc rgb '#999999' lw 2 title 'reference (RK4)', f using 't':c with points ls 2 pt 2 ps 0.6 title 'HMM'
}
unset multiplot
