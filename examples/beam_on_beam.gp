# Spectrogram of the vertical acceleration of the free end T of the cantilever
# (examples/beam_on_beam.jnt; Machines 2022, Figs. 5-7 and 9 for the time histories,
# Fig. 6 for the spectrograms).
#
# gnuplot has no FFT: examples/beam_on_beam_spec.py computes the short-time
# Fourier transform of the run's CSV with numpy, writes it as a CSV and calls
# this script, which only draws it:
#   jnt run examples/beam_on_beam.jnt                       # beam_on_beam.csv
#   python3 examples/beam_on_beam_spec.py beam_on_beam.csv  # _spec.csv, _spec.png
#
# Usage (by hand, on a spectrogram CSV):
#   gnuplot -e "spec='x_spec.csv'; png='x_spec.png'" examples/beam_on_beam.gp
# optional variables (-e "...; name=value"):
#   csv   = 'x.csv'   time history with t in column 1 and a in column 2
#                     (header line, comma-separated): drawn above the spectrogram
#   title = 'Subs-b'  title of the figure
#   fmax  = 20000     upper frequency shown (Hz); default: all of the file
#   zmin, zmax        colour range in dB; default: zmax = the file's maximum,
#                     zmin = zmax - 80
#
# Spectrogram CSV (spec):
#   - optional comment lines starting with '#' (e.g. the STFT parameters);
#   - one header line 't,f,mag';
#   - then one row per (frame, frequency bin): t = centre time of the frame (s),
#     f = bin frequency (Hz), mag = amplitude in dB re 1 m/s^2,
#     20 log10(2 |X_k| / sum(w)) with X the FFT of the Hann-windowed frame w a;
#   - frames in ascending t, bins in ascending f (0 to fmax) within a frame, the
#     same bins in every frame (a regular grid: 'with image' needs one), frames
#     separated by one blank line.
#   Window and hop are the writer's choice; beam_on_beam_spec.py: Hann, 2048
#   samples of a 10 us output interval (20.5 ms, 49 Hz bins), hop 512 (5.1 ms).
#   The output interval must resolve the bursts (sample rate > 2 x their
#   frequency) or they show up aliased.

if (!exists("spec") || !exists("png")) {
    print "usage: gnuplot -e \"spec='x_spec.csv'; png='x.png'\" examples/beam_on_beam.gp"
    exit status 2
}
if (!exists("title")) title = ''

set datafile separator ','
set datafile commentschars '#'

# Range of the file (header line skipped: column 1 of it is not a number).
stats spec using 1:3 nooutput
tmin = STATS_min_x
tmax = STATS_max_x
if (!exists("zmax")) zmax = STATS_max_y
if (!exists("zmin")) zmin = zmax - 80
stats spec using 2 nooutput
if (!exists("fmax")) fmax = STATS_max

set terminal pngcairo size 1000,(exists("csv") ? 800 : 520) noenhanced
set output png

if (exists("csv")) {
    set multiplot layout 2,1 title title
    set lmargin at screen 0.10
    set rmargin at screen 0.86
    set grid
    set xrange [tmin:tmax]
    set ylabel 'a_T (m/s^2)'
    set format x ''
    plot csv using 1:2 with lines lw 1 lc rgb '#1f4e9c' notitle
    set format x '%g'
    unset grid
} else {
    set title title
}

set xrange [tmin:tmax]
set yrange [0:fmax]
set cbrange [zmin:zmax]
set xlabel 't (s)'
set ylabel 'f (Hz)'
set cblabel 'amplitude (dB re 1 m/s^2)'
set palette defined (0 '#000004', 1 '#3b0f70', 2 '#8c2981', 3 '#de4968', 4 '#fe9f6d', 5 '#fcfdbf')
set tics out
plot spec using 1:2:3 with image notitle

if (exists("csv")) { unset multiplot }
