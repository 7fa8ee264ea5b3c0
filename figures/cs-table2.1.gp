# Calvo & Sanz-Serna Table 2.1 as a picture (drawn by scenarios/cs-table2.1.lua from its table).
figtitle = 'Table 2.1: synchronous, '.(kernel eq 'uniform' ? 'simple filtering' : kernel.' kernel')
load root.'/figures/cs-table-errors.gpi'
