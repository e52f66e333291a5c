#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# prepare.sh CACHE_ROOT TAG
#
# Fetch one extra Debian x86_64 kernel for the guest matrix, with what is
# needed to build the simulated driver for it.  TAG picks the suite whose
# linux-image-amd64 metapackage resolves the ABI (never hard-coded):
#   6.12  trixie          7.2  sid          7.3  trixie-backports
# Layout (CACHE_ROOT is the guest cache, e.g. ~/.cache/eip93/guest):
#   CACHE_ROOT/kernels/TAG/abi            the ABI (prepare.sh cache format,
#   CACHE_ROOT/kernels/TAG/<abi>/...      so test/guest/run.sh --cache works)
#   CACHE_ROOT/kernels/TAG/<abi>/toolchain  suite of the build chroot
#   CACHE_ROOT/kernels/chroot-<suite>/    throw-away build chroot: that
#       suite's gcc, make, libc and the kernel's headers/kbuild, unpacked
#       from .debs (dpkg-deb, never installed), entered with chroot(8)
# Idempotent; the index is refreshed at most every 12 h (apt.sh update).
set -euo pipefail

die() {
    echo "kernels/prepare: error: $*" >&2
    exit 1
}

[[ $# -eq 2 ]] || die "usage: $0 CACHE_ROOT TAG"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$1"
croot=$(cd "$1" && pwd)
tag=$2
case "$tag" in
6.12) suite=trixie ;;
7.2) suite=sid ;;
7.3) suite=trixie-backports ;;
*) die "unknown kernel tag '$tag' (6.12, 7.2, 7.3)" ;;
esac
# The build chroot: trixie-backports kernels are built with trixie's gcc.
csuite=${suite%-backports}
apt=("$here/apt.sh" "$croot")
for tool in dpkg-deb depmod zstd flock tar chroot; do
    command -v "$tool" >/dev/null || die "'$tool' not found"
done

"${apt[@]}" update
# Warm path: the ABI was resolved after the last index refresh and
# everything for it is in place (no apt-cache call, no lock).
kcache=$croot/kernels/$tag
if [[ -f "$kcache/abi" && -f "$croot/apt/updated" && "$kcache/abi" -nt "$croot/apt/updated" ]]; then
    abi=$(cat "$kcache/abi")
    if [[ -f "$kcache/$abi/.complete" && -f "$croot/kernels/chroot-$csuite/.complete" &&
        -f "$croot/kernels/chroot-$csuite/.headers-$abi" ]]; then
        echo "kernels/prepare: kernel $abi-amd64 ($suite) already prepared in $kcache/$abi"
        exit 0
    fi
fi
deps=$("${apt[@]}" apt-cache depends "linux-image-amd64/$suite") ||
    die "apt-cache depends linux-image-amd64/$suite failed"
abi=$(printf '%s\n' "$deps" |
    sed -n -E 's/^[[:space:]]*\|?Depends:[[:space:]]*linux-image-([0-9][^[:space:]]*)-amd64(-unsigned)?[[:space:]]*$/\1/p' |
    head -n 1)
[[ -n "$abi" ]] || die "no linux-image-<abi>-amd64 in: $deps"
kver=$abi-amd64
kcache=$croot/kernels/$tag
dest=$kcache/$abi
chroot_dir=$croot/kernels/chroot-$csuite
mkdir -p "$kcache"

exec 9>"$croot/kernels/.lock-$tag"
flock 9

# Download packages (no dependencies) into DIR and unpack them into ROOT,
# keeping merged-/usr symlinks.
fetch_unpack() {
    local dl=$1 root=$2 deb
    shift 2
    mkdir -p "$dl" "$root"
    (cd "$dl" && "${apt[@]}" apt-get -q download "$@") >&2 || die "download $* failed"
    for deb in "$dl"/*.deb; do
        dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$root" ||
            die "unpacking $deb failed"
        rm -f "$deb"
    done
}

usrmerge() {
    local d
    mkdir -p "$1/usr/bin" "$1/usr/sbin" "$1/usr/lib" "$1/usr/lib64"
    for d in bin sbin lib lib64; do
        [[ -e "$1/$d" ]] || ln -s "usr/$d" "$1/$d"
    done
}

# ---- the kernel ------------------------------------------------------------
if [[ ! -f "$dest/.complete" ]]; then
    tmp=$kcache/.tmp-$abi.$$
    rm -rf "$tmp"
    trap 'rm -rf "$tmp"' EXIT
    usrmerge "$tmp/root"
    if [[ "$abi" == 6.* ]]; then
        pkgs=("linux-image-$kver")
    else # 7.x: linux-image-<kver> is empty
        pkgs=("linux-binary-$kver" "linux-modules-$kver" "linux-base-$kver")
    fi
    echo "kernels/prepare: downloading ${pkgs[*]}"
    fetch_unpack "$tmp/dl" "$tmp/root" "${pkgs[@]}"
    img="$tmp/root/boot/vmlinuz-$kver"
    [[ -f "$img" ]] || img="$tmp/root/usr/lib/modules/$kver/vmlinuz" # 7.x
    [[ -f "$img" ]] || die "no vmlinuz for $kver in ${pkgs[*]}"
    compgen -G "$tmp/root/lib/modules/$kver/kernel/crypto/af_alg.ko*" >/dev/null ||
        die "no af_alg module in ${pkgs[*]}"
    depmod -b "$tmp/root" "$kver" || die "depmod failed"
    # ELF vmlinux from the bzImage: the first zstd (or xz) stream that
    # decompresses to an ELF.
    ok=
    for off in $(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$img" | cut -d: -f1); do
        if tail -c "+$((off + 1))" "$img" 2>/dev/null | zstd -qdc 2>/dev/null >"$tmp/vmlinux" ||
            [[ -s "$tmp/vmlinux" ]]; then
            if [[ "$(head -c 4 "$tmp/vmlinux" | od -An -tx1 | tr -d ' \n')" == 7f454c46 ]]; then
                ok=1
                break
            fi
        fi
    done
    [[ -n "$ok" ]] || die "no zstd stream in $img decompresses to an ELF vmlinux"
    printf '%s\n' "$kver" >"$tmp/kver"
    printf '%s\n' "${pkgs[*]}" >"$tmp/package"
    printf '%s\n' "$csuite" >"$tmp/toolchain"
    rm -rf "$tmp/dl"
    touch "$tmp/.complete"
    rm -rf "$dest"
    mv "$tmp" "$dest"
    trap - EXIT
fi
printf '%s\n' "$abi" >"$kcache/abi"

# ---- the build chroot (toolchain + this kernel's headers) ------------------
exec 8>"$croot/kernels/.lock-chroot-$csuite"
flock 8
if [[ ! -f "$chroot_dir/.complete" ]]; then
    rm -rf "$chroot_dir"
    usrmerge "$chroot_dir"
    gccv=$([[ "$csuite" == sid ]] && echo 16 || echo 14)
    tool_pkgs=(bash dash coreutils sed grep gawk make findutils diffutils tar gzip xz-utils
        kmod "gcc-$gccv-for-host" libc6-dev binutils pahole libelf1t64 libssl3t64 zlib1g
        bc perl-base)
    echo "kernels/prepare: building the $csuite chroot (${tool_pkgs[*]} and dependencies)"
    mkdir -p "$chroot_dir/.dl"
    (cd "$chroot_dir/.dl" &&
        "${apt[@]}" apt-get -q -y --no-install-recommends -o Debug::NoLocking=1 \
            -o "Dir::Cache::archives=$chroot_dir/.dl" \
            -t "$csuite" install --download-only "${tool_pkgs[@]}") >&2 ||
        die "resolving the $csuite toolchain failed"
    for deb in "$chroot_dir"/.dl/*.deb; do
        dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$chroot_dir" ||
            die "unpacking $deb failed"
    done
    rm -rf "$chroot_dir/.dl"
    ln -sf dash "$chroot_dir/usr/bin/sh"
    # What maintainer scripts (never run here) would have made: alternatives.
    [[ -e "$chroot_dir/usr/bin/awk" ]] || ln -s gawk "$chroot_dir/usr/bin/awk"
    mkdir -p "$chroot_dir/dev" "$chroot_dir/tmp" "$chroot_dir/build"
    [[ -e "$chroot_dir/dev/null" ]] || mknod -m 666 "$chroot_dir/dev/null" c 1 3
    chmod 1777 "$chroot_dir/tmp"
    touch "$chroot_dir/.complete"
fi
if [[ ! -f "$chroot_dir/.headers-$abi" ]]; then
    kb=$abi
    echo "kernels/prepare: unpacking the headers of $abi into the $csuite chroot"
    fetch_unpack "$chroot_dir/.dl-$abi" "$chroot_dir" "linux-headers-$kver" \
        "linux-headers-$abi-common" "linux-kbuild-${kb}"
    rm -rf "$chroot_dir/.dl-$abi"
    [[ -f "$chroot_dir/usr/src/linux-headers-$kver/Makefile" ]] || die "headers for $kver missing"
    touch "$chroot_dir/.headers-$abi"
fi
echo "kernels/prepare: kernel $kver ($suite) in $dest, build chroot $chroot_dir"
