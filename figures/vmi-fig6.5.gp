# Ober-Bloebaum et al. Figure 6.5 (drawn by scenarios/vmi-fig6.5.lua from its data).
load root.'/figures/vmi-fpu-energy.gpi'
