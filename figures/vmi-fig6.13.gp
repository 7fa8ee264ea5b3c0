# Ober-Bloebaum et al. Figure 6.13 (drawn by scenarios/vmi-fig6.13.lua from its data).
load root.'/figures/vmi-convergence.gpi'
