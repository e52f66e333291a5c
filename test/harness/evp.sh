#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: OpenSSL's own evp_test over its stanzas of the ciphers eip93
# offers, with the gate open (hooks + simulated driver) and the provider
# forced:
#   AES-GCM   Cipher stanzas of evpciph_aes_common.txt; GMAC stanzas of
#             evpmac_common.txt
#   AES-CTR   Cipher stanzas of evpciph_aes_common.txt
#   AES-CBC   Cipher stanzas of evpciph_aes_common.txt and the plain AES-CBC
#             ones of evpciph_aes_cts.txt; CMAC over AES-CBC (evpmac_common.txt,
#             "MAC = CMAC": EVP_MAC) and KRB5KDF over AES-CBC (evpkdf_krb5.txt)
# AES-CTR and AES-CBC run where this tree's simulated driver registers the
# mode (has_skc, common.sh), and eip93 must offer them exactly there.
# Ciphers: forced to eip93 (force_cnf, common.sh: the config's
# default_properties, or evp_test's -propquery).  GMAC, CMAC, KRB5KDF: the MAC or KDF itself exists only in
# the default provider, so that config says ?provider=eip93 and every stanza
# over an eip93 cipher gains the parameter that selects its cipher's
# properties ("Ctrl = properties:provider=eip93", or
# "Ctrl.properties = ..." for a KDF).  3.5 adds a GMAC stanza with AES-256-CBC,
# which GMAC must refuse as "invalid mode" (with whichever AES-256-CBC the
# query prefers).  OpenSSL's AES-CTR and AES-CBC stanzas are below the
# engine window: at the default window they make no engine request; again
# with the window opened to 16 bytes (min-size = 16) they must make some
# (KRB5KDF none: it sets no IV).
# Negative controls: with EIP93_PROVIDER=off none of the cases passes.
# Not run: "MAC = CMAC by EVP_PKEY" (its cipher is fetched without the
# stanza's properties) and the CTR-DRBG stanzas of evprand.txt (no way to
# give the DRBG's cipher fetch a property query).
set -u
# shellcheck source=test/harness/common.sh
. /opt/eip93/harness/common.sh
E=/opt/eip93/evp

check_openssl /usr/bin/evp_test
load_driver
check_skc_offered
force_cnf /tmp/force.cnf
eip93_cnf /tmp/prefer.cnf '?provider=eip93'
force_cnf /tmp/force16.cnf 'min-size = 16'
eip93_cnf /tmp/prefer16.cnf '?provider=eip93' 'min-size = 16'

# extract A B FORCE LINE IN OUT: keep the stanzas of IN with a line matching
# A and one matching B (lower case, trailing blanks cut), adding LINE to
# those with a line matching FORCE (""): none); appends to OUT, prints how
# many.
extract() {
  awk -v a="$1" -v b="$2" -v force="$3" -v line="$4" -v out="$6" '
    function flush() {
      if (ka && kb) {
        printf "%s", buf >> out
        if (force != "" && kf) printf "%s\n", line >> out
        printf "\n" >> out
        n++
      }
      buf = ""; ka = 0; kb = 0; kf = 0
    }
    /^[ \t\r]*$/ { flush(); next }
    /^#/ { next }
    {
      buf = buf $0 "\n"
      l = tolower($0)
      sub(/[ \t\r]+$/, "", l)
      if (l ~ a) ka = 1
      if (l ~ b) kb = 1
      if (force != "" && l ~ force) kf = 1
    }
    END { flush(); print n + 0 }' "$5"
}

# neg NAME CONF FILE N: with EIP93_PROVIDER=off none of FILE's N cases passes.
# OpenSSL 4.0's evp_test ends a file at the first stanza whose cipher it
# cannot fetch ("unknown Cipher", 0 tests): there every cipher FILE names
# is tried on its own file of its stanzas, and each must stop so.
neg() {
  # shellcheck disable=SC2046 # the query: words
  out=$(EIP93_PROVIDER=off evp_test $(evp_cnf_args "$2") -config "$2" "$3" 2>&1)
  s=$(evp_summary "$out")
  _neg_conf=$2 _neg_file=$3
  # shellcheck disable=SC2086 # three words
  set -- "$1" "$4" $s
  if [ $# -eq 5 ] && [ "$3" -eq "$2" ] && [ $(($4 + $5)) -eq "$2" ]; then
    ok "provider off: none of the $2 $1 cases passes ($4 errors, $5 skipped): only eip93 serves them"
  elif [ "$EIP93_OPENSSL_SERIES" != 3.0 ] && [ "$EIP93_OPENSSL_SERIES" != 3.5 ] &&
    [ $# -eq 5 ] && [ "$3" -eq 0 ]; then
    _neg_n=0 _neg_bad=''
    for _neg_c in $(sed -n 's/^[Cc]ipher *= *\([^ ]*\).*/\1/p' "$_neg_file" | tr '[:upper:]' '[:lower:]' |
      sort -u); do
      extract "^cipher *= *$_neg_c\$" . '' '' "$_neg_file" /tmp/neg-one.txt >/dev/null
      # shellcheck disable=SC2046 # the query: words
      _neg_out=$(EIP93_PROVIDER=off evp_test $(evp_cnf_args "$_neg_conf") -config "$_neg_conf" \
        /tmp/neg-one.txt 2>&1)
      rm -f /tmp/neg-one.txt
      if [ "$(evp_summary "$_neg_out")" = "0 1 0" ] &&
        printf '%s\n' "$_neg_out" | grep -qi "unknown Cipher: $_neg_c\$"; then
        _neg_n=$((_neg_n + 1))
      else
        _neg_bad="$_neg_bad $_neg_c"
      fi
    done
    if [ "$_neg_n" -gt 0 ] && [ -z "$_neg_bad" ]; then
      ok "provider off: none of the $_neg_n ciphers of $1 can be fetched ('unknown Cipher', 4.0's evp_test)"
    else
      bad "provider off: $1: ciphers fetched without eip93 or not tried:${_neg_bad:- none tried}"
    fi
  else
    bad "provider off: $1 summary '$s', expected none of $2 passing"
  fi
}

for f in evpciph_aes_common.txt evpciph_aes_cts.txt evpmac_common.txt evpkdf_krb5.txt; do
  [ -f "$E/$f" ] || bad "$f is not in the OpenSSL harness build's data (scripts/openssl-build.sh)"
done
cipher_re() { printf '^cipher *= *aes-(128|192|256)-%s$' "$1"; }
GCM_ALG='^algorithm *= *aes-(128|192|256)-gcm$'
CBC_ALG='^algorithm *= *aes-(128|192|256)-cbc$'
CBC_KDF='^ctrl\.cipher *= *cipher:aes-(128|192|256)-cbc$'
PROPS='Ctrl = properties:provider=eip93'
rm -f /tmp/gcm.txt /tmp/gmac.txt /tmp/ctr.txt /tmp/cbc.txt /tmp/cmac.txt /tmp/krb5.txt
nc=$(extract "$(cipher_re gcm)" . '' '' $E/evpciph_aes_common.txt /tmp/gcm.txt)
nm=$(extract '^mac *= *gmac$' . "$GCM_ALG" "$PROPS" $E/evpmac_common.txt /tmp/gmac.txt)
ng=$(grep -c "^$PROPS\$" /tmp/gmac.txt)
echo "# extracted $nc AES-GCM cipher stanzas, $nm GMAC stanzas ($ng over AES-GCM, forced through eip93)"
[ "$nc" -gt 0 ] && [ "$nm" -gt 0 ] || bad "nothing extracted"

evp_run "evp_test AES-GCM (evpciph_aes_common.txt), provider=eip93" /tmp/force.cnf /tmp/gcm.txt "$nc"
evp_run "evp_test GMAC (evpmac_common.txt), cipher properties provider=eip93" /tmp/prefer.cnf /tmp/gmac.txt "$nm"
neg AES-GCM /tmp/force.cnf /tmp/gcm.txt "$nc"
if EIP93_PROVIDER=off evp_test -config /tmp/prefer.cnf /tmp/gmac.txt >/dev/null 2>&1; then
  bad "provider off: GMAC cases passed (so eip93 was not what served them)"
else
  ok "provider off: GMAC cases fail (their cipher can only come from eip93)"
fi
summary="$nc AES-GCM + $nm GMAC ($ng over AES-GCM)"

# skc NAME CONF CONF16 FILE N [none]: FILE's N cases pass at the default
# window without an engine request, and with the window at 16 bytes through
# the engine (some requests; "none": still none); then the negative control.
skc() {
  [ "$5" -gt 0 ] || bad "$1: no stanza extracted"
  evp_run "evp_test $1, default window" "$2" "$4" "$5"
  engine_none "$1, default window"
  evp_run "evp_test $1, window from 16 bytes" "$3" "$4" "$5"
  if [ "${6:-}" = none ]; then
    engine_none "$1, window from 16 bytes (its AES-CBC has no IV set: software)"
  else
    engine_some "$1, window from 16 bytes"
  fi
  neg "$1" "$2" "$4" "$5"
}

if has_skc ctr; then
  nctr=$(extract "$(cipher_re ctr)" . '' '' $E/evpciph_aes_common.txt /tmp/ctr.txt)
  echo "# extracted $nctr AES-CTR cipher stanzas (evpciph_aes_common.txt)"
  skc "AES-CTR (evpciph_aes_common.txt), provider=eip93" /tmp/force.cnf /tmp/force16.cnf /tmp/ctr.txt "$nctr"
  summary="$summary + $nctr AES-CTR"
fi
if has_skc cbc; then
  ncbc1=$(extract "$(cipher_re cbc)" . '' '' $E/evpciph_aes_common.txt /tmp/cbc.txt)
  ncbc2=$(extract "$(cipher_re cbc)" . '' '' $E/evpciph_aes_cts.txt /tmp/cbc.txt)
  ncbc=$((ncbc1 + ncbc2))
  ncmac=$(extract '^mac *= *cmac$' "$CBC_ALG" "$CBC_ALG" "$PROPS" $E/evpmac_common.txt /tmp/cmac.txt)
  nkrb=$(extract '^kdf *= *krb5kdf$' "$CBC_KDF" "$CBC_KDF" 'Ctrl.properties = properties:provider=eip93' \
    $E/evpkdf_krb5.txt /tmp/krb5.txt)
  echo "# extracted $ncbc AES-CBC cipher stanzas ($ncbc1 evpciph_aes_common.txt, $ncbc2 evpciph_aes_cts.txt)," \
    "$ncmac CMAC and $nkrb KRB5KDF stanzas over AES-CBC"
  skc "AES-CBC (evpciph_aes_common.txt, evpciph_aes_cts.txt), provider=eip93" \
    /tmp/force.cnf /tmp/force16.cnf /tmp/cbc.txt "$ncbc"
  skc "CMAC over AES-CBC (evpmac_common.txt), cipher properties provider=eip93" \
    /tmp/prefer.cnf /tmp/prefer16.cnf /tmp/cmac.txt "$ncmac"
  # KRB5KDF initialises its AES-CBC without an IV: eip93 keeps a context
  # whose IV no init has set in software, whatever the window.
  skc "KRB5KDF over AES-CBC (evpkdf_krb5.txt), cipher properties provider=eip93" \
    /tmp/prefer.cnf /tmp/prefer16.cnf /tmp/krb5.txt "$nkrb" none
  summary="$summary + $ncbc AES-CBC ($ncbc1 + $ncbc2) + $ncmac CMAC + $nkrb KRB5KDF"
fi

echo "harness evp (OpenSSL $EIP93_OPENSSL_SERIES): $pass passed, $fail failed; cases: $summary"
[ "$fail" -eq 0 ]
