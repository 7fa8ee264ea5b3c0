# Ober-Bloebaum et al. Table 2 as a picture: the macro-node errors in q behind the fitted orders,
# for every problem, scheme and p, against dT, with slope-1 and slope-2 guides.
# needs: vmi-table2
load 'figures/style.gpi'
set terminal svg size 1000,440 dynamic enhanced font 'Helvetica,12' linewidth 1.2 background rgb 'white'
set output outfile
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "macro step ΔT"
set key bottom right font ',10'
f = 'paper/data/vmi-table2.tsv'
set multiplot layout 1,2 title "Table 2: error in q on macro nodes (max over t_k ≤ 0.5), p = 5 solid, p = 10 dashed"
do for [prob in "FPU SR"] {
  set title (prob eq "FPU" ? "Fermi–Pasta–Ulam" : "spring ring")
  set ylabel (prob eq "FPU" ? "error in q" : "")
  plot for [s=1:3] f using 4:((strcol(1) eq prob && strcol(2) eq word("MM TM TT", s) && $3 == 5) ? $5 : 1/0) \
         with linespoints ls s title word("MM TM TT", s).' (p = 5)', \
       for [s=1:3] f using 4:((strcol(1) eq prob && strcol(2) eq word("MM TM TT", s) && $3 == 10) ? $5 : 1/0) \
         with linespoints ls s dt 2 notitle, \
       1e-1*x with lines ls 9 title 'slope 1', 1e1*x**2 with lines ls 10 title 'slope 2'
}
unset multiplot
