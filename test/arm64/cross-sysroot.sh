#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# cross-sysroot.sh SOURCE_DIR BUILD_DIR CACHE_DIR
#
# The toolchain file's sysroot mode, the one an OpenWrt SDK needs
# (docs/operations.md "Cross-building"), exercised with what this machine
# has: the aarch64 cross gcc and an arm64 sysroot unpacked from Debian
# packages by prepare.sh (CACHE_DIR/user/sysroot), OpenWrt's modules
# directory.  Checks that libcrypto, its headers and the compiler's
# --sysroot all come from the sysroot, and the install path.  (An actual
# OpenWrt SDK, musl and OpenWrt's OpenSSL are not available here.)
set -euo pipefail
die() {
    echo "arm64/cross-sysroot: error: $*" >&2
    exit 1
}
[[ $# -eq 3 ]] || die "usage: $0 SOURCE_DIR BUILD_DIR CACHE_DIR"
src=$(cd "$1" && pwd)
out=$2
sysroot=$(cd "$3/user/sysroot" 2>/dev/null && pwd) || die "$3/user/sysroot missing: run prepare.sh"
rm -rf "$out"
cmake -S "$src" -B "$out" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchain-aarch64.cmake" \
    -DEIP93_CROSS_TRIPLET=aarch64-linux-gnu -DEIP93_CROSS_BIN="$(dirname "$(command -v aarch64-linux-gnu-gcc)")" \
    -DEIP93_SYSROOT="$sysroot" -DEIP93_MODULESDIR=/usr/lib/ossl-modules \
    -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >"$out.configure.log" 2>&1 ||
    { cat "$out.configure.log" >&2; die "configure failed"; }
cmake --build "$out" -j"$(nproc)" --target eip93 eip93-doctor -- VERBOSE=1 >"$out.build.log" 2>&1 ||
    { cat "$out.build.log" >&2; die "build failed"; }
cache_get() { sed -n "s/^$1:[A-Z]*=//p" "$out/CMakeCache.txt"; }
[[ "$(cache_get LIBCRYPTO_LIBRARY_DIRS)" == "$sysroot"/* ]] ||
    die "libcrypto not from the sysroot: $(cache_get LIBCRYPTO_LIBRARY_DIRS)"
[[ "$(cache_get LIBCRYPTO_INCLUDE_DIRS)" == "$sysroot"/* ]] ||
    die "libcrypto headers not from the sysroot: $(cache_get LIBCRYPTO_INCLUDE_DIRS)"
grep -q -- "--sysroot=$sysroot .*-o eip93.so .*$sysroot/usr/lib/aarch64-linux-gnu/libcrypto.so" "$out.build.log" ||
    die "eip93.so not linked with --sysroot against the sysroot's libcrypto"
grep -q 'Machine:.*AArch64' <<<"$(LC_ALL=C aarch64-linux-gnu-readelf -h "$out/eip93.so")" || die "not aarch64"
rm -rf "$out/stage"
DESTDIR="$out/stage" cmake --install "$out" >/dev/null
[[ -f "$out/stage/usr/lib/ossl-modules/eip93.so" ]] || die "not installed into /usr/lib/ossl-modules"
echo "arm64/cross-sysroot: eip93.so built against $sysroot, installs into /usr/lib/ossl-modules"
