# Calvo, Chartier, Murua & Sanz-Serna Figure 4: Strang micro-integration (drawn by scenarios/sam-fig4.lua).
load root.'/figures/sam-kepler.gpi'
