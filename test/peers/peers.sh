#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest script (busybox sh): the peers side by side in one boot (the
# CBC/CTR provider against the engines it replaces).  AES-128-CBC and
# AES-128-CTR, `openssl speed -elapsed` at each size of PEERS_SIZES, for
# every row that this guest has:
#
#   sw_b         software: the build's openssl (/usr/bin/openssl), default provider
#   afalg_b      OpenSSL's afalg engine of that openssl (its ENGINESDIR/afalg.so;
#                CBC only: the engine offers nothing else)
#   sw_d, afalg_d, devcrypto_d
#                the same and the devcrypto engine on the OpenSSL 3.5 built by
#                scripts/openssl-build.sh with enable-devcryptoeng
#                (/usr/bin/openssl-35); when that is the build's openssl, only
#                devcrypto_d is added to the build's rows
#   eip93_afalg, eip93_cdev
#                the eip93 provider (test-hooks build standing in for the
#                AN7581) with engine-backend = afalg / cryptodev, the cipher
#                fetched with -propquery provider=eip93
#
# on the simulated EIP93 driver (eip93_sim.ko, its timing model set to
# PEERS_LATENCY_US and PEERS_RATE) with cryptodev.ko in the same boot.
# Host side: test/peers/run.sh (adds the OpenSSL 3.5 tree and the engines),
# test/peers/suite.cmake (guest_peers), test/peers/bench.sh (table and plot).
#
# What is checked, per row and cipher: every speed run printed its figure and
# nothing on stderr but the engine's "set" line; the row's output for one
# fixed input (64 KiB + 5 bytes, fixed key and IV) equals software's, and it
# decrypts software's ciphertext to the input; an engine row loaded its
# engine, and the simulated driver's request counter moved at every size (the
# engine did the work); the devcrypto engine says the session's driver is the
# simulated engine's; a software row made no driver request; an eip93 row's
# gate bound the engine on its backend and the counter moved.  A row a cipher
# needs but cannot bind (e.g. afalg's CBC without cbc(aes-eip93)) fails the
# test, saying so.  No time is judged: the ratios and the issue's goal are
# printed.
#
# Environment (run.sh --env): PEERS_SECONDS (speed -seconds, default 1),
# PEERS_ROUNDS (default 1: each cell's figure is the median of its rounds),
# PEERS_SIZES (default "16 256 1024 4096 16384 65536"), PEERS_CIPHERS
# (default "aes-128-cbc aes-128-ctr"), PEERS_ROWS (a subset of the rows above,
# default all the guest has), PEERS_LATENCY_US and PEERS_RATE (default 34 and
# 66780000: docs/performance.md "The peers side by side"), PEERS_EIP93_LINES
# (extra lines for eip93's section, separated by ';').
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks

SECS=${PEERS_SECONDS:-1}
ROUNDS=${PEERS_ROUNDS:-1}
SIZES=${PEERS_SIZES:-16 256 1024 4096 16384 65536}
CIPHERS=${PEERS_CIPHERS:-aes-128-cbc aes-128-ctr}
LAT=${PEERS_LATENCY_US:-34}
RATE=${PEERS_RATE:-66780000}
B=/usr/bin/openssl
D=/usr/bin/openssl-35
K=000102030405060708090a0b0c0d0e0f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
P=/sys/module/eip93_sim/parameters
RAW=/tmp/peers.raw # a line per speed run: CIPHER ROW SIZE MB/S OPS ROUND
DAT=/tmp/peers.dat # a line per cell: CIPHER ROW SIZE MEDIAN-MB/S OPS-SUM
t0=$(date +%s)

say() { echo "peers: $*"; }
die() {
  say "FAILED: $*"
  exit 1
}

insmod /lib/eip93/eip93_sim.ko || die "cannot load the simulated driver"
insmod /lib/eip93/cryptodev.ko || die "cannot load cryptodev.ko"
[ -c /dev/crypto ] || die "no /dev/crypto"
[ -x $D ] || die "no OpenSSL 3.5 with the devcrypto engine ($D): test/peers/run.sh adds it"
say "guest kernel $(uname -r), clocksource" \
  "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)," \
  "CPU $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"

# enginesdir OPENSSL: where that libcrypto loads engines from.
enginesdir() { "$1" version -e | sed -n 's/^ENGINESDIR: "\(.*\)"$/\1/p'; }
bver=$($B version | cut -d' ' -f2)
dver=$($D version | cut -d' ' -f2)
bed=$(enginesdir $B)
ded=$(enginesdir $D)
say "build's openssl: $($B version) (engines in $bed)"
say "devcrypto's openssl: $($D version) (engines in $ded)"
[ -f "$ded/devcrypto.so" ] ||
  die "$ded/devcrypto.so missing: the OpenSSL 3.5 build has no devcrypto engine (scripts/openssl-build.sh found no cryptodev-linux header)"
[ -f "$bed/afalg.so" ] || die "$bed/afalg.so missing"

if [ "$bed" = "$ded" ]; then
  all_rows="sw_b afalg_b devcrypto_d eip93_afalg eip93_cdev"
else
  all_rows="sw_b afalg_b sw_d afalg_d devcrypto_d eip93_afalg eip93_cdev"
fi
ROWS=${PEERS_ROWS:-$all_rows}

# The configurations: software and engines with the default provider alone;
# eip93 on each backend (extra lines from PEERS_EIP93_LINES).
plain_cnf /tmp/plain.cnf
extra=$(printf '%s' "${PEERS_EIP93_LINES:-}" | tr ';' '\n')
eip93_cnf /tmp/eip93-afalg.cnf '' 'notice = no' 'engine-backend = afalg' "$extra"
eip93_cnf /tmp/eip93-cdev.cnf '' 'notice = no' 'engine-backend = cryptodev' "$extra"

# row ID: sets r_ossl, r_cnf, r_args, r_kind (sw | engine | eip93), r_engine,
# r_title for that row.
row() {
  r_engine='' r_args='' r_cnf=/tmp/plain.cnf
  case "$1" in
  sw_b) r_ossl=$B r_kind=sw r_title="software, OpenSSL $bver" ;;
  afalg_b) r_ossl=$B r_kind=engine r_engine=afalg r_title="afalg engine, OpenSSL $bver" ;;
  sw_d) r_ossl=$D r_kind=sw r_title="software, OpenSSL $dver" ;;
  afalg_d) r_ossl=$D r_kind=engine r_engine=afalg r_title="afalg engine, OpenSSL $dver" ;;
  devcrypto_d) r_ossl=$D r_kind=engine r_engine=devcrypto r_title="devcrypto engine, OpenSSL $dver" ;;
  eip93_afalg) r_ossl=$B r_kind=eip93 r_cnf=/tmp/eip93-afalg.cnf r_title="eip93 over AF_ALG, OpenSSL $bver" ;;
  eip93_cdev) r_ossl=$B r_kind=eip93 r_cnf=/tmp/eip93-cdev.cnf r_title="eip93 over /dev/crypto, OpenSSL $bver" ;;
  *) die "unknown row '$1'" ;;
  esac
  [ -n "$r_engine" ] && r_args="-engine $r_engine"
  [ "$r_kind" = eip93 ] && r_args="-propquery provider=eip93"
  return 0
}

# offers ID CIPHER: the row offers that cipher at all (the afalg engine: CBC
# only, engines/e_afalg.c's list).
offers() {
  case "$1:$2" in
  afalg_*:*-cbc) return 0 ;;
  afalg_*:*) return 1 ;;
  esac
  return 0
}

# clean_stderr FILE: nothing in FILE but the engine's "set" line and speed's
# -mr lines (+DT, +R: what it runs and how many times).
clean_stderr() {
  ! grep -vE '^(Engine "[a-z]*" set\.|\+DT:.*|\+R:.*)$' "$1" | grep -q .
}

# The kernel's side: which driver serves each name an engine asks for (the
# highest priority registered; cbc(aes-generic) appears only once used).
for n in 'cbc(aes)' 'ctr(aes)'; do
  drv=$(awk -v n="$n" '$1=="name" {nm=$3} $1=="driver" {d=$3}
    $1=="priority" && nm==n && $3+0 > best {best=$3+0; bd=d}
    END {if (bd != "") print bd " (priority " best ")"}' /proc/crypto)
  say "kernel $n: ${drv:-none registered yet}"
done

# Every cipher measured needs the simulated engine's own algorithm for its
# mode (the engines ask the kernel for "cbc(aes)" / "ctr(aes)" and take the
# highest priority; eip93 offers a mode only where its driver binds).
for c in $CIPHERS; do
  m=$(echo "$c" | sed 's/^aes-[0-9]*-//')
  grep -q "^driver *: $m(aes-eip93)\$" /proc/crypto ||
    die "the simulated driver registers no $m(aes-eip93): $c cannot reach it (test/kmod)"
done

# The provider's gate on each backend, before the timing model is set (the
# gate's probe and self-test requests do not matter, but keep them out of
# the model's sum).
for be in afalg cdev; do
  case " $ROWS " in *" eip93_$be "*) ;; *) continue ;; esac
  st=$(OPENSSL_CONF=/tmp/eip93-$be.cnf $B list -providers -verbose 2>&1 | sed -n 's/^ *name: eip93 //p')
  say "eip93 over $be: $st"
  case "$be:$st" in
  afalg:*"(enabled: "*) case "$st" in *"via /dev/crypto"*) die "eip93_afalg bound /dev/crypto: $st" ;; esac ;;
  cdev:*"(enabled: "*"via /dev/crypto"*) ;;
  *) die "eip93 over $be: the gate did not bind the engine: $st" ;;
  esac
done

# The devcrypto engine's own view of each cipher's session (DUMP_INFO).
if case " $ROWS " in *" devcrypto_d "*) true ;; *) false ;; esac; then
  OPENSSL_CONF=/tmp/plain.cnf $D engine -pre DUMP_INFO devcrypto >/tmp/dump.out 2>&1
  for c in $CIPHERS; do
    line=$(grep -i "^Cipher $c," /tmp/dump.out)
    say "devcrypto engine: ${line:-no line for $c}"
    want="driver=$(echo "$c" | sed 's/^aes-[0-9]*-\(.*\)$/\1/')(aes-eip93) (hw accelerated)"
    case "$line" in
    *"$want"*) ;;
    *) die "the devcrypto engine does not serve $c with the simulated engine (want '$want')" ;;
    esac
  done
fi

# A first `openssl speed` of a boot can measure nothing (0 runs in 0 s):
# one warm-up run, not counted.
OPENSSL_CONF=/tmp/plain.cnf $B speed -elapsed -mr -seconds 1 -bytes 16 -evp aes-128-ctr >/dev/null 2>/tmp/warm.err
say "warm-up: $(grep '^+R' /tmp/warm.err); $(dmesg | grep -i clocksource | tail -n 3 | tr '\n' ' ')"

# The timing model (docs/performance.md "The peers side by side").
echo "$LAT" >$P/latency_us
echo "$RATE" >$P/rate
say "timing model: latency_us=$(cat $P/latency_us) rate=$(cat $P/rate) B/s" \
  "(per request: latency_us + bytes / rate)"

# One fixed input: 64 KiB + 5 bytes (a partial last block), from software.
head -c 65541 /dev/zero |
  OPENSSL_CONF=/tmp/plain.cnf $B enc -aes-128-ctr -K "$K" -iv "$IV" -out /tmp/in ||
  die "cannot make the input"

# check ID CIPHER: the row's output for the fixed input equals software's
# (/tmp/ref.CIPHER), and it decrypts software's ciphertext to the input.
check() {
  row "$1"
  # shellcheck disable=SC2086 # r_args is a list of options
  OPENSSL_CONF=$r_cnf $r_ossl enc $r_args -e -"$2" -K "$K" -iv "$IV" -in /tmp/in -out /tmp/out.e \
    2>/tmp/enc.err || die "$1 $2: openssl enc failed: $(cat /tmp/enc.err)"
  # shellcheck disable=SC2086
  OPENSSL_CONF=$r_cnf $r_ossl enc $r_args -d -"$2" -K "$K" -iv "$IV" -in "/tmp/ref.$2" -out /tmp/out.d \
    2>>/tmp/enc.err || die "$1 $2: openssl enc -d failed: $(cat /tmp/enc.err)"
  clean_stderr /tmp/enc.err || die "$1 $2: openssl enc said: $(cat /tmp/enc.err)"
  cmp -s /tmp/out.e "/tmp/ref.$2" || die "$1 $2: the ciphertext differs from software's"
  cmp -s /tmp/out.d /tmp/in || die "$1 $2: software's ciphertext does not decrypt to the input"
}

# speed ID CIPHER SIZE: one `openssl speed` run; appends "CIPHER ID SIZE MB/s OPS"
# to $RAW.
speed() {
  row "$1"
  o=$(ops)
  # shellcheck disable=SC2086 # r_args is a list of options
  # (The options first: speed fetches the -evp cipher as it parses it, with
  # the -propquery given so far.)
  OPENSSL_CONF=$r_cnf $r_ossl speed $r_args -elapsed -mr -seconds "$SECS" -bytes "$3" -evp "$2" \
    >/tmp/speed.out 2>/tmp/speed.err
  rc=$?
  d=$(($(ops) - o))
  [ $rc -eq 0 ] || die "$1 $2 $3 B: openssl speed exited with $rc: $(cat /tmp/speed.err)"
  clean_stderr /tmp/speed.err || die "$1 $2 $3 B: openssl speed said: $(cat /tmp/speed.err)"
  if [ -n "$r_engine" ]; then
    grep -qxF "Engine \"$r_engine\" set." /tmp/speed.err || die "$1: the $r_engine engine was not set"
  fi
  bps=$(sed -n 's/^+F:[0-9]*:[^:]*:\([0-9.]*\)$/\1/p' /tmp/speed.out)
  # +R:COUNT:NAME:SECONDS, on stderr
  runs=$(sed -n 's/^+R:\([0-9]*\):[^:]*:\([0-9.]*\)$/\1 in \2 s/p' /tmp/speed.err)
  mbs=$(awk -v b="$bps" 'BEGIN { printf "%.3f", b / 1e6 }')
  awk -v m="$mbs" 'BEGIN { exit !(m > 0) }' ||
    die "$1 $2 $3 B: no figure ($runs): $(cat /tmp/speed.out /tmp/speed.err)"
  echo "$2 $1 $3 $mbs $d $round" >>$RAW
  say "$2 $1 $3 B: $mbs MB/s ($runs), driver ops +$d"
}

: >$RAW
for c in $CIPHERS; do
  OPENSSL_CONF=/tmp/plain.cnf $B enc -e -"$c" -K "$K" -iv "$IV" -in /tmp/in -out "/tmp/ref.$c" ||
    die "software $c failed"
  for r in $ROWS; do
    offers "$r" "$c" || continue
    row "$r"
    o=$(ops)
    check "$r" "$c"
    say "$c $r: output equal to software's (enc and dec), driver ops +$(($(ops) - o))"
  done
  # Size-major: every row at one size before the next size, so that the
  # host's load drifts over all rows alike; rounds outermost.
  round=0
  while [ $round -lt "$ROUNDS" ]; do
    round=$((round + 1))
    for s in $SIZES; do
      for r in $ROWS; do
        offers "$r" "$c" && speed "$r" "$c" "$s"
      done
    done
  done
done
# Each cell: the median of its rounds (the lower middle of an even number), ops summed.
sort -k1,1 -k2,2 -k3,3n -k4,4n $RAW | awk '
  function flush() { if (n) printf "%s %s\n", key, v[int((n + 1) / 2)] " " ops }
  { k = $1 " " $2 " " $3 }
  k != key { flush(); key = k; n = 0; ops = 0 }
  { v[++n] = $4; ops += $5 }
  END { flush() }' >$DAT
say "timing model's busy time: $(cat $P/busy_us) us over $(cat $P/ops) requests since loading"

# The outcomes: ops per row (kind decides what must hold), then the tables.
for c in $CIPHERS; do
  for r in $ROWS; do
    offers "$r" "$c" || continue
    row "$r"
    tot=$(awk -v c="$c" -v r="$r" '$1==c && $2==r {t += $5} END {print t + 0}' $DAT)
    zero=$(awk -v c="$c" -v r="$r" '$1==c && $2==r && $5==0 {printf "%s ", $3}' $DAT)
    case "$r_kind" in
    sw) want=$([ "$tot" -eq 0 ] && echo y) ;;
    engine) want=$([ -z "$zero" ] && echo y) ;;
    eip93) want=$([ "$tot" -gt 0 ] && echo y) ;;
    esac
    case "$r_kind:$want" in
    sw:y) ok "$c $r: software, no driver request" ;;
    sw:) bad "$c $r: software made $tot driver requests" ;;
    engine:y) ok "$c $r: the driver served every size (ops +$tot)" ;;
    engine:) bad "$c $r: no driver request at ${zero}B: the engine did not reach the simulated driver" ;;
    eip93:y) ok "$c $r: the driver served eip93 (ops +$tot; none at: ${zero:-no size})" ;;
    eip93:) bad "$c $r: eip93 made no driver request" ;;
    esac
  done
done

# The table (MB/s, 10^6 bytes per second) and the ratios eip93 / peer.
for c in $CIPHERS; do
  echo
  echo "peers table $c: MB/s (openssl speed -elapsed -seconds $SECS, median of $ROUNDS), QEMU TCG guest, simulated EIP93 (latency_us=$LAT, rate=$RATE)"
  printf '| row |'
  for s in $SIZES; do printf ' %s |' "$(awk -v s="$s" 'BEGIN { if (s >= 1024) printf "%d KiB", s / 1024; else printf "%d B", s }')"; done
  echo
  printf '|---|'
  for s in $SIZES; do printf -- '---|'; done
  echo
  for r in $ROWS; do
    offers "$r" "$c" || continue
    row "$r"
    printf '| %s |' "$r_title"
    for s in $SIZES; do
      printf ' %s |' "$(awk -v c="$c" -v r="$r" -v s="$s" '$1==c && $2==r && $3==s {print $4}' $DAT)"
    done
    echo
  done
  printf '| (the timing model alone: one request, no system call) |'
  for s in $SIZES; do
    printf ' %s |' "$(awk -v s="$s" -v l="$LAT" -v r="$RATE" 'BEGIN { printf "%.3f", s / (l + s * 1e6 / r) }')"
  done
  echo
  # How much of an engine request's time the timing model accounts for (the
  # rest: the system call, the copies and the simulated driver's arithmetic
  # under TCG, where that takes longer than the model).
  for r in $ROWS; do
    row "$r"
    [ "$r_kind" = engine ] || continue
    offers "$r" "$c" || continue
    awk -v c="$c" -v r="$r" -v l="$LAT" -v q="$RATE" -v sizes="$SIZES" '
      $1==c && $2==r {v[$3]=$4}
      END {
        n = split(sizes, S, " "); line = ""
        for (i = 1; i <= n; i++)
          line = line sprintf(" %.2f", (v[S[i]] > 0) ? (l + S[i] * 1e6 / q) / (S[i] / v[S[i]]) : 0)
        printf "peers model share %s %s:%s (modelled time / measured time per request)\n", c, r, line
      }' $DAT
  done
  for e in eip93_afalg eip93_cdev; do
    case " $ROWS " in *" $e "*) ;; *) continue ;; esac
    for r in $ROWS; do
      case "$r" in eip93_*) continue ;; esac
      offers "$r" "$c" || continue
      # Per size: the median over the rounds of each round's ratio (the two
      # runs of a round are next to each other in time, so the host's load
      # drifts over both alike).
      awk -v c="$c" -v e="$e" -v r="$r" -v sizes="$SIZES" -v rounds="$ROUNDS" '
        $1==c && $2==e {v[$3, $6]=$4} $1==c && $2==r {w[$3, $6]=$4}
        END {
          n = split(sizes, S, " "); line = ""; goal = "met"
          for (i = 1; i <= n; i++) {
            m = 0
            for (k = 1; k <= rounds; k++)
              if (w[S[i], k] > 0) {
                q = v[S[i], k] / w[S[i], k]
                for (j = m; j > 0 && x[j] > q; j--) x[j + 1] = x[j]
                x[j + 1] = q; m++
              }
            q = m ? x[int((m + 1) / 2)] : 0
            line = line sprintf(" %.2f", q)
            if (q < 1 && (r ~ /^sw_/ || S[i] >= 4096)) goal = "not met"
          }
          printf "peers ratio %s %s / %s:%s (goal eip93 >= %s %s: %s)\n", c, e, r, line,
            r, (r ~ /^sw_/) ? "at every size" : "at every size >= 4 KiB", goal
        }' $RAW
    done
  done
done
echo
for r in $ROWS; do
  row "$r"
  echo "peers row $r $r_title"
done
echo "peers model $LAT $RATE"
sed 's/^/peers data /' $DAT
sed 's/^/peers raw /' $RAW
say "$pass checks passed, $fail failed, $(($(date +%s) - t0)) s"
[ "$fail" -eq 0 ] || exit 1
[ "$pass" -gt 0 ] || exit 1
exit 0
