# Ober-Bloebaum et al. Figure 6.10 (drawn by scenarios/vmi-fig6.10.lua from its data).
load root.'/figures/vmi-convergence.gpi'
