# The atlas of one problem in CPU seconds, with the peers: drawn by make bench from
# paper/bench/atlas-pendulum.{tsv,gpvars} (scripts/bench-atlas.lua; figures/atlas.gpi).
if (!exists("root")) root = '.'
if (system("test -f '".root."/paper/bench/atlas-pendulum.gpvars' && echo yes") ne "yes") { print "bench-atlas-pendulum: run scripts/bench-atlas.lua first"; exit }
load root.'/paper/bench/atlas-pendulum.gpvars'
load root.'/figures/atlas.gpi'
