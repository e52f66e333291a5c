#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# prepare.sh CACHE_DIR
#
# Fetch everything the arm64 test guest needs from Debian's archive into
# CACHE_DIR (nothing is installed on the host; every package is downloaded
# with `apt-get download` and unpacked with `dpkg-deb -x`):
#   CACHE_DIR/abi                  the kernel ABI prepared last (e.g. "6.1.0-57")
#   CACHE_DIR/<abi>/root/          linux-image-<abi>-arm64 unpacked (+ depmod -b)
#   CACHE_DIR/<abi>/Image          the kernel (Debian's arm64 vmlinuz is a raw Image)
#   CACHE_DIR/<abi>/kver           kernel release, e.g. "6.1.0-57-arm64"
#   CACHE_DIR/<abi>/headers        linux-headers-<abi>-arm64 + -common unpacked, the
#                                  arm64 Makefile pointed at that -common, scripts/ and
#                                  tools/ at the host's linux-kbuild-<major.minor>
#   CACHE_DIR/user-<ver>/          busybox-static:arm64 and openssl:arm64 (the `openssl`
#                                  command, same version as the host's libssl3:arm64);
#                                  sysroot/: libc6, libssl and kernel headers (arm64)
#                                  unpacked as a sysroot for the toolchain file's
#                                  EIP93_SYSROOT mode (cross-sysroot.sh)
#   CACHE_DIR/user                 symlink to the user-<ver> in use
#
# Idempotent and safe to run concurrently (flock).  Needs the arm64 dpkg
# architecture (scripts/deps.d/arm64.sh) and apt lists.
set -euo pipefail

die() {
    echo "arm64/prepare: error: $*" >&2
    exit 1
}

[[ $# -eq 1 ]] || die "usage: $0 CACHE_DIR"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$1"
cache=$(cd "$1" && pwd)
for tool in apt-get apt-cache dpkg-deb dpkg-query depmod flock; do
    command -v "$tool" >/dev/null || die "'$tool' not found"
done

abi=$("$here/kernel-abi.sh") || die "cannot resolve the arm64 kernel ABI"
kver="$abi-arm64"
dest="$cache/$abi"
# The openssl command must match the libssl3:arm64 the host has (multiarch).
sslver=$(dpkg-query -W -f='${Version}' libssl3:arm64 2>/dev/null) ||
    die "libssl3:arm64 is not installed (scripts/deps.sh with scripts/deps.d/arm64.*)"
userdir="$cache/user-${sslver//[:~]/_}"

kernel_complete() {
    # (The headers' Makefile names the cache by absolute path: a moved cache is redone.)
    [[ -f "$dest/.complete" && -s "$dest/Image" && -f "$dest/root/lib/modules/$kver/modules.dep" ]] &&
        grep -qx "include $dest/headers-common/Makefile" "$dest/headers/Makefile"
}
user_complete() {
    [[ -f "$userdir/.complete" && -x "$userdir/busybox" && -x "$userdir/openssl" &&
        -f "$userdir/sysroot/usr/lib/aarch64-linux-gnu/pkgconfig/libcrypto.pc" ]]
}

exec 9>"$cache/.lock"
flock 9

download() { # DIR PACKAGE...: one .deb per package into DIR
    local dir=$1
    shift
    mkdir -p "$dir"
    # -o APT::Sandbox::User=root: the download dir is not readable by _apt.
    (cd "$dir" && apt-get -q -o APT::Sandbox::User=root download "$@") ||
        die "apt-get download $* failed"
}

if ! kernel_complete; then
    tmp="$cache/.tmp-$abi.$$"
    trap 'rm -rf "$tmp"' EXIT
    rm -rf "$tmp"
    chosen=
    for pkg in "linux-image-$kver" "linux-image-$kver-unsigned"; do
        apt-cache show --no-all-versions "$pkg:arm64" >/dev/null 2>&1 || continue
        chosen=$pkg
        break
    done
    [[ -n "$chosen" ]] || die "neither linux-image-$kver nor linux-image-$kver-unsigned (arm64) is available"
    echo "arm64/prepare: downloading $chosen, linux-headers-$kver, linux-headers-$abi-common"
    download "$tmp/dl" "$chosen:arm64" "linux-headers-$kver:arm64" "linux-headers-$abi-common"
    mkdir -p "$tmp/root" "$tmp/hdr"
    for deb in "$tmp/dl"/linux-image-*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done
    for deb in "$tmp/dl"/linux-headers-*.deb; do dpkg-deb -x "$deb" "$tmp/hdr"; done
    rm -rf "$tmp/dl"
    if [[ ! -e "$tmp/root/lib" && -d "$tmp/root/usr/lib/modules" ]]; then
        ln -s usr/lib "$tmp/root/lib"
    fi
    [[ -f "$tmp/root/boot/vmlinuz-$kver" ]] || die "$chosen has no boot/vmlinuz-$kver"
    compgen -G "$tmp/root/lib/modules/$kver/kernel/crypto/af_alg.ko*" >/dev/null ||
        die "$chosen has no crypto modules"
    depmod -b "$tmp/root" "$kver" || die "depmod -b failed"
    # Debian's arm64 vmlinuz is an uncompressed Image that QEMU boots as is.
    mv "$tmp/root/boot/vmlinuz-$kver" "$tmp/Image"

    # Headers: the arm64 tree includes the -common tree by absolute path and
    # links scripts/ and tools/ to linux-kbuild (host programs): point both
    # at what we have, the host's amd64 linux-kbuild of the same series.
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
    printf '%s\n' "$kver" >"$tmp/kver"
    printf '%s\n' "$chosen" >"$tmp/package"
    touch "$tmp/.complete"
    rm -rf "$dest"
    mv "$tmp" "$dest"
    trap - EXIT
    echo "arm64/prepare: kernel $kver ($chosen) prepared in $dest"
else
    echo "arm64/prepare: kernel $kver already prepared in $dest"
fi
printf '%s\n' "$abi" >"$cache/abi"

if ! user_complete; then
    tmp="$userdir.tmp.$$"
    trap 'rm -rf "$tmp"' EXIT
    rm -rf "$tmp"
    echo "arm64/prepare: downloading busybox-static:arm64, openssl:arm64=$sslver"
    download "$tmp/dl" busybox-static:arm64 "openssl:arm64=$sslver"
    for deb in "$tmp/dl"/*.deb; do dpkg-deb -x "$deb" "$tmp/x"; done
    cp "$tmp/x/bin/busybox" "$tmp/busybox"
    cp "$tmp/x/usr/bin/openssl" "$tmp/openssl"
    rm -rf "$tmp/dl" "$tmp/x"
    echo "arm64/prepare: downloading an arm64 sysroot (libc6-dev, libssl-dev=$sslver, linux-libc-dev)"
    download "$tmp/dl" libc6:arm64 libc6-dev:arm64 libcrypt1:arm64 libcrypt-dev:arm64 \
        linux-libc-dev:arm64 "libssl3:arm64=$sslver" "libssl-dev:arm64=$sslver"
    for deb in "$tmp/dl"/*.deb; do dpkg-deb -x "$deb" "$tmp/sysroot"; done
    rm -rf "$tmp/dl"
    touch "$tmp/.complete"
    rm -rf "$userdir"
    mv "$tmp" "$userdir"
    trap - EXIT
fi
ln -sfn "$(basename "$userdir")" "$cache/user"
echo "arm64/prepare: busybox and openssl ($sslver) in $userdir"
