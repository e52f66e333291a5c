#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Kept for scripts/deps.sh (the x86_64 guest kernel ABI, whose
# linux-headers it installs); the rig's script is test/rig/kernel-abi.sh.
exec "$(dirname "${BASH_SOURCE[0]}")/../rig/kernel-abi.sh" "$@"
