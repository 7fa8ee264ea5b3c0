# Sharp, Tsai & Engquist: the effective potential of Sec. 4 with the energy level E0 and the
# angles theta_s and theta_max (left), and the transform of the kernel (3.5) (right); drawn by
# scenarios/ste-constants.lua from its data (E0, theta_s, theta_max from the run).
load root.'/figures/style.gpi'
set terminal svg size 980,420 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
set multiplot layout 1,2 title "Inverted pendulum (3.2) and kernel (3.5)"
set key at graph 0.5, graph 0.98 center top
set xlabel "θ [rad]"
set ylabel "V(θ) = g cos θ + sin^2θ/(16π^2 l)"
set arrow 1 from theta_s, graph 0 to theta_s, graph 1 nohead ls 9
set arrow 2 from theta_max, graph 0 to theta_max, graph 1 nohead ls 10
set label 1 sprintf("θ_s = %.4f", theta_s) at theta_s, graph 0.6 offset 0.5,0
set label 2 sprintf("θ_{max} = %.4f", theta_max) at theta_max, graph 0.3 offset 0.5,0
plot datadir.'/ste-constants-potential.tsv' using 'theta':'V' with lines ls 1 title 'V(θ)', \
     E0 with lines ls 2 dt 2 title sprintf('E_0 = %.4f', E0)
unset arrow 1; unset arrow 2; unset label 1; unset label 2
set logscale y
set format y "10^{%L}"
set xlabel "k = η/ε (fast periods in the window)"
set ylabel "|∫K(u) cos(2πku) du|"
set key default
set key top right box opaque
plot datadir.'/ste-constants-kernel.tsv' using 'k':'abs_Khat' with linespoints ls 3 title '(3.5), normalised'
unset multiplot
