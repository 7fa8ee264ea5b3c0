# Ober-Bloebaum et al. Figure 5.1: linear stability regions over (omega_s dT, omega_s dt), level sets
# below 1 of f_trap (left, trapezoidal rule on the micro grid) and f_mid (right, midpoint rule), with
# the ratio lines omega_s dt = omega_s dT / p and the vertical stability bounds of Lemma 5.1.
# needs: vmi-fig5.1
load 'figures/style.gpi'
set terminal svg size 1100,480 dynamic enhanced font 'Helvetica,12' linewidth 1.2 background rgb 'white'
set output outfile
set multiplot layout 1,2 title "Linear stability of the multirate schemes (harmonic oscillator, Lemma 5.1)"
set xlabel "ω_s ΔT"
set ylabel "ω_s Δt"
set xrange [0:4.5]
set yrange [0:4.5]
set size ratio -1
set cbrange [0:1]
set palette defined (0 '#f1f3f5', 0.5 '#74c0fc', 1 '#1864ab')
set key off
set grid front
m = 'paper/data/vmi-fig5.1-map.tsv'
l = 'paper/data/vmi-fig5.1-lines.tsv'
set title "trapezoidal rule: f = ω_s^2ΔT^2/12 + ω_s^2Δt^2/6 < 1"
plot m using 1:2:(($2 <= $1 && $3 < 1) ? $3 : NaN) with image, \
     l using (0):(0):'x_trap':'y_trap' with vectors nohead ls 10, \
     l using 'x_trap':(0):(0):'y_trap' with vectors nohead ls 9, \
     l using 'x_trap':'y_trap':(sprintf(" p = %d", column('p'))) with labels left font ',10'
set title "midpoint rule: f = (ω_s^2ΔT^2 − ω_s^2Δt^2)/12 < 1"
plot m using 1:2:(($2 <= $1 && $4 < 1) ? $4 : NaN) with image, \
     l using (0):(0):'x_mid':'y_mid' with vectors nohead ls 10, \
     l using 'x_mid':(0):(0):(column('p') > 1 ? column('y_mid') : NaN) with vectors nohead ls 9, \
     l using 'x_mid':'y_mid':(sprintf(" p = %d", column('p'))) with labels left font ',10'
unset multiplot
