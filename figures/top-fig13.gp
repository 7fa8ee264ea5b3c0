# Fredbo Figure 13: error in xi3 against 1/H; left HMM-FE-*, right HMM-LF-*. Drawn by
# scenarios/top-fig13.lua from the run's data: datadir, outfile, omega, h, etas (the windows
# eta/h), schemes (the run's HMM-<macro>-<micro> schemes) and macros (the macro-solvers among
# them, one panel each) (and root, for the style) come from the scenario.
load root.'/figures/style.gpi'
set terminal svg size 1000,460 dynamic enhanced font 'Helvetica,12' linewidth 1.1 background rgb 'white'
set output outfile
f = datadir.'/top-fig13.tsv'
set logscale xy
set format y "10^{%L}"
set xlabel "1/H [s^{-1}]"
set ylabel "max error in ξ_3"
set key outside below horizontal
set multiplot layout 1,words(macros) title sprintf("Error in ξ_3 against 1/H, ω = %g, h = %g", omega, h)
do for [mac in macros] {
  set title "HMM-".mac."-*"
  # this panel's schemes (every panel has one at least: macros lists only those with one)
  ss = ''
  do for [s in schemes] { if (s[1:strlen(mac) + 1] eq mac.'-') { ss = ss.' '.s } }
  plot for [i=1:words(ss)*words(etas)] f using \
       ((strcol('scheme') eq word(ss, (i-1)/words(etas)+1) && column('eta_h') == word(etas, (i-1)%words(etas)+1)+0) ? column('invH') : 1/0):'error' \
       with linespoints ls i title sprintf("%s, η = %sh", word(ss, (i-1)/words(etas)+1), word(etas, (i-1)%words(etas)+1))
}
unset multiplot
