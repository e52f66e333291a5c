#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# cross-check.sh BUILD_DIR EIP93_SO DOCTOR
#
# The mipsel cross build's release module and doctor (cmake/toolchain-mipsel.cmake):
# MIPS32 little-endian ELF files, the module linked to libcrypto.so.3 (and
# libatomic.so.1: the 64-bit counters), no test-hook names in it, the
# release configuration (EIP93_TEST_HOOKS=OFF) and `cmake --install` putting
# it into the sysroot libcrypto's modules directory.
set -euo pipefail
die() {
    echo "mipsel/cross-check: error: $*" >&2
    exit 1
}
[[ $# -eq 3 ]] || die "usage: $0 BUILD_DIR EIP93_SO DOCTOR"
build=$1 so=$2 doctor=$3
command -v mipsel-linux-gnu-readelf >/dev/null || die "mipsel-linux-gnu-readelf not found (scripts/deps.sh)"
grep -qx 'EIP93_TEST_HOOKS:BOOL=OFF' "$build/CMakeCache.txt" || die "test hooks are on in $build"
for f in "$so" "$doctor"; do
    h=$(LC_ALL=C mipsel-linux-gnu-readelf -h "$f") || die "$f is not an ELF file"
    grep -q 'Class:.*ELF32' <<<"$h" && grep -q "Data:.*little endian" <<<"$h" &&
        grep -q 'Machine:.*MIPS' <<<"$h" || die "$f is not a MIPS32 little-endian ELF"
done
d=$(LC_ALL=C mipsel-linux-gnu-readelf -d "$so")
grep -q 'NEEDED.*\[libcrypto\.so\.3\]' <<<"$d" || die "eip93.so does not link libcrypto.so.3"
# Every hook variable is EIP93_TEST_<NAME> (the hooks build has DT_PATH, HWCAP,
# CPU, ENGINE, FAKE, FAULT, QUIRKS, VERIFY, ...): none may be in the release build.
if hooks=$(grep -ao 'EIP93_TEST_[A-Z_]*' "$so"); then
    die "the release eip93.so contains test hook names: $(sort -u <<<"$hooks" | tr '\n' ' ')"
fi
modulesdir=$(sed -n 's/^EIP93_MODULESDIR:PATH=//p' "$build/CMakeCache.txt")
[[ "$modulesdir" == /usr/lib/mipsel-linux-gnu/ossl-modules ]] ||
    die "modules directory '$modulesdir', expected /usr/lib/mipsel-linux-gnu/ossl-modules"
stage=$build/mipsel-stage
rm -rf "$stage"
DESTDIR="$stage" cmake --install "$build" --component Unspecified >/dev/null
[[ -f "$stage$modulesdir/eip93.so" ]] || die "cmake --install did not put eip93.so into $modulesdir"
echo "mipsel/cross-check: $so: release, MIPS32 little-endian, libcrypto.so.3," \
    "$(grep -c 'NEEDED' <<<"$d") libraries needed, no hook names, installs into $modulesdir"
