#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# check.sh BUILD_DIR OPENSSL [native|foreign]
#
# Builds the Debian packages from BUILD_DIR (build-deb.sh) and checks them:
# control fields, file list (the module in the build's multiarch modules
# directory, docs, the example config, the systemd units), then the real
# dpkg in a scratch root (`dpkg --root`, maintainer scripts run with
# DPKG_ROOT, dependencies not checked: the scratch root has no libc), each
# step's result checked: install (files, dpkg status, the units enabled by
# deb-systemd-helper), an upgrade to a newer revision (units still enabled,
# the calibration kept; an operator's disable kept), removal (files gone,
# units masked, calibration kept) and purge (masks, helper state and the
# calibration gone, nothing of the packages left).  "native" (the default)
# also runs the host's OPENSSL with the installed module and example config
# and requires eip93 next to the default provider in `openssl list
# -providers`, and runs the installed eip93-doctor; "foreign" (a cross build)
# checks the architecture instead.
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
# arm64: the NEON GHASH loaded at boot by a unit that tolerates kernels
# without ghash-ce (7.1+); no modules-load.d entry, which would fail there.
! grep -q modules-load <<<"$files" && ok "no modules-load.d entry (it fails the boot's module loading without ghash-ce)" ||
    bad "ships a modules-load.d entry"
ghash_unit=./usr/lib/systemd/system/eip93-ghash.service
if [[ "$arch" == arm64 ]]; then
    unit_text=$(dpkg-deb --fsys-tarfile "$prov" | tar -xO "$ghash_unit" 2>/dev/null || true)
    grep -qx 'ExecStart=-/sbin/modprobe -q ghash-ce' <<<"$unit_text" &&
        grep -qx 'WantedBy=sysinit.target' <<<"$unit_text" &&
        ok "arm64: eip93-ghash.service loads ghash-ce at boot, a missing module ignored" ||
        bad "arm64: eip93-ghash.service"
    dpkg-deb -e "$prov" "$tmp/pctl"
    sh -n "$tmp/pctl/postinst" && sh -n "$tmp/pctl/postrm" && grep -q 'deb-systemd-helper enable' "$tmp/pctl/postinst" &&
        ok "arm64: provider postinst/postrm (deb-systemd-helper)" || bad "arm64: provider maintainer scripts"
    # systemd parses the unit as written ("-": a failing modprobe, where the
    # kernel has no ghash-ce, does not fail the unit).
    mkdir -p "$tmp/unit"
    printf '%s\n' "$unit_text" >"$tmp/unit/eip93-ghash.service"
    vout=$(systemd-analyze verify --man=no "$tmp/unit/eip93-ghash.service" 2>&1) &&
        ok "arm64: systemd-analyze verify eip93-ghash.service" ||
        { bad "arm64: systemd-analyze verify"; echo "$vout"; }
else
    ! grep -qx "$ghash_unit" <<<"$files" && ok "$arch: no eip93-ghash.service (ghash-ce is arm64)" ||
        bad "eip93-ghash.service on $arch"
fi
dpkg-deb -x "$prov" "$tmp/x"
if grep -qa -e EIP93_TEST_DT_PATH -e EIP93_TEST_HWCAP "$tmp/x$modulesdir/eip93.so"; then
    bad "the packaged module has test hooks"
else ok "the packaged module is a release build"; fi

# The real dpkg in a scratch root: install, upgrade, remove, purge.
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
dpkg_() { dpkg --root="$root" --force-not-root --force-depends --force-architecture \
    --force-script-chrootless --log=/dev/null "$@"; }
status() { dpkg_ -s "$1" 2>/dev/null | sed -n 's/^Status: //p'; }
wants=$root/etc/systemd/system/multi-user.target.wants/eip93-calibrate.service
swants=$root/etc/systemd/system/sysinit.target.wants/eip93-ghash.service
enabled() { # the units deb-systemd-helper enabled (the provider's on arm64 only)
    [[ -L "$wants" && "$(readlink "$wants")" == /usr/lib/systemd/system/eip93-calibrate.service ]] &&
        { [[ "$arch" != arm64 ]] || [[ -L "$swants" ]]; }
}
masked() { # UNIT
    [[ "$(readlink "$root/etc/systemd/system/$1" 2>/dev/null)" == /dev/null ]]
}
if out=$(dpkg_ -i "$prov" "$doc" 2>&1); then ok "install: dpkg -i (scratch root)"; else bad "dpkg -i"; echo "$out"; fi
grep -q "eip93-doctor: installed into $root: not calibrating" <<<"$out" &&
    ok "install: postinst into a scratch root does not calibrate, says so" || { bad "postinst message"; echo "$out"; }
[[ -f "$root$modulesdir/eip93.so" ]] && ok "install: $modulesdir/eip93.so" || bad "module not installed"
[[ "$(status openssl-provider-eip93)" == "install ok installed" && "$(status eip93-doctor)" == "install ok installed" ]] &&
    ok "install: dpkg status installed (both)" || bad "dpkg status"
units="eip93-calibrate.service"
[[ "$arch" == arm64 ]] && units+=" and eip93-ghash.service"
enabled && ok "install: deb-systemd-helper enabled $units" ||
    { bad "install: units not enabled"; find "$root/etc/systemd" 2>&1; }
[[ -e "$root/var/lib/systemd/deb-systemd-helper-enabled/eip93-calibrate.service.dsh-also" ]] &&
    ok "install: deb-systemd-helper's state recorded" || bad "install: no deb-systemd-helper state"

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

# Upgrade to a newer revision of both (the same files, Version -2).
echo 'format = 1' >"$root/var/lib/eip93/calibration"
revise() { # DEB OUT: the package as revision 2
    rm -rf "$tmp/rev" && dpkg-deb -R "$1" "$tmp/rev"
    sed -i -e "s/^Version: $version-1\$/Version: $version-2/" \
        -e "s/openssl-provider-eip93 (= $version-1)/openssl-provider-eip93 (= $version-2)/" "$tmp/rev/DEBIAN/control"
    dpkg-deb --root-owner-group -Zxz --build "$tmp/rev" "$2" >/dev/null
}
revise "$prov" "$tmp/prov2.deb"
revise "$doc" "$tmp/doc2.deb"
if out=$(dpkg_ -i "$tmp/prov2.deb" "$tmp/doc2.deb" 2>&1); then ok "upgrade: dpkg -i revision 2"; else bad "upgrade"; echo "$out"; fi
[[ "$(dpkg_ -s eip93-doctor 2>/dev/null | sed -n 's/^Version: //p')" == "$version-2" &&
    "$(status eip93-doctor)" == "install ok installed" ]] && ok "upgrade: $version-2 installed" || bad "upgrade: version"
enabled && ok "upgrade: the units still enabled" || bad "upgrade: units not enabled"
[[ -f "$root/var/lib/eip93/calibration" ]] && ok "upgrade: the calibration kept (the unit re-checks it at boot)" ||
    bad "upgrade: calibration lost"
# An operator's disable survives an upgrade (reinstall of revision 2).
DPKG_ROOT=$root deb-systemd-helper disable eip93-calibrate.service >/dev/null 2>&1 || true
[[ ! -e "$wants" ]] || bad "deb-systemd-helper disable did not disable"
dpkg_ -i "$tmp/doc2.deb" >/dev/null 2>&1 || bad "reinstall"
[[ ! -e "$wants" ]] && ok "upgrade: an operator's disable is kept" || bad "upgrade re-enabled a disabled unit"
DPKG_ROOT=$root deb-systemd-helper enable eip93-calibrate.service >/dev/null 2>&1 || true

# Removal: files gone, units masked, calibration kept.
if out=$(dpkg_ -r eip93-doctor openssl-provider-eip93 2>&1); then ok "remove: dpkg -r"; else bad "dpkg -r"; echo "$out"; fi
[[ ! -e "$root$modulesdir/eip93.so" && ! -e "$root/usr/bin/eip93-doctor" ]] && ok "remove: module and doctor gone" ||
    bad "remove: files left"
masked eip93-calibrate.service && { [[ "$arch" != arm64 ]] || masked eip93-ghash.service; } &&
    ok "remove: units masked (deb-systemd-helper mask)" || bad "remove: units not masked"
[[ -f "$root/var/lib/eip93/calibration" ]] && ok "remove: the calibration kept until purge" || bad "remove: calibration lost"
[[ "$(status eip93-doctor)" == "deinstall ok config-files" ]] && ok "remove: dpkg status config-files" ||
    bad "remove: status $(status eip93-doctor)"

# Purge: nothing of the packages left.
if out=$(dpkg_ -P eip93-doctor openssl-provider-eip93 2>&1); then ok "purge: dpkg -P"; else bad "dpkg -P"; echo "$out"; fi
[[ ! -e "$root/var/lib/eip93" ]] && ok "purge: the calibration and its directory removed" || bad "calibration left after purge"
left=$(find "$root/etc/systemd" "$root/var/lib/systemd" -mindepth 1 \( -type f -o -type l \) 2>/dev/null || true)
[[ -z "$left" ]] && ok "purge: no unit link, mask or deb-systemd-helper state left" || { bad "purge left:"; echo "$left"; }
[[ -z "$(status eip93-doctor)" && -z "$(status openssl-provider-eip93)" ]] && ok "purge: dpkg knows neither package" ||
    bad "purge: status $(status eip93-doctor) / $(status openssl-provider-eip93)"

echo "debian package ($arch): $pass passed, $fail failed"
[[ $fail -eq 0 ]]
