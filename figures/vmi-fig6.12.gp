# Ober-Bloebaum et al. Figure 6.12 (drawn by scenarios/vmi-fig6.12.lua from its data).
load root.'/figures/vmi-convergence.gpi'
