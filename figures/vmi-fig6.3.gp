# Ober-Bloebaum et al. Figure 6.3 (drawn by scenarios/vmi-fig6.3.lua from its data).
load root.'/figures/vmi-fpu-energy.gpi'
