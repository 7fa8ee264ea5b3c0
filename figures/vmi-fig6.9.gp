# Ober-Bloebaum et al. Figure 6.9: spring ring, components L1, L2, L3 of the angular momentum versus
# t for p = 5 (left) and p = 10 (right), midpoint-midpoint, dT = 0.01.
# needs: vmi-fig6.9
load 'figures/style.gpi'
set terminal svg size 1000,420 dynamic enhanced font 'Helvetica,12' linewidth 1.0 background rgb 'white'
set output outfile
set multiplot layout 1,2 title "Spring ring, midpoint-midpoint, ΔT = 0.01: angular momentum"
set xlabel "t"
set xrange [0:50]
set key bottom right font ',10'
do for [p in "5 10"] {
  f = 'paper/data/vmi-fig6.9-p'.p.'.tsv'
  set title 'p = '.p
  set ylabel (p eq "5" ? "angular momentum" : "")
  plot f using 't':'L1' with lines ls 1 title 'L_1', '' using 't':'L2' with lines ls 3 title 'L_2', \
       '' using 't':'L3' with lines ls 2 lw 2 title 'L_3'
}
unset multiplot
