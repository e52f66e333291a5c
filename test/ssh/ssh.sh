#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: Debian's OpenSSH (sshd + ssh) through eip93, in the x86_64
# guest with the hooks build and the simulated EIP93 driver.
#   - pairings: sshd optimized / ssh ordinary, sshd ordinary / ssh optimized,
#     both optimized, both ordinary (control): SIZE bytes each way (upload
#     with "cat >", download with "cat"), SHA-256 compared on both ends,
#     driver ops must rise only when a side is optimized (0 for the control)
#   - ciphers aes128-gcm@openssh.com and aes256-gcm@openssh.com
#   - "optimized" = OPENSSL_CONF with default_properties = ?provider=eip93
#     and max-size = 36864 in eip93's section, so that full-size SSH packets
#     (32 KiB payload + length, padding and MAC fields) reach the engine
#   - 50 logins in a row to the optimized sshd with min-size = 16, so that
#     its pre-auth child (under OpenSSH's seccomp filter, which kills on
#     socket()) gets eligible packets: they must go to software, not kill it
#   - aes128-ctr and aes256-ctr (AES-CTR, alg/skc/: EVP_Cipher on every
#     whole-block packet): CTR_SIZE bytes each way (SSH_CTR_SIZE, default
#     8 MiB) with sshd optimized / ssh ordinary and the reverse, SHA-256
#     compared, driver ops > 0 with either side alone; then CTR_LOGINS (5)
#     logins per cipher to the min-size = 16 sshd (its pre-auth child's
#     AES-CTR packets eligible): none fails, no child killed
#   - an optimized ssh client's own counters (eip93-counters.so preloaded,
#     written at its exit): no wrong engine result or failed key check, and
#     its AES-GCM packets on keystream computed ahead (IV_GEN's +1 nonces):
#     at least a quarter of the 32 KiB packets SIZE needs each way (AES-CTR
#     has none)
# Prints SSH-ROW|cipher|server|client|bytes|sha256 up|sha256 down|ops lines.
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
SIZE=${SSH_SIZE:-33554432}
LOGINS=${SSH_LOGINS:-50}

eip93_cnf /etc/eip93-opt.cnf '?provider=eip93' 'max-size = 36864'
# For the logins: every message from 16 bytes up is eligible, so that the
# pre-auth child's own packets (kex, userauth: well under 4 KiB) would make
# the provider open a key there - under OpenSSH's filter, socket() kills.
eip93_cnf /etc/eip93-small.cnf '?provider=eip93' 'max-size = 36864' 'min-size = 16'
plain_cnf /etc/eip93-plain.cnf

insmod /lib/eip93/eip93_sim.ko || { bad "insmod"; exit 1; }
# The optimized sides bind the gate's first choice, the engine's AES-CTR alone.
OPENSSL_CONF=/etc/eip93-opt.cnf eip93-gate-check enabled "enabled: ctr(aes-eip93)" >/tmp/gc.out 2>&1 &&
  ok "the optimized configuration's gate binds ctr(aes-eip93)" || { bad "gate"; cat /tmp/gc.out; }
sshd_setup
head -c "$SIZE" /dev/urandom >/tmp/up
up_sum=$(sha256sum /tmp/up | cut -d' ' -f1)

# cnt DIR NAME: NAME summed over the counter lines in DIR; "none" without one.
cnt() {
  cat "$1"/* 2>/dev/null | awk -v k="$2" '
    { n++; for (i = 2; i < NF; i++) if ($i == k) s += $(i + 1) }
    END { if (n) print s + 0; else print "none" }'
}

# pair SERVER CLIENT CIPHER: one upload and one download.
pair() {
  sname=$1 cname=$2 cipher=$3
  scnf=/etc/eip93-$sname.cnf ccnf=/etc/eip93-$cname.cnf
  [ "$sname" = opt ] && sl=optimized || sl=ordinary
  [ "$cname" = opt ] && cl=optimized || cl=ordinary
  start_sshd "$scnf"
  rm -rf /tmp/cnt.ssh
  mkdir /tmp/cnt.ssh
  # The client's own counters at its exit (an optimized client only).
  CSSH_ENV=
  [ "$cname" = opt ] && CSSH_ENV="EIP93_COUNTERS_DIR=/tmp/cnt.ssh LD_PRELOAD=/usr/lib/eip93-counters.so" 
  before=$(ops)
  cssh "$ccnf" "$cipher" 'cat >/tmp/recv' </tmp/up || bad "$cipher $sl/$cl: upload failed"
  got_up=$(sha256sum /tmp/recv | cut -d' ' -f1)
  # The download: the server side reads its own file and sends it back.
  remote_sum=$(cssh "$ccnf" "$cipher" "sha256sum /tmp/recv | cut -d' ' -f1")
  cssh "$ccnf" "$cipher" 'cat /tmp/up' >/tmp/down || bad "$cipher $sl/$cl: download failed"
  got_down=$(sha256sum /tmp/down | cut -d' ' -f1)
  d=$(( $(ops) - before ))
  CSSH_ENV=
  if [ "$cname" = opt ]; then
    used=$(cnt /tmp/cnt.ssh keystream-ahead-used) want=$((SIZE / 32768 / 4))
    case "$cipher" in *-gcm@*) ;; *) want=0 ;; esac # keystream ahead: AES-GCM's
    echo "# ssh client ($cipher, server $sl): engine messages $(cnt /tmp/cnt.ssh engine-messages)," \
      "errors $(cnt /tmp/cnt.ssh engine-errors), keystream ahead used $used," \
      "dropped $(cnt /tmp/cnt.ssh keystream-ahead-dropped)"
    if [ "$used" = none ] || grep -q no-eip93 /tmp/cnt.ssh/*; then
      bad "$cipher $sl/$cl: the optimized ssh client wrote no eip93 counters"
    elif [ "$(cnt /tmp/cnt.ssh engine-faults)" -ne 0 ] || [ "$(cnt /tmp/cnt.ssh key-checks-failed)" -ne 0 ]; then
      bad "$cipher $sl/$cl: the ssh client counted wrong engine results or failed key checks"
    elif [ "$used" -lt "$want" ]; then
      bad "$cipher $sl/$cl: the ssh client took keystream computed ahead for $used packets, expected at least $want"
    else
      ok "$cipher $sl/$cl: the ssh client's counters: no fault, keystream computed ahead for $used packets"
    fi
  fi
  [ "$got_up" = "$up_sum" ] && [ "$remote_sum" = "$up_sum" ] ||
    bad "$cipher $sl/$cl: upload sha256 $got_up (server says $remote_sum), want $up_sum"
  [ "$got_down" = "$up_sum" ] || bad "$cipher $sl/$cl: download sha256 $got_down, want $up_sum"
  if [ "$sname$cname" = plainplain ]; then
    [ "$d" -eq 0 ] && ok "$cipher control (ordinary/ordinary): ops +0" ||
      bad "$cipher control: driver ops +$d without an optimized side"
  else
    [ "$d" -gt 0 ] && ok "$cipher server $sl / client $cl: $SIZE bytes each way, sha256 ok, ops +$d" ||
      bad "$cipher server $sl / client $cl: driver ops +$d (no offload)"
  fi
  echo "SSH-ROW|$cipher|$sl|$cl|$SIZE|$got_up|$got_down|$d"
  rm -f /tmp/recv /tmp/down
}

for cipher in ${SSH_CIPHERS:-aes128-gcm@openssh.com aes256-gcm@openssh.com}; do
  pair opt plain "$cipher"
  pair plain opt "$cipher"
  pair opt opt "$cipher"
  pair plain plain "$cipher"
done

# 50 logins in a row to the optimized sshd (pre-auth child under seccomp),
# min-size = 16 so that pre-auth packets are eligible for the engine.
start_sshd /etc/eip93-small.cnf
before=$(ops)
n=0 i=0
while [ $i -lt "$LOGINS" ]; do
  i=$((i + 1))
  out=$(cssh /etc/eip93-plain.cnf aes256-gcm@openssh.com 'echo login-ok') && [ "$out" = login-ok ] &&
    n=$((n + 1))
done
[ "$n" -eq "$LOGINS" ] && ok "$LOGINS logins in a row to the optimized sshd" ||
  { bad "only $n of $LOGINS logins worked"; tail -n 20 /tmp/sshd.log; }
d=$(( $(ops) - before ))
[ "$d" -gt 0 ] && ok "logins: the post-auth side used the engine (ops +$d)" ||
  bad "logins: driver ops +$d: the engine never took a packet"
grep -i 'seccomp\|sandbox\|violation\|signal 31\|killed' /tmp/sshd.log | head -n 5
echo "SSH-LOGINS|$n|$LOGINS"

# ---- AES-CTR: aes128-ctr, aes256-ctr ----
# OpenSSH encrypts a packet with one EVP_Cipher call on whole blocks (decrypting, the
# first block alone, then the rest): a full 32 KiB channel packet is a message in the
# optimized side's window (max-size = 36864).
mark=$(date +%s)
SIZE=${SSH_CTR_SIZE:-8388608}
head -c "$SIZE" /dev/urandom >/tmp/up
up_sum=$(sha256sum /tmp/up | cut -d' ' -f1)
for cipher in aes128-ctr aes256-ctr; do
  pair opt plain "$cipher"
  pair plain opt "$cipher"
done
start_sshd /etc/eip93-small.cnf
for cipher in aes128-ctr aes256-ctr; do
  before=$(ops)
  n=0 i=0
  while [ $i -lt "${CTR_LOGINS:=5}" ]; do
    i=$((i + 1))
    out=$(cssh /etc/eip93-plain.cnf "$cipher" 'echo login-ok') && [ "$out" = login-ok ] &&
      n=$((n + 1))
  done
  d=$(( $(ops) - before ))
  if [ "$n" -eq "$CTR_LOGINS" ] && [ "$d" -gt 0 ]; then
    ok "$cipher: $n of $CTR_LOGINS logins to the min-size = 16 sshd, the post-auth side on the engine (ops +$d)"
  else
    bad "$cipher: $n of $CTR_LOGINS logins, driver ops +$d"
    tail -n 20 /tmp/sshd.log
  fi
done
if grep -qiE 'seccomp|violation|signal 31|killed' /tmp/sshd.log; then
  bad "AES-CTR logins: an sshd child was killed"
  grep -iE 'seccomp|violation|signal 31|killed' /tmp/sshd.log | head -n 5
else
  ok "AES-CTR logins: no sshd child killed"
fi
echo "# time: AES-CTR transfers and logins: $(($(date +%s) - mark)) s"
echo "ssh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
