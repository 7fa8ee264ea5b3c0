# The atlas of one problem (lib/lua/kapitza/atlas/problems.lua, key 'vdp'): error against force evaluations,
# drawn by scenarios/atlas-vdp.lua from the run's data (figures/atlas.gpi; series from the run).
load root.'/figures/atlas.gpi'
