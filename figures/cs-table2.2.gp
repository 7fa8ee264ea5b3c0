# Calvo & Sanz-Serna Table 2.2 as a picture (drawn by scenarios/cs-table2.2.lua from its table).
figtitle = 'Table 2.2: asynchronous, '.(kernel eq 'uniform' ? 'simple filtering' : kernel.' kernel')
load root.'/figures/cs-table-errors.gpi'
