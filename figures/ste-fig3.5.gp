# Sharp, Tsai & Engquist Figure 3.5: HMM-V-rk4, fixed and scaled η and h (drawn by scenarios/ste-fig3.5.lua).
id = 'ste-fig3.5'
figtitle = 'Figure 3.5: HMM-V-rk4, fixed and scaled η and h'
load root.'/figures/ste-errors.gpi'
