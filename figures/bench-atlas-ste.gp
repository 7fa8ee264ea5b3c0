# The atlas of one problem in CPU seconds, with the peers: drawn by make bench from
# paper/bench/atlas-ste.{tsv,gpvars} (scripts/bench-atlas.lua; figures/atlas.gpi).
if (!exists("root")) root = '.'
if (system("test -f '".root."/paper/bench/atlas-ste.gpvars' && echo yes") ne "yes") { print "bench-atlas-ste: run scripts/bench-atlas.lua first"; exit }
load root.'/paper/bench/atlas-ste.gpvars'
load root.'/figures/atlas.gpi'
