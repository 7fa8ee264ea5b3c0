# The atlas of one problem in CPU seconds, with the peers: drawn by make bench from
# paper/bench/atlas-ring.{tsv,gpvars} (scripts/bench-atlas.lua; figures/atlas.gpi).
if (!exists("root")) root = '.'
if (system("test -f '".root."/paper/bench/atlas-ring.gpvars' && echo yes") ne "yes") { print "bench-atlas-ring: run scripts/bench-atlas.lua first"; exit }
load root.'/paper/bench/atlas-ring.gpvars'
load root.'/figures/atlas.gpi'
