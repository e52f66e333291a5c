#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Install what building and testing eip93 needs, from Debian's archive only.
# The guest kernel's headers are installed (to build the simulated driver);
# the kernel image itself is downloaded and unpacked by the tests, never
# installed.  Idempotent: a machine that has everything installs nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

sudo_() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive

# musl-tools, musl-dev: musl-gcc, for the OpenWrt-shaped builds (scripts/openssl-build.sh
# openwrt|openwrt-sf, cmake/toolchain-musl.cmake).
pkgs=(build-essential cmake pkgconf libssl-dev openssl clang clang-tidy cppcheck binutils
      qemu-system-x86 busybox-static cpio kmod xz-utils libkcapi-dev kcapi-tools
      musl-tools musl-dev)

# Each test suite may list more Debian packages, one per line, in scripts/deps.d/*.txt.
for f in "$here"/scripts/deps.d/*.txt; do
  [ -e "$f" ] || continue
  while read -r p _; do
    case "$p" in ''|'#'*) ;; *) pkgs+=("$p") ;; esac
  done <"$f"
done

# Suites may prepare apt first (e.g. a foreign dpkg architecture): scripts/deps.d/*.sh.
for h in "$here"/scripts/deps.d/*.sh; do
  [ -e "$h" ] || continue
  "$h"
done

# apt-cache needs fresh lists to resolve the current kernel ABI.
sudo_ apt-get update -qq
abi=$("$here/test/rig/kernel-abi.sh")
pkgs+=("linux-headers-$abi-amd64")

missing=()
for p in "${pkgs[@]}"; do
  grep -q "install ok installed" <<<"$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  sudo_ apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "deps: all ${#pkgs[@]} packages present (guest kernel ABI $abi)"
fi
