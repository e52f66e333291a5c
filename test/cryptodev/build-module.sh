#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# build-module.sh SRC_DIR OUT_DIR ABI [--async]
#
# Build cryptodev.ko (the /dev/crypto module, cryptodev-linux, GPL-2.0) for
# the guest kernel from the pinned upstream source SRC_DIR, against the
# installed Debian headers /usr/src/linux-headers-<ABI>-amd64 (ABI as printed
# by test/rig/kernel-abi.sh).  The source is read-only and never part of this
# repository: it is copied to OUT_DIR/src and built there; patches named
# test/cryptodev/*.patch (none is needed for 6.1) are applied to the copy in
# name order.  Result: OUT_DIR/cryptodev.ko.  --async builds it with the
# module's asynchronous requests (CRYPTODEV_CFLAGS=-DENABLE_ASYNC:
# CIOCASYNCCRYPT, CIOCASYNCFETCH, poll) for the benchmark; give that build an
# OUT_DIR of its own.  Kept apart from test/rig/kmod.sh because
# upstream's Makefile "build" target writes version.h first.
set -euo pipefail

die() {
    echo "cryptodev/build: error: $*" >&2
    exit 1
}

[[ $# -eq 3 || ( $# -eq 4 && $4 == --async ) ]] || die "usage: $0 SRC_DIR OUT_DIR ABI [--async]"
src=$1
abi=$3
cflags=""
[[ $# -eq 4 ]] && cflags="-DENABLE_ASYNC"
[[ -n "$abi" ]] || die "empty ABI"
[[ -f "$src/ioctl.c" && -f "$src/crypto/cryptodev.h" ]] || die "$src is not a cryptodev-linux tree"
kdir="/usr/src/linux-headers-$abi-amd64"
[[ -f "$kdir/Makefile" ]] || die "$kdir not found: install linux-headers-$abi-amd64"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

mkdir -p "$2"
out=$(cd "$2" && pwd)
stamp="$out/source.stamp"
want="$(cd "$src" && find . -type f -printf '%P %s %T@\n' | LC_ALL=C sort | md5sum) [$cflags]"
for p in "$here"/*.patch; do
    [[ -f "$p" ]] && want="$want $(md5sum <"$p")"
done
# A fresh copy when the source or a patch changed; make stays incremental otherwise.
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    rm -rf "$out/src"
    cp -r "$src" "$out/src"
    chmod -R u+w "$out/src"
    for p in "$here"/*.patch; do
        [[ -f "$p" ]] || continue
        patch -s -d "$out/src" -p1 <"$p" || die "patch $p does not apply"
        echo "cryptodev/build: applied $(basename "$p")"
    done
    printf '%s' "$want" >"$stamp"
fi

# The upstream Makefile's "build" target: writes version.h, then the Kbuild modules run.
make -s -C "$out/src" KERNEL_DIR="$kdir" CRYPTODEV_CFLAGS="$cflags" build
[[ -f "$out/src/cryptodev.ko" ]] || die "$out/src/cryptodev.ko was not produced"
cp "$out/src/cryptodev.ko" "$out/cryptodev.ko"
echo "cryptodev/build: $out/cryptodev.ko${cflags:+ ($cflags)}"
