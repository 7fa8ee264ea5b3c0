# The stability map of Kapitza's inverted pendulum (scenarios/ex-kapitza-map.lua): for every
# (frequency, amplitude) cell, the largest |q| of the full-equation run started q0 from the top
# (colour, capped at pi), with the averaged criterion a^2 omega^2 = 2 g l and Mathieu's curves
# a0 (lower) and b1 (upper, parametric resonance) about the inverted position. Drawn by the
# scenario from its data: datadir, outfile, lwmin, lwmax, amax, q0, Tslow, threshold.
load root.'/figures/style.gpi'
eval svg(860, 560)
set output outfile
f = datadir.'/ex-kapitza-map.tsv'
c = datadir.'/ex-kapitza-map-curves.tsv'
set title sprintf("Where the vibrated pendulum stays up: max|q| over T = %g √(ℓ/g) from q(0) = %g rad (stays: max|q| < %g)", Tslow, q0, threshold)
set xlabel "forcing frequency ω √(ℓ/g)"
set ylabel "forcing amplitude a/ℓ"
set xrange [lwmin:lwmax]
set yrange [0:amax]
set xtics ("2" log10(2), "5" log10(5), "10" 1, "20" log10(20), "50" log10(50), "100" 2, "200" log10(200), "500" log10(500), "1000" 3)
set cbrange [0:pi]
set cblabel "max |q| [rad]"
set palette defined (0 '#1b6ac9', 0.5 '#a5d8ff', 1.0 '#ffe8cc', 3.14 '#d9480f')
set key below center horizontal nobox
set grid front
plot f using 'lw':'a':(column('maxq') > pi ? pi : column('maxq')) with image notitle, \
     c using (log10(column('w'))):'averaged' with lines lc rgb '#000000' lw 2 title 'averaged: a²ω² = 2gℓ', \
     c using (log10(column('w'))):(strcol('mathieu_a0') eq '-' ? NaN : column('mathieu_a0')) with lines lc rgb '#000000' lw 1.5 dt 2 title 'Mathieu a_0', \
     c using (log10(column('w'))):(strcol('mathieu_b1') eq '-' ? NaN : column('mathieu_b1')) with lines lc rgb '#2b8a3e' lw 2.5 title 'Mathieu b_1 (resonance)'
