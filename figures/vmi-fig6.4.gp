# Ober-Bloebaum et al. Figure 6.4 (drawn by scenarios/vmi-fig6.4.lua from its data).
load root.'/figures/vmi-fpu-energy.gpi'
