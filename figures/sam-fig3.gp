# Calvo, Chartier, Murua & Sanz-Serna Figure 3: RK4 micro-integration (drawn by scenarios/sam-fig3.lua).
load root.'/figures/sam-kepler.gpi'
