#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# test/peers/bench.sh [--build DIR] [--out LOG] [--plot FILE.png] [--from LOG]
#                     [--timeout SECONDS] [--env NAME=VALUE ...]
#
# The peers side by side (docs/performance.md "The peers side by side"):
# boots the guest of guest_peers (test/peers/peers.sh) with longer runs than
# the test's, saves its console in LOG (default DIR/test/guest-work/peers-bench.log)
# and prints its tables; with --plot, draws MB/s against payload size, one
# panel per cipher, one line per row and the timing model alone (gnuplot).
# --from LOG draws from a saved log without booting.  --env passes settings
# to the guest script (PEERS_SECONDS, PEERS_ROUNDS, PEERS_SIZES, PEERS_ROWS,
# PEERS_CIPHERS, PEERS_LATENCY_US, PEERS_RATE, PEERS_EIP93_LINES); defaults
# here: PEERS_SECONDS=2, PEERS_ROUNDS=3.  DIR (default build) must be
# configured with -DEIP93_GUEST_TESTS=ON; the fixtures are run first.
set -euo pipefail
me=peers/bench
die() { echo "$me: error: $*" >&2; exit 1; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

build=build out='' plot='' from='' timeout=1800
envs=(--env PEERS_SECONDS=2 --env PEERS_ROUNDS=3)
while [[ $# -gt 0 ]]; do
    case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --plot) plot=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --env) envs+=(--env "$2"); shift 2 ;;
    *) die "unknown option '$1' (see the header of $0)" ;;
    esac
done
[[ -z "$plot" || "$plot" == /* ]] || plot=$PWD/$plot

if [[ -z "$from" ]]; then
    cd "$root"
    [[ -x "$build/test/guest-run.sh" ]] || die "$build is not configured with -DEIP93_GUEST_TESTS=ON"
    cli=$(sed -n 's/^OPENSSL_CLI:[A-Z]*=//p' "$build/CMakeCache.txt")
    [[ -x "$cli" ]] || die "no OPENSSL_CLI in $build/CMakeCache.txt"
    cmake --build "$build" -j"$(nproc)" >/dev/null
    ctest --test-dir "$build" --output-on-failure \
        -R '^(guest_prepare_kernel|guest_build_driver|guest_build_cryptodev|peers_openssl35)$' >/dev/null ||
        die "a fixture failed (ctest --test-dir $build -R peers_openssl35 --output-on-failure)"
    out=${out:-$build/test/guest-work/peers-bench.log}
    mkdir -p "$(dirname "$out")"
    set +e
    "$here/run.sh" "$build/test/peers/openssl35.dir" "$cli" "$build/test/guest-run.sh" \
        --work "$build/test/guest-work/peers-bench" --script "$here/peers.sh" \
        --module "$build/test/cryptodev-kmod/cryptodev.ko" --timeout "$timeout" "${envs[@]}" >"$out" 2>&1
    rc=$?
    set -e
    grep -E '^(peers|ok|not ok|\|)' "$out" | grep -vE '^peers (raw|data) ' || true
    [[ $rc -eq 0 ]] || die "the guest run failed (status $rc): $out"
    from=$out
fi
[[ -n "$plot" ]] || exit 0
[[ -f "$from" ]] || die "no log $from"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -r lat rate < <(sed -n 's/^peers model \([0-9]*\) \([0-9]*\)$/\1 \2/p' "$from" | tail -n 1)
[[ -n "$lat" ]] || die "$from has no 'peers model' line"
mapfile -t ciphers < <(sed -n 's/^peers data \([^ ]*\) .*/\1/p' "$from" | sort -u)
[[ ${#ciphers[@]} -gt 0 ]] || die "$from has no 'peers data' lines"
kver=$(sed -n 's/^peers: guest kernel \([^,]*\),.*/\1/p' "$from" | head -n 1)
# One data file per cipher and row: "SIZE MB/s".
for c in "${ciphers[@]}"; do
    sed -n "s/^peers data $c \\([^ ]*\\) \\([0-9]*\\) \\([0-9.]*\\) .*/\\1 \\2 \\3/p" "$from" |
        while read -r r s v; do echo "$s $v" >>"$tmp/$c.$r"; done
    first=("$tmp/$c".*)
    awk -v l="$lat" -v r="$rate" '{ print $1, $1 / (l + $1 * 1e6 / r) }' "${first[0]}" |
        sort -n >"$tmp/$c.model"
done
{
    echo "set terminal pngcairo size $((560 * ${#ciphers[@]})),560 font ',10'"
    echo "set output '$plot'"
    # shellcheck disable=SC2028 # the \n is gnuplot's, inside its string
    echo "set multiplot layout 1,${#ciphers[@]} title \"The peers side by side in one QEMU x86_64 guest run\\nTCG EMULATION: absolute figures are TCG's, compare the rows\\nkernel $kver; simulated EIP93: latency_us=$lat, rate=$rate B/s\" noenhanced"
    echo "set logscale x 2; set logscale y 10; set grid; set key bottom right noenhanced font ',9'"
    echo "set xtics ('16' 16, '256' 256, '1K' 1024, '4K' 4096, '16K' 16384, '64K' 65536)"
    echo "set xlabel 'payload (bytes, one EVP update)'; set ylabel 'MB/s (10^6 B/s, openssl speed -elapsed)'"
    for c in "${ciphers[@]}"; do
        echo "set title '${c^^}' noenhanced"
        printf "plot '%s' using 1:2 with lines dt 2 lc rgb 'gray40' lw 2 title 'timing model alone (one request, no syscall)'" \
            "$tmp/$c.model"
        while read -r r title; do
            [[ -f "$tmp/$c.$r" ]] || continue
            sort -n -o "$tmp/$c.$r" "$tmp/$c.$r"
            case "$r" in
            sw_b) lc='#1b7837' ;; sw_d) lc='#7fbf7b' ;; afalg_b) lc='#e08214' ;; afalg_d) lc='#8c510a' ;;
            devcrypto_d) lc='#2166ac' ;; eip93_afalg) lc='#d6604d' ;; eip93_cdev) lc='#762a83' ;; *) lc=black ;;
            esac
            printf ", '%s' using 1:2 with linespoints lw 2 lc rgb '%s' title '%s'" "$tmp/$c.$r" "$lc" "$title"
        done < <(sed -n 's/^peers row \([^ ]*\) \(.*\)$/\1 \2/p' "$from")
        echo
    done
    echo "unset multiplot"
} | gnuplot
echo "$me: plot $plot ($(wc -c <"$plot") bytes)"
