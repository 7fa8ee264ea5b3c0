# Your first experiment (scenarios/ex-hpendulum.lua): the pendulum with a horizontally vibrated
# pivot, a user model. Left: the angle from the downward vertical at the macro nodes t_n = n H --
# the direct integration, the averaged (Kapitza) motion, the HMM and SAM -- and the tilted
# equilibrium. Right: the HMM's force estimates against Kapitza's averaged force and gravity
# alone. Drawn by the scenario from its data: datadir, outfile, omega, vmax, l, g, q0, phistar
# (-1: none), H, Hp come from the run.
load root.'/figures/style.gpi'
set terminal svg size 1000,500 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
f = datadir.'/ex-hpendulum.tsv'
ff = datadir.'/ex-hpendulum-force.tsv'
set multiplot layout 1,2 title sprintf("Pendulum with a horizontally vibrated pivot: ω = %g s^{-1}, v_{max} = %g m/s, ℓ = %g m, g = %g m/s^2, φ(0) = %g", omega, vmax, l, g, q0)
set key below center horizontal nobox noopaque samplen 2
set xlabel "t [s]"
set ylabel "angle from the downward vertical [rad]"
set title sprintf("nodes t_n = n H, H = %d periods (every 6th shown)", Hp)
if (phistar > 0) set arrow 1 from graph 0, first phistar to graph 1, first phistar nohead ls 9
plot f using 't':'Q_avg' with lines ls 2 lw 3 title 'averaged', \
     '' using 't':'q_direct' with lines lc rgb '#000000' lw 0.8 title 'direct', \
     '' using 't':'Q_hmm' every 6 with points ls 1 pt 6 title 'HMM', \
     '' using 't':'q_sam' every 6::3 with points ls 3 pt 4 title 'SAM'
unset arrow 1
set xlabel "Q [rad]"
set ylabel "averaged force [rad s^{-2}]"
set title "F(Q) = sin Q (v_{max}^2 cos Q/(2ℓ^2) - g/ℓ) and the HMM estimate"
set xrange [0:pi]
set arrow 2 from graph 0, first 0 to graph 1, first 0 nohead ls 10
if (phistar > 0) set arrow 3 from first phistar, graph 0 to first phistar, graph 1 nohead ls 9
plot ff using 'Q':'F_kapitza' with lines ls 2 lw 2 title 'Kapitza', \
     '' using 'Q':'F_gravity' with lines ls 9 title 'gravity alone', \
     '' using 'Q':'F_hmm' with points ls 1 pt 6 title 'HMM estimate'
unset multiplot
