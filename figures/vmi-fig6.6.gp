# Ober-Bloebaum et al. Figure 6.6 (drawn by scenarios/vmi-fig6.6.lua from its data).
load root.'/figures/vmi-ring-energy.gpi'
