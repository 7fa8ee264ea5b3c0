# The atlas of one problem (lib/lua/kapitza/atlas/problems.lua, key 'dpend'): error against force evaluations,
# drawn by scenarios/atlas-dpend.lua from the run's data (figures/atlas.gpi; series from the run).
load root.'/figures/atlas.gpi'
