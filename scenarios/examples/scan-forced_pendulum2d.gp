# scan-forced_pendulum2d.gp -- drawn by scenarios/examples/scan-forced_pendulum2d.lua (found beside it):
# the HMM's distance to the direct solution at T against omega. Given: root, datadir, outfile.
load root.'/figures/style.gpi'
set output outfile
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel 'ω [s^{-1}]'
set ylabel '|Q(T) − q(T)|'
set title 'HMM (Algorithm 2) against RK4'
plot datadir.'/scan-forced_pendulum2d.tsv' using 'omega':'diff' with linespoints ls 1 title 'HMM − RK4'
