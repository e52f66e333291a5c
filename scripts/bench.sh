#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The benchmark (SPEC "engine path", item 7): build, boot a QEMU guest
# (Debian's kernel, the simulated EIP93 driver, the gate open through the
# test-hooks build) and run eip93-bench there.  It prints, from one run:
#   1. engine path vs a raw AF_ALG loop on the same kernel algorithm
#      (TLS 1.3 / TLS 1.2 record shapes, encrypt and decrypt, 4/16/32 KiB),
#   2. delegated (software) path vs the default provider (16 B..1 KiB),
#   3. the heap bytes an eip93 AES-GCM context adds, and whether anything
#      is held between messages.
# Ratios are interleaved medians; targets are printed, never asserted.
# Takes ~2-3 minutes (plus the kernel download the first time).
#
# usage: scripts/bench.sh [eip93-bench options, e.g. --rounds 9 --batch-ms 400]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cache=${EIP93_GUEST_CACHE:-$HOME/.cache/eip93/guest}

scripts/deps.sh >/dev/null
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEIP93_GUEST_CACHE="$cache" >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
# The two guest fixtures: the kernel image and the simulated driver.
ctest --test-dir build -R 'guest_(prepare_kernel|build_driver)' --output-on-failure >/dev/null
build/test/guest-run.sh --work build/test/guest-work/bench --script test/guest/bench.sh \
  --add build/test/eip93-bench:/usr/bin/eip93-bench --env "EIP93_BENCH_ARGS=$*" --timeout 400 |
  grep -v -e '^\[ *[0-9.]*\]' -e '^EIP93-GUEST-EXIT'
