#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# lib.sh: the rig's data, sourced by run.sh, prepare.sh, kmod.sh and
# kernel-abi.sh, and the command line prepare.sh and kmod.sh share.  The
# callers set me (their name in messages).
# shellcheck disable=SC2034 # the variables set here are the callers' data
#
# die MESSAGE: "$me: error: MESSAGE" on stderr, exit 1 (a caller that
# defined its own die() before sourcing this keeps it).
if ! declare -F die >/dev/null; then
    die() {
        echo "$me: error: $*" >&2
        exit 1
    }
fi

# rig_arch ARCH sets, for a guest architecture (x86_64 | arm64 | mipsel):
#   debarch      Debian architecture of the kernel packages (amd64 | arm64 | mipsel)
#   kflavour     the kernel packages' flavour (linux-image-<abi>-<kflavour>):
#                $debarch, but mipsel's is 4kc-malta
#   qemu         the QEMU system emulator
#   machine      QEMU -machine / -accel / -cpu arguments (array)
#   console      the serial console device on the kernel command line
#   image        file name of the bootable kernel in the prepared cache
#                (x86_64: the ELF vmlinux extracted from the bzImage, booted
#                through PVH; arm64: Debian's vmlinuz, a raw Image; mipsel:
#                Debian's 4kc-malta vmlinuz, an ELF)
#   foreign      1 if guest programs are not host programs (their shared
#                libraries come from the host's multiarch directories and the
#                guest's busybox from the cache), else 0
#   libdirs      multiarch library directories of a foreign guest (array)
#   libroot      where they are, relative to the kernel cache ('' : the
#                host's multiarch /; mipsel: user/sysroot, bookworm's mipsel
#                packages unpacked by prepare-mipsel.sh, never installed)
#   readelf      readelf for a foreign guest's ELF files
#   elfmachine   readelf's "Machine:" of a foreign guest's ELF files
#   cross        kbuild ARCH= and CROSS_COMPILE= for a foreign guest (array)
#   dtb          1 if a device tree is passed (--compatible edits its root
#                "compatible"), else 0 (mipsel: QEMU's malta passes none and
#                the Malta kernel uses its built-in tree: test/mipsel/kmod
#                edits the live one instead)
rig_arch() {
    case "$1" in
    x86_64)
        debarch=amd64 qemu=qemu-system-x86_64 console=ttyS0 image=vmlinux
        machine=(-machine pc -accel tcg -cpu qemu64)
        foreign=0 libdirs=() readelf='' elfmachine='' cross=() dtb=0 libroot='' kflavour=amd64
        ;;
    arm64)
        debarch=arm64 qemu=qemu-system-aarch64 console=ttyAMA0 image=Image
        machine=(-M virt -accel tcg -cpu cortex-a53)
        foreign=1 libdirs=(/lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu)
        readelf=aarch64-linux-gnu-readelf elfmachine=AArch64
        cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) dtb=1 libroot='' kflavour=arm64
        ;;
    mipsel)
        debarch=mipsel kflavour=4kc-malta qemu=qemu-system-mipsel console=ttyS0 image=vmlinux
        machine=(-M malta -accel tcg -cpu 24Kf)
        foreign=1 libdirs=(/lib/mipsel-linux-gnu /usr/lib/mipsel-linux-gnu) libroot=user/sysroot
        readelf=mipsel-linux-gnu-readelf elfmachine=MIPS
        cross=(ARCH=mips CROSS_COMPILE=mipsel-linux-gnu-) dtb=0
        ;;
    *) die "unknown architecture '$1' (x86_64, arm64 or mipsel)" ;;
    esac
}

# rig_kernel NAME sets k_name, k_arch, k_source, k_suite and k_cache from
# test/rig/kernels.
rig_kernel() {
    local name arch source suite cache
    while read -r name arch source suite cache; do
        [[ -z "$name" || "$name" == '#'* ]] && continue
        if [[ "$name" == "$1" ]]; then
            k_name=$name k_arch=$arch k_source=$source k_suite=$suite k_cache=$cache
            return 0
        fi
    done <"$(dirname "${BASH_SOURCE[0]}")/kernels"
    die "unknown kernel '$1' (test/rig/kernels: $(rig_kernel_names))"
}

# rig_cache_args USAGE MIN MAX ARGS...: the "[--kernel NAME] CACHE_DIR ..."
# command line of prepare.sh and kmod.sh (USAGE: what follows --kernel NAME;
# MIN to MAX arguments after it, MAX empty: no bound).  Sets name (default
# 6.1) and what rig_kernel and rig_arch set, appends NAME to me, creates
# CACHE_DIR and sets croot (it, absolute) and kcache (the kernel's directory
# in it: the "cache" column of test/rig/kernels); rig_args: the arguments
# after CACHE_DIR.
rig_cache_args() {
    local usage=$1 min=$2 max=$3
    shift 3
    name=6.1
    if [[ $# -ge 2 && "$1" == --kernel ]]; then
        name=$2
        shift 2
    fi
    [[ $# -ge $min && (-z "$max" || $# -le $max) ]] ||
        die "usage: $0 [--kernel NAME] $usage (NAME: $(rig_kernel_names))"
    rig_kernel "$name"
    rig_arch "$k_arch"
    me="$me $name"
    mkdir -p "$1"
    croot=$(cd "$1" && pwd)
    kcache=$croot/$k_cache
    [[ "$k_cache" != . ]] || kcache=$croot
    shift
    rig_args=("$@")
}

rig_kernel_names() {
    sed -n 's/^\([0-9a-z][^[:space:]]*\)[[:space:]].*/\1/p' "$(dirname "${BASH_SOURCE[0]}")/kernels" | tr '\n' ' '
}
