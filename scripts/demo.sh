#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The demo: install what is needed, build, and boot QEMU guests (Debian's
# kernel, the simulated EIP93 driver) that show the provider's gate, TLS 1.3 /
# TLS 1.2 transfers through openssl s_server and s_client, then Debian's
# nginx serving curl, all with the provider preferred in openssl.cnf and the
# simulated engine's counter.  A few minutes the first time (downloads).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cache=${EIP93_GUEST_CACHE:-$HOME/.cache/eip93/guest}

scripts/deps.sh >/dev/null
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEIP93_GUEST_CACHE="$cache" >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
# The two guest fixtures: the kernel image and the simulated driver.
ctest --test-dir build -R 'guest_(prepare_kernel|build_driver)' --output-on-failure >/dev/null
quiet() { grep -v -e '^\[ *[0-9.]*\]' -e '^EIP93-GUEST-EXIT'; }

echo "##### 1/2: the gate, and openssl s_server <-> s_client (TLS 1.3, TLS 1.2)"
build/test/guest-run.sh --work build/test/guest-work/demo-cli --script test/guest/demo.sh | quiet

echo
echo "##### 2/2: Debian's nginx (4 workers) <-> curl, eip93 preferred in openssl.cnf"
build/test/guest-run.sh --work build/test/guest-work/demo-servers --script test/servers/demo.sh \
  --add-dir test/servers:/opt/servers --add /usr/sbin/nginx:/usr/sbin/nginx \
  --add /usr/bin/curl:/usr/bin/curl --add /usr/bin/getfattr:/usr/bin/getfattr \
  --add build/test/eip93-counters.so:/usr/lib/eip93-counters.so \
  --mem 1024 --timeout 300 | quiet
