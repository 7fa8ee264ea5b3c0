# The atlas of one problem in CPU seconds, with the peers: drawn by make bench from
# paper/bench/atlas-top.{tsv,gpvars} (scripts/bench-atlas.lua; figures/atlas.gpi).
if (!exists("root")) root = '.'
if (system("test -f '".root."/paper/bench/atlas-top.gpvars' && echo yes") ne "yes") { print "bench-atlas-top: run scripts/bench-atlas.lua first"; exit }
load root.'/paper/bench/atlas-top.gpvars'
load root.'/figures/atlas.gpi'
