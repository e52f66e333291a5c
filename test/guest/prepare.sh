#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# prepare.sh CACHE_DIR
#
# Fetch the Debian guest kernel for the x86_64 test guest into CACHE_DIR:
#   CACHE_DIR/abi                 the ABI prepared last (e.g. "6.1.0-57")
#   CACHE_DIR/<abi>/root/         the image package unpacked with dpkg-deb -x
#                                 (plus modules.dep & co. made by depmod -b)
#   CACHE_DIR/<abi>/vmlinux       ELF kernel extracted from the bzImage (PVH boot)
#   CACHE_DIR/<abi>/kver          kernel release, e.g. "6.1.0-57-amd64"
#   CACHE_DIR/<abi>/package       the package that was unpacked
#
# The kernel is never installed on the host.  Idempotent: returns at once if
# the ABI resolved now is already complete in the cache.  Safe to run
# concurrently (flock).
set -euo pipefail

die() {
    echo "prepare: error: $*" >&2
    exit 1
}

[[ $# -eq 1 ]] || die "usage: $0 CACHE_DIR"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$1"
cache=$(cd "$1" && pwd)

for tool in apt-get apt-cache dpkg-deb depmod xz flock; do
    command -v "$tool" >/dev/null || die "'$tool' not found"
done

abi=$("$here/kernel-abi.sh") || die "cannot resolve the kernel ABI"
kver="$abi-amd64"
dest="$cache/$abi"

is_complete() {
    [[ -f "$dest/.complete" && -s "$dest/vmlinux" && -f "$dest/root/lib/modules/$kver/modules.dep" ]]
}

if is_complete; then
    [[ "$(cat "$cache/abi" 2>/dev/null || true)" == "$abi" ]] || printf '%s\n' "$abi" >"$cache/abi"
    echo "prepare: kernel $kver already prepared in $dest"
    exit 0
fi

exec 9>"$cache/.lock"
flock 9
if is_complete; then # another run finished it while we waited
    printf '%s\n' "$abi" >"$cache/abi"
    echo "prepare: kernel $kver already prepared in $dest"
    exit 0
fi

tmp="$cache/.tmp-$abi.$$"
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
rm -rf "$tmp"
mkdir -p "$tmp/dl"

# Find the ELF vmlinux inside a bzImage: try every xz stream start, keep the
# first one that decompresses to an ELF image.
extract_vmlinux() {
    local bzimage=$1 out=$2 off magic
    local offsets
    offsets=$(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "$bzimage" | cut -d: -f1) || true
    [[ -n "$offsets" ]] || die "no xz stream found in $bzimage"
    for off in $offsets; do
        # xz stops after one stream, so tail may die of SIGPIPE: only
        # xz's status counts.
        if xz -dc --single-stream <(tail -c "+$((off + 1))" "$bzimage" 2>/dev/null) >"$out" 2>/dev/null; then
            magic=$(head -c 4 "$out" | od -An -tx1 | tr -d ' \n')
            if [[ "$magic" == 7f454c46 ]]; then
                return 0
            fi
        fi
    done
    die "no xz stream in $bzimage decompresses to an ELF vmlinux"
}

# The signed package (linux-image-<abi>-amd64) and the unsigned one both ship
# the kernel and its modules; use the first one that exists and has both.
chosen=
for pkg in "linux-image-$kver" "linux-image-$kver-unsigned"; do
    if ! apt-cache show --no-all-versions "$pkg" >/dev/null 2>&1; then
        echo "prepare: package $pkg not available, skipping"
        continue
    fi
    echo "prepare: downloading $pkg"
    rm -rf "$tmp/dl" "$tmp/root"
    mkdir -p "$tmp/dl"
    # -o APT::Sandbox::User=root: the download dir is not readable by _apt.
    if ! (cd "$tmp/dl" && apt-get -q -o APT::Sandbox::User=root download "$pkg"); then
        echo "prepare: warning: apt-get download $pkg failed, trying the next" >&2
        continue
    fi
    debs=("$tmp/dl"/*.deb)
    [[ ${#debs[@]} -eq 1 && -f "${debs[0]}" ]] || die "expected one .deb for $pkg in $tmp/dl"
    dpkg-deb -x "${debs[0]}" "$tmp/root" || die "dpkg-deb -x ${debs[0]} failed"
    rm -f "${debs[0]}"
    # Newer packages ship /usr/lib/modules only (merged /usr).
    if [[ ! -e "$tmp/root/lib" && -d "$tmp/root/usr/lib/modules" ]]; then
        ln -s usr/lib "$tmp/root/lib"
    fi
    if [[ -f "$tmp/root/boot/vmlinuz-$kver" ]] &&
        compgen -G "$tmp/root/lib/modules/$kver/kernel/crypto/af_alg.ko*" >/dev/null; then
        chosen=$pkg
        break
    fi
    echo "prepare: $pkg lacks boot/vmlinuz-$kver or its crypto modules, trying the next"
done
[[ -n "$chosen" ]] || die "no usable linux-image package for ABI $abi"

depmod -b "$tmp/root" "$kver" || die "depmod -b $tmp/root $kver failed"
[[ -s "$tmp/root/lib/modules/$kver/modules.dep" ]] || die "depmod produced no modules.dep"

echo "prepare: extracting vmlinux"
extract_vmlinux "$tmp/root/boot/vmlinuz-$kver" "$tmp/vmlinux"

printf '%s\n' "$kver" >"$tmp/kver"
printf '%s\n' "$chosen" >"$tmp/package"
rmdir "$tmp/dl"
touch "$tmp/.complete"

rm -rf "$dest"
mv "$tmp" "$dest"
printf '%s\n' "$abi" >"$cache/abi"
echo "prepare: kernel $kver ($chosen) prepared in $dest"
