# Ober-Bloebaum et al. Table 2 as a picture (drawn by scenarios/vmi-table2.lua from its data): the
# macro-node errors in q behind the fitted orders against dT, one panel per problem (every scheme,
# the first p solid, the others dashed, slope-1 and slope-2 guides), and every fitted order of q and
# p with the order Table 2 prints overlaid (open circles, the accepted band ±tol). From the run:
# id, problems, schemes, ps, ymin/ymax, dTmin/dTmax, rows, tol.
load root.'/figures/style.gpi'
npr = words(problems)
eval svg(60 + 400 * (npr + 1), 520)
set output outfile
f = datadir.'/'.id.'.tsv'
tab = tabledir.'/'.id.'.tsv'
set multiplot layout 1, npr + 1 title "Table 2: convergence orders on macro nodes (errors at t_k ≤ t_N, fitted over the smallest ΔT)"
set key outside below horizontal samplen 2 spacing 1.0 font ',10' maxrows 3 noopaque
set bmargin 8 # room for the x label above the key
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [dTmin / 1.5 : dTmax * 1.5]
set yrange [ymin / 3 : ymax * 3]
set xlabel "ΔT"
do for [k = 1:npr] {
  prob = word(problems, k)
  set title (prob eq "FPU" ? "Fermi–Pasta–Ulam" : "spring ring")
  set ylabel (k == 1 ? "error in q on macro nodes" : "")
  plot for [s = 1:words(schemes)] for [j = 1:words(ps)] f using 'dT':((strcol('problem') eq prob && strcol('scheme') eq word(schemes, s) \
         && column('p') == word(ps, j) + 0) ? column('err_q') : NaN) with linespoints ls s dt j ps 0.5 \
         title (j == 1 ? word(schemes, s).', p = '.word(ps, j) : (s == 1 ? 'p = '.word(ps, j).' (dashed)' : '')), \
       ymin * (x / dTmin) with lines ls 9 title 'slope 1', ymin * (x / dTmin)**2 with lines ls 10 title 'slope 2'
}
unset logscale
set format x "%g"
set format y "%.1f"
set xrange [0.5 : rows + 0.5]
set yrange [0.5 : 2.5]
set xtics rotate by 60 right font ',9'
set xlabel ""
set ylabel "order"
set title "fitted orders and Table 2"
plot tab using ($0 + 1):'published_q':(0.4):(tol) with boxxyerror fs solid 1.0 noborder lc rgb '#e9ecef' title sprintf('printed ± %g', tol), \
     tab using ($0 + 1):'published_q' with points pt 6 ps 2.4 lc rgb '#000000' title 'printed, q', \
     tab using ($0 + 1):'published_p' with points pt 4 ps 1.9 lc rgb '#495057' title 'printed, p', \
     tab using ($0 + 1):'order_q':xticlabels(strcol('problem').' '.strcol('scheme').' p='.strcol('p')) with points ls 1 pt 7 ps 0.9 title 'fitted, q', \
     tab using ($0 + 1):'order_p' with points ls 2 pt 5 ps 0.8 title 'fitted, p'
unset multiplot
