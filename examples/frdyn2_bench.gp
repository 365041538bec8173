# Plot the FrDyn2 test bench (examples/frdyn2_bench.jnt): forces and displacement,
# like Rill and Schuderer 2023, Figs. 6c and 8c. Usage: gnuplot -e "csv='out.csv'; png='out.png'" examples/frdyn2_bench.gp
set terminal pngcairo size 900,700 noenhanced
set output png
set datafile separator ','
set multiplot layout 2,1
set grid
set xlabel 't (s)'
set ylabel 'force (N)'
plot csv using 1:4 with lines lw 2 title 'F (push)', csv using 1:5 with lines lw 2 dt 2 title 'F_R (friction)'
set ylabel 'u (m)'
plot csv using 1:2 with lines lw 2 title 'u (block displacement)'
unset multiplot
