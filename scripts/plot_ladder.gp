# Time per rung per scene from the table scripts/profile.sh --plot makes
# from profile.csv: one line per rung, one column per scene, "-" where a
# run failed. A run is setup (a warm-up render) and one timed frame, so
# its time holds two renders (auto: its trials too). Set datafile,
# outfile and columns with gnuplot -e.
set terminal png size 1100,600 noenhanced
set output outfile
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set grid ytics
set ylabel "kernel time of a run: warm-up and one frame (ms, log scale)"
set xlabel "rung of the ladder"
set title "render: kernel time per rung and scene (Nsight Compute)"
set key outside right top
plot for [i=2:columns] datafile using i:xtic(1) title columnheader(i)
