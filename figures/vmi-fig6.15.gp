# Ober-Bloebaum et al. Figure 6.15 (drawn by scenarios/vmi-fig6.15.lua from its data).
load root.'/figures/vmi-convergence.gpi'
