#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Print the Debian kernel ABI (e.g. "6.1.0-57") of the current
# linux-image-amd64 metapackage, as resolved by apt.  The guest kernel image
# (prepare.sh) and the headers used to build test modules
# (linux-headers-<abi>-amd64) must both come from this ABI.  The value is
# never hard-coded: the point release and the security archive differ.
set -euo pipefail

deps=$(apt-cache depends linux-image-amd64 2>/dev/null) || {
    echo "kernel-abi: 'apt-cache depends linux-image-amd64' failed (run apt-get update?)" >&2
    exit 1
}

abi=$(printf '%s\n' "$deps" |
    sed -n -E 's/^[[:space:]]*\|?Depends:[[:space:]]*linux-image-([0-9][^[:space:]]*)-amd64(-unsigned)?[[:space:]]*$/\1/p' |
    head -n 1)

if [[ -z "$abi" ]]; then
    echo "kernel-abi: no linux-image-<abi>-amd64 dependency in:" >&2
    printf '%s\n' "$deps" >&2
    exit 1
fi
printf '%s\n' "$abi"
