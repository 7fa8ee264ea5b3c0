# The atlas of the vibrated pendulum: error against force evaluations, drawn by
# scenarios/atlas-pendulum.lua from the run's data (figures/atlas.gpi; series from the run).
load root.'/figures/atlas.gpi'
