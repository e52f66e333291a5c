# SPDX-License-Identifier: Apache-2.0
# What the x86_64 guest scripts share (busybox sh; sourced, not run): every
# x86_64 guest gets it as /opt/eip93/guest-lib.sh (GUEST_COMMON in
# guest/guest.cmake, KERNELS_ADD in kernels/suite.cmake).  Sourcing it sets
# M, pass and fail and defines the functions below; nothing else.
# shellcheck shell=sh
# shellcheck disable=SC2034 # M, pass, fail: the sourcing script's
M=/opt/eip93
pass=0 fail=0

# ok TEXT / bad TEXT: one TAP line, counted in pass / fail.
ok() {
  echo "ok - $*"
  pass=$((pass + 1))
}
bad() {
  echo "not ok - $*"
  fail=$((fail + 1))
}

# ops: the simulated driver's request counter.
ops() { cat /sys/module/eip93_sim/parameters/ops; }

# an7581_hooks: the test-hooks build standing in for the AN7581 board on
# x86_64 (its device tree, no AES in the CPU's hwcaps).
an7581_hooks() {
  export OPENSSL_MODULES=$M/hooks EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
}

# eip93_cnf FILE PROPS [LINE...]: the provider configuration every guest
# uses, written to FILE: the default provider and eip93 activated, PROPS
# the default properties ("": none), each LINE added to eip93's section,
# the file's last (so that more lines may be appended).
eip93_cnf() {
  _cnf_file=$1 _cnf_props=$2
  shift 2
  {
    printf '%s\n' 'openssl_conf = openssl_init' '[openssl_init]' 'providers = provider_sect'
    if [ -n "$_cnf_props" ]; then
      printf '%s\n' 'alg_section = evp_properties' '[evp_properties]' \
        "default_properties = $_cnf_props"
    fi
    printf '%s\n' '[provider_sect]' 'default = default_sect' 'eip93 = eip93_sect' \
      '[default_sect]' 'activate = 1' '[eip93_sect]' 'activate = 1'
    for _cnf_line in "$@"; do printf '%s\n' "$_cnf_line"; done
  } >"$_cnf_file"
}

# plain_cnf FILE: a configuration with the default provider alone.
plain_cnf() {
  printf '%s\n' 'openssl_conf = openssl_init' '[openssl_init]' 'providers = provider_sect' \
    '[provider_sect]' 'default = default_sect' '[default_sect]' 'activate = 1' >"$1"
}

# test_cert: /tmp/cert.pem and /tmp/key.pem, a P-256 certificate for
# localhost (made once a boot; OPENSSL_CONF as the caller has it).
test_cert() {
  [ -f /tmp/cert.pem ] || openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -subj /CN=localhost -days 1 -keyout /tmp/key.pem -out /tmp/cert.pem 2>/dev/null
}

# wait_listen PORT: until a socket listens on PORT (state 0A, IPv4 or IPv6:
# s_server listens dual stack), however slow the guest; a bound on the
# attempts (600 of 0.1 s), not a timed assertion.
wait_listen() {
  _wl_hex=$(printf '%04X' "$1")
  _wl_i=0
  while ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -qE ":$_wl_hex 0+:0000 0A" &&
    [ $_wl_i -lt 600 ]; do
    sleep 0.1
    _wl_i=$((_wl_i + 1))
  done
}
