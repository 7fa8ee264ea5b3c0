# Calvo & Sanz-Serna Table 2.3 as a picture (drawn by scenarios/cs-table2.3.lua from its table).
figtitle = 'Table 2.3: asynchronous, simple filtering'
load root.'/figures/cs-table-errors.gpi'
