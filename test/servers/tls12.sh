#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# TLS 1.2 AES-CBC records through eip93 as real libssl drives them: Debian's
# OpenSSL 3.0 and the OpenSSL 3.5 of scripts/openssl-build.sh, with and
# without encrypt-then-MAC, both directions, TLS_MIB (default 8) MiB each
# way, the SHA-256 of what arrives equal to what was sent.
#  0. first (tls12-lib.sh, cbc_offered): eip93 alone encrypts AES-128-CBC on
#     the engine under both versions, or the script stops there (failed).
#  1. openssl s_server / s_client (tls12-lib.sh): eip93 on the server with
#     an ordinary client of the other version, eip93 on the client with an
#     ordinary server, eip93 on both, and an ordinary pair as the control.
#  2. nginx (conf/nginx.conf with CBC suites, Debian's libssl 3.0, and the
#     same nginx on OpenSSL 3.5's libraries) serving a file to curl and
#     receiving one (PUT), with an ordinary and an optimized curl.
# Each eip93 side's own counters (eip93-counters.so, preloaded, written at
# exit) must show engine messages for the bulk of its records and no engine
# error, fault or failed key check; the simulated driver's counter must rise
# by at least the engine messages of the transfer, and not at all for the
# ordinary pair.  An ordinary side is the same program with
# EIP93_PROVIDER=off.  Every transfer prints a TLS12-ROW line:
#   TLS12-ROW|peer|server|client|suite|etm|direction|bytes|sha256|ops|server msgs|client msgs|seconds
set -eu
# shellcheck source=test/servers/lib.sh
. /opt/servers/lib.sh
# shellcheck source=test/servers/tls12-lib.sh
. /opt/servers/tls12-lib.sh

servers_setup
tls12_setup

# ---- 1. s_server / s_client -------------------------------------------------
# Suites: AES-128-CBC with HMAC-SHA256 (ECDHE, RSA certificate), AES-256-CBC
# with HMAC-SHA256 (RSA key exchange), AES-128-CBC with HMAC-SHA1 (ECDHE,
# ECDSA certificate).  EtM: "on" (the default), "off" (-no_etm on the side
# named by the row).
SUITES="ECDHE-RSA-AES128-SHA256 AES256-SHA256 ECDHE-ECDSA-AES128-SHA"
echo "== openssl s_server / s_client, $TLS_MIB MiB each way"
for v in 3.0 3.5; do
  w=$(other "$v")
  for s in $SUITES; do
    for etm in on off; do
      # eip93 on the server; the ordinary client (the other version) refuses EtM for "off".
      srow "$v" opt "$w" ord "$s" "$etm" client download
      srow "$v" opt "$w" ord "$s" "$etm" client upload
    done
  done
  # eip93 on the client, which refuses EtM itself for "off"; one suite per EtM.
  srow "$w" ord "$v" opt ECDHE-RSA-AES128-SHA256 on client download
  srow "$w" ord "$v" opt ECDHE-RSA-AES128-SHA256 on client upload
  srow "$w" ord "$v" opt AES256-SHA256 off client download
  srow "$w" ord "$v" opt AES256-SHA256 off client upload
  # eip93 on both (same version), the server refusing EtM for "off".
  srow "$v" opt "$v" opt ECDHE-ECDSA-AES128-SHA on server download
  srow "$v" opt "$v" opt ECDHE-ECDSA-AES128-SHA on server upload
  srow "$v" opt "$v" opt ECDHE-RSA-AES128-SHA256 off server download
  srow "$v" opt "$v" opt ECDHE-RSA-AES128-SHA256 off server upload
done
# The control: no eip93 side, the driver's counter stays where it was.
srow 3.0 ord 3.5 ord ECDHE-RSA-AES128-SHA256 on client upload

# ---- 2. nginx and curl ------------------------------------------------------
echo "== nginx and curl, $TLS_MIB MiB each way"
for v in 3.0 3.5; do
  for etm in on off; do
    nrow "$v" "$etm" ord ECDHE-RSA-AES128-SHA256 download
    nrow "$v" "$etm" ord ECDHE-RSA-AES128-SHA256 upload
  done
done
for etm in on off; do
  nrow 3.0 "$etm" opt ECDHE-RSA-AES256-SHA384 download
  nrow 3.0 "$etm" opt ECDHE-RSA-AES256-SHA384 upload
done

tls12_summary
exit $status
