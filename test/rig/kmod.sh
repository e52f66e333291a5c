#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# kmod.sh [--kernel NAME] CACHE_DIR OUT_DIR SRC_DIR...
#
# Build an out-of-tree module source for one guest kernel of test/rig/kernels
# (NAME, default 6.1) prepared by prepare.sh into CACHE_DIR (the same
# directory given to prepare.sh).  The sources are the *.c, *.h and Kbuild
# files of the SRC_DIRs (a file of a later directory replaces one of the same
# name from an earlier one: e.g. test/kmod then test/arm64/kmod, whose Kbuild
# builds eip93_sim.c with eip93_nohwcap.c).  Kbuild writes into M=, so they
# are copied first (only what changed, so that make stays incremental); the
# modules Kbuild makes end up in OUT_DIR, and are listed on stdout.
#   6.1     against /usr/src/linux-headers-<abi>-amd64, installed on the host
#           (scripts/deps.sh; ABI from kernel-abi.sh)
#   arm64   cross-built (ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) against
#           the headers prepare.sh unpacked into CACHE_DIR
#   mipsel  the same with ARCH=mips CROSS_COMPILE=mipsel-linux-gnu- (bookworm's
#           4kc-malta headers, prepare-mipsel.sh)
#   rig kernels (6.12, 7.2, 7.3)
#           inside the kernel's throw-away build chroot (its suite's gcc and
#           glibc: the 6.12+ kbuild tools do not run on the host's glibc).
#           Kbuild gets EIP93_SIM_AES, the software AES the kernel has
#           (aes-generic where modules.builtin.modinfo lists it, else aes-lib,
#           7.x; also written to OUT_DIR/aes), and EIP93_SIM_ONLY=1 on 7.x (no
#           GHASH shash there for eip93_ghash_neon to wrap).
set -euo pipefail

me=kmod
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=test/rig/lib.sh
. "$here/lib.sh"
rig_cache_args "CACHE_DIR OUT_DIR SRC_DIR..." 3 '' "$@"
set -- "${rig_args[@]}"
mkdir -p "$1"
out=$(cd "$1" && pwd)
shift

# The source files, the last directory's copy of each name winning.
declare -A srcs=()
for d in "$@"; do
    [[ -d "$d" ]] || die "$d is not a directory"
    for f in "$d"/*.c "$d"/*.h "$d"/Kbuild; do
        [[ -f "$f" ]] && srcs[$(basename "$f")]=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
    done
done
[[ -n "${srcs[Kbuild]:-}" ]] || die "no Kbuild in $*"
copy_sources() { # DIR
    local f
    mkdir -p "$1"
    for f in "${!srcs[@]}"; do
        cmp -s "${srcs[$f]}" "$1/$f" || cp "${srcs[$f]}" "$1/$f"
    done
}
list_kos() { # DIR: the modules Kbuild made (its modules.order), each checked
    local m
    [[ -f "$1/modules.order" ]] || die "no modules.order in $1"
    while IFS= read -r m; do
        m=${m##*/}
        m=${m%.o}
        m=${m%.ko}.ko
        [[ -f "$1/$m" ]] || die "$1/$m was not produced"
        echo "$m"
    done <"$1/modules.order"
}

if [[ "$k_source" == host || "$k_arch" == mipsel ]]; then
    if [[ "$k_arch" == x86_64 ]]; then
        abi=$("$here/kernel-abi.sh" --arch "$k_arch") || die "cannot resolve the kernel ABI"
        kdir="/usr/src/linux-headers-$abi-$debarch"
        [[ -f "$kdir/Makefile" ]] || die "$kdir not found: install linux-headers-$abi-$debarch"
    else
        [[ -f "$kcache/abi" ]] || die "$kcache/abi not found: run test/rig/prepare.sh --kernel $name $croot"
        abi=$(cat "$kcache/abi")
        kdir="$kcache/$abi/headers"
        [[ -f "$kdir/Makefile" ]] || die "$kdir not prepared: run test/rig/prepare.sh --kernel $name $croot"
        command -v "${cross[1]#CROSS_COMPILE=}gcc" >/dev/null ||
            die "${cross[1]#CROSS_COMPILE=}gcc not found"
    fi
    copy_sources "$out"
    make -s -C "$kdir" "${cross[@]}" M="$out" modules || die "module build against $kdir failed"
    mapfile -t kos < <(list_kos "$out")
    [[ ${#kos[@]} -gt 0 ]] || die "no module was produced in $out"
    echo "$me: ${kos[*]/#/$out/} ($(modinfo -F vermagic "$out/${kos[0]}"))"
    exit 0
fi

# ---- a rig kernel: in its build chroot -------------------------------------
[[ -f "$kcache/abi" ]] || die "$kcache/abi missing: run test/rig/prepare.sh --kernel $name $croot"
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
# One build directory per kernel and source (named after the last SRC_DIR).
bdir=/build/$abi/$(basename "$(dirname "${srcs[Kbuild]}")")
copy_sources "$chroot_dir$bdir"
# objtool reads /proc: a private mount namespace mounts one for the chroot
# only (gone with the namespace).
env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/tmp LC_ALL=C \
    unshare -m --propagation private sh -c \
    'mount -t proc proc "$1/proc" && exec chroot "$1" make -s -C "/usr/src/linux-headers-$2" M="$3" \
        EIP93_SIM_AES="$4" EIP93_SIM_ONLY="$5" modules' sh \
    "$chroot_dir" "$kver" "$bdir" "$aes" "$simonly" ||
    die "module build for $kver failed"
mapfile -t kos < <(list_kos "$chroot_dir$bdir")
[[ ${#kos[@]} -gt 0 ]] || die "no module was produced in $chroot_dir$bdir"
for ko in "${kos[@]}"; do
    cmp -s "$chroot_dir$bdir/$ko" "$out/$ko" || cp "$chroot_dir$bdir/$ko" "$out/$ko"
done
printf '%s\n' "$aes" >"$out/aes"
echo "$me: $kver: ${kos[*]} (fallback ctr($aes)) in $out"
