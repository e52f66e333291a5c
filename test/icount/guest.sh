#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: instructions per engine message on the AF_ALG path (hooks
# build, gate open, simulated EIP93 driver).  eip93-icount under callgrind,
# twice (integrity check on and off), the raw loop on the AF_ALG backend
# alone; then the table (test/icount/table.awk).  Passes when every
# contender's output equals the default provider's, the engine counter
# moved by every counted message, and the driver served them.
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
P=/sys/module/eip93_sim/parameters
export OPENSSL_CONF=$M/data/empty.cnf
export GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=4294967295:glibc.cpu.x86_rep_stosb_threshold=4294967295
n=8
out=/tmp/icount

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim.ko"; exit 1; }
openssl rand -hex 16 >/dev/null   # the first getrandom() of the boot waits for the CRNG
mkdir -p $out
vg="valgrind.bin --tool=callgrind --collect-atstart=no --dump-instr=no"
r0=$(cat $P/ops 2>/dev/null || echo 0)
if $vg --callgrind-out-file=$out/on.out eip93-icount --path engine --raw afalg --messages $n \
     >$out/on.log 2>&1; then
  ok "engine cases, checked: outputs equal the default provider's, every message on the engine"
else
  grep -v '^==' $out/on.log | tail -n 20; bad "engine cases, checked"
fi
if EIP93_TEST_VERIFY=off $vg --callgrind-out-file=$out/off.out eip93-icount --path engine \
     --raw afalg --contenders eip93 --label eip93-unchecked --messages $n >$out/off.log 2>&1; then
  ok "engine cases, unchecked"
else
  grep -v '^==' $out/off.log | tail -n 20; bad "engine cases, unchecked"
fi
grep '^icount: raw loop' $out/on.log
r1=$(cat $P/ops 2>/dev/null || echo 0)
if [ "$r1" -gt "$r0" ]; then ok "the simulated driver served $((r1 - r0)) requests"; else bad "no driver requests"; fi

for f in $out/on.out.* $out/off.out.*; do
  [ -e "$f" ] || continue
  awk -v f="$f" '/^desc: Trigger: Client Request: /{sub(/^desc: Trigger: Client Request: /, ""); c=$0}
                 /^(totals|summary):/{t=$2} END{if (c != "") print c, t, f}' "$f"
done | sort -k1,1 -k2,2 -k3,3r -k4,4n >$out/dumps.txt
cases=$(wc -l <$out/dumps.txt)
# 24 engine cases: default, eip93 and raw checked; default (the reference) and eip93 unchecked.
if [ "$cases" -eq 120 ]; then ok "120 dumps"; else bad "$cases dumps, expected 120"; fi
echo "Instructions per message in user space (callgrind, $n messages per case; x86_64 guest, TCG)"
awk -v n=$n -v budget=0 -v margin=0 -v guest=1 -f $M/icount/table.awk $out/dumps.txt

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
