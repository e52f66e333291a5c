#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The demo: install what is needed, build, and boot a QEMU guest (Debian's
# kernel, the simulated EIP93 driver) that shows the provider's gate and runs
# TLS 1.3 / TLS 1.2 transfers through openssl s_server and s_client with the
# provider loaded.  Takes about a minute the first time (kernel download).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cache=${EIP93_GUEST_CACHE:-$HOME/.cache/eip93/guest}

scripts/deps.sh >/dev/null
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEIP93_GUEST_CACHE="$cache" >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
# The two guest fixtures: the kernel image and the simulated driver.
ctest --test-dir build -R 'guest_(prepare_kernel|build_driver)' --output-on-failure >/dev/null
build/test/guest-run.sh --work build/test/guest-work/demo-cli --script test/guest/demo.sh |
  grep -v -e '^\[ *[0-9.]*\]' -e '^EIP93-GUEST-EXIT'
