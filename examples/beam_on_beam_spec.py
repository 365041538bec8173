#!/usr/bin/env python3
"""Spectrogram of the free end's vertical acceleration a_T of
examples/beam_on_beam.jnt (Machines 2022, Fig. 6), for beam_on_beam.gp.

    jnt run examples/beam_on_beam.jnt                 # beam_on_beam.csv
    python3 examples/beam_on_beam_spec.py beam_on_beam.csv
        # writes beam_on_beam_spec.csv and, with gnuplot, beam_on_beam_spec.png

gnuplot has no FFT, so this script computes the short-time Fourier
transform with numpy and writes it as beam_on_beam.gp reads it: comment
lines, the header t,f,mag, one row per (frame, bin) with t the frame's centre
(s), f the bin's frequency (Hz) and mag = 20 log10(2 |X_k| / sum w) in dB re
1 m/s^2 (X the FFT of the Hann-windowed frame w a), frames separated by a
blank line. Hann window of 2048 samples (20.5 ms at the example's 10 us
output, 49 Hz bins), hop 512. Options: -o SPEC.csv, --png OUT.png (default:
SPEC with .png; --no-png: the CSV only), --title TEXT, --column NAME (a_T)."""
import argparse
import os
import subprocess
import sys

import numpy as np

NW = 2048  # samples per frame
HOP = NW // 4


def stft(t, a):
    """(frame centres, bin frequencies, magnitudes in dB: frames x bins)."""
    dt = t[2] - t[1]
    w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(NW) / (NW - 1))
    starts = range(1, len(a) - NW + 1, HOP)  # row 0 is t0: the grid starts after it
    frames = np.array([w * a[s:s + NW] for s in starts])
    mag = 2 * np.abs(np.fft.rfft(frames, axis=1)) / w.sum()
    centres = np.array([t[s + NW // 2] for s in starts])
    return centres, np.arange(NW // 2 + 1) / (NW * dt), 20 * np.log10(np.maximum(mag, 1e-12))


def main(argv):
    ap = argparse.ArgumentParser(description="spectrogram of a beam_on_beam output")
    ap.add_argument("csv")
    ap.add_argument("-o", dest="spec")
    ap.add_argument("--png")
    ap.add_argument("--no-png", action="store_true")
    ap.add_argument("--title", default="")
    ap.add_argument("--column", default="a_T")
    o = ap.parse_args(argv)
    # the CSV's header names the columns; its '#' lines are skipped
    data = np.genfromtxt(o.csv, delimiter=",", names=True)
    if o.column not in data.dtype.names:
        sys.exit("beam_on_beam_spec.py: error: '%s' has no column '%s' (columns: %s)"
                 % (o.csv, o.column, ", ".join(data.dtype.names)))
    if len(data) < NW + 1:
        sys.exit("beam_on_beam_spec.py: error: '%s' has %d rows, a frame needs %d"
                 % (o.csv, len(data), NW + 1))
    t, a = data["t"], data[o.column]
    centres, f, mag = stft(t, a)
    spec = o.spec or os.path.splitext(o.csv)[0] + "_spec.csv"
    with open(spec, "w") as out:
        out.write("# STFT of %s: Hann window %d samples, hop %d, dt %g s\nt,f,mag\n"
                  % (o.column, NW, HOP, t[2] - t[1]))
        for tc, row in zip(centres, mag):
            out.writelines("%.6g,%.6g,%.4f\n" % (tc, fk, m) for fk, m in zip(f, row))
            out.write("\n")
    print("beam_on_beam_spec.py: wrote '%s' (%d frames of %d bins)" % (spec, len(centres), len(f)),
          file=sys.stderr)
    if o.no_png:
        return 0
    png = o.png or os.path.splitext(spec)[0] + ".png"
    gp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "beam_on_beam.gp")
    q = lambda s: s.replace("\\", "\\\\").replace("'", "\\'")
    rc = subprocess.call(["gnuplot", "-e", "spec='%s'; png='%s'; csv='%s'; title='%s'"
                          % (q(spec), q(png), q(o.csv), q(o.title)), gp])
    if rc == 0:
        print("beam_on_beam_spec.py: wrote '%s'" % png, file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
