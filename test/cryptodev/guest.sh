#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the provider's /dev/crypto backend (engine/cryptodev.c) on the
# simulated driver.  cryptodev.ko (built from the pinned upstream source,
# test/cryptodev/build-module.sh) is loaded next to eip93_sim.ko; the rig's
# own client first shows what serves a CRYPTO_AES_CTR and a CRYPTO_AES_GCM
# session (CIOCGSESSINFO) and checks both against OpenSSL; then, with the
# AF_ALG socket modules removed where the kernel lets them go (so that only
# /dev/crypto can reach the engine), the hooks build with
# EIP93_TEST_ENGINE=cryptodev must open its gate on ctr(aes-eip93) and on
# the kernel's AES-GCM, and eip93-diff must find 0 divergences from the
# default provider (--no-kernel: its libkcapi reference needs the AF_ALG
# modules this test removes) with the simulated driver's op counter moving;
# eip93-skc-diff the same for AES-CTR and AES-CBC, the driver's bugs worked
# around and, with each workaround off, caught (lib.sh skc_suite).
# Then, in the same boot, on /dev/crypto alone: an application's processes
# (eip93-cdev-proc: fork, descriptors after many keys and after unload,
# threads sharing a key), children under seccomp (eip93-seccomp-check),
# OpenSSH's sshd preferring eip93 (CDEV_LOGINS logins, its pre-auth child
# under seccomp, one transfer), and last an unreadable (chmod 000, uid
# 65534) and a missing (module removed) /dev/crypto: software, the reason
# named, nothing on stderr.
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
CTR='ctr(aes-eip93)'
G='gcm_base(ctr(aes-eip93),ghash-generic)'
mark=$(date +%s)

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim"; exit 1; }
insmod /lib/eip93/cryptodev.ko || { echo "not ok - insmod cryptodev"; exit 1; }
[ -c /dev/crypto ] && ok "/dev/crypto is a character device" || bad "no /dev/crypto"

before=$(ops)
/usr/bin/eip93-cdev-check "$CTR" "$G" || bad "eip93-cdev-check"
d=$(( $(ops) - before ))
[ "$d" -gt 0 ] && ok "the rig's /dev/crypto requests reached the simulated driver (ops +$d)" ||
  bad "the rig's /dev/crypto requests did not reach the simulated driver"


# AF_ALG out of the way: the AF_ALG backend must now fail to bind, so the
# cryptodev runs below cannot be served by AF_ALG; by default (engine-backend
# = auto) the gate then opens through /dev/crypto.
afalg_gone=1
for m in algif_aead algif_skcipher; do
  rmmod "$m" 2>/dev/null || afalg_gone=0
done
if [ "$afalg_gone" = 1 ]; then
  eip93_cnf /tmp/afalg.cnf '' "engine-backend = afalg"
  /usr/bin/eip93-diff --cases 1 --no-kernel --config /tmp/afalg.cnf >/tmp/gate-afalg.out 2>&1
  grep '^eip93 gate:' /tmp/gate-afalg.out
  if grep -q '^eip93 gate: disabled' /tmp/gate-afalg.out; then
    ok "with algif_aead and algif_skcipher removed, engine-backend = afalg keeps the gate closed"
  else
    bad "engine-backend = afalg: the gate did not stay closed with the socket modules removed"
    cat /tmp/gate-afalg.out
  fi
  /usr/bin/eip93-diff --cases 1 --no-kernel >/tmp/gate-auto.out 2>&1
  grep '^eip93 gate:' /tmp/gate-auto.out
  grep -qxF "eip93 gate: enabled: $CTR via /dev/crypto" /tmp/gate-auto.out &&
    ok "engine-backend = auto (the default): the gate opens on $CTR through /dev/crypto" ||
    bad "engine-backend = auto: the gate did not open through /dev/crypto"
else
  echo "# note: the AF_ALG socket modules could not be removed; the backend is still forced"
fi

export EIP93_TEST_ENGINE=cryptodev
seed=${EIP93_DIFF_SEED:-$(date +%s)}

diff_road=/dev/crypto
diff_run "CTR-only composition" "$CTR" "${EIP93_DIFF_CASES:-10000}" --no-kernel
# AES-CTR and AES-CBC on cbc(aes-eip93) and ctr(aes-eip93) sessions (lib.sh skc_suite).
skc_start=$(date +%s)
skc_suite cryptodev
echo "# time: AES-CTR and AES-CBC on /dev/crypto: $(($(date +%s) - skc_start)) s"

# The kernel AES-GCM composition chosen by the configuration file alone
# (engine-backend = cryptodev, no test override).
eip93_cnf /tmp/kgcm.cnf '' "kernel-algorithm = $G" "engine-backend = cryptodev"
unset EIP93_TEST_ENGINE
diff_run "kernel AES-GCM composition, engine-backend = cryptodev" "$G" "${EIP93_DIFF_KGCM_CASES:-3000}" \
  --no-kernel --config /tmp/kgcm.cnf
export EIP93_TEST_ENGINE=cryptodev

# took SECTION: the seconds since the previous section ended (CI time, reported).
took() {
  now=$(date +%s)
  echo "# time: $1: $((now - mark)) s"
  mark=$now
}
took "differential sections (since the start of the script)"

# ---- an application's processes on /dev/crypto (eip93-cdev-proc) ----
eip93_cnf /tmp/cdev.cnf ''
# proc LABEL ARGS...: eip93-cdev-proc with the driver's counter around it.
proc() {
  label=$1
  shift
  before=$(ops)
  OPENSSL_CONF=/tmp/cdev.cnf /usr/bin/eip93-cdev-proc "$@" >/tmp/proc.out 2>/tmp/proc.err ||
    bad "$label: eip93-cdev-proc $*"
  cat /tmp/proc.out
  d=$(( $(ops) - before ))
  [ "$d" -gt 0 ] && ok "$label: the simulated engine computed (ops +$d)" ||
    bad "$label: the simulated engine's counter did not move"
}
proc "fork" fork
proc "descriptors after ${CDEV_KEYS:=40} keys" fds "$CDEV_KEYS"
proc "threads sharing a key" threads 8 "${CDEV_THREAD_MSGS:-25}"
took "fork, descriptors, threads"

# ---- processes under seccomp (test/sandbox's program) ----
eip93_cnf /tmp/prefer.cnf '?provider=eip93'
OPENSSL_CONF=/tmp/prefer.cnf /usr/bin/eip93-seccomp-check --ops /sys/module/eip93_sim/parameters/ops \
  >/tmp/sc.out 2>&1 && ok "seccomp children: software, never killed; the control on /dev/crypto" ||
  { bad "eip93-seccomp-check over /dev/crypto"; }
grep -E '^(ok|not ok)' /tmp/sc.out
took "seccomp children"

# ---- OpenSSH: sshd preferring eip93, its pre-auth child under seccomp ----
# The commands test/ssh/ssh.sh runs, on the /dev/crypto backend: LOGINS logins
# (min-size = 16: the pre-auth child's packets are eligible, so that opening
# /dev/crypto there would be its death) and one transfer checked by SHA-256.
if [ -x /usr/sbin/sshd ]; then
  plain_cnf /tmp/plain.cnf
  eip93_cnf /etc/eip93-small.cnf '?provider=eip93' 'max-size = 36864' 'min-size = 16'
  sshd_setup
  start_sshd /etc/eip93-small.cnf
  before=$(ops)
  n=0 i=0
  while [ $i -lt "${CDEV_LOGINS:=50}" ]; do
    i=$((i + 1))
    out=$(cssh /tmp/plain.cnf aes256-gcm@openssh.com 'echo login-ok') && [ "$out" = login-ok ] && n=$((n + 1))
  done
  head -c 1048576 /dev/urandom >/tmp/up
  cssh /tmp/plain.cnf aes256-gcm@openssh.com 'cat >/tmp/recv' </tmp/up
  [ "$(sha256sum </tmp/recv)" = "$(sha256sum </tmp/up)" ] && ok "sshd: 1 MiB upload, SHA-256 right" ||
    bad "sshd: the upload's SHA-256 differs"
  d=$(( $(ops) - before ))
  [ "$n" -eq "$CDEV_LOGINS" ] && ok "sshd: $n of $CDEV_LOGINS logins" ||
    { bad "sshd: only $n of $CDEV_LOGINS logins"; tail -n 20 /tmp/sshd.log; }
  [ "$d" -gt 0 ] && ok "sshd: the post-auth side used the engine through /dev/crypto (ops +$d)" ||
    bad "sshd: the engine never took a packet (ops +$d)"
  if grep -qiE 'seccomp|violation|signal 31|killed' /tmp/sshd.log; then
    bad "sshd: a child was killed"
    grep -iE 'seccomp|violation|signal 31|killed' /tmp/sshd.log | head -n 5
  else
    ok "sshd: no child killed"
  fi
  kill "$(cat /run/sshd.pid)" 2>/dev/null
else
  bad "no /usr/sbin/sshd in the guest"
fi
took "sshd logins and transfer"

# ---- an unreadable, then a missing /dev/crypto: software, the reason named ----
# gate LABEL TEXT [--uid N]: the gate closed naming TEXT, messages right, and
# nothing on stderr (a closed gate prints no activation notice).
gate() {
  label=$1 text=$2
  shift 2
  OPENSSL_CONF=/tmp/cdev.cnf /usr/bin/eip93-cdev-proc "$@" gate "$text" >/tmp/proc.out 2>/tmp/proc.err ||
    bad "$label: eip93-cdev-proc"
  cat /tmp/proc.out
  if [ -s /tmp/proc.err ]; then
    bad "$label: something on stderr"
    cat /tmp/proc.err
  else
    ok "$label: nothing on stderr"
  fi
}
chmod 000 /dev/crypto
gate "unreadable /dev/crypto (uid 65534)" EACCES --uid 65534
chmod 666 /dev/crypto
if rmmod cryptodev; then
  gate "no /dev/crypto (module not loaded)" ENOENT
else
  bad "cryptodev.ko could not be removed"
fi
took "unreadable and missing /dev/crypto"
[ "$fail" -eq 0 ]
