# Sharp, Tsai & Engquist (3.4): the force estimator's error against eps/h (left: micro term of
# v, lf and rk4 at eta = 50 eps) and against eta/eps (right: the kernel term, rk4, on and off
# the eps-grid); drawn by scenarios/ste-force.lua from its data.
load root.'/figures/style.gpi'
set terminal svg size 980,440 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
f = datadir.'/ste-force-sweep.tsv'
set multiplot layout 1,2 title "The HMM force estimate F_{(2)} against the averaged force F of (3.2)\n{/*0.8 ".caption."}"
set logscale xy
set format y "10^{%L}"
set key top right
set xlabel "ε/h (η = 50ε)"
set ylabel "|F_{(2)} − F|"
plot for [s in "v lf rk4"] f using (strcol('sweep') eq 'h' && strcol('series') eq s ? column('x') : 1/0):'abs_error' \
       with linespoints ls (s eq 'v' ? 1 : s eq 'lf' ? 2 : 3) title s
set xlabel "η/ε (rk4, h = ε/50)"
unset ylabel
plot for [s in "on off"] f using (strcol('sweep') eq 'eta' && strcol('series') eq s ? column('x') : 1/0):'abs_error' \
       with linespoints ls (s eq 'on' ? 4 : 5) title 't_{n} '.s.' the ε-grid'
unset multiplot
