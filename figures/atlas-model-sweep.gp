# atlas-model-sweep.gp -- the atlas of a model of one's own over a swept parameter
# (`kapitza atlas MODEL.lua omega=1e3,1e4`, lib/lua/kapitza/atlas/user_sweep.lua): error against force
# evaluations, one panel per value of the swept key (the rows whose `value` column is that value),
# one curve per method (its runs on the curve: front_evals), the target tolerances as dashed
# lines, the legend in a column of its own (as figures/atlas.gpi lays out the papers' atlases).
# Given: root, datafile, outfile, methods (space-separated), colours, pts, dts (one per method),
# nvalues, values (the values as the data file writes them, space-separated), key, ntargets,
# target1..targetK, title, ylabel, xmin, xmax, ymin, ymax.
load root.'/figures/style.gpi'
set terminal svg size 1180,520 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
set datafile separator "\t"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [xmin:xmax]
set yrange [ymin:ymax]
set grid
nm = words(methods)
left = 0.085; right = 0.80; gap = 0.012
w = (right - left) / nvalues
set tmargin at screen 0.86
set bmargin at screen 0.13
set multiplot title title font ',14'
unset key
do for [i = 1:nvalues] {
  set lmargin at screen left + (i - 1) * w + (i > 1 ? gap : 0)
  set rmargin at screen left + i * w - gap
  set title key.' = '.word(values, i)
  set xlabel 'force evaluations'
  if (i == 1) { set ylabel ylabel; set format y "10^{%L}" } else { unset ylabel; set format y "" }
  v = word(values, i)
  plot for [j = 1:nm] datafile using \
         ((strcol('value') eq v && column('front_evals') == 1 && strcol('method') eq word(methods, j)) ? column('evaluations') : NaN):'error' \
         with linespoints lw 1.4 ps 0.6 lc rgb word(colours, j) pt int(word(pts, j)) dt int(word(dts, j)) notitle, \
       for [k = 1:ntargets] value(sprintf('target%d', k)) with lines ls 9 notitle
}
set lmargin at screen right + 0.005
set rmargin at screen 0.995
unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid; unset logscale
set xrange [0:1]; set yrange [0:1]
set key at screen right + 0.01, screen 0.88 left top Left reverse samplen 2.5 spacing 0.9 font ',9' maxrows 100 nobox
plot for [j = 1:nm] 2 with linespoints lw 1.4 ps 0.6 lc rgb word(colours, j) pt int(word(pts, j)) dt int(word(dts, j)) title word(methods, j), \
     2 with lines ls 9 title 'target tolerances'
unset multiplot
