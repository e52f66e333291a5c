#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The provider's own cost in instructions per message (callgrind), on this
# host with the fake engine; see test/icount/icount.c for the cases.
#
#   icount.sh --prog EIP93_ICOUNT --modules HOOKS_MODULE_DIR --data TEST_DATA_DIR
#             [--out DIR] [--messages N] [--budget] [--top N] [--only SUBSTRING]
#
# Two callgrind runs of eip93-icount: every case with the integrity check
# on, and the engine cases again with it off (EIP93_TEST_VERIFY=off), so the
# check's own cost is counted separately.  Prints one table per path:
#   delegated  default vs eip93 instructions per message and their ratio
#   engine     raw (the fake engine called directly: the host's stand-in for
#              a raw AF_ALG loop doing the same syscalls), eip93 unchecked,
#              the check (checked - unchecked), the provider's own work
#              (unchecked - raw) and the ratio unchecked / raw
# --budget: exit 1 when a ratio exceeds its held ceiling by more than the
# margin (below; docs/performance.md "Instruction budget").
# --top N: the N functions of eip93.so with the largest inclusive cost, per
# case, from the dumps (callgrind_annotate).
set -euo pipefail

prog= modules= data= out=${TMPDIR:-/tmp}/eip93-icount messages=32 budget=0 top=0 only=
while [ $# -gt 0 ]; do
  case "$1" in
    --prog) prog=$2; shift 2 ;;
    --modules) modules=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --messages) messages=$2; shift 2 ;;
    --budget) budget=1; shift ;;
    --top) top=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "icount.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$prog" ] && [ -d "$modules" ] && [ -d "$data" ] || {
  echo "icount.sh: --prog, --modules and --data are required" >&2; exit 2; }

# The budget, as ratios to the reference.  Goals: the targets the provider
# is built to (delegated 1.10 at 16 B, 1.02 at 256 B and 1 KiB; engine 1.03).
# Held: the ceilings CI enforces, the goal where it is met and otherwise the
# figure reached (docs/performance.md, "Instruction budget", says where the
# rest goes), so that no change adds instructions unnoticed.  A ratio may
# exceed its held ceiling by the margin before the test fails (compilers and
# OpenSSL versions move the counts a little).
# OpenSSL 3.5's default provider makes a small message with about half the
# instructions 3.0's does, so the same added work is a larger ratio there.
goal_d16=1.10 goal_d256=1.02 goal_d1024=1.02 goal_e=1.03
hold_30="1.32 1.25 1.17 1.10 1.04" # OpenSSL 3.0: delegated 16, 256, 1024; engine 4 KiB, larger
hold_35="1.50 1.35 1.20 1.10 1.04" # later versions (3.5)
# AES-CTR and AES-CBC (test/icount/skc.c), per shape ("shape:bytes=held"),
# the same goals and rule; measured on 248134d (gcc and clang for 3.0).
# Delegated: a stream's small update makes five calls through the provider
# against the default's one AES-NI call.  Engine, in place (-ip, cbctls):
# the scratch copy and its cleansing; cbc decryption with padding: a
# message is the held block and the update, twice the scratch; cbctls
# decryption: the constant-time padding and MAC removal.
skc_30="ctr:16=1.51 ctr:1024=1.10 cbc:16=1.81 cbc:1024=1.15 cbcnp:16=1.81 cbcnp:1024=1.17
  ctr:4096=1.03 ctr:16384=1.03 ctr:32768=1.03 ctr-ip:4096=1.06 ctr-ip:16384=1.05 ctr-ip:32768=1.05
  cbc:4096=1.09 cbc:16384=1.09 cbc:32768=1.08 cbc-ip:4096=1.05 cbc-ip:16384=1.04 cbc-ip:32768=1.04
  cbcnp:4096=1.03 cbcnp:16384=1.03 cbcnp:32768=1.03 cbcnp-ip:4096=1.06 cbcnp-ip:16384=1.05
  cbcnp-ip:32768=1.05 cbctls:16384=1.13"
skc_35="ctr:16=1.59 ctr:1024=1.11 cbc:16=1.88 cbc:1024=1.15 cbcnp:16=1.87 cbcnp:1024=1.17
  ctr:4096=1.03 ctr:16384=1.03 ctr:32768=1.03 ctr-ip:4096=1.06 ctr-ip:16384=1.05 ctr-ip:32768=1.05
  cbc:4096=1.10 cbc:16384=1.09 cbc:32768=1.09 cbc-ip:4096=1.05 cbc-ip:16384=1.05 cbc-ip:32768=1.04
  cbcnp:4096=1.03 cbcnp:16384=1.03 cbcnp:32768=1.03 cbcnp-ip:4096=1.06 cbcnp-ip:16384=1.05
  cbcnp-ip:32768=1.05 cbctls:16384=1.13"
# OpenSSL 4.0 (4.0.2): as 3.5 but AES-CBC decryption without padding at 16
# bytes (the default provider's 282 instructions, eip93's +250: 1.887).
skc_40=${skc_35/cbcnp:16=1.87/cbcnp:16=1.89}
margin=0.005

rm -rf "$out"
mkdir -p "$out"
# The budget is the serial path's (keystream ahead off: docs/performance.md "Keystream ahead")
export OPENSSL_MODULES=$modules OPENSSL_CONF=${EIP93_ICOUNT_CONF:-$data/icount-serial.cnf}
export EIP93_TEST_DT_PATH=$data/dt-an7581.bin EIP93_TEST_HWCAP=0 EIP93_TEST_ENGINE=fake
# glibc's x86_64 memcpy/memset switch to "rep movsb"/"rep stosb" above a few
# KiB, which callgrind counts as one instruction per byte (the CPU runs it as
# a few wide moves).  These thresholds keep them on their vector loops for
# any size, which count about what an arm64 build's ldp/stp loops execute.
export GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=4294967295:glibc.cpu.x86_rep_stosb_threshold=4294967295
vg=(valgrind --tool=callgrind --collect-atstart=no --dump-instr=no)
extra=()
[ -n "$only" ] && extra=(--only "$only")

if ! "${vg[@]}" --callgrind-out-file="$out/on.out" "$prog" --messages "$messages" "${extra[@]}" \
     >"$out/on.log" 2>&1; then
  cat "$out/on.log" >&2; echo "icount.sh: eip93-icount failed (checked run)" >&2; exit 1
fi
if ! EIP93_TEST_VERIFY=off "${vg[@]}" --callgrind-out-file="$out/off.out" "$prog" \
     --messages "$messages" --path engine --contenders eip93 --label eip93-unchecked "${extra[@]}" \
     >"$out/off.log" 2>&1; then
  cat "$out/off.log" >&2; echo "icount.sh: eip93-icount failed (unchecked run)" >&2; exit 1
fi

ossl=$(sed -n 's/^icount: \(OpenSSL [^ ]*\).*/\1/p' "$out/on.log" | head -n 1)
case "$ossl" in
"OpenSSL 3.0."*) hold=$hold_30 skc=$skc_30 ;;
"OpenSSL 4."*) hold=$hold_35 skc=$skc_40 ;;
*) hold=$hold_35 skc=$skc_35 ;;
esac
read -r hold_d16 hold_d256 hold_d1024 hold_e4096 hold_e <<<"$hold"

# One line per dump: "<path> <shape> <dir> <size> <who> <total instructions> <file>".
for f in "$out"/on.out.* "$out"/off.out.*; do
  [ -e "$f" ] || continue
  awk -v f="$f" '/^desc: Trigger: Client Request: /{sub(/^desc: Trigger: Client Request: /, ""); n=$0}
                 /^(totals|summary):/{t=$2} END{if (n != "") print n, t, f}' "$f"
done | sort -k1,1 -k2,2 -k3,3r -k4,4n >"$out/dumps.txt"
[ -s "$out/dumps.txt" ] || { echo "icount.sh: no callgrind dumps in $out" >&2; exit 1; }

echo "Instructions per message (callgrind, $messages messages per case after 2 warm-up;"
echo "$(valgrind --version), ${ossl:-OpenSSL ?}, eip93.so from $modules)"
rc=0
awk -v n="$messages" -v budget="$budget" -v margin="$margin" \
    -v g16="$goal_d16" -v g256="$goal_d256" -v g1024="$goal_d1024" -v ge="$goal_e" \
    -v h16="$hold_d16" -v h256="$hold_d256" -v h1024="$hold_d1024" -v he4096="$hold_e4096" \
    -v he="$hold_e" -v hs="$(echo $skc)" -v guest=0 -f "$(dirname "$0")/table.awk" "$out/dumps.txt" || rc=1

# Self cost per function, per message, of one dump: "<function> <Ir>" lines.
self_costs() {
  callgrind_annotate --auto=no --threshold=100 "$1" 2>/dev/null |
    awk -v n="$messages" '/^ *[0-9,]+ \(/ && !/PROGRAM TOTALS/ { if ($NF ~ /^\[.*\]$/) { obj = $NF; gsub(/[][]/, "", obj); sub(/^.*\//, "", obj) }
        gsub(/\([^)]*\)/, ""); if ($1 !~ /^[0-9,]+$/) next
        gsub(",", "", $1); fn = $2; sub(/^.*:/, "", fn); sub(/'"'"'[0-9]+$/, "", fn)
        if (fn ~ /^0x/) fn = obj ":" fn
        if (fn ~ /libc_start_main|below main|^(main|run_case|run_contender|skc_cases)$/ ||
            obj ~ /^ld-linux/) next
        c[fn] += $1 } END { for (f in c) printf "%s %.1f\n", f, c[f] / n }'
}

if [ "$top" -gt 0 ]; then
  echo
  echo "Where the added instructions go: per function, self cost per message of eip93"
  echo "minus that of its reference (delegated: the default provider; engine: the raw loop,"
  echo "against eip93 without the integrity check); the $top largest differences"
  while read -r path shape dir size who _ file; do
    case "$path $who" in "delegated eip93"|"engine eip93-unchecked") ;; *) continue ;; esac
    ref=default; [ "$path" = engine ] && ref=raw
    reffile=$(awk -v k="$path $shape $dir $size $ref" '$1" "$2" "$3" "$4" "$5 == k {print $7}' "$out/dumps.txt")
    [ -n "$reffile" ] || continue
    echo "  $path $shape $dir $size ($who vs $ref):"
    LC_ALL=C join -a1 -a2 -e 0 -o 0,1.2,2.2 <(self_costs "$file" | LC_ALL=C sort) \
      <(self_costs "$reffile" | LC_ALL=C sort) |
      awk '{ d = $2 - $3; if (d > 0.5 || d < -0.5) printf "%10.0f  %s\n", d, $1 }' |
      sort -k1,1nr | awk -v n="$top" 'NR <= n { print "  " $0 }'
  done <"$out/dumps.txt"
fi
exit $rc
