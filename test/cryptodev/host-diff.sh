#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# eip93-diff on the /dev/crypto backend with the user-space /dev/crypto
# (cdev_shim.c, LD_PRELOAD) and its fault plan (EIP93_TEST_CDEV_FAULT in the
# environment), then checks of what the shim reported.
#
#   host-diff.sh SHIM EIP93-DIFF [CHECK...] -- [eip93-diff arguments...]
#
# CHECK: NAME>0, NAME=N (NAME a counter of "cdev-shim counters:", or
# injected, descriptors, sessions), gate~TEXT (the gate's text at unload
# contains TEXT), closed~TEXT (eip93-diff must stop because the gate stayed
# closed, its text containing TEXT; then no counters are checked).
# Without a closed~ check eip93-diff must pass with 0 failed cases.
set -u
shim=$1 diff=$2
shift 2
checks=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  checks="$checks
$1"
  shift
done
[ $# -gt 0 ] && shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
LD_PRELOAD=$shim "$diff" --no-kernel "$@" >"$out" 2>&1
rc=$?
grep -E '^(eip93 gate|eip93 counters|cdev-shim|[0-9]+ passed|FAIL)' "$out"
fail=0
no() { echo "not ok - $*"; fail=1; }
closed=0
case "$checks" in *closed~*) closed=1 ;; esac
if [ "$closed" = 0 ]; then
  if [ "$rc" -ne 0 ] || ! grep -qE '^[1-9][0-9]* passed, 0 failed$' "$out"; then
    no "eip93-diff failed (exit $rc)"
    tail -n 30 "$out"
  fi
fi

value() {
  case "$1" in
  injected) sed -n 's/^cdev-shim injected: //p' "$out" ;;
  descriptors | sessions) sed -n "s/^cdev-shim after unload: .*$1=\([0-9]*\).*/\1/p" "$out" ;;
  *) sed -n "s/^cdev-shim counters:.* $1=\([0-9]*\).*/\1/p" "$out" ;;
  esac
}

nl='
'
IFS=$nl
for c in $checks; do
  case "$c" in
  closed~*)
    t=${c#closed~}
    if [ "$rc" -ne 0 ] && grep -q '^eip93 gate: disabled' "$out" &&
      grep '^eip93 gate:' "$out" | grep -qF -- "$t"; then
      echo "ok - the gate stayed closed, naming '$t'"
    else
      no "the gate did not stay closed naming '$t' (exit $rc)"
    fi
    ;;
  gate~*)
    t=${c#gate~}
    if grep '^cdev-shim gate:' "$out" | grep -qF -- "$t"; then
      echo "ok - the gate says '$t'"
    else
      no "the gate does not say '$t'"
    fi
    ;;
  *\>0)
    n=${c%>0} v=$(value "${c%>0}")
    if [ -n "$v" ] && [ "$v" -gt 0 ]; then echo "ok - $n=$v"; else no "$n=${v:-missing}, expected > 0"; fi
    ;;
  *=*)
    n=${c%%=*} want=${c#*=} v=$(value "${c%%=*}")
    if [ "$v" = "$want" ]; then echo "ok - $n=$v"; else no "$n=${v:-missing}, expected $want"; fi
    ;;
  *) no "bad check '$c'" ;;
  esac
done
unset IFS
exit $fail
