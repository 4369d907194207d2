# torus-paper.gp - plots of the Angara torus experiment
# (bench/bench_torus_paper, doc/torus-experiment.md).
#
#   gnuplot -e "dir='torus-paper'" contrib/plot/torus-paper.gp
#
# reads DIR/by-window.dat, DIR/by-torus.dat (columns: window,
# U base/FS/FS+MSS in %, mean Q/Wtime base/FS/FS+MSS, U and Q/Wtime of
# torus-anchor) and DIR/tori.gp (the tori of by-torus.dat's blocks, in
# order, as bench_torus_paper wrote them) and writes
#   DIR/torus-paper.png        means over the tori: utilisation and
#                              delay vs window (the paper's figs 5, 6)
#   DIR/torus-paper-tori.png   the same per torus (rows: U, then Q/Wtime)
# Set out='...' to change the first file's name.

if (!exists("dir")) dir = 'torus-paper'
if (!exists("out")) out = dir.'/torus-paper.png'
out_tori = dir.'/torus-paper-tori.png'
means = dir.'/by-window.dat'
per = dir.'/by-torus.dat'

names = "base Find_Systems Find_Systems+MSS torus-anchor"
# the data columns of method m: U, then Q/Wtime (anchor's come last)
ucol(m) = (m < 4 ? m + 1 : 8)
qcol(m) = (m < 4 ? m + 4 : 9)
set style line 1 lc rgb '#1f77b4' lw 2 pt 7 ps 1.0
set style line 2 lc rgb '#2ca02c' lw 2 pt 5 ps 1.0
set style line 3 lc rgb '#d62728' lw 2 pt 9 ps 1.2
set style line 4 lc rgb '#9467bd' lw 2 pt 11 ps 1.0 dt 2
set logscale x 2
set xrange [0.8:160]
set xtics (1, 2, 4, 8, 16, 32, 64, 128)
set grid
set key top left

# ---- means over the tori ---------------------------------------------------
set terminal pngcairo size 1100,450 font ',10' noenhanced
set output out
set multiplot layout 1,2 title 'Angara torus experiment: means over the tori and seeds'
set title 'Utilisation U'
set xlabel 'window (jobs)'
set ylabel 'U, %'
plot for [m=1:4] means using 1:(column(ucol(m))) with linespoints ls m title word(names, m)
set title 'Delay: mean Q/Wtime'
set ylabel 'Q/Wtime'
set logscale y
set key top right
plot for [m=1:4] means using 1:(column(qcol(m))) with linespoints ls m title word(names, m)
unset logscale y
unset multiplot

# ---- per torus ---------------------------------------------------------------
load dir.'/tori.gp'  # sets tori (no shell: dir may hold any character)
n = words(tori)
cols = (n < 5 ? n : 5)
rows = (n + cols - 1) / cols
set terminal pngcairo size 330*cols,290*2*rows font ',9' noenhanced
set output out_tori
set multiplot layout 2*rows,cols title 'Per torus (means over seeds): utilisation U in % (upper rows), mean Q/Wtime (lower rows)'
set key bottom right font ',8'
unset xlabel
unset ylabel
do for [i=1:n] {
	set title 'U, '.word(tori, i)
	plot for [m=1:4] per index (i-1) using 1:(column(ucol(m))) with linespoints ls m title (i == 1 ? word(names, m) : '')
}
do for [i=n+1:rows*cols] { set multiplot next }
set logscale y
do for [i=1:n] {
	set title 'Q/Wtime, '.word(tori, i)
	plot for [m=1:4] per index (i-1) using 1:(column(qcol(m))) with linespoints ls m notitle
}
unset multiplot
