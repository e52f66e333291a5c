#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Keystream ahead, measured with a model of an off-CPU engine: build, boot
# one QEMU x86_64 guest with -smp 2 (Debian's kernel, the simulated EIP93
# driver, the test-hooks build) and there:
#   1. (unless --no-keysetup) eip93-bench section 6, key setup, the engine at
#      full speed (docs/performance.md, the key-setup table), with
#      keystream-ahead = off (comparable with the figures before it: with it on,
#      the open-key record of the interleaved contenders gets its keystream
#      asked ahead while the others run) and then with the defaults;
#   2. the CPU's own time of one serial 16 KiB record: eip93-bench section 8
#      with EIP93_OVERLAP_SIZES=16384, the engine at full speed: C = the
#      process's CPU time (getrusage) per record, keystream-ahead off;
#   3. for each engine/CPU ratio R (default 0.5 1 2): the driver's timing model
#      set to latency_us = 0, rate = 16384 B / (R * C), so that a 16 KiB
#      request is modelled to take R * C (the model is a floor: a request
#      never completes before the kernel worker's arithmetic is done, which
#      the output shows as "engine seen" = serial wall - serial CPU per record);
#      then section 8 (4/16/32 KiB, keystream-ahead off / on, interleaved
#      rounds, medians) and `openssl speed -elapsed -aead -evp aes-128-gcm
#      -bytes N` (OpenSSL 3.0's TLS-like loop: one context, the same IV every
#      record, 13-byte AAD) at 4/16/32 KiB with keystream-ahead off and on,
#      plus `-evp` without -aead once (one ever-growing message: no record
#      nonce to predict);
# and print one markdown table and the speed rows.  The goal (>= 1.4x serial
# where engine and CPU times are comparable, never slower, CPU per byte not
# higher) is printed, never asserted; the exit status is the guest's (a
# wrong answer, a record off the engine, keystream-ahead on never used).
# TCG emulation, no KVM: the shape, not the numbers.
#
# usage: scripts/overlap-bench.sh [--rounds N] [--ms MS] [--ratios "0.5 1 2"]
#                                 [--speed-seconds S] [--no-keysetup | --keysetup-only]
#                                 [--ks-rounds N] [--smp N] [--smoke] [--no-speed]
#                                 [--work-us N]
#        scripts/overlap-bench.sh --from OUT     (the table from a saved output)
# EIP93_BUILD_DIR (default build) and EIP93_GUEST_CACHE as scripts/adapt-bench.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cache=${EIP93_GUEST_CACHE:-$HOME/.cache/eip93/guest}
build=${EIP93_BUILD_DIR:-build}
rounds=7 ms=300 ratios='0.5 1 2' speed_s=2 keysetup=1 ks_rounds=15 from='' smoke=0 smp=2
work_us=0 speed=1
die() { echo "overlap-bench: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case "$1" in
  --rounds) [[ $# -ge 2 ]] || die "--rounds needs N"; rounds=$2; shift 2 ;;
  --ms) [[ $# -ge 2 ]] || die "--ms needs MS"; ms=$2; shift 2 ;;
  --ratios) [[ $# -ge 2 ]] || die "--ratios needs a list"; ratios=$2; shift 2 ;;
  --speed-seconds) [[ $# -ge 2 ]] || die "--speed-seconds needs S"; speed_s=$2; shift 2 ;;
  --ks-rounds) [[ $# -ge 2 ]] || die "--ks-rounds needs N"; ks_rounds=$2; shift 2 ;;
  --no-keysetup) keysetup=0; shift ;;
  --keysetup-only) keysetup=2; shift ;;
  --smoke) smoke=1; shift ;;
  --work-us) [[ $# -ge 2 ]] || die "--work-us needs N"; work_us=$2; shift 2 ;;
  --no-speed) speed=0; shift ;;
  --smp) [[ $# -ge 2 ]] || die "--smp needs N"; smp=$2; shift 2 ;;
  --from) [[ $# -ge 2 ]] || die "--from needs a file"; from=$2; shift 2 ;;
  *) die "unknown option $1 (see the header of $0)" ;;
  esac
done
for v in "$rounds" "$ms" "$speed_s" "$ks_rounds" "$smp"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || die "not a positive integer: $v"
done
[[ "$work_us" =~ ^[0-9]+$ ]] || die "not a number of microseconds: $work_us"
for r in $ratios; do [[ "$r" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "not a ratio: $r"; done

# The guest's script (busybox sh).
guest_script() {
  cat <<'EOF'
#!/bin/sh
set -u
. /opt/eip93/guest-lib.sh
an7581_hooks
P=/sys/module/eip93_sim/parameters
B=/usr/bin/eip93-bench
insmod /lib/eip93/eip93_sim.ko || { echo "overlap-bench: cannot load the simulated driver"; exit 1; }
echo "overlap-bench: guest kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) vCPUs," \
  "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
rc=0
model() { echo "$1" >$P/latency_us; echo "$2" >$P/rate; }
# bench LABEL ARGS...: eip93-bench, its output, the driver's requests and modelled time.
bench() {
  _l=$1
  shift
  _o0=$(ops) _b0=$(cat $P/busy_us)
  $B "$@" >/tmp/b.out 2>/tmp/b.err || { echo "overlap-bench: $_l: eip93-bench failed"; rc=1; }
  cat /tmp/b.out
  grep -v 'backend enabled' /tmp/b.err | sed 's/^/bench stderr: /'
  _o=$(( $(ops) - _o0 )) _b=$(( $(cat $P/busy_us) - _b0 ))
  echo "overlap-model: $_l: driver requests $_o, modelled busy ${_b} us" \
    "($([ "$_o" -gt 0 ] && echo $((_b / _o)) || echo 0) us per request)"
}
model 0 0
eip93_cnf /tmp/ka-off.cnf '?provider=eip93' 'notice = no' 'keystream-ahead = off'
eip93_cnf /tmp/ka-on.cnf '?provider=eip93' 'notice = no' 'keystream-ahead = on'
# The first bind's self-tests come before any timing model.
OPENSSL_CONF=/tmp/ka-on.cnf openssl speed -elapsed -seconds 1 -bytes 16384 -aead -evp aes-128-gcm \
  >/dev/null 2>&1

if [ "$KS" -ge 1 ]; then
  # keystream-ahead = off first: the open-key record's keystream is not asked ahead while the
  # other contenders' messages run (interleaved), so new - open is the key's own cost, as before
  # keystream ahead; then the defaults (keystream-ahead = on).
  eip93_cnf /tmp/ks-off.cnf '' 'notice = no' 'keystream-ahead = off'
  echo "overlap-keysetup: eip93-bench --sections 6 --rounds $KS_ROUNDS, engine at full speed," \
    "keystream-ahead = off"
  OPENSSL_CONF=/tmp/ks-off.cnf $B --sections 6 --rounds "$KS_ROUNDS" 2>&1 | grep -v 'backend enabled'
  echo "overlap-keysetup: eip93-bench --sections 6 --rounds $KS_ROUNDS, engine at full speed," \
    "the provider's defaults (keystream-ahead = on)"
  bench keysetup --sections 6 --rounds "$KS_ROUNDS"
  [ "$KS" -eq 2 ] && { echo "overlap-bench: done"; exit $rc; }
fi

# The CPU's own time of a serial 16 KiB record, the engine at full speed.
export EIP93_OVERLAP_SIZES=16384
bench calibration --sections 8 $ARGS
unset EIP93_OVERLAP_SIZES
row=$(grep -m 1 '^| 16385 |' /tmp/b.out)
[ -n "$row" ] || { echo "overlap-bench: no calibration row"; exit 1; }
W=$(echo "$row" | awk -F'|' '{ gsub(/ /, "", $9); print $9 }')
# C: the least serial CPU time per record over the rounds (the host's load only adds to it).
C=$(grep '^   16385:.*(min ' /tmp/b.out | sed 's/.*(min \([0-9.]*\)).*/\1/' | head -n 1)
[ -n "$C" ] || C=$(echo "$row" | awk -F'|' '{ gsub(/ /, "", $10); print $10 }')
echo "overlap-cal: serial 16 KiB record at full speed: wall ${W} us (median), CPU ${C} us" \
  "(least of the rounds; the caller's work ${EIP93_OVERLAP_WORK_US:-0} us included)" \
  "(engine seen = wall - CPU = $(awk -v w="$W" -v c="$C" 'BEGIN { printf "%.1f", w - c }') us)"

for R in $RATIOS; do
  E=$(awk -v r="$R" -v c="$C" 'BEGIN { printf "%.1f", r * c }')
  RATE=$(awk -v e="$E" 'BEGIN { printf "%d", 16384 / (e * 1e-6) + 0.5 }')
  model 0 "$RATE"
  echo "overlap-ratio: $R: engine/CPU = $R: latency_us = 0, rate = $RATE B/s" \
    "(16384 B / ($R x C = $R x $C us = $E us)); the model: latency_us + bytes / rate per request"
  bench "ratio $R" --sections 8 $ARGS
  [ "$SPEED" -eq 1 ] || continue
  for s in off on; do
    for n in $SIZES; do
      _o0=$(ops)
      v=$(OPENSSL_CONF=/tmp/ka-$s.cnf openssl speed -mr -elapsed -seconds "$SPEED_S" -bytes "$n" \
        -aead -evp aes-128-gcm 2>/dev/null | awk -F: '/^\+F:/ { printf "%.2f", $4 / 1e6 }')
      echo "overlap-speed: ratio=$R keystream-ahead=$s shape=-aead bytes=$n MBps=${v:-?}" \
        "requests=$(( $(ops) - _o0 ))"
    done
  done
  if [ "$R" = "$(echo $RATIOS | awk '{ print $1 }')" ]; then
    for s in off on; do
      _o0=$(ops)
      v=$(OPENSSL_CONF=/tmp/ka-$s.cnf openssl speed -mr -elapsed -seconds "$SPEED_S" -bytes 16384 \
        -evp aes-128-gcm 2>/dev/null | awk -F: '/^\+F:/ { printf "%.2f", $4 / 1e6 }')
      echo "overlap-speed: ratio=$R keystream-ahead=$s shape=-evp bytes=16384 MBps=${v:-?}" \
        "requests=$(( $(ops) - _o0 ))"
    done
  fi
done
model 0 0
echo "overlap-bench: done"
exit $rc
EOF
}

# --work-us N: the caller's own work after each record (the CPU busy N us,
# eip93-bench's EIP93_OVERLAP_WORK_US), included in C and so in the ratios.
# The tables from the guest's output.
tables() {
  awk '
    /^overlap-cal:/ { print "calibration (engine at full speed):" substr($0, 12); next }
    /^overlap-ratio:/ { r = $2; sub(/:$/, "", r); order[++n] = r; how[r] = $0; next }
    /^8\. One TLS 1.3 stream/ { cur = n ? order[n] : "" }
    /^\| [0-9]+ \| / && cur != "" {
      split($0, f, "|"); for (i in f) gsub(/ /, "", f[i])
      key = cur SUBSEP f[2]; rows[key] = $0; rec[cur, ++nr[cur]] = f[2]
      seen = f[9] - f[10]
      line[key] = sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s/%s |", cur, f[2], \
        f[3], f[4], f[5], f[6], f[7], f[8], seen, f[14], f[15])
    }
    /^overlap-speed:/ {
      for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      sk = v["ratio"] SUBSEP v["shape"] SUBSEP v["bytes"]
      if (!(sk in sp)) { sorder[++ns] = sk }
      sp[sk] = 1; mbps[sk, v["keystream-ahead"]] = v["MBps"]; req[sk, v["keystream-ahead"]] = v["requests"]
    }
    /^overlap-keysetup:|^   TLS 1.3 16 KiB|new key us/ { ks = ks $0 "\n" }
    END {
      if (ks != "") printf "key setup (eip93-bench section 6):\n%s\n", ks
      for (i = 1; i <= n; i++) print how[order[i]]
      print ""
      print "| engine/CPU ratio | record B | serial MB/s | overlapped MB/s | overlapped/serial | serial CPU ns/B | overlapped CPU ns/B | CPU on/off | engine seen us/rec (serial wall - CPU) | ahead used/dropped |"
      print "|---|---|---|---|---|---|---|---|---|---|"
      for (i = 1; i <= n; i++)
        for (j = 1; j <= nr[order[i]]; j++) print line[order[i], rec[order[i], j]]
      print ""
      print "| engine/CPU ratio | openssl speed shape | bytes | keystream-ahead off MB/s | on MB/s | on/off | driver requests off / on |"
      print "|---|---|---|---|---|---|---|"
      for (i = 1; i <= ns; i++) {
        split(sorder[i], k, SUBSEP); o = mbps[sorder[i], "off"]; a = mbps[sorder[i], "on"]
        printf "| %s | %s | %s | %s | %s | %s | %s / %s |\n", k[1], k[2], k[3], o, a, \
          (o + 0 > 0 ? sprintf("%.3fx", a / o) : "-"), req[sorder[i], "off"], req[sorder[i], "on"]
      }
      print ""
      print "goal (printed, not asserted): overlapped >= 1.4x serial where engine and CPU times are comparable (ratio ~1), never below 1.0x, CPU ns/B not higher"
    }' "$1"
}

if [[ -n "$from" ]]; then
  tables "$from"
  exit 0
fi

scripts/deps.sh >/dev/null
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEIP93_GUEST_CACHE="$cache" >/dev/null
cmake --build "$build" -j2 --target eip93 eip93_hooks eip93-bench eip93-gate-check >/dev/null
ctest --test-dir "$build" -R 'guest_(prepare_kernel|build_driver)' --output-on-failure >/dev/null
work=$build/test/guest-work
mkdir -p "$work"
guest_script >"$work/overlap-guest.sh"
out=$work/overlap-bench.txt
args="--rounds $rounds --batch-ms $ms"
[[ $smoke -eq 0 ]] || args="--smoke"
sizes='4096 16384 32768'
set +e
"$build/test/guest-run.sh" --work "$work/overlap-bench" --script "$work/overlap-guest.sh" \
  --add "$build/test/eip93-bench:/usr/bin/eip93-bench" --smp "$smp" --timeout 1800 \
  --env "ARGS=$args" --env "RATIOS=$ratios" --env "SIZES=$sizes" --env "SPEED_S=$speed_s" \
  --env "KS=$keysetup" --env "KS_ROUNDS=$ks_rounds" --env "SPEED=$speed" \
  --env "EIP93_OVERLAP_WORK_US=$work_us" |
  grep -v -e '^\[ *[0-9.]*\]' -e '^EIP93-GUEST-EXIT' | tee "$out"
rc=${PIPESTATUS[0]}
set -e
echo
tables "$out"
echo "overlap-bench: guest exit status $rc; raw output $out"
exit "$rc"
