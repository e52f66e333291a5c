#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The benchmark (what the engine path costs): build, boot a QEMU guest
# (Debian's kernel, the simulated EIP93 driver, the gate open through the
# test-hooks build) and run eip93-bench there.  It prints, from one run:
#   1. engine path vs a raw AF_ALG loop on the same kernel algorithm
#      (TLS 1.3 / TLS 1.2 record shapes, encrypt and decrypt, 4/16/32 KiB),
#   2. delegated (software) path vs the default provider (16 B..1 KiB),
#   3. the heap bytes an eip93 AES-GCM context adds, and whether anything
#      is held between messages.
# Ratios are interleaved medians; targets are printed, never asserted.
# Takes ~2-3 minutes (plus the kernel download the first time).
#
# With --plot FILE.png it also boots a guest that runs the calibration's
# measurement (`eip93-doctor calibrate --dry-run`, the simulated engine at
# full speed, ghash-neon and ghash-generic bound), prints its table and draws
# MB/s against payload size for software and each composition with gnuplot
# (scripts/deps.d/calib.txt).  TCG emulation: the shape, not the numbers.
# --plot-only skips the benchmark; EIP93_PLOT_ROUNDS (3) and EIP93_PLOT_MS (100)
# set the calibration's rounds and time per measurement.
#
# usage: scripts/bench.sh [--plot FILE.png [--plot-only]] [eip93-bench options, e.g. --rounds 9]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cache=${EIP93_GUEST_CACHE:-$HOME/.cache/eip93/guest}
plot='' plot_only=0
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
  --plot) [[ $# -ge 2 ]] || { echo "bench: --plot needs a file" >&2; exit 2; }; plot=$2; shift 2 ;;
  --plot-only) plot_only=1; shift ;;
  *) args+=("$1"); shift ;;
  esac
done
[[ -z "$plot" || "$plot" == /* ]] || plot=$PWD/$plot

scripts/deps.sh >/dev/null
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEIP93_GUEST_CACHE="$cache" >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
# The two guest fixtures: the kernel image and the simulated driver.
ctest --test-dir build -R 'guest_(prepare_kernel|build_driver)' --output-on-failure >/dev/null
if [[ $plot_only -eq 0 ]]; then
  build/test/guest-run.sh --work build/test/guest-work/bench --script test/guest/bench.sh \
    --add build/test/eip93-bench:/usr/bin/eip93-bench --env "EIP93_BENCH_ARGS=${args[*]}" --timeout 400 |
    grep -v -e '^\[ *[0-9.]*\]' -e '^EIP93-GUEST-EXIT'
fi
[[ -n "$plot" ]] || exit 0

table=build/test/guest-work/plot-table.txt
mkdir -p build/test/guest-work
build/test/guest-run.sh --work build/test/guest-work/plot --script test/calib/plot-guest.sh \
  --add build/eip93-doctor:/usr/bin/eip93-doctor --module build/test/kmod/eip93_ghash_neon.ko \
  --env "EIP93_PLOT_ROUNDS=${EIP93_PLOT_ROUNDS:-3}" --env "EIP93_PLOT_MS=${EIP93_PLOT_MS:-100}" \
  --timeout 600 | grep -v -e '^\[ *[0-9.]*\]' -e '^EIP93-GUEST-EXIT' | tee "$table"
# Mean MB/s of the four rows (AES-128/256, enc/dec) per size: software, then each composition.
dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
awk '
  /^composition .*: [0-9]+ rounds/ { c = $2; sub(/:$/, "", c); sub(/.*,/, "", c); sub(/\)$/, "", c)
                                     if (!(c in seen)) { seen[c] = 1; comps[nc++] = c } next }
  /^reference \(ChaCha20-Poly1305/ { ref = 1; next }
  ref && $1 ~ /^[0-9]+$/ { l = $0; gsub(/\/ +/, "/", l); split(l, f, " +"); i = f[1] == "" ? 1 : 0
    split(f[i + 4], x, "/"); ch[$1] = x[1]; next }
  c != "" && $1 ~ /^[0-9]+$/ && ($2 == 128 || $2 == 256) {
    sw[$1] += $4 / 4; eng[c, $1] += $7 / 4; if (!($1 in sz)) { sz[$1] = 1; sizes[ns++] = $1 } }
  END {
    printf "KiB software chacha20-poly1305"; for (i = 0; i < nc; i++) printf " %s", comps[i]; print ""
    for (j = 0; j < ns; j++) {
      s = sizes[j]; printf "%d %.3f %.3f", s / 1024, sw[s] / nc, ch[s]
      for (i = 0; i < nc; i++) printf " %.3f", eng[comps[i], s]
      print ""
    } }' "$table" >"$dat"
ncomp=$(($(head -n 1 "$dat" | wc -w) - 3))
[[ $ncomp -ge 1 ]] || { echo "bench: no composition measured in the guest" >&2; exit 1; }
kver=$(sed -n 's/^plot: guest kernel \([^,]*\),.*/\1/p' "$table")
{
  echo "set terminal png size 800,480 font ',10'"
  echo "set output '$plot'"
  echo "set title \"eip93 calibration in a QEMU x86_64 guest (TCG emulation: absolute times distorted), kernel $kver\" noenhanced"
  echo "set xlabel 'payload (KiB)'; set ylabel 'MB/s (mean of AES-128/256 enc/dec medians)'"
  echo "set logscale x 2; set xtics (1,2,4,8,16,32,48,64); set key top left noenhanced; set grid; set yrange [0:*]"
  printf "plot '%s' using 1:2 with linespoints lw 2 title 'software AES-GCM (default provider)'" "$dat"
  printf ", '%s' using 1:3 with linespoints lw 2 title 'ChaCha20-Poly1305 (reference, never routed)'" "$dat"
  for ((i = 0; i < ncomp; i++)); do
    name=$(head -n 1 "$dat" | awk -v k=$((i + 4)) '{ print $k }')
    printf ", '%s' using 1:%d with linespoints lw 2 title 'eip93 gcm_base(ctr(aes-eip93),%s) (simulated engine)'" \
      "$dat" $((i + 4)) "$name"
  done
  echo
} | gnuplot
echo "bench: plot $plot ($(wc -c <"$plot") bytes)"
