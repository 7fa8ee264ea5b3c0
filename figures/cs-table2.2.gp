# Calvo & Sanz-Serna Table 2.2 as a picture: error in Q against H, every omega and Averaged.
# needs: cs-table2.2
call 'figures/cs-table-errors.gpi' '2.2' 'asynchronous HMM, exponential kernel'
