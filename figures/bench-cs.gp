# make bench: cost of Algorithm 2 with simple filtering against direct Verlet integration of
# (2.2) with the same micro-step, versus omega (data: paper/bench/cs.tsv, written by make bench).
load 'figures/style.gpi'
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "ω [s^{-1}]"
set ylabel "wall-clock time for 0 ≤ t ≤ 1 s [s]"
set key top left
set title "HMM cost is flat in ω, direct integration grows like ω (H = 1/80)"
plot 'paper/bench/cs.tsv' using 'omega':'hmm_seconds' with linespoints ls 1 title 'HMM (Algorithm 2, simple filtering)', \
     '' using 'omega':'direct_seconds' with linespoints ls 2 title 'direct Verlet on (2.2), h = 2πH/ω'
