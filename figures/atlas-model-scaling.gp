# atlas-model-scaling.gp -- how the work grows with the swept parameter (`kapitza atlas MODEL.lua
# omega=1e3,1e4`, lib/lua/kapitza/atlas/user_sweep.lua): the force evaluations each method needs to
# reach one tolerance against the swept value, log-log, one line per method (the rows of
# tables/atlas-<model>-scaling.tsv at that tolerance: interpolated work joined by lines, an upper
# bound (bound 1) an open circle). Given: root, datafile, outfile, methods (space-separated),
# colours, pts, dts (one per method), tol (as the table writes it), key, title, xmin, xmax, ymin, ymax.
load root.'/figures/style.gpi'
set terminal svg size 900,560 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
set datafile separator "\t"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [xmin:xmax]
set yrange [ymin:ymax]
set grid
set title title font ',14'
set xlabel key
set ylabel 'force evaluations to reach the tolerance'
set rmargin at screen 0.74
set key at screen 0.755, screen 0.9 left top Left reverse samplen 2.5 spacing 0.9 font ',9' maxrows 100 nobox
nm = words(methods)
ok(j, b) = strcol('tol') eq tol && strcol('method') eq word(methods, j) && strcol('bound') eq b
plot for [j = 1:nm] datafile using (ok(j, '0') ? column('value') : NaN):(ok(j, '0') ? column('work') : NaN) \
       with linespoints lw 1.4 ps 0.7 lc rgb word(colours, j) pt int(word(pts, j)) dt int(word(dts, j)) title word(methods, j), \
     for [j = 1:nm] datafile using (ok(j, '1') ? column('value') : NaN):(ok(j, '1') ? column('work') : NaN) \
       with points ps 1.0 lc rgb word(colours, j) pt 6 notitle, \
     NaN with points ps 1.0 lc rgb '#495057' pt 6 title '≤ : an upper bound'
