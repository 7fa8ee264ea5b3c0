# The atlas of one problem in CPU seconds, with the peers: drawn by make bench from
# paper/bench/atlas-vdp.{tsv,gpvars} (scripts/bench-atlas.lua; figures/atlas.gpi).
if (!exists("root")) root = '.'
if (system("test -f '".root."/paper/bench/atlas-vdp.gpvars' && echo yes") ne "yes") { print "bench-atlas-vdp: run scripts/bench-atlas.lua first"; exit }
load root.'/paper/bench/atlas-vdp.gpvars'
load root.'/figures/atlas.gpi'
