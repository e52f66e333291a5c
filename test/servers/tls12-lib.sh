# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# What tls12.sh runs (busybox sh, sourced after lib.sh): the two OpenSSL
# versions, the transfers and their checks.
#   /opt/ossl30/openssl   Debian's openssl (libssl 3.0, the guest's system library)
#   /opt/ossl35/openssl   scripts/openssl-build.sh 3.5's (its libraries at their
#                         build path, through its RUNPATH)
#   /opt/ossl35/lib       those libraries again, for nginx and curl (LD_LIBRARY_PATH)
#   /usr/lib/eip93-counters.so   the provider's counters at exit (lib.sh SHIM)

# shellcheck disable=SC2154 # MiB, status, S, CRT, SHIM: lib.sh's
O30=/opt/ossl30/openssl
O35=/opt/ossl35/openssl
L35=/opt/ossl35/lib
CNT=/tmp/cnt
KEY=/etc/ssl/eip93/server.key
TLS_MIB=${TLS_MIB:-8}
SIZE=$((TLS_MIB * MiB))
# Engine messages one eip93 side must show for SIZE bytes: at least 90% of
# the records it needs at the very least (16 KiB each), at most one per
# record of 4 KiB and a little slack.
LO=$((SIZE * 9 / 10 / 16384))
HI=$((SIZE / 4096 + 16))
port=4430 rows=0

# bin VERSION: that version's openssl command.
bin() { if [ "$1" = 3.5 ]; then echo $O35; else echo $O30; fi; }
# other VERSION: the other one.
other() { if [ "$1" = 3.5 ]; then echo 3.0; else echo 3.5; fi; }
# sw opt|ord: EIP93_PROVIDER's value for that side.
sw() { if [ "$1" = opt ]; then echo on; else echo off; fi; }

# iana SUITE: the IANA name the trace prints for an OpenSSL suite name.
iana() {
  case "$1" in
  ECDHE-RSA-AES128-SHA256) echo TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256 ;;
  ECDHE-RSA-AES256-SHA384) echo TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384 ;;
  AES256-SHA256) echo TLS_RSA_WITH_AES_256_CBC_SHA256 ;;
  ECDHE-ECDSA-AES128-SHA) echo TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA ;;
  *) echo "unknown-suite-$1" ;;
  esac
}

# version_is WHAT SERIES TEXT: TEXT ("openssl version" or "nginx -V") names SERIES.
version_is() {
  case "$3" in
  *"$2".*) echo "   $1: $(echo "$3" | grep -i 'openssl' | head -n 1)" ;;
  *) fail "$1 is not OpenSSL $2: $3" ;;
  esac
}

tls12_setup() {
  eip93_cnf /etc/ssl/openssl-tls12.cnf '?provider=eip93,?eip93.offload=yes' \
    'min-size = 4096' 'max-size = 32768'
  export OPENSSL_CONF=/etc/ssl/openssl-tls12.cnf
  echo "== the peers (max-size 32768 holds a 16 KiB record with its MAC, padding and IV)"
  version_is "Debian's openssl" "Library: OpenSSL 3.0" "$($O30 version)"
  version_is "openssl 3.5" "Library: OpenSSL 3.5" "$($O35 version)"
  version_is "Debian's openssl on $L35" "Library: OpenSSL 3.5" "$(LD_LIBRARY_PATH=$L35 $O30 version)"
  version_is "nginx on $L35" "running with OpenSSL 3.5" "$(LD_LIBRARY_PATH=$L35 nginx -V 2>&1)"
  # No AES-NI in the guest's CPU (qemu64), as on the AN7581: libssl cannot
  # take the default provider's stitched AES-CBC-HMAC ciphers instead.
  if grep -qw aes /proc/cpuinfo; then
    fail "the guest CPU has AES-NI: libssl may use the stitched AES-CBC-HMAC ciphers"
  fi
  cbc_offered
  test_cert # /tmp/cert.pem, /tmp/key.pem: P-256, for the ECDSA suite
  mkdir -p /srv/tls12
  head -c "$SIZE" /dev/urandom >/srv/tls12/down
  cp /srv/tls12/down /srv/www/down
  DOWN_SHA=$(sha256sum </srv/tls12/down | cut -d' ' -f1)
  head -c "$SIZE" /dev/urandom >/tmp/up
  UP_SHA=$(sha256sum </tmp/up | cut -d' ' -f1)
  # A standard input that never ends and never says anything (s_server sends what it reads).
  mkfifo /tmp/hold
  exec 7<>/tmp/hold
}

# cbc_offered: eip93 alone (default_properties = provider=eip93: no other
# provider may answer) encrypts one 64 KiB AES-128-CBC message under each
# version, on the engine, equal to the default provider's output.  Without
# that every transfer would fail the same way: the script stops here.
cbc_offered() {
  eip93_cnf /etc/ssl/eip93-only.cnf 'provider=eip93'
  plain_cnf /etc/ssl/default-only.cnf
  head -c 65536 /dev/urandom >/tmp/cbc.in
  set -- -aes-128-cbc -K 000102030405060708090a0b0c0d0e0f -iv 0f0e0d0c0b0a09080706050403020100 \
    -in /tmp/cbc.in
  OPENSSL_CONF=/etc/ssl/default-only.cnf $O30 enc "$@" -out /tmp/cbc.want
  missing=0
  for o in $O30 $O35; do
    rm -rf $CNT /tmp/cbc.out
    mkdir -p $CNT/c
    OPENSSL_CONF=/etc/ssl/eip93-only.cnf EIP93_COUNTERS_DIR=$CNT/c LD_PRELOAD=$SHIM \
      $o enc "$@" -out /tmp/cbc.out 2>/tmp/enc.err || true
    m=$(counter $CNT/c engine-messages)
    if cmp -s /tmp/cbc.out /tmp/cbc.want && [ "$m" != none ] && [ "$m" -gt 0 ]; then
      echo "   $o enc -aes-128-cbc: eip93 alone, $m engine messages, the default provider's bytes"
    else
      fail "$o enc -aes-128-cbc with eip93 alone: not the default provider's bytes or no engine message ($m)"
      head -n 3 /tmp/enc.err
      missing=1
    fi
  done
  if [ $missing -ne 0 ]; then
    echo "eip93 does not offer AES-CBC on the engine here; every transfer would fail alike: stopping"
    exit 1
  fi
}

# side_ok WHAT opt|ord DIR: the counters of one side.
side_ok() {
  m=$(counter "$3" engine-messages)
  if [ "$m" = none ]; then
    fail "$1: no counters written (the process did not exit normally)"
    return 0
  fi
  if [ "$2" = opt ]; then
    [ "$m" -ge $LO ] || fail "$1: $m engine messages, expected at least $LO"
    [ "$m" -le $HI ] || fail "$1: $m engine messages, more than $HI"
    for k in engine-errors engine-faults key-checks-failed; do
      [ "$(counter "$3" $k)" -eq 0 ] || fail "$1: $k $(counter "$3" $k)"
    done
  else
    [ "$m" -eq 0 ] || fail "$1: ordinary side, yet $m engine messages"
  fi
}

# trace_ok WHAT TRACE SUITE ETM: the ServerHello the client saw (s_client
# -trace): TLS 1.2, SUITE, and the encrypt_then_mac extension exactly when
# ETM is "on".
trace_ok() {
  awk '/ServerHello, Length/ { s = 1; next } s && /^$/ { exit } s' "$2" >/tmp/hello
  grep -q 'server_version=0x303' /tmp/hello || fail "$1: no TLS 1.2 ServerHello in the trace"
  grep -q "cipher_suite .* $(iana "$3")\$" /tmp/hello ||
    fail "$1: negotiated $(sed -n 's/.*cipher_suite //p' /tmp/hello), expected $(iana "$3")"
  if grep -q 'encrypt_then_mac' /tmp/hello; then got=on; else got=off; fi
  [ "$got" = "$4" ] || fail "$1: encrypt-then-MAC $got, expected $4"
}

# sums_ok WHAT OPS_DELTA SERVER CLIENT MSGS...: the driver moved by at least
# the engine messages of both sides, and not at all without an eip93 side.
ops_ok() {
  if [ "$3" = opt ] || [ "$4" = opt ]; then
    [ "$2" -ge $(($5 + $6)) ] || fail "$1: driver ops +$2, fewer than the engine messages ($5 + $6)"
    [ "$2" -gt 0 ] || fail "$1: the driver's counter did not move"
  else
    [ "$2" -eq 0 ] || fail "$1: no eip93 side, yet driver ops +$2"
  fi
}

# arrived WHAT FILE SHA [HEADER]: FILE holds SIZE bytes with that SHA-256
# (after an HTTP/1.0 200 header when HEADER is set); sets match and got_bytes.
arrived() {
  total=$(wc -c <"$2")
  got_bytes=$total
  if [ $# -gt 3 ]; then
    hdr=$((total - SIZE))
    if [ $hdr -le 0 ] || ! head -c $hdr "$2" | head -n 1 | grep -q '^HTTP/1.0 200 ok'; then
      fail "$1: no HTTP/1.0 200 header before the file"
    fi
    got_bytes=$((total - (hdr > 0 ? hdr : 0)))
  fi
  if [ "$got_bytes" -eq "$SIZE" ] && [ "$(tail -c "$SIZE" "$2" | sha256sum | cut -d' ' -f1)" = "$3" ]; then
    match=match
  else
    match=MISMATCH
    fail "$1: $got_bytes bytes arrived, expected $SIZE with SHA-256 $3"
  fi
}

# row PEER SERVER CLIENT SUITE ETM DIR SECS: one TLS12-ROW line.
row() {
  rows=$((rows + 1))
  echo "TLS12-ROW|$1|$2|$3|$4|$5|$6|$got_bytes|$match|$delta|$(counter $CNT/s engine-messages)|$(counter $CNT/c engine-messages)|$7"
}

# srow SV SE CV CE SUITE ETM NOETM_SIDE DIR: openssl s_server (version SV,
# eip93 SE: opt|ord) and s_client (CV, CE), SUITE over TLS 1.2, EtM on, or
# off by -no_etm on NOETM_SIDE (server|client); DIR download (s_server -WWW
# sends /srv/tls12/down) or upload (s_client sends /tmp/up).
srow() {
  sv=$1 se=$2 cv=$3 ce=$4 suite=$5 etm=$6 side=$7 dir=$8
  port=$((port + 1))
  sflags='' cflags=''
  if [ "$etm" = off ] && [ "$side" = server ]; then sflags=-no_etm; fi
  if [ "$etm" = off ] && [ "$side" = client ]; then cflags=-no_etm; fi
  what="s_server $sv/$se s_client $cv/$ce $suite EtM $etm${sflags:+ (server -no_etm)}${cflags:+ (client -no_etm)} $dir"
  rm -rf $CNT /tmp/s.out /tmp/c.out /tmp/trace
  mkdir -p $CNT/s $CNT/c
  www=''
  [ "$dir" = download ] && www=-WWW
  # shellcheck disable=SC2086 # the flags are words or nothing
  (cd /srv/tls12 && exec timeout 600 env EIP93_PROVIDER="$(sw "$se")" EIP93_COUNTERS_DIR=$CNT/s \
    LD_PRELOAD=$SHIM "$(bin "$sv")" s_server -accept $port -cert "$CRT" -key $KEY \
    -dcert /tmp/cert.pem -dkey /tmp/key.pem -naccept 1 -quiet -tls1_2 -cipher "$suite" $sflags $www) \
    <&7 >/tmp/s.out 2>/tmp/s.err &
  spid=$!
  wait_listen $port
  before=$(ops)
  t0=$(now_cs)
  crc=0
  set -- timeout 600 env EIP93_PROVIDER="$(sw "$ce")" EIP93_COUNTERS_DIR=$CNT/c LD_PRELOAD=$SHIM \
    "$(bin "$cv")" s_client -connect 127.0.0.1:$port -quiet -tls1_2 -cipher "$suite" \
    -trace -msgfile /tmp/trace
  if [ "$dir" = download ]; then
    # -quiet ignores the end of standard input: the client reads until the server closes.
    # shellcheck disable=SC2086
    printf 'GET /down HTTP/1.0\r\n\r\n' | "$@" $cflags >/tmp/c.out 2>/tmp/c.err || crc=$?
  else
    # shellcheck disable=SC2086
    "$@" $cflags -no_ign_eof -nocommands </tmp/up >/dev/null 2>/tmp/c.err || crc=$?
  fi
  src=0
  wait $spid || src=$?
  secs=$(secs_since "$t0")
  delta=$(($(ops) - before))
  if [ "$dir" = download ]; then
    arrived "$what" /tmp/c.out "$DOWN_SHA" header
  else
    arrived "$what" /tmp/s.out "$UP_SHA"
    [ $crc -eq 0 ] || fail "$what: s_client exit status $crc"
  fi
  [ $src -eq 0 ] || fail "$what: s_server exit status $src"
  if [ "$src" -ne 0 ] || [ "$crc" -ne 0 ] || [ "$match" != match ]; then
    tail -n 5 /tmp/s.err /tmp/c.err
  fi
  trace_ok "$what" /tmp/trace "$suite" "$etm"
  side_ok "$what: server" "$se" $CNT/s
  side_ok "$what: client" "$ce" $CNT/c
  ops_ok "$what" "$delta" "$se" "$ce" "$(counter $CNT/s engine-messages)" "$(counter $CNT/c engine-messages)"
  row s_server/s_client "$sv/$se" "$cv/$ce" "$suite" "$etm" "$dir" "$secs"
}

# nginx_cbc VERSION ETM SUITE PORT: conf/nginx.conf on PORT with TLS 1.2 and
# SUITE alone, EtM refused by the server (ssl_conf_command) when ETM is
# "off", started with eip93 on (and OpenSSL 3.5's libraries for VERSION
# 3.5); its processes' counters go to $CNT/s.
nginx_cbc() {
  awk -v port="$4" -v suite="$3" -v etm="$2" '
    /listen 443 ssl reuseport;/ { sub(/443/, port) }
    /ssl_protocols / { $0 = "        ssl_protocols TLSv1.2;" }
    /ssl_ciphers / { $0 = "        ssl_ciphers " suite ";" }
    { gsub(/\/run\/nginx\.pid/, "/run/nginx-tls12.pid"); gsub(/\/error\.log/, "/error-tls12.log"); print }
    /ssl_buffer_size 16k;/ && etm == "off" { print "        ssl_conf_command Options -EncryptThenMac;" }
  ' "$S/conf/nginx.conf" >/etc/nginx/tls12.conf
  if ! grep -q "listen $4 ssl" /etc/nginx/tls12.conf || ! grep -q "ssl_ciphers $3;" /etc/nginx/tls12.conf; then
    fail "nginx tls12.conf: the port or the suite was not set"
  fi
  mkdir -p $CNT/s
  chmod 1777 $CNT/s # the workers run as www-data
  if [ "$1" = 3.5 ]; then lib=$L35; else lib=''; fi
  env EIP93_PROVIDER=on EIP93_COUNTERS_DIR=$CNT/s LD_PRELOAD=$SHIM ${lib:+LD_LIBRARY_PATH=$lib} \
    nginx -c /etc/nginx/tls12.conf
  wait_port "$4"
}

# nginx_stop: graceful stop (the workers exit through exit(), writing their counters).
nginx_stop() {
  pid=$(cat /run/nginx-tls12.pid)
  kill -QUIT "$pid"
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  kill -0 "$pid" 2>/dev/null && fail "nginx $pid did not stop"
  return 0
}

# nrow VERSION ETM CE SUITE DIR: nginx (eip93 on, libssl VERSION) serving
# /srv/www/down to curl (libssl 3.0, eip93 CE: opt|ord), or receiving
# /tmp/up by PUT, SUITE over TLS 1.2 with EtM ETM; an s_client probe first
# shows the EtM nginx negotiates.
nrow() {
  v=$1 etm=$2 ce=$3 suite=$4 dir=$5
  port=$((port + 1))
  what="nginx $v/opt curl 3.0/$ce $suite EtM $etm $dir"
  rm -rf $CNT /tmp/trace /tmp/n.got /srv/www/upload/t
  mkdir -p $CNT/c
  nginx_cbc "$v" "$etm" "$suite" $port
  EIP93_PROVIDER=off timeout 120 $O30 s_client -connect 127.0.0.1:$port -quiet -no_ign_eof \
    -tls1_2 -cipher "$suite" -trace -msgfile /tmp/trace </dev/null >/dev/null 2>&1 || true
  trace_ok "$what (probe)" /tmp/trace "$suite" "$etm"
  # shellcheck disable=SC2046 # curl_tls's words
  set -- timeout 600 env EIP93_PROVIDER="$(sw "$ce")" EIP93_COUNTERS_DIR=$CNT/c LD_PRELOAD=$SHIM \
    curl -sS -v --fail --cacert "$CRT" $(curl_tls TLSv1.2 "$suite")
  before=$(ops)
  t0=$(now_cs)
  crc=0
  if [ "$dir" = download ]; then
    "$@" -o /tmp/n.got "https://localhost:$port/down" 2>/tmp/curl.err || crc=$?
    got=/tmp/n.got sha=$DOWN_SHA
  else
    "$@" -o /dev/null -T /tmp/up "https://localhost:$port/upload/t" 2>/tmp/curl.err || crc=$?
    got=/srv/www/upload/t sha=$UP_SHA
  fi
  secs=$(secs_since "$t0")
  delta=$(($(ops) - before))
  nginx_stop
  [ $crc -eq 0 ] || { fail "$what: curl exit status $crc"; grep -v '^[<>{}]' /tmp/curl.err | tail -n 5; }
  used=$(sed -n 's/^\* SSL connection using \([^ ]*\) \/ \([^ ]*\).*/\1 \2/p' /tmp/curl.err | head -n 1)
  [ "$used" = "TLSv1.2 $suite" ] || fail "$what: curl negotiated '$used'"
  touch "$got"
  arrived "$what" "$got" "$sha"
  side_ok "$what: nginx" opt $CNT/s
  side_ok "$what: curl" "$ce" $CNT/c
  ops_ok "$what" "$delta" opt "$ce" "$(counter $CNT/s engine-messages)" "$(counter $CNT/c engine-messages)"
  row nginx/curl "$v/opt" "3.0/$ce" "$suite" "$etm" "$dir" "$secs"
  rm -f /srv/www/upload/t
}

tls12_summary() {
  echo "== $rows transfers of $TLS_MIB MiB; status $status"
  [ $rows -gt 0 ] || fail "no transfer ran"
}
