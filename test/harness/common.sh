# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# Shared by the harness guest scripts (busybox sh; sourced, not run).
# Sets the gate-open environment, counters and helpers, and checks which
# OpenSSL the guest runs ($EIP93_OPENSSL_SERIES: 3.0, 3.5 or 4.0).
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

# has_skc MODE: the simulated driver of this tree registers MODE(aes-eip93)
# (ctr, cbc), so eip93 must offer AES-MODE in the guest: suite.cmake reads
# test/kmod and says so in EIP93_HARNESS_SKC ("ctr" or "ctr,cbc").
has_skc() {
  case ",${EIP93_HARNESS_SKC:-}," in
  *",$1,"*) return 0 ;;
  esac
  return 1
}

# check_skc_offered: after load_driver, eip93 offers AES-CTR and AES-CBC
# exactly where the driver registers the mode's algorithm (the gate binds it
# on its road): a mode of has_skc must be in /proc/crypto and offered, the
# other must not be offered.
check_skc_offered() {
  _l=$(OPENSSL_CONF=/tmp/warm.cnf openssl list -cipher-algorithms 2>&1)
  for _m in ctr cbc; do
    _M=$(printf '%s' "$_m" | tr '[:lower:]' '[:upper:]')
    _n=$(printf '%s\n' "$_l" | grep -ciE "aes-(128|192|256)-$_m.* @ eip93\$")
    if has_skc "$_m"; then
      if grep -q "^driver *: $_m(aes-eip93)\$" /proc/crypto && [ "$_n" -eq 3 ]; then
        ok "$_m(aes-eip93) registered: eip93 offers AES-128/192/256-$_M"
      else
        bad "$_m(aes-eip93) expected: /proc/crypto and eip93's AES-$_M ($_n of 3 offered)"
      fi
    elif [ "$_n" -eq 0 ]; then
      ok "no $_m(aes-eip93) in this tree's simulated driver: eip93 offers no AES-$_M"
    else
      bad "eip93 offers AES-$_M ($_n) though the simulated driver has no $_m(aes-eip93)"
    fi
  done
}

# libcrypto_of BINARY: the libcrypto path the dynamic loader picks for it.
libcrypto_of() {
  LD_TRACE_LOADED_OBJECTS=1 "$1" 2>/dev/null | sed -n 's/.*libcrypto\.so\.[0-9]* => \([^ ]*\).*/\1/p'
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

# force_cnf FILE [LINE...]: a configuration (eip93_cnf, LINEs in eip93's
# section) under which evp_test fetches its stanzas' algorithms from eip93
# alone.  3.0's evp_test takes only -config: its default_properties say
# provider=eip93.  3.5's and 4.0's take -propquery, used for every stanza's
# fetch: the query forces eip93 and the configuration only prefers it, as
# 4.0's evp_test first sets up the DRBG of its own test provider
# (test/testutil/fake_random.c) under the default properties, which
# provider=eip93 would refuse.  evp_run and evp_neg add the query.
forced_cnfs=''
force_args=''
force_cnf() {
  _fc_file=$1
  shift
  if evp_test -help 2>&1 | grep -q -- '-propquery'; then
    eip93_cnf "$_fc_file" '?provider=eip93' "$@"
    force_args='-propquery provider=eip93'
  else
    eip93_cnf "$_fc_file" 'provider=eip93' "$@"
  fi
  forced_cnfs="$forced_cnfs $_fc_file "
}

# evp_cnf_args CONF: the options evp_test needs beside -config CONF.
evp_cnf_args() {
  case "$forced_cnfs" in *" $1 "*) printf '%s' "$force_args" ;; esac
}

# evp_summary OUTPUT: "tests errors skipped" from evp_test's per-file line.
evp_summary() {
  printf '%s\n' "$1" | sed -n 's/.*Completed \([0-9]*\) tests with \([0-9]*\) errors and \([0-9]*\) skipped.*/\1 \2 \3/p' | tail -n 1
}

# evp_run NAME CONF FILE N: evp_test on FILE under CONF passes its N cases,
# none skipped; delta: the driver's requests meanwhile.  $evp_args: more
# options for evp_test (3.5's -chunk).
evp_run() {
  before=$(ops)
  # shellcheck disable=SC2086,SC2046 # evp_args and the query: words
  out=$(evp_test ${evp_args:-} $(evp_cnf_args "$2") -config "$2" "$3" 2>&1)
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

# engine_none NAME / engine_some NAME: the last evp_run made no driver
# request (every message below the window) / made some.
engine_none() {
  if [ "$delta" -eq 0 ]; then ok "$1: no engine request"; else bad "$1: $delta engine requests"; fi
}
engine_some() {
  if [ "$delta" -gt 0 ]; then ok "$1: +$delta engine requests"; else bad "$1: no engine request"; fi
}
