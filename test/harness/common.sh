# SPDX-License-Identifier: Apache-2.0
# Shared by the harness guest scripts (busybox sh; sourced, not run).
# Sets the gate-open environment, counters and helpers, and checks which
# OpenSSL the guest runs ($EIP93_OPENSSL_SERIES: 3.0 or 3.5).
M=/opt/eip93
export OPENSSL_MODULES=$M/hooks
export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
ops() { cat /sys/module/eip93_sim/parameters/ops; }

# conf FILE PROPS: eip93 and default activated, PROPS as default properties.
conf() {
  {
    printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n'
    printf 'alg_section = evp_properties\n[evp_properties]\ndefault_properties = %s\n' "$2"
    printf '[provider_sect]\ndefault = default_sect\neip93 = eip93_sect\n'
    printf '[default_sect]\nactivate = 1\n[eip93_sect]\nactivate = 1\n'
  } >"$1"
}

# load_driver: insmod the simulated driver and open the gate once, so that
# the kernel's self-tests of the first instance over ctr(aes-eip93) (hundreds
# of driver requests) are behind us before any counter delta.  The gate binds
# its first choice, the engine's AES-CTR alone (ctr(aes-eip93)).
load_driver() {
  insmod /lib/eip93/eip93_sim.ko || { bad "insmod eip93_sim.ko"; return; }
  conf /tmp/warm.cnf '?provider=eip93'
  g=$(OPENSSL_CONF=/tmp/warm.cnf openssl list -providers -verbose 2>&1)
  case "$g" in
  *"(enabled: ctr(aes-eip93))"*) ok "gate open with the simulated driver (ctr(aes-eip93))" ;;
  *) bad "gate not open"; printf '%s\n' "$g" ;;
  esac
}

# libcrypto_of BINARY: the libcrypto path the dynamic loader picks for it.
libcrypto_of() {
  LD_TRACE_LOADED_OBJECTS=1 "$1" 2>/dev/null | sed -n 's/.*libcrypto\.so\.3 => \([^ ]*\).*/\1/p'
}

# check_openssl BINARY...: `openssl version` is of the expected series, and
# every BINARY loads the same libcrypto as the openssl command.
check_openssl() {
  v=$(openssl version 2>&1)
  case "$v" in
  "OpenSSL $EIP93_OPENSSL_SERIES".*) ok "openssl version: $v" ;;
  *) bad "openssl version is '$v', expected OpenSSL $EIP93_OPENSSL_SERIES" ;;
  esac
  want=$(libcrypto_of "$(command -v openssl)")
  for b in "$@"; do
    got=$(libcrypto_of "$b")
    if [ -n "$got" ] && [ "$got" = "$want" ]; then
      ok "$b loads $got"
    else
      bad "$b loads '$got', the openssl command '$want'"
    fi
  done
}

# evp_summary OUTPUT: "tests errors skipped" from evp_test's per-file line.
evp_summary() {
  printf '%s\n' "$1" | sed -n 's/.*Completed \([0-9]*\) tests with \([0-9]*\) errors and \([0-9]*\) skipped.*/\1 \2 \3/p' | tail -n 1
}
