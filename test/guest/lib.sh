# SPDX-License-Identifier: Apache-2.0
# What the x86_64 guest scripts share (busybox sh; sourced, not run): every
# x86_64 guest gets it as /opt/eip93/guest-lib.sh (GUEST_COMMON in
# guest/guest.cmake, KERNELS_ADD in kernels/suite.cmake).  Sourcing it sets
# M, pass and fail and defines the functions below; nothing else.
# shellcheck shell=sh
# shellcheck disable=SC2034 # M, pass, fail: the sourcing script's
# shellcheck disable=SC2154 # seed (diff_run, skc_run): the sourcing script's
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

# tls_send PORT SIZE [OPTION...]: /tmp/upload (SIZE bytes) from openssl
# s_client to s_server on PORT (test_cert's certificate, OPTIONs to both),
# what arrives in /tmp/recv, their stderr in /tmp/server.err and
# /tmp/client.err; tls_ops0 and tls_t0: ops and the time once the server
# had a second to start.
tls_send() {
  _ts_port=$1 _ts_size=$2
  shift 2
  rm -f /tmp/recv
  (sleep 60 | openssl s_server -accept "$_ts_port" -cert /tmp/cert.pem -key /tmp/key.pem \
     -naccept 1 -quiet "$@" >/tmp/recv 2>/tmp/server.err) &
  sleep 1
  tls_ops0=$(ops) tls_t0=$(date +%s)
  openssl s_client -connect "127.0.0.1:$_ts_port" -quiet -no_ign_eof -nocommands "$@" </tmp/upload \
    >/dev/null 2>/tmp/client.err || true
  # The server has everything once its output stops growing at the upload's size.
  _ts_i=0
  while [ "$(wc -c </tmp/recv)" -lt "$_ts_size" ] && [ $_ts_i -lt 100 ]; do
    sleep 0.2
    _ts_i=$((_ts_i + 1))
  done
  kill %1 2>/dev/null || true
}

# sshd_setup: Debian's sshd configured (not started) for root on
# 127.0.0.1:2222 with fresh ed25519 keys (the client's /root/.ssh/id_ed25519),
# the AES-GCM and AES-CTR ciphers alone and /run/sshd.pid.
sshd_setup() {
  grep -q '^sshd:' /etc/passwd || echo 'sshd:x:100:65534:sshd:/run/sshd:/bin/false' >>/etc/passwd
  mkdir -p /run/sshd /etc/ssh /root/.ssh /var/empty
  chmod 0755 /run/sshd
  chmod 0700 /root/.ssh
  ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/ssh_host_ed25519_key || bad "host key"
  ssh-keygen -q -t ed25519 -N '' -f /root/.ssh/id_ed25519 || bad "user key"
  cp /root/.ssh/id_ed25519.pub /root/.ssh/authorized_keys
  printf '%s\n' 'Port 2222' 'ListenAddress 127.0.0.1' 'HostKey /etc/ssh/ssh_host_ed25519_key' \
    'PermitRootLogin yes' 'PubkeyAuthentication yes' 'PasswordAuthentication no' \
    'KbdInteractiveAuthentication no' 'UsePAM no' 'StrictModes no' \
    'Ciphers aes128-gcm@openssh.com,aes256-gcm@openssh.com,aes128-ctr,aes256-ctr' \
    'Subsystem sftp internal-sftp' \
    'PidFile /run/sshd.pid' >/etc/ssh/sshd_config
}

# start_sshd CNF: (re)start sshd with that OpenSSL configuration, its log in
# /tmp/sshd.log.
start_sshd() {
  [ -f /run/sshd.pid ] && kill "$(cat /run/sshd.pid)" 2>/dev/null && sleep 1
  rm -f /run/sshd.pid
  OPENSSL_CONF=$1 /usr/sbin/sshd -f /etc/ssh/sshd_config -E /tmp/sshd.log
  _ss_i=0
  while [ ! -f /run/sshd.pid ] && [ $_ss_i -lt 50 ]; do
    sleep 0.2
    _ss_i=$((_ss_i + 1))
  done
  [ -f /run/sshd.pid ] || {
    bad "sshd did not start"
    cat /tmp/sshd.log
  }
}

# cssh CNF CIPHER CMD: ssh to that sshd as root with that OpenSSL
# configuration and cipher, running CMD.
# (CSSH_ENV: more NAME=VALUE words for ssh's environment, split on spaces.)
cssh() {
  # shellcheck disable=SC2086
  env ${CSSH_ENV:-} OPENSSL_CONF="$1" /usr/bin/ssh -F /dev/null -p 2222 -c "$2" -i /root/.ssh/id_ed25519 \
    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
    -o BatchMode=yes root@127.0.0.1 "$3"
}

# diff_run LABEL KALG CASES [ARG...]: eip93-diff (seed $seed, CASES cases,
# --require-engine, --require-no-faults: the simulated driver injects none
# here, the ARGs) passes, names the composition KALG bound
# (through $diff_road, when set: "/dev/crypto") and the driver's counter
# moved.
diff_run() {
  _dr_label=$1 _dr_kalg=$2${diff_road:+ via $diff_road} _dr_cases=$3
  _dr_before=$(ops) _dr_start=$(date +%s)
  shift 3
  /usr/bin/eip93-diff --seed "$seed" --cases "$_dr_cases" --require-engine --require-no-faults "$@" >/tmp/diff.out 2>&1 ||
    bad "$_dr_label: eip93-diff failed"
  cat /tmp/diff.out
  _dr_d=$(($(ops) - _dr_before))
  echo "differential${diff_road:+ over $diff_road} ($_dr_label):" \
    "$(($(date +%s) - _dr_start))s, simulated engine ops +$_dr_d"
  if grep -qxF "eip93 gate: enabled: $_dr_kalg" /tmp/diff.out; then
    ok "$_dr_label: the gate bound $_dr_kalg"
  else
    bad "$_dr_label: the gate did not bind $_dr_kalg"
  fi
  if [ "$_dr_d" -gt 0 ]; then
    ok "$_dr_label: the simulated engine computed (ops +$_dr_d)"
  else
    bad "$_dr_label: the simulated engine's counter did not move"
  fi
}

# skc_run ROAD MODE CASES [ARG...]: eip93-skc-diff (AES-CTR or AES-CBC, MODE
# ctr|cbc; seed $seed, CASES cases, the ARGs) against the default provider
# through ROAD (af_alg or cryptodev: the backend the gate must have bound):
# 0 divergences, at least SKC_MIN_ENGINE (50) engine messages, no engine
# fault counted (the driver's bugs worked around), the driver's counter
# moved.  Prints SKC-ROW|road|mode|quirks|cases|engine messages|faults|ops;
# sets skc_ops (the driver's ops during the run).
skc_run() {
  _sr_road=$1 _sr_mode=$2 _sr_cases=$3
  shift 3
  _skc "$_sr_road" "$_sr_mode" "$_sr_cases" - --min-engine "${SKC_MIN_ENGINE:-50}" --max-faults 0 "$@"
}

# skc_caught ROAD MODE CASES QUIRK [ARG...]: the same with one workaround of the
# provider turned off (EIP93_TEST_QUIRKS=QUIRK: no-dir-split, no-ctr-split; test
# builds only) and the driver's bug on: the integrity checks must count the
# wrong results (1 to 8 faults: the engine is off after 8), still 0 divergences.
skc_caught() {
  _sr_road=$1 _sr_mode=$2 _sr_cases=$3 _sr_quirk=$4
  shift 4
  _skc "$_sr_road" "$_sr_mode" "$_sr_cases" "$_sr_quirk" --min-faults 1 --max-faults 8 "$@"
}

_skc() {
  _sk_road=$1 _sk_mode=$2 _sk_cases=$3 _sk_quirk=$4
  shift 4
  [ "$_sk_quirk" = - ] && _sk_what=workarounds || _sk_what="$_sk_quirk (bug caught)"
  _sk_label="AES-$(echo "$_sk_mode" | tr '[:lower:]' '[:upper:]') via $_sk_road, $_sk_what"
  _sk_before=$(ops) _sk_start=$(date +%s)
  if [ "$_sk_quirk" = - ]; then
    /usr/bin/eip93-skc-diff --seed "$seed" --mode "$_sk_mode" --cases "$_sk_cases" "$@" \
      >/tmp/skc.out 2>&1
  else
    EIP93_TEST_QUIRKS=$_sk_quirk /usr/bin/eip93-skc-diff --seed "$seed" --mode "$_sk_mode" \
      --cases "$_sk_cases" "$@" >/tmp/skc.out 2>&1
  fi
  _sk_rc=$?
  _sk_d=$(($(ops) - _sk_before))
  skc_ops=$_sk_d
  grep -v '^  after:' /tmp/skc.out | head -n 30
  _sk_sum=$(grep '^cases=' /tmp/skc.out)
  _sk_msgs=$(echo "$_sk_sum" | sed -n 's/.*engine-messages=\([0-9]*\).*/\1/p')
  _sk_faults=$(echo "$_sk_sum" | sed -n 's/.*engine-faults=\([0-9]*\).*/\1/p')
  echo "SKC-ROW|$_sk_road|$_sk_mode|$_sk_quirk|$_sk_cases|${_sk_msgs:-?}|${_sk_faults:-?}|$_sk_d" \
    "($(($(date +%s) - _sk_start)) s)"
  if [ "$_sk_rc" -eq 0 ] && grep -qxF "backend: $_sk_road" /tmp/skc.out; then
    ok "$_sk_label: $_sk_cases cases, 0 divergences, engine messages ${_sk_msgs:-?}, faults ${_sk_faults:-?}"
  else
    bad "$_sk_label: eip93-skc-diff (exit $_sk_rc; the gate's road must be $_sk_road)"
  fi
  if [ "$_sk_d" -gt 0 ]; then
    ok "$_sk_label: the simulated engine computed (ops +$_sk_d)"
  else
    bad "$_sk_label: the simulated engine's counter did not move"
  fi
}

# skc_suite ROAD: AES-CTR and AES-CBC through ROAD with the simulated
# driver's two bugs on (bug_direction, bug_ctr32: its defaults) and the
# provider's workarounds: SKC_CASES (600) cases each, nothing caught; then
# each workaround off on the mode it protects (SKC_BUG_CASES, 300): faults
# counted, output still the default provider's.
skc_suite() {
  for _ss_bug in bug_direction bug_ctr32; do
    if [ "$(cat "/sys/module/eip93_sim/parameters/$_ss_bug")" = 1 ]; then
      ok "$1: the simulated driver's $_ss_bug is on"
    else
      bad "$1: the simulated driver's $_ss_bug is not 1"
    fi
  done
  skc_run "$1" ctr "${SKC_CASES:-600}"
  skc_run "$1" cbc "${SKC_CASES:-600}"
  skc_caught "$1" cbc "${SKC_BUG_CASES:-300}" no-dir-split
  skc_caught "$1" ctr "${SKC_BUG_CASES:-300}" no-ctr-split
}
