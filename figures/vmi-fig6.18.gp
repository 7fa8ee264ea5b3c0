# Ober-Bloebaum et al. Figure 6.18 (work, not time): the total Newton iterations (left; the paper's
# right panel) and the total gradient (solid) and Hessian (dashed) evaluations (centre) of the study
# against p for Q1 (MM), Q2 (TM), Q3 (TT); right: the relative total-energy error of the long runs
# at large macro steps (Sec. 7) until they end. The paper's t_cpu is measured by make bench
# (figures/bench-vmi-timing.gp). Drawn by scenarios/vmi-fig6.18.lua from its data: id, schemes,
# stab_p, stab_T, dt, T and title come from the run.
load root.'/figures/style.gpi'
eval svg(1320, 540)
set output outfile
d = datadir.'/'.id.'.tsv'
st = datadir.'/'.id.'-stability.tsv'
ns = words(schemes)
set multiplot layout 1, 3 title title
set key outside below horizontal samplen 2 spacing 1.0 font ',10' maxrows 3 noopaque
set bmargin 7 # room for the x label above the key
set logscale xy
set format y "10^{%L}"
set xlabel "p (ΔT = p Δt)"
set title "Newton iterations (= linear solves)"
set ylabel "total over the run"
plot for [s = 1:ns] d using 'p':(strcol('scheme') eq word(schemes, s) ? column('newton') : NaN) with linespoints ls s \
       title sprintf('Q%d (%s)', s, word(schemes, s))
set title "force and Hessian evaluations"
set ylabel ""
plot for [s = 1:ns] d using 'p':(strcol('scheme') eq word(schemes, s) ? column('force_evals') : NaN) with linespoints ls s \
       title word(schemes, s).': gradients of V, W', \
     for [s = 1:ns] d using 'p':(strcol('scheme') eq word(schemes, s) ? column('hess_evals') : NaN) with linespoints ls s dt 2 \
       title word(schemes, s).': Hessians'
set logscale y
unset logscale x
set format x "%g"
set xrange [0 : stab_T]
set xlabel "t"
set title "long runs at large ΔT (§7)"
set ylabel "|H(t) − H(0)| / H(0)"
plot for [s = 1:ns] for [j = 1:words(stab_p)] st using 't':((strcol('scheme') eq word(schemes, s) && column('p') == word(stab_p, j) + 0 \
       && column('relerr') != 0) ? abs(column('relerr')) : NaN) with lines ls s dt j \
       title sprintf('%s, ΔT = %g', word(schemes, s), (word(stab_p, j) + 0) * dt), \
     0.1 with lines ls 9 title '10 %'
unset multiplot
