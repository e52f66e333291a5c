#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: eip93-seccomp-check (see its source) with the hooks build and
# the simulated driver; the driver's counter must rise only for the control
# (the program reads it around each child).  The arm64 guest runs the same
# program on the release build: test/arm64/sandbox.sh.
set -u
M=/opt/eip93
export OPENSSL_MODULES=$M/hooks
export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
cat >/tmp/openssl.cnf <<'CNF'
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[evp_properties]
default_properties = ?provider=eip93
[provider_sect]
default = default_sect
eip93 = eip93_sect
[default_sect]
activate = 1
[eip93_sect]
activate = 1
CNF
export OPENSSL_CONF=/tmp/openssl.cnf
insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod"; exit 1; }
before=$(cat /sys/module/eip93_sim/parameters/ops)
/usr/bin/eip93-seccomp-check --ops /sys/module/eip93_sim/parameters/ops
rc=$?
echo "seccomp: simulated engine ops +$(( $(cat /sys/module/eip93_sim/parameters/ops) - before )) (the whole run: the first bind's kernel self-tests included)"
exit $rc
