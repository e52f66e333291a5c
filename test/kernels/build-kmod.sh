#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# build-kmod.sh CACHE_ROOT TAG SRC_DIR OUT_DIR
#
# Build the simulated EIP93 driver (test/kmod) for the matrix kernel TAG
# prepared by prepare.sh, inside that kernel's throw-away build chroot (its
# suite's gcc and glibc: the 6.12+ kbuild tools do not run on the host's
# glibc).  The fallback AES is the one the kernel has: aes-generic where
# modules.builtin.modinfo lists it, else aes-lib (7.x).  On 7.x only
# eip93_sim.ko is built (no GHASH shash to wrap).  Result:
# OUT_DIR/eip93_sim.ko (+ eip93_ghash_neon.ko on 6.x), OUT_DIR/aes (the
# fallback chosen).  Incremental: rebuilt only when a source changed.
set -euo pipefail

die() {
    echo "kernels/build-kmod: error: $*" >&2
    exit 1
}

[[ $# -eq 4 ]] || die "usage: $0 CACHE_ROOT TAG SRC_DIR OUT_DIR"
croot=$(cd "$1" && pwd)
tag=$2
src=$(cd "$3" && pwd)
mkdir -p "$4"
out=$(cd "$4" && pwd)
kcache=$croot/kernels/$tag
[[ -f "$kcache/abi" ]] || die "$kcache/abi missing: run prepare.sh $croot $tag"
abi=$(cat "$kcache/abi")
kdir=$kcache/$abi
[[ -f "$kdir/.complete" ]] || die "$kdir incomplete"
kver=$(cat "$kdir/kver")
csuite=$(cat "$kdir/toolchain")
chroot_dir=$croot/kernels/chroot-$csuite
[[ -f "$chroot_dir/.headers-$abi" ]] || die "no headers for $abi in $chroot_dir"

builtin=$kdir/root/lib/modules/$kver/modules.builtin.modinfo
if grep -qzxF 'aes_generic.alias=aes-generic' "$builtin"; then
    aes="aes-generic"
elif grep -qzxF 'aes.alias=aes-lib' "$builtin"; then
    aes="aes-lib"
else
    die "$kver has neither aes-generic nor aes-lib built in"
fi
simonly=0
[[ "$abi" == 6.* ]] || simonly=1

exec 9>"$chroot_dir/.lock-build"
flock 9
bdir=/build/$abi
mkdir -p "$chroot_dir$bdir"
for f in eip93_sim.c eip93_ghash_neon.c Kbuild; do
    cmp -s "$src/$f" "$chroot_dir$bdir/$f" || cp "$src/$f" "$chroot_dir$bdir/$f"
done
# objtool reads /proc: a private mount namespace mounts one for the chroot
# only (gone with the namespace).
env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/tmp LC_ALL=C \
    unshare -m --propagation private sh -c \
    'mount -t proc proc "$1/proc" && exec chroot "$1" make -s -C "/usr/src/linux-headers-$2" M="$3" \
        EIP93_SIM_AES="$4" EIP93_SIM_ONLY="$5" modules' sh \
    "$chroot_dir" "$kver" "$bdir" "$aes" "$simonly" ||
    die "module build for $kver failed"
kos=(eip93_sim)
((simonly)) || kos+=(eip93_ghash_neon)
for ko in "${kos[@]}"; do
    [[ -f "$chroot_dir$bdir/$ko.ko" ]] || die "$ko.ko was not produced"
    cmp -s "$chroot_dir$bdir/$ko.ko" "$out/$ko.ko" || cp "$chroot_dir$bdir/$ko.ko" "$out/$ko.ko"
done
printf '%s\n' "$aes" >"$out/aes"
echo "kernels/build-kmod: $kver: ${kos[*]} (fallback ctr($aes)) in $out"
