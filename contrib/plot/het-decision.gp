# het-decision.gp - bench_het's case study 1 (decision time against the
# number of jobs, SJS and PJS) as doc/het-decision.png.
#   ./bench/bench_het > het.out
#   awk '/^\(a\)/{a=1} /^\(b\)/{a=0} a && $1 ~ /^[0-9]+$/' het.out > het-decision.dat
#   gnuplot -e "datafile='het-decision.dat'; out='het-decision.png'" contrib/plot/het-decision.gp
# Columns: jobs, % possibly parallel, SJS ms, PJS ms, PJS/SJS, % run parallel.
if (!exists("datafile")) datafile = 'het-decision.dat'
if (!exists("out")) out = 'het-decision.png'
set terminal pngcairo size 800,500
set output out
set logscale xy
set xlabel "jobs (40 machines)"
set ylabel "CPU ms per schedule"
set key top left
set grid
plot datafile using 1:($2 == 0 ? $3 : 1/0) with points pointsize 1.5 title "SJS (0 % possibly parallel)", \
     datafile using 1:($2 == 50 ? $4 : 1/0) with points pointsize 1.5 title "PJS, 50 %", \
     datafile using 1:($2 == 100 ? $4 : 1/0) with points pointsize 1.5 title "PJS, 100 %"
