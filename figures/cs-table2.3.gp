# Calvo & Sanz-Serna Table 2.3 as a picture: error in Q against H, every omega and Averaged.
# needs: cs-table2.3
call 'figures/cs-table-errors.gpi' '2.3' 'asynchronous HMM, simple filtering'
