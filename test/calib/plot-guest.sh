#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest script for scripts/bench.sh --plot: the calibration's table (dry run)
# with the simulated engine at full speed and both ghash-neon (the test-only
# stand-in) and ghash-generic bound.  The host draws the plot from it.
set -u
export OPENSSL_MODULES=/opt/eip93/hooks OPENSSL_CONF=/tmp/eip93.cnf
export EIP93_TEST_DT_PATH=/opt/eip93/data/dt-an7581.bin EIP93_TEST_HWCAP=0
printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n[provider_sect]\ndefault = default_sect\neip93 = eip93_sect\n[default_sect]\nactivate = 1\n[eip93_sect]\nactivate = 1\n' >/tmp/eip93.cnf
insmod /lib/eip93/eip93_sim.ko || exit 1
insmod /lib/eip93/eip93_ghash_neon.ko || exit 1
openssl rand -hex 16 >/dev/null
openssl list -providers >/dev/null 2>&1
echo "plot: guest kernel $(uname -r), TCG emulation"
eip93-doctor calibrate --dry-run --rounds "${EIP93_PLOT_ROUNDS:-3}" --time-ms "${EIP93_PLOT_MS:-100}" 2>/dev/null
