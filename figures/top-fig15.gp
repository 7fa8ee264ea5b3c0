# Fredbo Figure 15: error in xi3 against 1/h, one curve per micro-solver, for the macro scheme
# `macro` (and dashed the others). Drawn by scenarios/top-fig15.lua from the run's data: datadir,
# outfile, omega, N, eta_h, macro, micros, others (the other macro schemes, dashed) (and root, for
# the style) come from the scenario.
load root.'/figures/style.gpi'
set output outfile
f = datadir.'/top-fig15.tsv'
set logscale xy
set format y "10^{%L}"
set format x "10^{%L}"
set xlabel "1/h [s^{-1}]"
set ylabel "max error in ξ_3"
set key outside right top
set title sprintf("Error in ξ_3 against 1/h, ω = %g, H = T/%d, η = %dh", omega, N, eta_h)
plot for [i=1:words(micros)] f using ((strcol('macro') eq macro && strcol('micro') eq word(micros, i)) ? column('invh') : 1/0):'error' \
       with linespoints ls i title sprintf("HMM-%s-%s", macro, word(micros, i)), \
     for [i=1:words(micros)] f using ((strcol('macro') ne macro && strcol('micro') eq word(micros, i)) ? column('invh') : 1/0):'error' \
       with linespoints ls i dt 2 pt 6 title sprintf("HMM-%s-%s", others, word(micros, i))
