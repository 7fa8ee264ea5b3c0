# Ober-Bloebaum et al. Figure 6.17 (drawn by scenarios/vmi-fig6.17.lua from its data).
load root.'/figures/vmi-convergence.gpi'
