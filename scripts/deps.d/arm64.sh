#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Hook for scripts/deps.sh, to run before its `apt-get update`: the arm64
# suite installs multiarch arm64 packages (scripts/deps.d/arm64.txt), which
# needs the arm64 dpkg architecture.  Idempotent.  Note: with libssl-dev:arm64
# installed, apt keeps the host's libssl packages at the same version.
set -euo pipefail
if grep -qx arm64 <<<"$(dpkg --print-foreign-architectures)"; then
  exit 0
fi
echo "deps: adding the arm64 dpkg architecture (multiarch libssl-dev:arm64)"
if [ "$(id -u)" -eq 0 ]; then dpkg --add-architecture arm64; else sudo dpkg --add-architecture arm64; fi
