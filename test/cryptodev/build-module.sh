#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# build-module.sh SRC_DIR OUT_DIR ABI [--async]
# build-module.sh --kernel NAME CACHE_DIR SRC_DIR OUT_DIR
#
# Build cryptodev.ko (the /dev/crypto module, cryptodev-linux, GPL-2.0) for
# the guest kernel from the pinned upstream source SRC_DIR, against the
# installed Debian headers /usr/src/linux-headers-<ABI>-amd64 (ABI as printed
# by test/rig/kernel-abi.sh); or, with --kernel, for a matrix kernel of
# test/rig/kernels ("rig" source) prepared by test/rig/prepare.sh into
# CACHE_DIR, inside that kernel's throw-away build chroot as test/rig/kmod.sh
# builds the simulated driver there (the 6.12+ build tools need their
# suite's glibc and compiler).  The source is read-only and never part of this
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

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# fresh_copy DIR: the source and the patches in DIR/src (a new copy only when they changed).
fresh_copy() {
    local want stamp="$1/source.stamp"
    want="$(cd "$src" && find . -type f -printf '%P %s %T@\n' | LC_ALL=C sort | md5sum) [$cflags]"
    for p in "$here"/*.patch; do
        [[ -f "$p" ]] && want="$want $(md5sum <"$p")"
    done
    if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
        rm -rf "$1/src"
        mkdir -p "$1"
        cp -r "$src" "$1/src"
        chmod -R u+w "$1/src"
        for p in "$here"/*.patch; do
            [[ -f "$p" ]] || continue
            patch -s -d "$1/src" -p1 <"$p" || die "patch $p does not apply"
            echo "cryptodev/build: applied $(basename "$p")"
        done
        printf '%s' "$want" >"$stamp"
    fi
}

if [[ $# -eq 5 && $1 == --kernel ]]; then
    # shellcheck source=test/rig/lib.sh
    . "$here/../rig/lib.sh"
    name=$2 croot=$(cd "$3" && pwd) src=$4 cflags=""
    mkdir -p "$5"
    out=$(cd "$5" && pwd)
    [[ -f "$src/ioctl.c" && -f "$src/crypto/cryptodev.h" ]] || die "$src is not a cryptodev-linux tree"
    rig_kernel "$name"
    # shellcheck disable=SC2154 # k_source, k_cache: set by rig_kernel (lib.sh)
    [[ "$k_source" == rig ]] || die "--kernel $name: not a rig kernel (use the ABI form)"
    kcache=$croot/$k_cache
    abi=$(cat "$kcache/abi") || die "$kcache/abi missing: run test/rig/prepare.sh --kernel $name $croot"
    kver=$(cat "$kcache/$abi/kver")
    chroot_dir=$croot/kernels/chroot-$(cat "$kcache/$abi/toolchain")
    [[ -f "$chroot_dir/.headers-$abi" ]] || die "no headers for $abi in $chroot_dir"
    exec 9>"$chroot_dir/.lock-build"
    flock 9
    bdir=/build/$abi/cryptodev
    fresh_copy "$chroot_dir$bdir"
    env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/tmp LC_ALL=C \
        unshare -m --propagation private sh -c \
        'mount -t proc proc "$1/proc" && exec chroot "$1" make -s -C "$2" \
            KERNEL_DIR="/usr/src/linux-headers-$3" build' sh "$chroot_dir" "$bdir/src" "$kver" ||
        die "cryptodev build for $kver failed"
    [[ -f "$chroot_dir$bdir/src/cryptodev.ko" ]] || die "cryptodev.ko was not produced for $kver"
    cp "$chroot_dir$bdir/src/cryptodev.ko" "$out/cryptodev.ko"
    echo "cryptodev/build: $out/cryptodev.ko ($kver)"
    exit 0
fi

[[ $# -eq 3 || ( $# -eq 4 && $4 == --async ) ]] || die "usage: $0 SRC_DIR OUT_DIR ABI [--async] | --kernel NAME CACHE_DIR SRC_DIR OUT_DIR"
src=$1
abi=$3
cflags=""
[[ $# -eq 4 ]] && cflags="-DENABLE_ASYNC"
[[ -n "$abi" ]] || die "empty ABI"
[[ -f "$src/ioctl.c" && -f "$src/crypto/cryptodev.h" ]] || die "$src is not a cryptodev-linux tree"
kdir="/usr/src/linux-headers-$abi-amd64"
[[ -f "$kdir/Makefile" ]] || die "$kdir not found: install linux-headers-$abi-amd64"

mkdir -p "$2"
out=$(cd "$2" && pwd)
fresh_copy "$out"

# The upstream Makefile's "build" target: writes version.h, then the Kbuild modules run.
make -s -C "$out/src" KERNEL_DIR="$kdir" CRYPTODEV_CFLAGS="$cflags" build
[[ -f "$out/src/cryptodev.ko" ]] || die "$out/src/cryptodev.ko was not produced"
cp "$out/src/cryptodev.ko" "$out/cryptodev.ko"
echo "cryptodev/build: $out/cryptodev.ko${cflags:+ ($cflags)}"
