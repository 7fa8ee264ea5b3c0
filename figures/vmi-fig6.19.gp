# Ober-Bloebaum et al. Figure 6.19 in counts (the work behind t_dx and t_Jacobi): Newton iterations
# (= linear solves) per macro step (left) and Hessian evaluations per macro step (right, with a
# slope-1 guide) against p, Q1-Q3, from each Newton guess (solid: the first, dashed: the second).
# The times are drawn by make bench (figures/bench-vmi-timing.gp). Drawn by
# scenarios/vmi-fig6.19.lua from its data: id, schemes, predictors and title come from the run.
load root.'/figures/style.gpi'
eval svg(1060, 520)
set output outfile
d = datadir.'/'.id.'.tsv'
ns = words(schemes)
np = words(predictors)
sel(s, g, c) = (strcol('scheme') eq s && strcol('predictor') eq g) ? column(c) / column('N') : NaN
set multiplot layout 1, 2 title title
set key outside below horizontal samplen 2 spacing 1.0 font ',10' maxrows 3 noopaque
set bmargin 8 # room for the x label above the key
set logscale x
set xlabel "p (ΔT = p Δt)"
set title "linear solves per macro step (behind t_{Δx})"
set ylabel "Newton iterations per macro step"
set yrange [0 : *]
plot for [s = 1:ns] for [g = 1:np] d using 'p':(sel(word(schemes, s), word(predictors, g), 'newton')) with linespoints ls s dt g \
       title sprintf('Q%d (%s), %s guess', s, word(schemes, s), word(predictors, g))
set title "Hessian evaluations per macro step (behind t_{Jacobi})"
set ylabel "Hessian evaluations per macro step"
set logscale y
set yrange [* : *]
set format y "10^{%L}"
stats d using 'p' nooutput
pmin = STATS_min
stats d using (column('hess_evals') > 0 ? column('hess_evals') / column('N') : NaN) nooutput
hmin = STATS_min
plot for [s = 1:ns] for [g = 1:np] d using 'p':(sel(word(schemes, s), word(predictors, g), 'hess_evals')) with linespoints ls s dt g \
       title sprintf('Q%d (%s), %s guess', s, word(schemes, s), word(predictors, g)), \
     0.5 * hmin * x / pmin with lines ls 9 title 'slope 1'
unset multiplot
