# Ober-Bloebaum et al. Figure 6.14 (drawn by scenarios/vmi-fig6.14.lua from its data).
load root.'/figures/vmi-convergence.gpi'
