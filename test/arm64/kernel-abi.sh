#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Print the Debian kernel ABI (e.g. "6.1.0-57") of the arm64
# linux-image-arm64 metapackage, as resolved by apt (needs the arm64
# architecture added to dpkg: scripts/deps.d/arm64.sh).  Never hard-coded.
set -euo pipefail

deps=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null) || {
    echo "arm64/kernel-abi: 'apt-cache depends linux-image-arm64:arm64' failed" \
        "(dpkg --add-architecture arm64 && apt-get update?)" >&2
    exit 1
}
abi=$(printf '%s\n' "$deps" |
    sed -n -E 's/^[[:space:]]*\|?Depends:[[:space:]]*linux-image-([0-9][^[:space:]:]*)-arm64(-unsigned)?(:arm64)?[[:space:]]*$/\1/p' |
    head -n 1)
if [[ -z "$abi" ]]; then
    echo "arm64/kernel-abi: no linux-image-<abi>-arm64 dependency in:" >&2
    printf '%s\n' "$deps" >&2
    exit 1
fi
printf '%s\n' "$abi"
