# Sharp, Tsai & Engquist Figure 3.4: HMM-V-v, fixed and scaled η and h (drawn by scenarios/ste-fig3.4.lua).
id = 'ste-fig3.4'
figtitle = 'Figure 3.4: HMM-V-v, fixed and scaled η and h'
load root.'/figures/ste-errors.gpi'
