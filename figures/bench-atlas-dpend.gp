# The atlas of one problem in CPU seconds, with the peers: drawn by make bench from
# paper/bench/atlas-dpend.{tsv,gpvars} (scripts/bench-atlas.lua; figures/atlas.gpi).
if (!exists("root")) root = '.'
if (system("test -f '".root."/paper/bench/atlas-dpend.gpvars' && echo yes") ne "yes") { print "bench-atlas-dpend: run scripts/bench-atlas.lua first"; exit }
load root.'/paper/bench/atlas-dpend.gpvars'
load root.'/figures/atlas.gpi'
