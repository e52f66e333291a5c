#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# build.sh CACHE_DIR OUT_DIR
#
# Cross-build the arm64 guest's test-only modules against the Debian arm64
# headers that test/arm64/prepare.sh unpacked into CACHE_DIR:
#   OUT_DIR/eip93_sim.ko      the simulated EIP93 driver (test/kmod/eip93_sim.c)
#   OUT_DIR/eip93_nohwcap.ko  hides the Crypto Extensions from AT_HWCAP
# Kbuild writes into M=, so the sources are copied into OUT_DIR first.
set -euo pipefail

die() {
    echo "arm64/kmod: error: $*" >&2
    exit 1
}

[[ $# -eq 2 ]] || die "usage: $0 CACHE_DIR OUT_DIR"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
cache=$1
[[ -f "$cache/abi" ]] || die "$cache/abi not found: run test/arm64/prepare.sh $cache"
abi=$(cat "$cache/abi")
kdir="$cache/$abi/headers"
[[ -f "$kdir/Makefile" ]] || die "$kdir not prepared: run test/arm64/prepare.sh $cache"
command -v aarch64-linux-gnu-gcc >/dev/null || die "aarch64-linux-gnu-gcc not found (gcc-aarch64-linux-gnu)"

mkdir -p "$2"
out=$(cd "$2" && pwd)
# Copy only what changed, so that make stays incremental.
for f in "$top/test/kmod/eip93_sim.c" "$here/eip93_nohwcap.c" "$here/Kbuild"; do
    cmp -s "$f" "$out/$(basename "$f")" || cp "$f" "$out/"
done

make -s -C "$kdir" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- M="$out" modules
for ko in eip93_sim eip93_nohwcap; do
    [[ -f "$out/$ko.ko" ]] || die "$out/$ko.ko was not produced"
done
echo "arm64/kmod: $out/eip93_sim.ko $out/eip93_nohwcap.ko ($(modinfo -F vermagic "$out/eip93_sim.ko"))"
