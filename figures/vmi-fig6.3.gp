# Ober-Bloebaum et al. Figure 6.3: FPU energies I1, I2, I3 of the stiff springs and their sum I
# versus t for p = 1, 5, 10 (three panels), midpoint-midpoint, dT = 0.3.
# needs: vmi-fig6.3
load 'figures/style.gpi'
set terminal svg size 1200,400 dynamic enhanced font 'Helvetica,12' linewidth 1.0 background rgb 'white'
set output outfile
set multiplot layout 1,3 title "FPU, midpoint-midpoint, ΔT = 0.3: energies of the stiff springs"
set xlabel "t"
set xrange [0:200]
set yrange [0:1.6]
set key top right font ',10' spacing 0.9
do for [p in "1 5 10"] {
  f = 'paper/data/vmi-fig6.3-p'.p.'.tsv'
  set title 'p = '.p
  set ylabel (p eq "1" ? "energy" : "")
  plot f using 't':'I1' with lines ls 1 lw 1 title 'I_1', \
       '' using 't':'I2' with lines ls 10 lw 1 dt 1 title 'I_2', \
       '' using 't':'I3' with lines ls 3 lw 1 title 'I_3', \
       '' using 't':'I' with lines ls 2 lw 1.2 title 'I = ΣI_j'
}
unset multiplot
