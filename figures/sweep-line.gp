# sweep-line.gp -- `sweep ensemble` over one key (lib/lua/kapitza/sweep/figure.lua): the final state
# against the swept value, one line per component, points at the grid values; failed points
# (status other than ok or stopped) left out of the lines and marked by a grey x at the bottom.
# Given: root, datafile, outfile, key (its column), keylabel, comps (columns, space-separated),
# labels (their legend texts), logx (1: log x axis), ylabel, title, nfail.
load root.'/figures/style.gpi'
set output outfile
set datafile separator "\t"
set title title font ',13'
set xlabel keylabel
set ylabel ylabel
if (logx) { set logscale x; set format x "10^{%L}" }
set y2range [0:1]
unset y2tics
set key top left box opaque
set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05
ok(y) = strcol('status') eq 'ok' || strcol('status') eq 'stopped' ? y : NaN
nc = words(comps)
plot for [i = 1:nc] datafile using (column(key)):(ok(column(word(comps, i)))) with linespoints ls i title word(labels, i), \
     datafile using (column(key)):(ok(1) == 1 ? NaN : 0.03) axes x1y2 with points pt 2 ps 1.2 lc rgb '#868e96' \
       title (nfail > 0 ? 'failed' : '')
