#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Guest script (busybox sh): self-test of the test rig itself, i.e. of the
# simulated EIP93 driver test/kmod/eip93_sim.c in the Debian guest kernel.
# Host side: guest_selftest (test/guest/guest.cmake), or by hand
#   test/rig/run.sh --cache CACHE --work WORK \
#     --module BUILD/test/kmod/eip93_sim.ko \
#     --add BUILD/test/eip93-afalg-check:/usr/bin/eip93-afalg-check \
#     --script test/guest/selftest.sh
# Prints "ok N - ..." / "not ok N - ..." lines; exits 1 if any check failed.
# Counter checks use deltas: the kernel's self-tests issue hundreds of
# requests when the algorithm registers and when a template instance around
# it is first created.
# A busybox ash script (the guest has no bash); no "set -e" on purpose: every
# check runs and reports, the exit status sums them up.

set -u

CHECK=${EIP93_AFALG_CHECK:-/usr/bin/eip93-afalg-check}
KO=${EIP93_SIM_KO:-/lib/eip93/eip93_sim.ko}
P=/sys/module/eip93_sim/parameters
DRV='ctr(aes-eip93)'
GCM_DRV='gcm_base(ctr(aes-eip93),ghash-generic)'
GCM_LIB='gcm_base(ctr(aes-eip93),ghash-lib)'

n=0
failed=0

ok() {
    n=$((n + 1))
    echo "ok $n - $*"
}
not_ok() {
    n=$((n + 1))
    failed=$((failed + 1))
    echo "not ok $n - $*"
}
verdict() { # status description
    if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi
}
has() { # pattern: in the output of the last run
    printf '%s\n' "$out" | grep -q "$1"
}
finish() {
    echo "1..$n"
    if [ "$failed" -eq 0 ]; then
        echo "# selftest: all $n checks passed"
        exit 0
    fi
    echo "# selftest: $failed of $n checks FAILED"
    exit 1
}
bail() {
    not_ok "$*"
    echo "# bailing out"
    finish
}

# Run the AF_ALG helper: sets $out and $rc, echoes the output as comments.
run() {
    out=$("$CHECK" "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | sed 's/^/#   /'
}
# Field of "requests=N payload_bytes=M" from the last run.
result() {
    printf '%s\n' "$out" | sed -n "s/.*$1=\([0-9]*\).*/\1/p" | tail -n 1
}
param() {
    cat "$P/$1"
}
# /proc/uptime in centiseconds.
now_cs() {
    read -r up _ </proc/uptime
    echo "${up%.*}${up#*.}"
}
# The /proc/crypto entry of driver $1.
crypto_entry() {
    awk -v d="$1" '
        /^name/ { blk = ""; hit = 0 }
        { blk = blk $0 "\n" }
        $1 == "driver" && $3 == d { hit = 1 }
        /^$/ { if (hit) printf "%s", blk; hit = 0 }
        END { if (hit) printf "%s", blk }' /proc/crypto
}
field() { # entry key
    printf '%s' "$1" | awk -F' *: *' -v k="$2" '$1 == k { print $2; exit }'
}
is_loaded() {
    [ -d /sys/module/eip93_sim ]
}

[ -x "$CHECK" ] || bail "AF_ALG helper $CHECK present"
[ -f "$KO" ] || bail "module $KO present"

# ---- before the driver is loaded -------------------------------------------

[ ! -e /sbin/modprobe ] && [ -z "$(cat /proc/sys/kernel/modprobe)" ]
verdict $? "no modprobe in the guest, autoloading disabled"
! is_loaded
verdict $? "eip93_sim not loaded at boot"
run bind aead "$GCM_DRV"
[ "$rc" -eq 2 ] && has ENOENT
verdict $? "without the driver, $GCM_DRV gives ENOENT"
run bind skcipher "$DRV"
[ "$rc" -eq 2 ] && has ENOENT
verdict $? "without the driver, skcipher $DRV gives ENOENT"

# ---- load ------------------------------------------------------------------

insmod "$KO" || bail "insmod $KO"
ok "insmod eip93_sim.ko"

entry=$(crypto_entry "$DRV")
printf '%s\n' "$entry" | sed 's/^/#   /'
[ -n "$entry" ]
verdict $? "/proc/crypto lists driver $DRV"
[ "$(field "$entry" name)" = "ctr(aes)" ]
verdict $? "cra_name ctr(aes)"
[ "$(field "$entry" module)" = eip93_sim ]
verdict $? "module eip93_sim"
[ "$(field "$entry" priority)" = 1500 ]
verdict $? "priority 1500"
[ "$(field "$entry" selftest)" = passed ]
verdict $? "kernel self-test passed"
[ "$(field "$entry" type)" = skcipher ] && [ "$(field "$entry" async)" = yes ]
verdict $? "type skcipher, async"
[ "$(field "$entry" blocksize)" = 1 ] && [ "$(field "$entry" ivsize)" = 16 ] &&
    [ "$(field "$entry" chunksize)" = 16 ]
verdict $? "blocksize 1, ivsize 16, chunksize 16"
[ "$(field "$entry" "min keysize")" = 16 ] && [ "$(field "$entry" "max keysize")" = 32 ]
verdict $? "keysize 16..32"
for p in ops bytes held corrupt delay_ms fail stall; do
    [ -r "$P/$p" ]
    verdict $? "parameter $p present"
done
echo "# ops after registration: $(param ops)"

# ---- binding and results ---------------------------------------------------

ops0=$(param ops)
run bind aead "$GCM_DRV"
[ "$rc" -eq 0 ]
verdict $? "aead $GCM_DRV binds"
ops1=$(param ops)
echo "# ops delta of the first instantiation (kernel self-test): $((ops1 - ops0))"

# counted MODE ALG DESC HOW UNIT [WHAT]: the rig's client (MODE on ALG) is
# byte-identical to OpenSSL (DESC); the driver's ops and bytes then rose by
# HOW ("at least" or "exactly") the requests (one per UNIT) and the payload
# (of WHAT, default MODE) it reports.
counted() {
  ops0=$(param ops)
  bytes0=$(param bytes)
  run "$1" "$2"
  [ "$rc" -eq 0 ]
  verdict $? "$3"
  req=$(result requests)
  pay=$(result payload_bytes)
  ops1=$(param ops)
  bytes1=$(param bytes)
  echo "# $1: requests=${req:-?} payload=${pay:-?} ops delta=$((ops1 - ops0)) bytes delta=$((bytes1 - bytes0))"
  rose "$4" "$req" $((ops1 - ops0))
  verdict $? "ops rose by $4 one per $5"
  rose "$4" "$pay" $((bytes1 - bytes0))
  verdict $? "bytes rose by $4 the ${6:-$1} payload"
}
# rose HOW N DELTA: N is a positive number and DELTA is HOW ("at least" or "exactly") N.
rose() {
  [ -n "$2" ] && [ "$2" -gt 0 ] || return 1
  if [ "$1" = exactly ]; then [ "$3" -eq "$2" ]; else [ "$3" -ge "$2" ]; fi
}
counted gcm "$GCM_DRV" "$GCM_DRV is byte-identical to OpenSSL AES-GCM" "at least" "GCM operation" GCM
# The ctr client's carry case crosses a 32-bit counter wrap: the full 128-bit
# counter for it (bug_ctr32, the engine's counter without carry, default 1,
# is guest_sim_modes' to prove).
echo 0 >"$P/bug_ctr32"
counted ctr "$DRV" "skcipher $DRV is byte-identical to OpenSSL AES-CTR" exactly "skcipher request" \
  skcipher
echo 1 >"$P/bug_ctr32"

ops0=$(param ops)
run gcm "gcm(aes)" single
ops1=$(param ops)
[ "$rc" -eq 0 ]
verdict $? "gcm(aes) is byte-identical to OpenSSL"
[ $((ops1 - ops0)) -gt 0 ]
verdict $? "gcm(aes) resolves to the simulated driver (ops delta $((ops1 - ops0)))"

run bind aead "$GCM_LIB"
[ "$rc" -eq 2 ] && has ENOENT
verdict $? "$GCM_LIB gives ENOENT on this kernel"

# ---- knobs -----------------------------------------------------------------

echo 1 >"$P/corrupt"
run gcm "$GCM_DRV" single
[ "$rc" -eq 1 ]
verdict $? "corrupt=1 changes the GCM output"
run ctr "$DRV" single
[ "$rc" -eq 1 ]
verdict $? "corrupt=1 changes the CTR output"
echo 0 >"$P/corrupt"
run gcm "$GCM_DRV" single
[ "$rc" -eq 0 ]
verdict $? "corrupt=0 restores correct GCM output"

echo 1 >"$P/fail"
ops0=$(param ops)
run ctr "$DRV" single
ops1=$(param ops)
[ "$rc" -eq 3 ] && has EIO
verdict $? "fail=1 makes a CTR request fail with EIO"
[ $((ops1 - ops0)) -eq 1 ]
verdict $? "a failed request still counts in ops"
run gcm "$GCM_DRV" single
[ "$rc" -eq 3 ] && has EIO
verdict $? "fail=1 makes GCM fail with EIO"
echo 0 >"$P/fail"
run ctr "$DRV" single
[ "$rc" -eq 0 ]
verdict $? "fail=0 restores correct CTR output"

echo 300 >"$P/delay_ms"
t0=$(now_cs)
run ctr "$DRV" single
t1=$(now_cs)
echo 0 >"$P/delay_ms"
echo "# delay_ms=300: one request took $(((t1 - t0) * 10)) ms"
[ "$rc" -eq 0 ] && [ $((t1 - t0)) -ge 30 ]
verdict $? "delay_ms=300 delays a request by >= 300 ms, result correct"

# stall: the request must stay held until stall is cleared.  The waits are
# bounded; if unstalling fails the script stops (the blocked helper cannot be
# killed: it sleeps uninterruptibly in the kernel) and the guest powers off.
rm -f /tmp/stall.out /tmp/stall.rc
echo 1 >"$P/stall"
ops0=$(param ops)
("$CHECK" ctr "$DRV" single >/tmp/stall.out 2>&1; echo $? >/tmp/stall.rc) &
i=0
while [ "$(param held)" -lt 1 ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ "$(param held)" -eq 1 ]
verdict $? "stall=1 holds the request (held=$(param held))"
sleep 0.5
[ ! -e /tmp/stall.rc ]
verdict $? "the held request does not complete"
[ "$(param ops)" -eq "$ops0" ]
verdict $? "ops unchanged while stalled"
if rmmod eip93_sim 2>/dev/null; then
    bail "rmmod is refused while a request is held"
fi
ok "rmmod is refused while a request is held"
is_loaded
verdict $? "module still loaded"
echo 0 >"$P/stall"
i=0
while [ ! -e /tmp/stall.rc ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ -e /tmp/stall.rc ] || bail "stall=0 releases the held request within 10 s"
sed 's/^/#   /' /tmp/stall.out
[ "$(cat /tmp/stall.rc)" = 0 ]
verdict $? "stall=0 releases the held request, which completes correctly"
[ "$(param held)" -eq 0 ]
verdict $? "held back to 0"
[ $(($(param ops) - ops0)) -eq 1 ]
verdict $? "ops rose by exactly one after unstall"

# ---- unload ----------------------------------------------------------------

if rmmod eip93_sim; then ok "rmmod eip93_sim"; else bail "rmmod eip93_sim"; fi
[ -z "$(crypto_entry "$DRV")" ]
verdict $? "/proc/crypto no longer lists $DRV"
run bind aead "$GCM_DRV"
[ "$rc" -eq 2 ] && has ENOENT
verdict $? "after rmmod, $GCM_DRV gives ENOENT"
run bind skcipher "$DRV"
[ "$rc" -eq 2 ] && has ENOENT
verdict $? "after rmmod, skcipher $DRV gives ENOENT"
run gcm "gcm(aes)" single
[ "$rc" -eq 0 ]
verdict $? "after rmmod, gcm(aes) (software) is still byte-identical to OpenSSL"

# Reload: registration works again and the names bind again.
if insmod "$KO"; then ok "insmod again"; else bail "insmod again"; fi
run bind aead "$GCM_DRV"
[ "$rc" -eq 0 ]
verdict $? "after reload, $GCM_DRV binds"
if rmmod eip93_sim; then ok "rmmod again"; else not_ok "rmmod again"; fi

# ---- kernel health ---------------------------------------------------------

tainted=$(cat /proc/sys/kernel/tainted)
[ $((tainted & (128 | 512))) -eq 0 ]
verdict $? "no kernel warning or oops (tainted=$tainted)"
bad=$(dmesg | grep -E 'BUG:|WARNING:|Oops|Call Trace|alg: .*(fail|error)' || true)
[ -z "$bad" ] || printf '%s\n' "$bad" | sed 's/^/#   /'
[ -z "$bad" ]
verdict $? "no kernel errors in dmesg"

finish
