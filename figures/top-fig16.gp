# Fredbo Figure 16: abs(I(t_n) - I(0)) of the energy H, Pi.Gamma and |Gamma|^2 under HMM-LF-rk4
# (solid), with the Heun start (dashed) and the basic least squares (dotted). Drawn by
# scenarios/top-fig16.lua from the run's data: datadir, outfile, omega, N (and root, for style).
load root.'/figures/style.gpi'
set terminal svg size 1000,420 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig16.tsv'
set logscale y
set format y "10^{%L}"
set xlabel "t [s]"
set ylabel "|I(x_n) − I(x_0)|"
set key outside below horizontal
set bmargin 8 # three key rows below the x label, not on it
set multiplot layout 1,3 title sprintf("First integrals, HMM-LF-rk4, ω = %g, H = T/%d", omega, N)
names = "dH dPiGamma dGamma2"
do for [i=1:3] {
  c = word(names, i)
  set title (i == 1 ? "|ΔH| = |H(x_n) − H(x_0)|, energy (24)" : (i == 2 ? "|Δ(Π·Γ)| = |Π·Γ(x_n) − Π·Γ(x_0)|" : "|Δ‖Γ‖^2| = |‖Γ_n‖^2 − ‖Γ_0‖^2|"))
  plot f using 't':(column(c) > 0 ? column(c) : 1/0) with lines ls 1 title 'FE start, min. norm', \
       '' using 't':(column(c.'_heun') > 0 ? column(c.'_heun') : 1/0) with lines ls 2 dt 2 title 'Heun start', \
       '' using 't':(column(c.'_basic') > 0 ? column(c.'_basic') : 1/0) with lines ls 3 dt 3 title 'basic LSQ'
}
unset multiplot
