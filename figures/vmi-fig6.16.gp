# Ober-Bloebaum et al. Figure 6.16 (drawn by scenarios/vmi-fig6.16.lua from its data).
load root.'/figures/vmi-convergence.gpi'
