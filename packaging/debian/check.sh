#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# check.sh BUILD_DIR OPENSSL [native|foreign]
#
# Builds the Debian packages from BUILD_DIR (build-deb.sh) and checks them:
# control fields, file list (the module in the build's multiarch modules
# directory, docs, the example config), and an install with the real dpkg
# into a scratch root (`dpkg --root`, dependencies not checked: the scratch
# root has no libc).  "native" (the default) then runs the host's OPENSSL
# with the installed module and example config and requires eip93 next to
# the default provider in `openssl list -providers`, and runs the installed
# eip93-doctor; "foreign" (a cross build) checks the architecture instead.
# Finally the packages are removed again with dpkg.
set -euo pipefail
[[ $# -ge 2 && $# -le 3 ]] || { echo "usage: $0 BUILD_DIR OPENSSL [native|foreign]" >&2; exit 2; }
build=$1 openssl=$2 mode=${3:-native}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }

mapfile -t debs < <("$here/build-deb.sh" "$build" "$tmp/out")
[[ ${#debs[@]} -eq 2 ]] && ok "build-deb.sh built ${debs[*]##*/}" || { bad "build-deb.sh: ${debs[*]}"; exit 1; }
prov=${debs[0]} doc=${debs[1]}
modulesdir=$(sed -n 's/^EIP93_MODULESDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
arch=$(dpkg-deb -f "$prov" Architecture)
echo "   $arch, modules directory $modulesdir"

field() { dpkg-deb -f "$1" "$2"; }
[[ "$(field "$prov" Package)" == openssl-provider-eip93 ]] && ok "package name" || bad "package name"
[[ "$(field "$prov" Version)" == "$version-1" ]] && ok "version $version-1" || bad "version"
[[ "$(field "$prov" Multi-Arch)" == same ]] && ok "Multi-Arch: same" || bad "Multi-Arch"
[[ "$(field "$prov" Depends)" == *libssl3* ]] && ok "depends on libssl3" || bad "Depends"
[[ "$(field "$doc" Depends)" == *"openssl-provider-eip93 (= $version-1)"* ]] && ok "doctor depends on the provider" ||
    bad "doctor Depends"
if [[ "$mode" == native ]]; then
    [[ "$arch" == "$(dpkg --print-architecture)" ]] && ok "architecture $arch" || bad "architecture $arch"
else
    [[ "$arch" != "$(dpkg --print-architecture)" && "$modulesdir" == "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH -a "$arch" 2>/dev/null)/ossl-modules" ]] &&
        ok "foreign architecture $arch, its multiarch modules directory" || bad "architecture $arch / $modulesdir"
fi
files=$(dpkg-deb -c "$prov" | awk '{ print $6 }')
for f in ".$modulesdir/eip93.so" ./usr/share/doc/openssl-provider-eip93/examples/openssl.cnf.example \
    ./usr/share/doc/openssl-provider-eip93/copyright ./usr/share/doc/openssl-provider-eip93/changelog.Debian.gz; do
    grep -qx -- "$f" <<<"$files" && ok "ships $f" || bad "does not ship $f"
done
! grep -q '^\./etc' <<<"$files" && ok "nothing in /etc" || bad "ships files in /etc"
dfiles=$(dpkg-deb -c "$doc" | awk '{ print $6 }')
for f in ./usr/bin/eip93-doctor ./usr/lib/systemd/system/eip93-calibrate.service ./var/lib/eip93/; do
    grep -qx -- "$f" <<<"$dfiles" && ok "doctor ships $f" || bad "doctor does not ship $f"
done
# The calibration at install: postinst (and purge removes what it wrote).
dpkg-deb -e "$doc" "$tmp/ctl"
sh -n "$tmp/ctl/postinst" && sh -n "$tmp/ctl/postrm" && ok "doctor postinst/postrm are valid sh" || bad "maintainer scripts"
grep -q 'eip93-doctor calibrate --if-needed' "$tmp/ctl/postinst" && grep -q 'calibration skipped' "$tmp/ctl/postinst" &&
    ok "doctor postinst calibrates when needed, says when it is skipped" || bad "postinst content"
grep -q 'ExecStart=/usr/bin/eip93-doctor calibrate --if-needed' <(dpkg-deb --fsys-tarfile "$doc" |
    tar -xO ./usr/lib/systemd/system/eip93-calibrate.service) && ok "eip93-calibrate.service: calibrate --if-needed" ||
    bad "service unit"
# arm64: the NEON GHASH loaded at boot; elsewhere nothing.
if [[ "$arch" == arm64 ]]; then
    grep -qx ./usr/lib/modules-load.d/eip93.conf <<<"$files" &&
        dpkg-deb --fsys-tarfile "$prov" | tar -xO ./usr/lib/modules-load.d/eip93.conf | grep -qx ghash-ce &&
        ok "arm64: modules-load.d/eip93.conf loads ghash-ce" || bad "arm64: no ghash-ce in modules-load.d"
else
    ! grep -q modules-load <<<"$files" && ok "$arch: no modules-load.d entry (ghash-ce is arm64)" || bad "modules-load on $arch"
fi
dpkg-deb -x "$prov" "$tmp/x"
if grep -qa -e EIP93_TEST_DT_PATH -e EIP93_TEST_HWCAP "$tmp/x$modulesdir/eip93.so"; then
    bad "the packaged module has test hooks"
else ok "the packaged module is a release build"; fi

# A real dpkg install into a scratch root.
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
dpkg_() { dpkg --root="$root" --force-not-root --force-depends --force-architecture \
    --force-script-chrootless --log=/dev/null "$@"; }
if out=$(dpkg_ -i "$prov" "$doc" 2>&1); then ok "dpkg -i (scratch root)"; else bad "dpkg -i"; echo "$out"; fi
grep -q "eip93-doctor: installed into $root: not calibrating" <<<"$out" &&
    ok "postinst into a scratch root: does not calibrate, says so" || { bad "postinst message"; echo "$out"; }
[[ -f "$root$modulesdir/eip93.so" ]] && ok "installed $modulesdir/eip93.so" || bad "module not installed"
dpkg_ -s openssl-provider-eip93 2>/dev/null | grep -q '^Status: install ok installed' &&
    ok "dpkg status: installed" || bad "dpkg status"

if [[ "$mode" == native ]]; then
    cnf=$root/usr/share/doc/openssl-provider-eip93/examples/openssl.cnf.example
    out=$(OPENSSL_MODULES=$root$modulesdir OPENSSL_CONF=$cnf "$openssl" list -providers -verbose 2>&1) ||
        bad "openssl list -providers failed"
    echo "$out" | grep -E '^  [a-z]|name:' | sed 's/^/   /'
    grep -q '^  eip93$' <<<"$out" && ok "openssl list -providers: eip93 (installed module + example config)" ||
        bad "eip93 not listed"
    grep -q '^  default$' <<<"$out" && ok "openssl list -providers: default" || bad "default not listed"
    grep -q "name: eip93 .*(disabled: " <<<"$out" && ok "eip93 reports its verdict" || bad "no verdict"
    rc=0
    dout=$(OPENSSL_MODULES=$root$modulesdir OPENSSL_CONF=$cnf "$root/usr/bin/eip93-doctor" 2>&1) || rc=$?
    [[ $rc -eq 1 ]] && grep -q '^verdict: disabled: ' <<<"$dout" && grep -q 'activated by config    yes' <<<"$dout" &&
        ok "installed eip93-doctor: exit 1, the verdict, activated by the example config" ||
        { bad "eip93-doctor (exit $rc)"; echo "$dout"; }
    # What postinst runs, on this machine without the engine: exit 3, nothing written.
    rc=0
    OPENSSL_MODULES=$root$modulesdir "$root/usr/bin/eip93-doctor" calibrate --if-needed --rounds 3 --time-ms 100 \
        --output "$tmp/cal/calibration" >"$tmp/cal.out" 2>&1 || rc=$?
    [[ $rc -eq 3 && ! -e "$tmp/cal/calibration" ]] && grep -q 'engine is not available here' "$tmp/cal.out" &&
        ok "installed eip93-doctor calibrate: no engine here, exit 3 (postinst: skipped), nothing written" ||
        { bad "calibrate without engine (exit $rc)"; cat "$tmp/cal.out"; }
fi

echo 'format = 1' >"$root/var/lib/eip93/calibration"
if out=$(dpkg_ -P eip93-doctor openssl-provider-eip93 2>&1); then ok "dpkg -P"; else bad "dpkg -P"; echo "$out"; fi
[[ ! -e "$root/var/lib/eip93" ]] && ok "purge removed the calibration" || bad "calibration left after purge"
[[ ! -e "$root$modulesdir/eip93.so" ]] && ok "removed" || bad "module left after dpkg -r"

echo "debian package ($arch): $pass passed, $fail failed"
[[ $fail -eq 0 ]]
