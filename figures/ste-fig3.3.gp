# Sharp, Tsai & Engquist Figure 3.3: second-order schemes, fixed η and h (drawn by scenarios/ste-fig3.3.lua).
id = 'ste-fig3.3'
figtitle = 'Figure 3.3: second-order schemes, fixed η and h'
load root.'/figures/ste-errors.gpi'
