# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# Shared by the harness guest scripts (busybox sh; sourced, not run).
# Sets the gate-open environment, counters and helpers, and checks which
# OpenSSL the guest runs ($EIP93_OPENSSL_SERIES: 3.0 or 3.5).
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks

# load_driver: insmod the simulated driver and open the gate once, so that
# the kernel's self-tests of the first instance over ctr(aes-eip93) (hundreds
# of driver requests) are behind us before any counter delta.  The gate binds
# its first choice, the engine's AES-CTR alone (ctr(aes-eip93)).
load_driver() {
  insmod /lib/eip93/eip93_sim.ko || { bad "insmod eip93_sim.ko"; return; }
  eip93_cnf /tmp/warm.cnf '?provider=eip93'
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

# evp_run NAME CONF FILE N: evp_test on FILE under CONF passes its N cases,
# none skipped; delta: the driver's requests meanwhile.
evp_run() {
  before=$(ops)
  out=$(evp_test -config "$2" "$3" 2>&1)
  rc=$?
  delta=$(($(ops) - before))
  s=$(evp_summary "$out")
  echo "# $1: evp_test exit $rc, tests/errors/skipped: ${s:-none}, simulated engine ops +$delta"
  if [ "$rc" -eq 0 ] && [ "$s" = "$4 0 0" ]; then
    ok "$1: $4 cases passed, none skipped"
  else
    bad "$1"
    printf '%s\n' "$out" | grep -v '^ *[0-9a-f]\{64\}' | tail -n 40
  fi
}
