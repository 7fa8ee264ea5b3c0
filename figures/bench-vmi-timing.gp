# make bench: the computing-time study of Ober-Bloebaum et al. Sec. 6.3 (Figs. 6.18, 6.19), timed by
# scripts/bench-vmi-timing.lua (paper/bench/vmi-timing.tsv: medians, bars from the smallest to the
# largest sample): t_cpu and t_cpu(p)/t_cpu(1) (top left, centre), where the time of an MM macro step
# goes (top right), t_dx and t_Jacobi per macro step with the structured (solid) and a dense LU
# (dashed) solve (bottom left, centre) and per Newton iteration (bottom right). Machine-dependent.
load 'figures/style.gpi'
eval svg(1380, 900)
set output outfile
f = 'paper/bench/vmi-timing.tsv'
schemes = "MM TM TT"
sel(q, s, v) = (strcol('quantity') eq q && strcol('scheme') eq s && strcol('solver') eq v) ? column('median') : NaN
lo(q, s, v) = (strcol('quantity') eq q && strcol('scheme') eq s && strcol('solver') eq v) ? column('min') : NaN
hi(q, s, v) = (strcol('quantity') eq q && strcol('scheme') eq s && strcol('solver') eq v) ? column('max') : NaN
set multiplot layout 2, 3 title "FPU, Δt = 0.001, t_N = 10, drift guess: computing time (make bench; medians and the range of the samples)"
set key outside below horizontal samplen 2 spacing 1.0 font ',10' maxrows 3 noopaque
set bmargin 9
set logscale xy
set format y "10^{%L}"
set xlabel "p (ΔT = p Δt)"
set title "total computing time (Fig. 6.18, left)"
set ylabel "t_{cpu} [s]"
plot for [s = 1:3] f using 'p':(sel('t_cpu', word(schemes, s), 'structured')):(lo('t_cpu', word(schemes, s), 'structured')):(hi('t_cpu', word(schemes, s), 'structured')) \
       with yerrorlines ls s title sprintf('Q%d (%s)', s, word(schemes, s))
set title "against single rate"
set ylabel "t_{cpu}(p) / t_{cpu}(1)"
set format y "%g"
plot for [s = 1:3] f using 'p':(sel('t_cpu_ratio', word(schemes, s), 'structured')):(lo('t_cpu_ratio', word(schemes, s), 'structured')):(hi('t_cpu_ratio', word(schemes, s), 'structured')) \
       with yerrorlines ls s title sprintf('Q%d (%s)', s, word(schemes, s)), 1 with lines ls 9 notitle
set title "MM: where a macro step's time goes"
set ylabel "time per macro step [s]"
set format y "10^{%L}"
parts = "t_grad_step t_jac_step t_dx_step t_predict_step t_rest_step"
partnames = "'gradients (residuals)' 'Jacobian (Hessians + assembly)' 'linear solves' 'predictor' 'rest'"
plot for [k = 1:5] f using 'p':(sel(word(parts, k), 'MM', 'structured')) with linespoints ls k title word(partnames, k)
set title "t_{Δx}: linear solves per macro step"
set ylabel "time per macro step [s]"
plot for [s = 1:3] f using 'p':(sel('t_dx_step', word(schemes, s), 'structured')) with linespoints ls s title word(schemes, s).', structured', \
     for [s = 1:3] f using 'p':(sel('dense_t_dx_step', word(schemes, s), 'dense')) with linespoints ls s dt 2 title word(schemes, s).', dense LU'
set title "t_{Jacobi}: Jacobian per macro step"
plot for [s = 1:3] f using 'p':(sel('t_jac_step', word(schemes, s), 'structured')) with linespoints ls s title word(schemes, s).', structured', \
     for [s = 1:3] f using 'p':(sel('dense_t_jac_step', word(schemes, s), 'dense')) with linespoints ls s dt 2 title word(schemes, s).', dense LU'
set title "per Newton iteration: t_{Δx} (solid), t_{Jacobi} (dashed)"
set ylabel "time per Newton iteration [s]"
plot for [s = 1:3] f using 'p':(sel('t_dx_iter', word(schemes, s), 'structured')) with linespoints ls s title word(schemes, s).': solve', \
     for [s = 1:3] f using 'p':(sel('t_jac_iter', word(schemes, s), 'structured')) with linespoints ls s dt 2 title word(schemes, s).': Jacobian', \
     f using 'p':(sel('dense_t_dx_iter', 'MM', 'dense')) with linespoints ls 7 dt 4 title 'MM: dense LU solve'
unset multiplot
