# Ober-Bloebaum et al. Figure 5.1: linear stability regions over (omega_s dT, omega_s dt), dt <= dT:
# the level sets below 1 of f_trap (left, trapezoidal rule on the micro grid) and f_mid (right,
# midpoint rule) as coloured bands, the level-1 curve (the stability boundary, black), the ratio
# lines omega_s dt = omega_s dT / p up to it and the vertical bound lines of Lemma 5.1, and the
# bounds the text of Sec. 5 states (open circles; paper/reference/vmi-fig5.1.tsv). Drawn by
# scenarios/vmi-fig5.1.lua from its data: id, xmax, levels and lines (the p drawn) come from the run.
load root.'/figures/style.gpi'
eval svg(1180, 600)
set output outfile
m = datadir.'/'.id.'-levels.tsv'
l = datadir.'/'.id.'-lines.tsv'
ref = root.'/paper/reference/vmi-fig5.1.tsv'
set multiplot layout 1,2 title "Linear stability of the multirate schemes (harmonic oscillator, Lemma 5.1)"
set xlabel "ω_s ΔT" offset 0,0.4
set ylabel "ω_s Δt"
set xrange [0 : xmax]
set yrange [0 : xmax]
set size ratio -1
set cbrange [0 : 1]
set palette defined (0 '#f1f3f5', 0.5 '#74c0fc', 1 '#1864ab')
set grid front
set key outside below horizontal samplen 2 spacing 1.0 font ',10' maxrows 3 noopaque
set bmargin 8 # room for the x label above the key
linecolours = "#d9480f #2b8a3e #862e9c #e67700 #c2255c #0b7285 #495057 #000000"
lc(i) = word(linecolours, (i - 1) % 8 + 1)
unset colorbox
set lmargin at screen 0.06
set rmargin at screen 0.44
set title "trapezoidal rule: f = ω_s^2ΔT^2/12 + ω_s^2Δt^2/6"
plot for [k = levels:1:-1] m using 'x':(0):(column('trap'.k)) with filledcurves fc palette cb (k * 1.0 / levels) notitle, \
     m using 'x':((column('trap'.levels) > 0 && column('trap'.levels) < column('x')) ? column('trap'.levels) : NaN) \
       with lines lc rgb '#000000' lw 1.5 title 'stability boundary f = 1', \
     for [i = 1:words(lines)] l every ::(i - 1)::(i - 1) using (0):(0):'x_trap':'y_trap' with vectors nohead lc rgb lc(i) lw 1.3 \
       title 'p = '.word(lines, i), \
     for [i = 1:words(lines)] l every ::(i - 1)::(i - 1) using 'x_trap':(0):(0):'y_trap' with vectors nohead lc rgb lc(i) lw 1 dt 2 notitle, \
     ref using (strcol('rule') eq 'trapezoidal' ? column('bound') : NaN):(column('p') > 0 ? column('bound') / column('p') : 0) \
       with points pt 6 ps 1.8 lc rgb '#000000' title 'bound stated in §5'
set title "midpoint rule: f = (ω_s^2ΔT^2 − ω_s^2Δt^2)/12"
set lmargin at screen 0.5
set rmargin at screen 0.88
set colorbox user origin screen 0.91, 0.3 size screen 0.012, 0.5
set cblabel "level f"
plot for [k = levels:1:-1] m using 'x':(column('mid'.k)):'x' with filledcurves fc palette cb (k * 1.0 / levels) notitle, \
     m using 'x':((column('mid'.levels) > 0) ? column('mid'.levels) : NaN) with lines lc rgb '#000000' lw 1.5 title 'stability boundary f = 1', \
     for [i = 1:words(lines)] l every ::(i - 1)::(i - 1) using (0):(0):'x_mid':'y_mid' with vectors nohead lc rgb lc(i) lw 1.3 \
       title 'p = '.word(lines, i), \
     for [i = 1:words(lines)] l every ::(i - 1)::(i - 1) using 'x_mid':(0):(0):(word(lines, i) + 0 > 1 ? column('y_mid') : NaN) \
       with vectors nohead lc rgb lc(i) lw 1 dt 2 notitle, \
     ref using (strcol('rule') eq 'midpoint' ? column('bound') : NaN):(column('p') > 0 ? column('bound') / column('p') : 0) \
       with points pt 6 ps 1.8 lc rgb '#000000' title 'bound stated in §5'
unset multiplot
