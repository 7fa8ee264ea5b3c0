# Ober-Bloebaum et al. Figure 6.8 (drawn by scenarios/vmi-fig6.8.lua from its data).
load root.'/figures/vmi-ring-energy.gpi'
