#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# cross-build.sh SOURCE_DIR BUILD_DIR
#
# Cross-build eip93 for aarch64 with cmake/toolchain-aarch64.cmake (Debian's
# gcc-aarch64-linux-gnu and multiarch libssl-dev:arm64): the release module
# (no test hooks: EIP93_TEST_HOOKS stays OFF) and the programs the arm64
# guest runs.  Then checks what was built: aarch64 ELF files, the module
# linked to the arm64 libcrypto and installed (DESTDIR) into the arm64
# multiarch modules directory, no test-hook strings in the module.
set -euo pipefail

die() {
    echo "arm64/cross-build: error: $*" >&2
    exit 1
}

[[ $# -eq 2 ]] || die "usage: $0 SOURCE_DIR BUILD_DIR"
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
for tool in aarch64-linux-gnu-gcc aarch64-linux-gnu-pkg-config aarch64-linux-gnu-readelf cmake; do
    command -v "$tool" >/dev/null || die "'$tool' not found (scripts/deps.sh installs it)"
done

# The guest tests need only these; the test tree is configured so that
# they are defined (the tests registered in this tree are never run).
targets=(eip93 eip93-gate-check eip93-offload-check eip93-seccomp-check eip93-doctor)
cmake -S "$src" -B "$out" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchain-aarch64.cmake" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEIP93_TEST_HOOKS=OFF -DBUILD_TESTING=ON \
    -DEIP93_GUEST_TESTS=ON >"$out/configure.log" 2>&1 || {
    cat "$out/configure.log" >&2
    die "cmake configure failed"
}
cmake --build "$out" -j"$(nproc)" --target "${targets[@]}"

modulesdir=$(aarch64-linux-gnu-pkg-config --variable=modulesdir libcrypto)
[[ "$modulesdir" == /usr/lib/aarch64-linux-gnu/* ]] || die "arm64 modulesdir is '$modulesdir'"
grep -qx "EIP93_MODULESDIR:PATH=$modulesdir" "$out/CMakeCache.txt" ||
    die "the cross build does not install into $modulesdir"
grep -qx 'EIP93_TEST_HOOKS:BOOL=OFF' "$out/CMakeCache.txt" || die "test hooks are on"

check_elf() { # FILE: an aarch64 ELF linked only against arm64 libraries
    local f=$1
    [[ -f "$f" ]] || die "$f was not built"
    grep -q 'Machine:.*AArch64' <<<"$(LC_ALL=C aarch64-linux-gnu-readelf -h "$f")" || die "$f is not aarch64"
}
check_elf "$out/eip93.so"
for t in eip93-gate-check eip93-offload-check eip93-seccomp-check; do
    check_elf "$out/test/$t"
done
check_elf "$out/eip93-doctor"
grep -q 'NEEDED.*\[libcrypto.so.3\]' <<<"$(LC_ALL=C aarch64-linux-gnu-readelf -d "$out/eip93.so")" ||
    die "eip93.so does not link libcrypto.so.3"
if grep -qa -e EIP93_TEST_DT_PATH -e EIP93_TEST_HWCAP -e EIP93_TEST_FAULT "$out/eip93.so"; then
    die "the release eip93.so contains test hook names"
fi

rm -rf "$out/stage"
DESTDIR="$out/stage" cmake --install "$out" --component Unspecified >/dev/null
[[ -f "$out/stage$modulesdir/eip93.so" ]] || die "cmake --install did not put eip93.so into $modulesdir"
echo "arm64/cross-build: $out/eip93.so (release, aarch64) and the guest programs built;" \
    "installs into $modulesdir"
