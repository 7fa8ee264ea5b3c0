# Sharp, Tsai & Engquist Figure 3.1: Theta(t) (top) and Omega(t) (bottom) of HMM-FE-y and
# HMM-IFE-y with the averaged solution of (3.2); drawn by scenarios/ste-fig3.1.lua from its data
# (micro, caption from the run).
load root.'/figures/style.gpi'
set terminal svg size 900,640 dynamic enhanced font 'Helvetica,13' linewidth 1.2 background rgb 'white'
set output outfile
f = datadir.'/ste-fig3.1.tsv'
set multiplot layout 2,1 title "Figure 3.1: HMM-FE-".micro." and HMM-IFE-".micro." against the averaged equation (3.2)\n{/*0.8 ".caption."}"
set key outside right top
set ylabel "Θ [rad]"
plot f using 't':'Theta_ref' with lines ls 7 lw 2.5 title 'averaged (3.2)', \
     '' using 't':'Theta_FE' with lines ls 1 title 'HMM-FE-'.micro, \
     '' using 't':'Theta_IFE' with lines ls 2 title 'HMM-IFE-'.micro
set xlabel "t [s]"
set ylabel "Ω [rad s^{-1}]"
plot f using 't':'Omega_ref' with lines ls 7 lw 2.5 title 'averaged (3.2)', \
     '' using 't':'Omega_FE' with lines ls 1 title 'HMM-FE-'.micro, \
     '' using 't':'Omega_IFE' with lines ls 2 title 'HMM-IFE-'.micro
unset multiplot
