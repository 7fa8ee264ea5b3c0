# Calvo, Chartier, Murua & Sanz-Serna Figure 5: van der Pol, eps = 2^-9, Strang micro (dtau = pi/16).
# Top: error vs tau for SAM with the ode45 clone (x), SAM with constant DP5 steps (*), the
# conventional Strang integration (circles). Bottom: macro-step length vs tau.
# needs: sam-fig5
load 'figures/style.gpi'
set terminal svg size 760,900 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
dat = 'paper/data/sam-fig5.tsv'
stp = 'paper/data/sam-fig5-steps.tsv'
e = 2.0**-9
at(c) = (abs(column('eps') / e - 1) < 1e-9) ? column(c) : NaN
atm(m) = (abs(column('eps') / e - 1) < 1e-9 && strcol('method') eq m) ? column('tau') : NaN
set multiplot layout 2,1
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "τ"
set ylabel "error in (q, p)  (Euclidean)"
set key top left box opaque samplen 2
set title "Top: van der Pol, ε = 2^{-9}, Δτ = π/16: global error at τ_k = k(π/4)ε^{-1}"
plot dat using (at('tau')):'ode45' with linespoints ls 2 pt 2 title "SAM, ode45 clone (tol 2^{-16})", \
     dat using (at('tau')):'dp5' with linespoints ls 1 pt 3 ps 0.6 title "SAM, constant DP5 steps (π/4)ε^{-1}", \
     dat using (at('tau')):'strang' with lines ls 3 dt 2 title "conventional Strang"
set title "Bottom: macro-step length"
unset logscale y
set format y "%g"
set ylabel "macro-step H (τ units)"
set xlabel "τ at the end of the step"
set key top left
plot stp using (atm('ode45') + column('H')):'H' with linespoints ls 2 pt 2 title "ode45 clone", \
     stp using (atm('dp5') + column('H')):'H' with linespoints ls 1 pt 3 ps 0.5 title "constant step"
unset multiplot
