#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# uci-build.sh THIRD_PARTY CACHE_ROOT
#
# Builds OpenWrt's `uci` command as one static program from the pinned
# sources THIRD_PARTY/libubox and THIRD_PARTY/uci (never part of this
# repository; see THIRD_PARTY/README.md "How to run OpenWrt's openssl init
# script here", step 1, whose commands these are), on copies in a scratch
# folder, and caches it in CACHE_ROOT/<key>/uci, where the key hashes every
# source file, this recipe and the compiler's version: a second run with the
# same sources is a lookup.  Prints the program's path.  Any failure is
# fatal (exit 1), with the build's log on stderr.
# Needs: cmake, make, a C compiler, pkg-config and json-c's headers
# (libjson-c-dev: libubox's CMakeLists requires json-c whatever the options).
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 THIRD_PARTY CACHE_ROOT" >&2; exit 2; }
tp=$1 cache=$2
for d in libubox uci; do
    [[ -f "$tp/$d/CMakeLists.txt" ]] || { echo "uci-build: $tp/$d/CMakeLists.txt not found" >&2; exit 1; }
done
for t in cmake make cc pkg-config; do
    command -v "$t" >/dev/null || { echo "uci-build: $t not found (Debian: cmake make gcc pkgconf)" >&2; exit 1; }
done
pkg-config --exists json-c || { echo "uci-build: json-c not found by pkg-config (Debian: libjson-c-dev)" >&2; exit 1; }

key=$( {
    (cd "$tp" && find libubox uci -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
    sha256sum <"${BASH_SOURCE[0]}"
    cc --version | head -n 1
} | sha256sum | cut -c1-16)
out=$cache/$key
if [[ -x "$out/uci" ]]; then
    echo "$out/uci"
    exit 0
fi

mkdir -p "$cache"
w=$(mktemp -d "$cache/.build.XXXXXX")
trap 'rm -rf "$w"' EXIT
log=$w/build.log
build() {
    cp -r "$tp/libubox" "$tp/uci" "$w/"
    chmod -R u+w "$w/libubox" "$w/uci"         # the pinned folder is read-only
    cmake -S "$w/libubox" -B "$w/b-ubox" -DCMAKE_INSTALL_PREFIX="$w/stage" \
        -DBUILD_LUA=OFF -DBUILD_EXAMPLES=OFF
    make -C "$w/b-ubox" -j"$(nproc)" install
    cmake -S "$w/uci" -B "$w/b-uci" -DCMAKE_INSTALL_PREFIX="$w/stage" -DCMAKE_PREFIX_PATH="$w/stage" \
        -DBUILD_LUA=OFF -DBUILD_STATIC=ON -DCMAKE_EXE_LINKER_FLAGS=-static
    make -C "$w/b-uci" -j"$(nproc)" cli
}
if ! build >"$log" 2>&1; then
    cat "$log" >&2
    echo "uci-build: building uci from $tp failed" >&2
    exit 1
fi
# One static program: nothing to copy into a scratch root beside it.
if grep -q 'Requesting program interpreter' <<<"$(readelf -lW "$w/b-uci/uci")"; then
    echo "uci-build: $w/b-uci/uci is not static" >&2
    exit 1
fi
mkdir -p "$w/out"
cp "$w/b-uci/uci" "$w/out/uci"
cp "$log" "$w/out/build.log"
# Complete or absent: a concurrent run that finished first wins.
mv -T "$w/out" "$out" 2>/dev/null || [[ -x "$out/uci" ]]
echo "$out/uci"
