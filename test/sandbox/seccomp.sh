#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: eip93-seccomp-check (see its source) with the hooks build and
# the simulated driver; the driver's counter must rise only for the control
# (the program reads it around each child).  The arm64 guest runs the same
# program on the release build: test/arm64/sandbox.sh.
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
eip93_cnf /tmp/openssl.cnf '?provider=eip93'
export OPENSSL_CONF=/tmp/openssl.cnf
insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod"; exit 1; }
before=$(ops)
/usr/bin/eip93-seccomp-check --ops /sys/module/eip93_sim/parameters/ops
rc=$?
echo "seccomp: simulated engine ops +$(( $(ops) - before )) (the whole run: the first bind's kernel self-tests included)"
exit $rc
