#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite, as CI runs it: install what is needed, build with gcc
# (all tests, guest included), against OpenSSL 3.5 and 4.0 (host tests and
# some guests), with musl against OpenWrt's OpenSSL and its small-footprint
# twin (host tests), for mipsel (cross build, host tests under qemu-user, an
# MT7621 guest), clang (host tests), the host tests again under
# ASan+UBSan, the differential fuzzer (clang, libFuzzer), then clang-tidy and
# cppcheck over the project's code.
# Fails loudly at the first failing stage.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
jobs=$(nproc)
cache=${EIP93_GUEST_CACHE:-$HOME/.cache/eip93/guest}
ossl_cache=${EIP93_OPENSSL_CACHE:-$HOME/.cache/eip93}
start=$(date +%s)
stage() { echo; echo "=== $* ($(( $(date +%s) - start ))s)"; }

stage "dependencies"
scripts/deps.sh

stage "gcc build and all tests (host + guest)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=gcc -DEIP93_GUEST_TESTS=ON \
  -DEIP93_GUEST_CACHE="$cache" -DEIP93_OPENSSL_CACHE="$ossl_cache" >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

# ossl_series X.Y: OpenSSL X.Y built from Debian's source (cached), the
# provider built against it, its host tests and the guests that run its
# libcrypto: self-test, gate, FIPS, demo, differential and OpenSSL's harness.
ossl_series() {
  local series=$1 dir build=build-ossl${1//./}
  dir=$(scripts/openssl-build.sh "$series" "$ossl_cache")
  PKG_CONFIG_PATH="$dir/prefix/lib/pkgconfig" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=gcc -DEIP93_GUEST_TESTS=ON -DEIP93_GUEST_CACHE="$cache" \
    -DEIP93_OPENSSL_CACHE="$ossl_cache" -DOPENSSL_CLI="$dir/prefix/bin/openssl" >/dev/null
  PKG_CONFIG_PATH="$dir/prefix/lib/pkgconfig" cmake --build "$build" -j"$jobs"
  grep -q "^LIBCRYPTO_VERSION:INTERNAL=$series\\." "$build/CMakeCache.txt" ||
    { echo "test.sh: $build is not built against OpenSSL $series" >&2; exit 1; }
  ctest --test-dir "$build" --output-on-failure -j"$jobs" -L host
  ctest --test-dir "$build" --output-on-failure -j"$jobs" \
    -R '^guest_(selftest|gate|fips|demo|differential|harness_(evp|vectors|cavp))$'
}

stage "OpenSSL 3.5: build (cached), provider against it, host + guest tests"
ossl_series 3.5

stage "OpenSSL 4.0: build (cached), provider against it, host + guest tests"
ossl_series 4.0

# musl_series openwrt|openwrt-sf: OpenSSL 3.5 built as OpenWrt builds it, with
# musl (scripts/openssl-build.sh: OpenWrt's options and -Os; openwrt-sf with
# OPENSSL_SMALL_FOOTPRINT; cached), the provider built with musl against it
# (cmake/toolchain-musl.cmake) and its host tests; no guest.  Fails unless the
# module, the doctor and the differential test are musl programs linked
# against that libcrypto, and musl's loader resolves libcrypto there.
musl_series() {
  local series=$1 dir build=build-$1 f lib d
  dir=$(scripts/openssl-build.sh "$series" "$ossl_cache")
  lib="$dir/prefix/lib"
  PKG_CONFIG_PATH="$lib/pkgconfig" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-musl.cmake -DEIP93_GUEST_TESTS=OFF \
    -DOPENSSL_CLI="$dir/prefix/bin/openssl" >/dev/null
  PKG_CONFIG_PATH="$lib/pkgconfig" cmake --build "$build" -j"$jobs"
  for f in "$build/eip93.so" "$build/test/hooks/eip93.so" "$build/eip93-doctor" "$build/test/diff/eip93-diff"; do
    d=$(readelf -dW "$f")
    grep -q 'NEEDED.*\[libc\.so\]' <<<"$d" && ! grep -q 'NEEDED.*\[libc\.so\.6\]' <<<"$d" &&
      grep -q 'NEEDED.*\[libcrypto\.so\.3\]' <<<"$d" && grep -qF "path: [$lib" <<<"$d" ||
      { echo "test.sh: $f is not a musl object linked against $lib/libcrypto.so.3" >&2; exit 1; }
  done
  d=$(readelf -lW "$build/eip93-doctor")$'\n'$(/lib/ld-musl-x86_64.so.1 --list "$build/eip93-doctor" 2>&1 || true)
  grep -qF 'interpreter: /lib/ld-musl-x86_64.so.1]' <<<"$d" && grep -qF "libcrypto.so.3 => $lib/libcrypto.so.3 " <<<"$d" ||
    { echo "test.sh: $build/eip93-doctor does not run on musl with $lib/libcrypto.so.3" >&2; exit 1; }
  ctest --test-dir "$build" --output-on-failure -j"$jobs" -L host
}

stage "OpenWrt's OpenSSL 3.5 (musl, -Os): build (cached), provider with musl against it, host tests"
musl_series openwrt

stage "OpenWrt's OpenSSL 3.5, small footprint (musl, -Os): build (cached), provider with musl, host tests"
musl_series openwrt-sf

# mipsel (the MT7621's CPU): cross-built against Debian bookworm's mipsel
# packages, unpacked into a sysroot (test/rig/prepare.sh --kernel mipsel,
# cached), warning-free; its host tests under qemu-user (those that cannot
# run there are disabled, listed in test/mipsel/README.md), the release
# module checked, and one malta guest with an MT7621 device tree: the gate,
# the differential tests, the engine checks and the calibration table.
stage "mipsel: cross build (bookworm sysroot), host tests under qemu-user, the MT7621 guest"
mipsel_cache=${EIP93_MIPSEL_CACHE:-$HOME/.cache/eip93/guest-mipsel}
test/rig/prepare.sh --kernel mipsel "$mipsel_cache"
cmake -S . -B build-mipsel -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mipsel.cmake \
  -DEIP93_SYSROOT="$mipsel_cache/user/sysroot" -DEIP93_GUEST_TESTS=ON >/dev/null
cmake --build build-mipsel -j"$jobs"
# EIP93_MIPSEL_EXCLUDE: a CTest -E regex of host tests to leave out of this
# stage (none by default; test/mipsel/README.md has each test's time).
ctest --test-dir build-mipsel --output-on-failure -j"$jobs" -L 'host|mipsel' \
  ${EIP93_MIPSEL_EXCLUDE:+-E "$EIP93_MIPSEL_EXCLUDE"}

stage "clang build and host tests"
cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DEIP93_GUEST_TESTS=OFF >/dev/null
cmake --build build-clang -j"$jobs"
ctest --test-dir build-clang --output-on-failure -j"$jobs" -L host

stage "fuzz: clang build with libFuzzer (ASan+UBSan), corpus replay and >= 10^5 executions"
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DEIP93_GUEST_TESTS=OFF -DEIP93_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"$jobs"
ctest --test-dir build-fuzz --output-on-failure -j"$jobs" -L fuzz

stage "ASan+UBSan build: host tests and the engine path in the guest"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=gcc -DEIP93_SANITIZE=ON -DEIP93_GUEST_TESTS=ON \
  -DEIP93_GUEST_CACHE="$cache" >/dev/null
cmake --build build-asan -j"$jobs"
# The host tests, and the engine path in the guest (differential_asan).
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -L 'host|asan'

stage "static analysis"
scripts/lint.sh build

stage "done: all stages passed in $(( $(date +%s) - start ))s"
