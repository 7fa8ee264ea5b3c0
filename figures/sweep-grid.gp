# sweep-grid.gp -- `sweep ensemble` over two keys (lib/lua/kapitza/sweep/figure.lua): a heat map of
# one component of the final state, one cell per point (x: the first key, y: the second), failed
# points (status other than ok or stopped: an observer's stop) grey.
# Given: root, datafile, outfile, comp (its column), complabel, title, nfail, and per axis p = x, y:
# pkey (its column), plabel, pmode (lin: the values; log: log10 of the values; index: the value's
# place, the values as tic labels), phalf (half a cell in the plotted coordinate), pn (how many
# values), pstride (rows between two values: the points run the first key outermost), pvalues, ptic (log: the
# step between tics, in powers of ten).
load root.'/figures/style.gpi'
set output outfile
set datafile separator "\t"
set title title font ',13'
set xlabel xlabel
set ylabel ylabel
set cblabel complabel
unset key
unset grid
set tics out
set palette defined (0 '#440154', 1 '#3b528b', 2 '#21908d', 3 '#5dc963', 4 '#fde725')
# the plotted coordinate of a row's value v (row r counts the data rows from 0)
coord(v, mode, r, n, stride) = mode eq 'log' ? log10(v) : mode eq 'lin' ? v : int(r / stride) % n + 1
X = 'coord(column(xkey), xmode, $0, xn, xstride)'
Y = 'coord(column(ykey), ymode, $0, yn, ystride)'
if (xmode eq 'log') { set format x "10^{%g}"; set xtics xtic }
if (ymode eq 'log') { set format y "10^{%g}"; set ytics ytic }
# an index axis has its values as tic labels; another one of at most 12 values tics at them
if (xmode eq 'index') { set xtics () ; do for [i = 1:xn] { set xtics add (word(xvalues, i) i) } }
if (ymode eq 'index') { set ytics () ; do for [i = 1:yn] { set ytics add (word(yvalues, i) i) } }
at(v, mode) = mode eq 'log' ? log10(real(v)) : real(v)
if (xmode ne 'index' && xn <= 12) { set xtics () ; do for [i = 1:xn] { set xtics add (word(xvalues, i) at(word(xvalues, i), xmode)) } }
if (ymode ne 'index' && yn <= 12) { set ytics () ; do for [i = 1:yn] { set ytics add (word(yvalues, i) at(word(yvalues, i), ymode)) } }
set offsets 0, 0, 0, 0
set autoscale xfix
set autoscale yfix
set style fill solid 1.0 noborder
ok(z) = strcol('status') eq 'ok' || strcol('status') eq 'stopped' ? z : NaN
plot datafile using (@X):(@Y):(xhalf):(yhalf):(ok(column(comp))) with boxxyerror lc palette, \
     datafile using (@X):(ok(1) == 1 ? NaN : @Y):(xhalf):(yhalf) with boxxyerror lc rgb '#bbbbbb'
