# Sharp, Tsai & Engquist Figure 3.2: first-order schemes, fixed η and h (drawn by scenarios/ste-fig3.2.lua).
id = 'ste-fig3.2'
figtitle = 'Figure 3.2: first-order schemes, fixed η and h'
load root.'/figures/ste-errors.gpi'
