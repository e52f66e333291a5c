#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# prepare-mipsel.sh CACHE_DIR  (run by prepare.sh --kernel mipsel CACHE_DIR)
#
# The mipsel guest's files, from Debian bookworm (the last release with
# mipsel) through the mipsel suite's own package index (test/mipsel/apt.sh,
# kept in CACHE_DIR/apt; the host's apt and dpkg architectures are not
# touched), downloaded and unpacked, nothing installed:
#   abi                   the ABI prepared last (e.g. "6.1.0-50")
#   <abi>/root/           linux-image-<abi>-4kc-malta unpacked (+ depmod -b)
#   <abi>/vmlinux         the kernel (Debian's 4kc-malta vmlinuz is an ELF,
#                         what QEMU's malta machine loads)
#   <abi>/kver            kernel release, e.g. "6.1.0-50-4kc-malta"
#   <abi>/headers, <abi>/headers-common
#                         linux-headers-<abi>-4kc-malta and -common unpacked,
#                         the Makefile pointed at that -common, scripts/ and
#                         tools/ at the host's linux-kbuild of the same series
#                         (kmod.sh --kernel mipsel cross-builds against them)
#   user-<ver>/           busybox-static, openssl (<ver>: bookworm's mipsel
#                         libssl3, which may lag the host's amd64 one) and
#                         sysroot/ (libc6, libc6-dev, libcrypt, linux-libc-dev,
#                         libssl3, libssl-dev, libatomic1 (libcrypto and the
#                         64-bit counters need it), libkcapi: eip93-diff compares
#                         with the kernel through it): the guest's shared libraries
#                         and the cross build's sysroot
#                         (cmake/toolchain-mipsel.cmake)
#                         bin/openssl: that openssl under qemu-mipsel-static
#                         (the host tests' OPENSSL_CLI in a mipsel build)
#   user                  symlink to the user-<ver> in use
# Idempotent; the index is refreshed at most every 12 h, and a warm cache
# returns without the network.
set -euo pipefail

me="prepare mipsel"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=test/rig/lib.sh
. "$here/lib.sh"
rig_arch mipsel
[[ $# -eq 1 ]] || die "usage: $0 CACHE_DIR"
mkdir -p "$1"
croot=$(cd "$1" && pwd)
apt=$here/../mipsel/apt.sh
for tool in apt-get apt-cache dpkg-deb depmod flock tar; do
    command -v "$tool" >/dev/null || die "'$tool' not found"
done

"$apt" "$croot" update
exec 9>"$croot/.lock"
flock 9

# Warm path: resolved after the last index refresh, everything in place.
if [[ -f "$croot/abi" && -f "$croot/apt/updated" && "$croot/abi" -nt "$croot/apt/updated" ]]; then
    abi=$(cat "$croot/abi")
    if [[ -f "$croot/$abi/.complete" && -f "$croot/user/.complete" ]]; then
        echo "$me: kernel $abi-$kflavour and user files already prepared in $croot"
        exit 0
    fi
fi

deps=$("$apt" "$croot" apt-cache depends "linux-image-$kflavour") ||
    die "apt-cache depends linux-image-$kflavour failed"
abi=$(printf '%s\n' "$deps" |
    sed -n -E "s/^[[:space:]]*\\|?Depends:[[:space:]]*linux-image-([0-9][^[:space:]]*)-${kflavour}[[:space:]]*\$/\\1/p" |
    head -n 1)
[[ -n "$abi" ]] || die "no linux-image-<abi>-$kflavour in: $deps"
kver=$abi-$kflavour
dest=$croot/$abi

fetch_unpack() { # DL_DIR ROOT PACKAGE...
    local dl=$1 root=$2 deb
    shift 2
    mkdir -p "$dl" "$root"
    (cd "$dl" && "$apt" "$croot" apt-get -q -o APT::Sandbox::User=root download "$@") >&2 ||
        die "apt-get download $* failed"
    for deb in "$dl"/*.deb; do
        dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$root" ||
            die "unpacking $deb failed"
    done
    rm -rf "$dl"
}

if ! [[ -f "$dest/.complete" && -s "$dest/vmlinux" ]] ||
    ! grep -qx "include $dest/headers-common/Makefile" "$dest/headers/Makefile"; then
    tmp="$croot/.tmp-$abi.$$"
    rm -rf "$tmp"
    trap 'rm -rf "$tmp"' EXIT
    echo "$me: downloading linux-image-$kver, linux-headers-$kver, linux-headers-$abi-common"
    fetch_unpack "$tmp/dl" "$tmp/root" "linux-image-$kver"
    [[ -f "$tmp/root/boot/vmlinuz-$kver" ]] || die "no /boot/vmlinuz-$kver in linux-image-$kver"
    mv "$tmp/root/boot/vmlinuz-$kver" "$tmp/vmlinux"
    [[ "$(head -c 4 "$tmp/vmlinux" | od -An -tx1 | tr -d ' \n')" == 7f454c46 ]] ||
        die "vmlinuz-$kver is not an ELF kernel"
    compgen -G "$tmp/root/lib/modules/$kver/kernel/crypto/af_alg.ko*" >/dev/null || die "no af_alg module"
    depmod -b "$tmp/root" "$kver" || die "depmod -b $tmp/root $kver failed"
    fetch_unpack "$tmp/dl" "$tmp/hdr" "linux-headers-$kver" "linux-headers-$abi-common"
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
    printf '%s\n' "linux-image-$kver" >"$tmp/package"
    touch "$tmp/.complete"
    rm -rf "$dest"
    mv "$tmp" "$dest"
    trap - EXIT
    echo "$me: kernel $kver prepared in $dest"
fi

# The user files: bookworm's mipsel libssl3 (the candidate of this index).
sslver=$("$apt" "$croot" apt-cache policy libssl3 | sed -n 's/^[[:space:]]*Candidate:[[:space:]]*//p')
[[ -n "$sslver" && "$sslver" != "(none)" ]] || die "no libssl3 candidate in the mipsel index"
userdir="$croot/user-${sslver//[:~]/_}"
if ! [[ -f "$userdir/.complete" ]]; then
    tmp="$userdir.tmp.$$"
    rm -rf "$tmp"
    trap 'rm -rf "$tmp"' EXIT
    echo "$me: downloading busybox-static, openssl=$sslver and a mipsel sysroot"
    fetch_unpack "$tmp/dl" "$tmp/x" busybox-static "openssl=$sslver"
    cp "$tmp/x/bin/busybox" "$tmp/busybox"
    cp "$tmp/x/usr/bin/openssl" "$tmp/openssl"
    rm -rf "$tmp/x"
    fetch_unpack "$tmp/dl" "$tmp/sysroot" libc6 libc6-dev libcrypt1 libcrypt-dev linux-libc-dev libatomic1 libkcapi1 libkcapi-dev \
        "libssl3=$sslver" "libssl-dev=$sslver"
    for pc in libcrypto libkcapi; do
        [[ -f "$tmp/sysroot/usr/lib/mipsel-linux-gnu/pkgconfig/$pc.pc" ]] || die "no $pc.pc in the sysroot"
    done
    # The host tests' `openssl` (OPENSSL_CLI of a mipsel build): the mipsel
    # one under qemu-user with the sysroot's libraries.
    mkdir -p "$tmp/bin"
    cat >"$tmp/bin/openssl" <<'WRAP'
#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Debian bookworm's mipsel openssl under qemu-user (test/rig/prepare-mipsel.sh).
d=$(cd "$(dirname "$0")/.." && pwd)
exec qemu-mipsel-static -L "$d/sysroot" "$d/openssl" "$@"
WRAP
    chmod 0755 "$tmp/bin/openssl"
    touch "$tmp/.complete"
    rm -rf "$userdir"
    mv "$tmp" "$userdir"
    trap - EXIT
fi
ln -sfn "$(basename "$userdir")" "$croot/user"
printf '%s\n' "$abi" >"$croot/abi"
echo "$me: kernel $kver in $dest; busybox, openssl ($sslver) and the sysroot in $userdir"
