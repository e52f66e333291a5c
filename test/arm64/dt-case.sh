#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# arm64 guest, one device tree (run.sh --compatible), everything else as on
# an AN7581 (CPU without AES via eip93_nohwcap, simulated driver loaded):
# EXPECT=enabled (EN7581), an7583 (AN7583/EN7583 excluded) or other (not
# an Airoha board).
set -u
. /opt/eip93/lib.sh
printf '   compatible: %s\n' "$(tr '\0' ' ' </proc/device-tree/compatible)"
insmod /lib/eip93/eip93_nohwcap.ko || bad "insmod eip93_nohwcap.ko"
insmod /lib/eip93/eip93_sim.ko || bad "insmod eip93_sim.ko"
[ "$(hwcap_aes)" = 0 ] && ok "AT_HWCAP without AES" || bad "AT_HWCAP still has AES"
case "${EXPECT:-}" in
enabled)
  gate "EN7581: offers AES-GCM" enabled "enabled: $C"
  doctor "EN7581" 0 "AN7581/EN7581: yes" "verdict: enabled: $C"
  before=$(ops)
  eip93-offload-check 8192 && ok "key check + 8 KiB messages" || bad "offload check"
  delta=$(( $(ops) - before ))
  [ "$delta" -gt 0 ] && ok "driver ops +$delta" || bad "driver ops did not rise"
  ;;
an7583)
  gate "AN7583: offers nothing" disabled "AN7583/EN7583 stays on the default provider"
  doctor "AN7583" 1 "AN7583/EN7583: excluded" "until the offload is measured"
  ;;
other)
  gate "not an Airoha board: offers nothing" disabled "device tree: not an AN7581/EN7581"
  doctor "not Airoha" 1 "not an AN7581/EN7581" "linux,dummy-virt"
  ;;
*)
  bad "EXPECT='${EXPECT:-}' (enabled, an7583 or other)"
  ;;
esac
finish "arm64 device tree case ($EXPECT)"
