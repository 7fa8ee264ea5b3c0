# Ober-Bloebaum et al. Figure 6.11 (drawn by scenarios/vmi-fig6.11.lua from its data).
load root.'/figures/vmi-convergence.gpi'
