#!/bin/sh
# make docs: the plots of docs/laws.md, made by jnt itself. Contact laws:
# pressure against gap, swept by a prescribed motion (Table 7 parameters of
# Pichler et al. 2017). Friction laws: force-slip loops from 'analysis hysteresis'.
# The examples: every output column against t. Every picture by jnt plot.
# Writes docs/img/*.png. Run from the repository root with B set.
set -e
B=${B:-build}
J=$PWD/$B/jnt
W=$B/docs
ROOT=$PWD
mkdir -p "$W" docs/img
HI=""
[ -f stdlib/hysteresis.jnt ] && HI="import hysteresis"

# one PNG of column y against column x of a CSV, by jnt plot
plot() { # csv png title xlabel ylabel xcol ycol
    "$J" plot "$1" -o "$2" --title "$3" --xlabel "$4" --ylabel "$5" -x "$6" -y "$7" --size 640,420
}

# contact: gap from +1 um to -4 um (the element's gap is -s)
contact() { # name law
    cat > "$W/c_$1.jnt" <<JNT
import contact
body p : point(mass = 1 kg) { dof x }
motion sweep on p.x = -1 um + 5 um * t / 1 s
contact c between p.x and ground { law = $2  area = 1 mm^2 }
simulate { integrator = rk4(h = 1 ms)  until = 1 s }
output "c.csv" every 1 ms { t, gap_um = c.gap / 1 um, F_N = c.force }
JNT
    (cd "$W" && "$J" run "c_$1.jnt" -o "c_$1.csv")
    plot "$W/c_$1.csv" "docs/img/contact_$1.png" "$1 (Pichler et al. 2017 Table 7 parameters)" 'gap (um)' 'force on 1 mm^2 (N)' gap_um F_N
}
contact penalty "penalty(eps_N = 400 N/mm^3)"
contact penalty2 "penalty2(eps_N0 = 133 N/mm^3, eps_N1 = 667 N/mm^3, g0 = 0 um, g1 = -1.25 um)"
contact penalty_power "penalty_power(eps_N = 0.16 N/mm^2, m = 2, g_ref = 1 um)"
contact penalty_quadlin "penalty_quadlin(eps_N = 0.57 N/mm^2/um, g0 = 0 um, g1 = -1.5 um)"
contact penalty_exp "penalty_exp(p0 = 1.23e-4 N/mm^2, g0 = 0.4 um)"
contact penalty_jointexp "penalty_jointexp(eps_N = 617 N/mm^3, lambda_N = 200 /mm, g0 = 0 um)"
contact hertz "hertz(K = 5 N / (2.5 um)^1.5)"

# friction: three cycles of 1 mm slip amplitude (1 s period) under N = 10 N
loop() { # name law [slip amplitude] [area]
    amp=${3:-1 mm}
    area=${4:+, area = $4}
    cat > "$W/f_$1.jnt" <<JNT
import friction
$HI
analysis loop_$1 : hysteresis(law = $2, slip = $amp * sin(2 * pi * t / 1 s), normal = 10 N$area,
                              period = 1 s, cycles = 2, points = 2000)
JNT
    (cd "$W" && "$J" run "f_$1.jnt")
    plot "$W/loop_$1.csv" "docs/img/loop_$1.png" "$1, N = 10 N" 'slip s (m)' 'friction force (N)' \
        "$(head -1 "$W/loop_$1.csv" | cut -d, -f2)" "$(head -1 "$W/loop_$1.csv" | cut -d, -f4)"
}
loop coulomb_tanh "coulomb_tanh(mu = 0.3, v_reg = 0.1 mm/s)"
loop stribeck_rill "stribeck_rill(mu_s = 0.6, v_s = 1 mm/s, mu_d = 0.3, v_d = 10 mm/s)"
loop lugre "lugre(sigma0 = 1e4 /m, sigma1 = 30 s/m, mu_s = 0.6, mu_k = 0.4, v_s = 1 mm/s)"
loop frdyn2 "frdyn2(mu_s = 0.6, v_s = 1 mm/s, mu_d = 0.3, v_d = 10 mm/s, sigma0 = 5e6 N/m, sigma1 = 3192.75 N*s/m)" "20 um"
# Pichler et al. 2017's stress laws on 1 cm^2 (p = 1e5 Pa, R_G = mu p), 50 um slip amplitude
S="50 um"
loop coulomb3 "coulomb3(c1 = 1e10 Pa/m, c2 = 1e9 Pa/m, mu = 0.3)" "$S" "1 cm^2"
loop dahl "dahl(sigma0 = 1e10 Pa/m, c2 = 1e9 Pa/m, mu = 0.3)" "$S" "1 cm^2"
loop valanis "valanis(E0 = 1.1e10 Pa/m, Et = 1e9 Pa/m, kappa = 0.9, mu = 0.3)" "$S" "1 cm^2"
loop bouc_wen "bouc_wen(A = 1e10 Pa/m, c2 = 1e9 Pa/m, mu = 0.3, n = 2)" "$S" "1 cm^2"
loop jenkins "jenkins(k = 1e6 N/m, F_s = 3 N)" "$S"

# Miller and Quinn 2007's interface (docs/substructures.md): D per cycle (third cycle, 60 to 90 s)
# against F0 for the full and the reduced model, and the reduced model's error in
# Delta_1 against the number of modes of the elastic chain (n = 40, F0 = 0.3 N)
I=$PWD/examples/iwan_interface
cycle_d() { awk -F, '$1 == 60 { a = $4 } $1 == 90 { print $4 - a }' "$1"; }
echo "F0,full,rom,continuum" > "$W/iwan_d.csv"
for f in 0.075 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5; do
    (cd "$W" && "$J" run "$I/full.jnt" -D F0=$f -o iwan_full.csv && "$J" run "$I/rom.jnt" -D F0=$f -o iwan_rom.csv)
    echo "$f,$(cycle_d "$W/iwan_full.csv"),$(cycle_d "$W/iwan_rom.csv"),$(awk -v f=$f 'BEGIN { print f^3/3 }')" >> "$W/iwan_d.csv"
done
# (full: with masses; rom: 10 modes + complementarity; continuum: F0^3/3 in this normalisation)
"$J" plot "$W/iwan_d.csv" -o docs/img/iwan_dissipation.png --size 640,420 --log xy --overlay \
    --style linespoints -y full,rom,continuum --title 'Miller and Quinn 2007: dissipation per cycle, n = 40' \
    --xlabel 'F0 (N)' --ylabel 'D (J)'
mkdir -p "$W/modes" && cp "$I/common.jnt" "$I/full.jnt" "$W/modes/"
(cd "$W/modes" && "$J" run full.jnt -o full.csv)
echo "M,err" > "$W/iwan_modes.csv"
for nm in 1 2 3 4 6 8 10 14 20 30 39; do
    sed "s/^const NM = .*/const NM = $nm/" "$I/rom.jnt" > "$W/modes/rom.jnt"
    (cd "$W/modes" && "$J" run rom.jnt -o rom.csv)
    paste -d, "$W/modes/full.csv" "$W/modes/rom.csv" | awk -F, -v nm=$nm '
      NR > 1 && !/^#/ && $1 >= 60 { d = $5 - $11; if (d < 0) d = -d; if (d > m) m = d }
      END { print nm "," m }' >> "$W/iwan_modes.csv"
done
"$J" plot "$W/iwan_modes.csv" -o docs/img/iwan_modes.png --size 640,420 --log xy --style linespoints \
    --title 'Miller and Quinn 2007, n = 40, F0 = 0.3 N: elastic chain truncated to M modes' \
    --xlabel 'modes M' --ylabel 'max |w_span(a) - w_span(b)| over a cycle (m)'

# Bauchau et al. 2006 E4's energy map: the paper's 825 runs, the work of
# dampers 3 and 4 over the tuning ratio r and the normal force N
"$J" sweep "$ROOT/examples/energy_map.jnt" --grid N=0:100:10 --grid r=0.6:8:0.1 \
    -o "$W/energy_map.csv" 2> /dev/null
"$J" plot "$W/energy_map.csv" -x r -y N -z D_34 -o docs/img/energy_map.png --size 640,420 \
    --title 'Bauchau et al. 2006 E4: energy dissipated by dampers 3 and 4 (J), 825 runs' \
    --xlabel 'tuning ratio r = omega3 / omega1' --ylabel 'normal force N (N)'
# its slice at N = 100 N (Fig. 3.8), each cell 8 times with v1(0) moved by
# k 2e-13 relative (k = 0..7): one line per run, the spread is the error bar
# (docs/sweeps.md, bench/energy_map_spread.sh)
V=$(awk 'BEGIN { for (k = 0; k < 8; k++) printf "%s%.17g", k ? "," : "", 2 * (1 + k * 2e-13) }')
"$J" sweep "$ROOT/examples/energy_map.jnt" -D N=100 --grid r=0.6:8:0.1 --list v10="$V" \
    -o "$W/energy_map_slice.csv" 2> /dev/null
"$J" plot "$W/energy_map_slice.csv" -x r -y D_34 -o docs/img/energy_map_slice.png --size 640,420 \
    --title 'Bauchau et al. 2006 E4, N = 100 N: 8 runs a cell, h = 0.1 ms' \
    --xlabel 'tuning ratio r = omega3 / omega1' --ylabel 'energy dissipated by dampers 3 and 4 (J)'

# the examples: each one's output, every column against t (jnt run --plot)
for ex in frdyn2_bench lugre_stickslip multimass pendulum double_pendulum slider_crank \
          stribeck_3dof beam_mass_friction contact_laws heavy_top beam_on_beam festoon \
          andrews_squeezer car_pendulum tumbling_body spatial_slider_crank lap_joint \
          iwan_interface; do
    [ -f "examples/$ex.jnt" ] || continue
    (cd "$W" && "$J" run "$ROOT/examples/$ex.jnt" -o "ex_$ex.csv" > /dev/null) || continue
    "$J" plot "$W/ex_$ex.csv" -o "docs/img/example_$ex.png" --title "examples/$ex.jnt" 2> /dev/null
done
# beam_on_beam's free end: its spectrogram (Machines 2022 Fig. 6)
"$J" plot "$W/ex_beam_on_beam.csv" --spectrogram a_T -o docs/img/example_beam_on_beam_spec.png \
    --title 'examples/beam_on_beam.jnt: a_T, Hann 2048 samples (20.5 ms)' 2> /dev/null
echo "plots: docs/img/*.png"
# films of the motion (jnt animate)
B=$B sh docs/animate.sh
