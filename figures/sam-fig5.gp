# Calvo, Chartier, Murua & Sanz-Serna Figure 5: van der Pol with a Strang micro-integrator, drawn by
# scenarios/sam-fig5.lua from its data. Top: error against tau of SAM with the ode45 clone (x),
# SAM with constant DP5 steps (*) and the conventional Strang integration (circles, every 8th
# sample marked); bottom: macro-step length against tau. From the run: eps (the value drawn),
# epslab, n, tol.
load root.'/figures/style.gpi'
set terminal svg size 800,900 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
dat = datadir.'/sam-fig5.tsv'
stp = datadir.'/sam-fig5-steps.tsv'
at(c) = (abs(column('eps') / eps - 1) < 1e-9) ? column(c) : NaN
atm(m) = (abs(column('eps') / eps - 1) < 1e-9 && strcol('method') eq m) ? column('tau') : NaN
set multiplot layout 2,1
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "τ"
set ylabel "error in (q, p)  (Euclidean)"
set key outside right top box opaque samplen 2
set title sprintf("Top: van der Pol, ε = %s, Δτ = 2π/%d: global error at the stroboscopic times", epslab, n)
plot dat using (at('tau')):'ode45' with linespoints ls 2 pt 2 pi 4 title "SAM, ode45 clone", \
     dat using (at('tau')):'dp5' with linespoints ls 1 pt 3 ps 0.8 pi 4 title "SAM, constant DP5", \
     dat using (at('tau')):'strang' with linespoints ls 3 dt 2 pt 6 pi 8 title "conventional Strang"
set title "Bottom: macro-step length"
unset logscale y
set format y "%g"
set ylabel "macro-step H (τ units)"
set xlabel "τ at the end of the step"
plot stp using (atm('ode45') + column('H')):'H' with linespoints ls 2 pt 2 title "ode45 clone", \
     stp using (atm('dp5') + column('H')):'H' with linespoints ls 1 pt 3 ps 0.5 pi 8 title "constant step"
unset multiplot
