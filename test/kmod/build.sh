#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# build.sh SRC_DIR OUT_DIR ABI
#
# Build the test-only eip93_sim.ko against the installed Debian headers
# /usr/src/linux-headers-<ABI>-amd64 (package linux-headers-<ABI>-amd64; ABI
# as printed by test/guest/kernel-abi.sh).  Kbuild writes into M=, so the
# sources are copied into OUT_DIR first; the results are OUT_DIR/eip93_sim.ko
# (the simulated engine) and OUT_DIR/eip93_ghash_neon.ko (a GHASH named
# ghash-neon, for the gate's composition order).
set -euo pipefail

die() {
    echo "kmod/build: error: $*" >&2
    exit 1
}

[[ $# -eq 3 ]] || die "usage: $0 SRC_DIR OUT_DIR ABI"
src=$1
abi=$3
[[ -n "$abi" ]] || die "empty ABI"
kdir="/usr/src/linux-headers-$abi-amd64"
[[ -f "$kdir/Makefile" ]] || die "$kdir not found: install linux-headers-$abi-amd64"
for f in eip93_sim.c eip93_ghash_neon.c Kbuild; do
    [[ -f "$src/$f" ]] || die "$src/$f not found"
done

mkdir -p "$2"
out=$(cd "$2" && pwd)

# Copy only what changed, so that make stays incremental.
for f in eip93_sim.c eip93_ghash_neon.c Kbuild; do
    cmp -s "$src/$f" "$out/$f" || cp "$src/$f" "$out/$f"
done

make -s -C "$kdir" M="$out" modules
for ko in eip93_sim eip93_ghash_neon; do
    [[ -f "$out/$ko.ko" ]] || die "$out/$ko.ko was not produced"
done
echo "kmod/build: $out/eip93_sim.ko $out/eip93_ghash_neon.ko"
