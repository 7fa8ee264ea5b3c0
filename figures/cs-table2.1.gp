# Calvo & Sanz-Serna Table 2.1 as a picture: error in Q against H, every omega and Averaged.
# needs: cs-table2.1
call 'figures/cs-table-errors.gpi' '2.1' 'synchronous HMM, exponential kernel'
