# Fredbo Figure 3: the normalised kernels K^exp(1), K^exp(2) of (9) on [-1, 1] and, dashed, the
# asymmetric-kernel proposal A2 on [-1, 0] (not in the thesis). Drawn by scenarios/top-fig3.lua
# from the run's data: datadir, outfile, c1, c2 (and root, for the style) come from the scenario.
load root.'/figures/style.gpi'
set output outfile
f = datadir.'/top-fig3.tsv'
set title sprintf("Kernels of (9): C_1 = %.4f, C_2 = %.5f", c1, c2)
set xlabel "t"
set ylabel "K(t)"
set xrange [-1.05:1.05]
set key outside right top
plot f using 'x':'K1' with lines ls 1 title 'K^{exp(1)}', \
     '' using 'x':'K2' with lines ls 2 title 'K^{exp(2)}', \
     '' using 'x':(column('x') <= 0 ? column('Kasym') : 1/0) with lines ls 9 title 'asymmetric (proposal A2)'
