#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# prepare.sh [--kernel NAME] CACHE_DIR
#
# Fetch one guest kernel of test/rig/kernels (NAME, default 6.1) from
# Debian's archive into CACHE_DIR, with what kmod.sh needs to build test
# modules for it.  Nothing is installed on the host: packages are fetched
# with `apt-get download` and unpacked with dpkg-deb.  The kernel's files
# (the layout run.sh --cache reads) are in CACHE_DIR/<cache column>:
#   abi                   the ABI prepared last (e.g. "6.1.0-57")
#   <abi>/root/           the image package(s) unpacked (+ depmod -b)
#   <abi>/vmlinux         x86_64: the ELF kernel extracted from the bzImage (PVH boot)
#   <abi>/Image           arm64: the kernel (Debian's arm64 vmlinuz is a raw Image)
#   <abi>/kver            kernel release, e.g. "6.1.0-57-amd64"
#   <abi>/package         the package(s) unpacked
# and by kind of kernel:
#   host x86_64 (6.1)     headers: linux-headers-<abi>-amd64 installed on the host
#                         (scripts/deps.sh)
#   host arm64 (arm64)    <abi>/headers, <abi>/headers-common: linux-headers-<abi>-arm64
#                         and -common unpacked, the arm64 Makefile pointed at that
#                         -common, scripts/ and tools/ at the host's linux-kbuild;
#                         user-<ver>/: busybox-static:arm64, openssl:arm64 (same version
#                         as the host's libssl3:arm64) and sysroot/ (libc6, libssl,
#                         kernel headers) for the toolchain file's EIP93_SYSROOT mode;
#                         user: symlink to the user-<ver> in use
#   rig (6.12, 7.2, 7.3)  <abi>/toolchain: suite of the build chroot;
#                         CACHE_DIR/kernels/chroot-<suite>/: throw-away build chroot
#                         (that suite's gcc, make, libc and the kernel's
#                         headers/kbuild, unpacked from .debs, entered with chroot(8));
#                         CACHE_DIR/apt: the rig's package index (apt.sh; refreshed
#                         at most every 12 h)
# Idempotent (returns at once when everything is in place) and safe to run
# concurrently (flock).
set -euo pipefail

me=prepare
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=test/rig/lib.sh
. "$here/lib.sh"
rig_cache_args CACHE_DIR 1 1 "$@"
mkdir -p "$kcache"
# mipsel: Debian bookworm's packages through the suite's own index.
[[ "$k_arch" != mipsel ]] || exec "$here/prepare-mipsel.sh" "$kcache"

for tool in apt-get apt-cache dpkg-deb depmod flock tar; do
    command -v "$tool" >/dev/null || die "'$tool' not found"
done

# ---- helpers ---------------------------------------------------------------

# The rig index (rig kernels) or the host's apt.
apt_run() {
    if [[ "$k_source" == rig ]]; then "$here/apt.sh" "$croot" "$@"; else "$@"; fi
}

# fetch_unpack DL_DIR ROOT PACKAGE...: download (no dependencies) and unpack,
# keeping merged-/usr symlinks.
fetch_unpack() {
    local dl=$1 root=$2 deb
    shift 2
    mkdir -p "$dl" "$root"
    # -o APT::Sandbox::User=root: the download dir is not readable by _apt.
    (cd "$dl" && apt_run apt-get -q -o APT::Sandbox::User=root download "$@") >&2 ||
        die "apt-get download $* failed"
    for deb in "$dl"/*.deb; do
        dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$root" ||
            die "unpacking $deb failed"
        rm -f "$deb"
    done
    rm -rf "$dl"
}

# An image package that exists: the signed one, else the unsigned one.
image_package() {
    local pkg
    for pkg in "linux-image-$kver" "linux-image-$kver-unsigned"; do
        apt_run apt-cache show --no-all-versions "$pkg:$debarch" >/dev/null 2>&1 || continue
        echo "$pkg"
        return 0
    done
    die "neither linux-image-$kver nor linux-image-$kver-unsigned ($debarch) is available"
}

# extract_vmlinux BZIMAGE OUT: the first xz or zstd stream in a bzImage that
# decompresses to an ELF image.
extract_vmlinux() {
    local img=$1 out=$2 off
    for off in $(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "$img" | cut -d: -f1); do
        # xz stops after one stream, so tail may die of SIGPIPE: only
        # xz's status counts.
        xz -dc --single-stream <(tail -c "+$((off + 1))" "$img" 2>/dev/null) >"$out" 2>/dev/null &&
            is_elf "$out" && return 0
    done
    for off in $(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$img" | cut -d: -f1); do
        if tail -c "+$((off + 1))" "$img" 2>/dev/null | zstd -qdc 2>/dev/null >"$out" || [[ -s "$out" ]]; then
            is_elf "$out" && return 0
        fi
    done
    die "no xz or zstd stream in $img decompresses to an ELF vmlinux"
}
is_elf() { [[ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" == 7f454c46 ]]; }

usrmerge() {
    local d
    mkdir -p "$1/usr/bin" "$1/usr/sbin" "$1/usr/lib" "$1/usr/lib64"
    for d in bin sbin lib lib64; do
        [[ -e "$1/$d" ]] || ln -s "usr/$d" "$1/$d"
    done
}

# finish_kernel TMP PACKAGES...: depmod, the bootable image, the metadata;
# TMP becomes $dest.
finish_kernel() {
    local tmp=$1 img
    shift
    # Newer packages ship /usr/lib/modules only (merged /usr).
    if [[ ! -e "$tmp/root/lib" && -d "$tmp/root/usr/lib/modules" ]]; then
        ln -s usr/lib "$tmp/root/lib"
    fi
    img="$tmp/root/boot/vmlinuz-$kver"
    [[ -f "$img" ]] || img="$tmp/root/usr/lib/modules/$kver/vmlinuz" # 7.x
    [[ -f "$img" ]] || die "no vmlinuz for $kver in $*"
    compgen -G "$tmp/root/lib/modules/$kver/kernel/crypto/af_alg.ko*" >/dev/null ||
        die "no af_alg module in $*"
    depmod -b "$tmp/root" "$kver" || die "depmod -b $tmp/root $kver failed"
    [[ -s "$tmp/root/lib/modules/$kver/modules.dep" ]] || die "depmod produced no modules.dep"
    if [[ "$image" == vmlinux ]]; then
        echo "$me: extracting vmlinux"
        extract_vmlinux "$img" "$tmp/vmlinux"
    else
        mv "$img" "$tmp/$image"
    fi
    printf '%s\n' "$kver" >"$tmp/kver"
    printf '%s\n' "$*" >"$tmp/package"
}

install_dir() { # TMP DEST: replace DEST by the finished TMP
    touch "$1/.complete"
    rm -rf "$2"
    mv "$1" "$2"
}

kernel_complete() {
    [[ -f "$dest/.complete" && -s "$dest/$image" && -f "$dest/root/lib/modules/$kver/modules.dep" ]] ||
        return 1
    # (arm64: the headers' Makefile names the cache by absolute path: a moved cache is redone.)
    [[ "$k_arch" != arm64 ]] || grep -qx "include $dest/headers-common/Makefile" "$dest/headers/Makefile"
}

# ---- the ABI ---------------------------------------------------------------

if [[ "$k_source" == host ]]; then
    abi=$("$here/kernel-abi.sh" --arch "$k_arch") || die "cannot resolve the kernel ABI"
else
    command -v zstd >/dev/null || die "'zstd' not found"
    command -v chroot >/dev/null || die "'chroot' not found"
    csuite=${k_suite%-backports} # trixie-backports kernels are built with trixie's gcc
    chroot_dir=$croot/kernels/chroot-$csuite
    "$here/apt.sh" "$croot" update
    # Warm path: the ABI was resolved after the last index refresh and
    # everything for it is in place (no apt-cache call, no lock).
    if [[ -f "$kcache/abi" && -f "$croot/apt/updated" && "$kcache/abi" -nt "$croot/apt/updated" ]]; then
        abi=$(cat "$kcache/abi")
        if [[ -f "$kcache/$abi/.complete" && -f "$chroot_dir/.complete" && -f "$chroot_dir/.headers-$abi" ]]; then
            echo "$me: kernel $abi-$debarch ($k_suite) already prepared in $kcache/$abi"
            exit 0
        fi
    fi
    deps=$(apt_run apt-cache depends "linux-image-$debarch/$k_suite") ||
        die "apt-cache depends linux-image-$debarch/$k_suite failed"
    abi=$(printf '%s\n' "$deps" |
        sed -n -E "s/^[[:space:]]*\\|?Depends:[[:space:]]*linux-image-([0-9][^[:space:]]*)-$debarch(-unsigned)?[[:space:]]*\$/\\1/p" |
        head -n 1)
    [[ -n "$abi" ]] || die "no linux-image-<abi>-$debarch in: $deps"
fi
kver=$abi-$debarch
dest=$kcache/$abi

# Warm path of a host x86_64 kernel (no lock).  (arm64 goes on: its user
# files must match the host's libssl3:arm64, checked below.)
if [[ "$k_source" == host && "$k_arch" != arm64 ]] && kernel_complete; then
    [[ "$(cat "$kcache/abi" 2>/dev/null || true)" == "$abi" ]] || printf '%s\n' "$abi" >"$kcache/abi"
    echo "$me: kernel $kver already prepared in $dest"
    exit 0
fi

if [[ "$k_source" == rig ]]; then
    exec 9>"$croot/kernels/.lock-$name"
else
    exec 9>"$kcache/.lock"
fi
flock 9

# ---- the kernel ------------------------------------------------------------

if ! kernel_complete; then
    tmp="$kcache/.tmp-$abi.$$"
    rm -rf "$tmp"
    trap 'rm -rf "$tmp"' EXIT
    if [[ "$k_source" == rig && "$abi" != 6.* ]]; then
        pkgs=("linux-binary-$kver" "linux-modules-$kver" "linux-base-$kver") # 7.x: linux-image-<kver> is empty
    elif [[ "$k_source" == rig ]]; then
        pkgs=("linux-image-$kver")
    else
        pkg=$(image_package) || exit 1
        pkgs=("$pkg")
    fi
    [[ "$k_source" == rig ]] && usrmerge "$tmp/root"
    qual=()
    [[ "$foreign" == 1 ]] && qual=(":$debarch")
    echo "$me: downloading ${pkgs[*]}"
    fetch_unpack "$tmp/dl" "$tmp/root" "${pkgs[@]/%/${qual[0]:-}}"
    finish_kernel "$tmp" "${pkgs[@]}"
    [[ "$k_source" == rig ]] && printf '%s\n' "$csuite" >"$tmp/toolchain"
    if [[ "$k_arch" == arm64 ]]; then
        # Headers: the arm64 tree includes the -common tree by absolute path and
        # links scripts/ and tools/ to linux-kbuild (host programs): point both
        # at what we have, the host's amd64 linux-kbuild of the same series.
        echo "$me: downloading linux-headers-$kver, linux-headers-$abi-common"
        fetch_unpack "$tmp/dl" "$tmp/hdr" "linux-headers-$kver:arm64" "linux-headers-$abi-common"
        mv "$tmp/hdr/usr/src/linux-headers-$kver" "$tmp/headers"
        mv "$tmp/hdr/usr/src/linux-headers-$abi-common" "$tmp/headers-common"
        rm -rf "$tmp/hdr"
        sed -i "s|^include /usr/src/linux-headers-$abi-common/Makefile\$|include $dest/headers-common/Makefile|" \
            "$tmp/headers/Makefile"
        grep -q "^include $dest/headers-common/Makefile\$" "$tmp/headers/Makefile" ||
            die "unexpected linux-headers Makefile: $(cat "$tmp/headers/Makefile")"
        series=$(readlink "$tmp/headers/scripts" | sed -n 's|.*/linux-kbuild-\([0-9.]*\)/scripts$|\1|p')
        [[ -n "$series" ]] || die "cannot tell the linux-kbuild series from $tmp/headers/scripts"
        [[ -d "/usr/lib/linux-kbuild-$series/scripts" ]] ||
            die "/usr/lib/linux-kbuild-$series missing: install linux-kbuild-$series (comes with the amd64 headers)"
        for d in headers headers-common; do
            ln -sfn "/usr/lib/linux-kbuild-$series/scripts" "$tmp/$d/scripts"
            ln -sfn "/usr/lib/linux-kbuild-$series/tools" "$tmp/$d/tools"
        done
    fi
    install_dir "$tmp" "$dest"
    trap - EXIT
    echo "$me: kernel $kver (${pkgs[*]}) prepared in $dest"
else
    echo "$me: kernel $kver already prepared in $dest"
fi
printf '%s\n' "$abi" >"$kcache/abi"

# ---- arm64: the guest's busybox and openssl, the cross sysroot -------------

if [[ "$k_arch" == arm64 ]]; then
    command -v dpkg-query >/dev/null || die "'dpkg-query' not found"
    # The openssl command must match the libssl3:arm64 the host has (multiarch).
    sslver=$(dpkg-query -W -f='${Version}' libssl3:arm64 2>/dev/null) ||
        die "libssl3:arm64 is not installed (scripts/deps.sh with scripts/deps.d/arm64.*)"
    userdir="$kcache/user-${sslver//[:~]/_}"
    if ! [[ -f "$userdir/.complete" && -x "$userdir/busybox" && -x "$userdir/openssl" &&
        -f "$userdir/sysroot/usr/lib/aarch64-linux-gnu/pkgconfig/libcrypto.pc" ]]; then
        tmp="$userdir.tmp.$$"
        trap 'rm -rf "$tmp"' EXIT
        rm -rf "$tmp"
        echo "$me: downloading busybox-static:arm64, openssl:arm64=$sslver"
        fetch_unpack "$tmp/dl" "$tmp/x" busybox-static:arm64 "openssl:arm64=$sslver"
        cp "$tmp/x/bin/busybox" "$tmp/busybox"
        cp "$tmp/x/usr/bin/openssl" "$tmp/openssl"
        rm -rf "$tmp/x"
        echo "$me: downloading an arm64 sysroot (libc6-dev, libssl-dev=$sslver, linux-libc-dev)"
        fetch_unpack "$tmp/dl" "$tmp/sysroot" libc6:arm64 libc6-dev:arm64 libcrypt1:arm64 libcrypt-dev:arm64 \
            linux-libc-dev:arm64 "libssl3:arm64=$sslver" "libssl-dev:arm64=$sslver"
        install_dir "$tmp" "$userdir"
        trap - EXIT
    fi
    ln -sfn "$(basename "$userdir")" "$kcache/user"
    echo "$me: busybox and openssl ($sslver) in $userdir"
fi

[[ "$k_source" == rig ]] || exit 0

# ---- rig kernels: the build chroot (toolchain + this kernel's headers) -----

exec 8>"$croot/kernels/.lock-chroot-$csuite"
flock 8
if [[ ! -f "$chroot_dir/.complete" ]]; then
    rm -rf "$chroot_dir"
    usrmerge "$chroot_dir"
    gccv=$([[ "$csuite" == sid ]] && echo 16 || echo 14)
    tool_pkgs=(bash dash coreutils sed grep gawk make findutils diffutils tar gzip xz-utils
        kmod "gcc-$gccv-for-host" libc6-dev binutils pahole libelf1t64 libssl3t64 zlib1g
        bc perl-base)
    echo "$me: building the $csuite chroot (${tool_pkgs[*]} and dependencies)"
    mkdir -p "$chroot_dir/.dl"
    (cd "$chroot_dir/.dl" &&
        apt_run apt-get -q -y --no-install-recommends -o Debug::NoLocking=1 \
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
    echo "$me: unpacking the headers of $abi into the $csuite chroot"
    fetch_unpack "$chroot_dir/.dl-$abi" "$chroot_dir" "linux-headers-$kver" \
        "linux-headers-$abi-common" "linux-kbuild-$abi"
    [[ -f "$chroot_dir/usr/src/linux-headers-$kver/Makefile" ]] || die "headers for $kver missing"
    touch "$chroot_dir/.headers-$abi"
fi
echo "$me: kernel $kver ($k_suite) in $dest, build chroot $chroot_dir"
