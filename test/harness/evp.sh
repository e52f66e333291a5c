#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: OpenSSL's own evp_test over its AES-GCM cipher cases
# (evpciph_aes_common.txt) and GMAC cases (evpmac_common.txt), with the gate
# open (hooks + simulated driver) and the provider forced.  Ciphers: the
# config evp_test loads says default_properties = provider=eip93.  GMAC: the
# MAC itself exists only in the default provider, so that config says
# ?provider=eip93 and every GMAC stanza over AES-GCM gains
# "Ctrl = properties:provider=eip93", the GMAC parameter that selects its
# cipher (3.5 adds a stanza with AES-256-CBC, which GMAC must refuse as
# "invalid mode": it keeps the default provider's CBC).  Negative controls: with
# EIP93_PROVIDER=off every cipher case is skipped (nothing else can serve
# provider=eip93) and the GMAC cases fail.
set -u
# shellcheck source=test/harness/common.sh
. /opt/eip93/harness/common.sh
E=/opt/eip93/evp

check_openssl /usr/bin/evp_test
load_driver
eip93_cnf /tmp/force.cnf 'provider=eip93'
eip93_cnf /tmp/prefer.cnf '?provider=eip93'

# extract MODE IN OUT: keep the stanzas of AES-GCM ciphers (MODE cipher) or
# GMAC (MODE mac, adding the properties control); prints how many.
extract() {
  awk -v mode="$1" -v out="$3" '
    function flush() {
      if (keep) {
        printf "%s", buf > out
        if (mode == "mac" && gcm) printf "Ctrl = properties:provider=eip93\n" > out
        printf "\n" > out
        n++
      }
      buf = ""; keep = 0; gcm = 0
    }
    /^[ \t\r]*$/ { flush(); next }
    /^#/ { next }
    {
      buf = buf $0 "\n"
      l = tolower($0)
      if (mode == "cipher" && l ~ /^cipher *= *aes-(128|192|256)-gcm *$/) keep = 1
      if (mode == "mac" && l ~ /^mac *= *gmac *$/) keep = 1
      if (l ~ /^algorithm *= *aes-(128|192|256)-gcm *$/) gcm = 1
    }
    END { flush(); print n + 0 }' "$2"
}

nc=$(extract cipher $E/evpciph_aes_common.txt /tmp/gcm.txt)
nm=$(extract mac $E/evpmac_common.txt /tmp/gmac.txt)
ng=$(grep -c '^Ctrl = properties:provider=eip93$' /tmp/gmac.txt)
echo "# extracted $nc AES-GCM cipher stanzas, $nm GMAC stanzas ($ng over AES-GCM, forced through eip93)"
[ "$nc" -gt 0 ] && [ "$nm" -gt 0 ] || bad "nothing extracted"

evp_run "evp_test AES-GCM (evpciph_aes_common.txt), provider=eip93" /tmp/force.cnf /tmp/gcm.txt "$nc"
evp_run "evp_test GMAC (evpmac_common.txt), cipher properties provider=eip93" /tmp/prefer.cnf /tmp/gmac.txt "$nm"

echo "# negative controls: EIP93_PROVIDER=off"
out=$(EIP93_PROVIDER=off evp_test -config /tmp/force.cnf /tmp/gcm.txt 2>&1)
s=$(evp_summary "$out")
set -- $s
if [ $# -eq 3 ] && [ "$1" -eq "$nc" ] && [ $(($2 + $3)) -eq "$nc" ]; then
  ok "provider off: none of the $nc cipher cases passes ($2 errors, $3 skipped): only eip93 serves them"
else
  bad "provider off: cipher summary '$s', expected none of $nc passing"
fi
if EIP93_PROVIDER=off evp_test -config /tmp/prefer.cnf /tmp/gmac.txt >/dev/null 2>&1; then
  bad "provider off: GMAC cases passed (so eip93 was not what served them)"
else
  ok "provider off: GMAC cases fail (their cipher can only come from eip93)"
fi

echo "harness evp (OpenSSL $EIP93_OPENSSL_SERIES): $pass passed, $fail failed; cases: $nc AES-GCM + $nm GMAC ($ng over AES-GCM)"
[ "$fail" -eq 0 ]
