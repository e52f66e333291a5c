#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Adaptive routing's benchmark: build, boot one QEMU guest with
# -smp 2 (Debian's kernel, the simulated EIP93 driver, the test-hooks build)
# and run `eip93-adapt-check bench` there: aggregate MB/s at 1, 2, 4 and 8
# threads for software only, the engine only (routing = fixed) and adaptive,
# interleaved rounds, medians; the simulated engine's rate set to the measured
# one-thread software rate; then the mid-run slow-down.  Targets are printed,
# never asserted.  With --plot FILE.png it draws the table with gnuplot
# (scripts/deps.d/calib.txt); with --from OUT it draws the plot from a run's
# saved output (the guest's, as printed) without booting.  TCG emulation, no
# KVM: the shape, not the numbers.
#
# usage: scripts/adapt-bench.sh [--plot FILE.png] [--rounds N] [--ms MS] [--size BYTES]
#        scripts/adapt-bench.sh --plot FILE.png --from OUT
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cache=${EIP93_GUEST_CACHE:-$HOME/.cache/eip93/guest}
build=${EIP93_BUILD_DIR:-build}
plot='' from='' args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
  --plot) [[ $# -ge 2 ]] || { echo "adapt-bench: --plot needs a file" >&2; exit 2; }; plot=$2; shift 2 ;;
  --from) [[ $# -ge 2 ]] || { echo "adapt-bench: --from needs a file" >&2; exit 2; }; from=$2; shift 2 ;;
  *) args+=("$1"); shift ;;
  esac
done
[[ -z "$plot" || "$plot" == /* ]] || plot=$PWD/$plot
[[ -z "$from" || -n "$plot" ]] || { echo "adapt-bench: --from needs --plot" >&2; exit 2; }

if [[ -n "$from" ]]; then
  out=$from
else
  scripts/deps.sh >/dev/null
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEIP93_GUEST_CACHE="$cache" >/dev/null
  cmake --build "$build" -j"$(nproc)" >/dev/null
  ctest --test-dir "$build" -R 'guest_(prepare_kernel|build_driver)' --output-on-failure >/dev/null
  mkdir -p "$build/test/guest-work"
  out=$build/test/guest-work/adapt-bench.txt
  "$build/test/guest-run.sh" --work "$build/test/guest-work/adapt-bench" --script test/adapt/adapt.sh \
    --add "$build/test/eip93-adapt-check:/usr/bin/eip93-adapt-check" --smp 2 --timeout 900 \
    --env EIP93_ADAPT_MODE=bench --env "EIP93_ADAPT_ARGS=${args[*]}" |
    grep -v -e '^\[ *[0-9.]*\]' -e '^EIP93-GUEST-EXIT' | tee "$out"
fi
[[ -n "$plot" ]] || exit 0

dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
# | threads | software | engine | adaptive | ... : the throughput table's rows
awk -F'|' '/^\| [0-9]+ \| [0-9.]+ \|/ { print $2, $3, $4, $5 }' "$out" >"$dat"
[[ -s "$dat" ]] || { echo "adapt-bench: no table in the guest's output" >&2; exit 1; }
{
  echo "set terminal png size 720,420 font ',10'"
  echo "set output '$plot'"
  echo "set title 'eip93 adaptive routing, QEMU x86_64 guest -smp 2 (TCG, no KVM, 2 shared host cores)' noenhanced"
  echo "set xlabel 'threads'; set ylabel 'aggregate MB/s (16 KiB AES-128-GCM encryptions)'"
  echo "set logscale x 2; set xrange [0.85:9.5]; set xtics (1,2,4,8); set key bottom right noenhanced"
  echo "set grid; set yrange [0:*]"
  printf "plot '%s' using 1:2 with linespoints lw 2 title 'software only', " "$dat"
  printf "'%s' using 1:3 with linespoints lw 2 title 'engine only (routing = fixed)', " "$dat"
  printf "'%s' using 1:4 with linespoints lw 2 title 'adaptive'\n" "$dat"
} | gnuplot
echo "adapt-bench: plot $plot ($(wc -c <"$plot") bytes)"
