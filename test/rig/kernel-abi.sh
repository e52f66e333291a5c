#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# kernel-abi.sh [--arch x86_64|arm64]
#
# Print the Debian kernel ABI (e.g. "6.1.0-57") of the host's current
# linux-image-<debarch> metapackage (amd64 for x86_64, the default; arm64
# needs the arm64 dpkg architecture: scripts/deps.d/arm64.sh), as resolved
# by apt.  The guest kernel image (prepare.sh) and the headers used to build
# test modules (linux-headers-<abi>-<debarch>) must both come from this ABI.
# The value is never hard-coded: the point release and the security archive
# differ.
set -euo pipefail

me=kernel-abi
# shellcheck source=test/rig/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

arch=x86_64
if [[ $# -eq 2 && "$1" == --arch ]]; then
    arch=$2
elif [[ $# -ne 0 ]]; then
    die "usage: $0 [--arch x86_64|arm64]"
fi
rig_arch "$arch"

# A foreign architecture's package carries its ":<debarch>" qualifier.
pkg=linux-image-$debarch
[[ "$foreign" == 1 ]] && pkg+=":$debarch"
deps=$(apt-cache depends "$pkg" 2>/dev/null) ||
    die "'apt-cache depends $pkg' failed (apt-get update?$([[ "$foreign" == 1 ]] &&
        echo " dpkg --add-architecture $debarch?"))"
abi=$(printf '%s\n' "$deps" |
    sed -n -E "s/^[[:space:]]*\\|?Depends:[[:space:]]*linux-image-([0-9][^[:space:]:]*)-$debarch(-unsigned)?(:$debarch)?[[:space:]]*\$/\\1/p" |
    head -n 1)
if [[ -z "$abi" ]]; then
    echo "kernel-abi: no linux-image-<abi>-$debarch dependency in:" >&2
    printf '%s\n' "$deps" >&2
    exit 1
fi
printf '%s\n' "$abi"
