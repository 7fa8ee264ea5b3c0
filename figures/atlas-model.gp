# atlas-model.gp -- the atlas of a model of one's own (`kapitza atlas MODEL.lua`, lib/lua/kapitza/atlas/user.lua):
# left, error against force evaluations; right, error against CPU seconds (this machine's, measured);
# one curve per method (its runs on the curve of each panel: columns front_evals, front_seconds),
# the target tolerances as dashed lines, the legend in a column of its own. Given: root,
# datafile, outfile, methods (space-separated), colours, pts, dts (one per method), ntargets,
# target1..targetK, title, ylabel, xmin1, xmax1 (evaluations), xmin2, xmax2 (seconds), ymin, ymax.
load root.'/figures/style.gpi'
set terminal svg size 1180,520 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
set datafile separator "\t"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set yrange [ymin:ymax]
set grid
nm = words(methods)
left = 0.085; right = 0.80; gap = 0.012
w = (right - left) / 2
set tmargin at screen 0.86
set bmargin at screen 0.13
set multiplot title title font ',14'
unset key
do for [i = 1:2] {
  set lmargin at screen left + (i - 1) * w + (i > 1 ? 0.045 : 0)
  set rmargin at screen left + i * w - gap
  if (i == 1) {
    set xrange [xmin1:xmax1]; set title 'work: force evaluations'; set xlabel 'force evaluations'
    set ylabel ylabel
  } else {
    set xrange [xmin2:xmax2]; set title 'CPU seconds (this machine)'; set xlabel 'CPU seconds'
    unset ylabel
  }
  xc = (i == 1 ? 'evaluations' : 'seconds')
  fc = (i == 1 ? 'front_evals' : 'front_seconds')
  plot for [j = 1:nm] datafile using \
         ((column(fc) == 1 && strcol('method') eq word(methods, j)) ? column(xc) : NaN):'error' \
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
