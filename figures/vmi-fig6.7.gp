# Ober-Bloebaum et al. Figure 6.7 (drawn by scenarios/vmi-fig6.7.lua from its data).
load root.'/figures/vmi-ring-energy.gpi'
