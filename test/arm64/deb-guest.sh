#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# deb-guest.sh CROSS_BUILD_DIR CACHE_DIR KMOD_DIR WORK_DIR
#
# The arm64 Debian packages on the target architecture: builds them from
# the aarch64 cross build (packaging/debian/build-deb.sh), unpacks them with
# dpkg-deb -x, and boots an AN7581 guest whose eip93.so, eip93-doctor and
# example openssl.cnf are exactly the packaged files (deb-case.sh).
set -euo pipefail
[[ $# -eq 4 ]] || { echo "usage: $0 CROSS_BUILD_DIR CACHE_DIR KMOD_DIR WORK_DIR" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cross=$1 cache=$2 kmod=$3 work=$4
mkdir -p "$work"
rm -rf "$work/debs" "$work/pkgroot"
mapfile -t debs < <("$top/packaging/debian/build-deb.sh" "$cross" "$work/debs")
[[ ${#debs[@]} -eq 2 ]] || { echo "deb-guest: build-deb.sh gave: ${debs[*]}" >&2; exit 1; }
for d in "${debs[@]}"; do
    [[ "$(dpkg-deb -f "$d" Architecture)" == arm64 ]] || { echo "deb-guest: $d is not arm64" >&2; exit 1; }
    dpkg-deb -x "$d" "$work/pkgroot"
done
doc=/usr/share/doc/openssl-provider-eip93/examples/openssl.cnf.example
exec "$top/test/rig/run.sh" --arch arm64 --cache "$cache" --work "$work/guest" --compatible airoha,an7581 \
    --module "$kmod/eip93_sim.ko" --module "$kmod/eip93_nohwcap.ko" \
    --add "$cache/user/openssl:/usr/bin/openssl" \
    --add-dir "$work/pkgroot/usr:/usr" \
    --add "$work/pkgroot$doc:/usr/lib/ssl/openssl.cnf" \
    --add "$here/lib.sh:/opt/eip93/lib.sh" \
    --script "$here/deb-case.sh"
