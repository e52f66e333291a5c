#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# openssl-src.sh [--series X.Y] [--orig] SUITE DESTDIR [BUILT_DIR]
#
# Download and unpack Debian's `openssl` source package of one release
# (SUITE: bookworm for OpenSSL 3.0, trixie for OpenSSL 3.5, experimental for
# OpenSSL 4.0) into DESTDIR.  With --series, only versions of that upstream
# series (X.Y.*) are considered (experimental lists more than one series).
# Prints the unpacked source directory on stdout (last line).  With
# BUILT_DIR, a listed version reached (newest first) for which
# BUILT_DIR/<version>/.complete exists is not downloaded: the last line is
# then "built <version>".
#
# With --orig, the upstream tarball the package carries
# (openssl_<upstream>.orig.tar.gz, checked by apt against the signed index
# like the rest) is unpacked instead, without Debian's patches or debian/
# directory: OpenSSL as upstream released it.  The source directory holds
# .debian-version as with the patched tree, and .orig naming the tarball.
#
# apt is pointed at a private sources list and private state, lists and
# cache directories under DESTDIR/apt, so nothing depends on (or changes)
# the machine's own apt configuration.  The archive's index may list a
# version whose files are not in the pool (404): every listed version is
# tried, newest first, until one downloads.  Fails loudly when none does.
set -euo pipefail
me=openssl-src
die() { echo "$me: error: $*" >&2; exit 1; }

series=''
orig=0
while [[ $# -gt 0 ]]; do
    case "$1" in
    --series)
        [[ $# -ge 2 ]] || die "--series needs a value"
        series=$2
        shift 2
        ;;
    --orig) orig=1; shift ;;
    *) break ;;
    esac
done
[[ $# -eq 2 || $# -eq 3 ]] ||
    die "usage: $0 [--series X.Y] [--orig] bookworm|trixie|experimental DESTDIR [BUILT_DIR]"
built=${3:-}
suite=$1
case "$suite" in bookworm | trixie | experimental) ;; *) die "unknown suite '$suite'" ;; esac
mkdir -p "$2"
dest=$(cd "$2" && pwd)
for tool in apt-get apt-cache dpkg-source; do
    command -v "$tool" >/dev/null || die "'$tool' not found (apt-get install apt dpkg-dev)"
done
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[[ -f "$keyring" ]] || die "$keyring not found (apt-get install debian-archive-keyring)"

apt_dir="$dest/apt"
mkdir -p "$apt_dir/sources.d" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
: >"$apt_dir/sources.list"
: >"$apt_dir/status"
if [[ "$suite" == experimental ]]; then
    # experimental has neither -updates nor a security archive; unstable is
    # listed too, where a series goes next (--series picks among them).
    cat >"$apt_dir/sources.d/openssl-src.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: unstable $suite
Components: main
Signed-By: $keyring
EOF
else
    cat >"$apt_dir/sources.d/openssl-src.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite $suite-updates
Components: main
Signed-By: $keyring

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: $suite-security
Components: main
Signed-By: $keyring
EOF
fi
apt_opts=(
    -o "Dir::Etc::SourceList=$apt_dir/sources.list"
    -o "Dir::Etc::SourceParts=$apt_dir/sources.d"
    -o "Dir::State=$apt_dir"
    -o "Dir::State::Lists=$apt_dir/lists"
    -o "Dir::State::status=$apt_dir/status"
    -o "Dir::Cache=$apt_dir/cache"
    -o "APT::Sandbox::User=root"
    -o "Acquire::Retries=3"
)

# in_series: the versions (stdin) of upstream series $series, or all of them.
in_series() {
    if [[ -z "$series" ]]; then
        cat
    else
        awk -v s="$series." '{ v = $0; sub(/^[0-9]+:/, "", v); if (index(v, s) == 1) print }'
    fi
}

echo "$me: apt-get update (deb-src $suite, private lists in $apt_dir)" >&2
apt-get "${apt_opts[@]}" -qq update >&2 || die "apt-get update failed for $suite"
mapfile -t versions < <(apt-cache "${apt_opts[@]}" showsrc openssl | sed -n 's/^Version: //p' |
    sort -u | sort -r -V | in_series)
[[ ${#versions[@]} -gt 0 ]] || die "no openssl source package${series:+ of series $series} listed for $suite"
echo "$me: listed versions: ${versions[*]}" >&2

for v in "${versions[@]}"; do
    if [[ -n "$built" && -f "$built/$v/.complete" ]]; then
        echo "$me: openssl $v is listed and already built in $built/$v" >&2
        echo "built $v"
        exit 0
    fi
    dl="$dest/dl-$v"
    rm -rf "$dl"
    mkdir -p "$dl"
    if (cd "$dl" && apt-get "${apt_opts[@]}" -qq source --download-only "openssl=$v" >&2); then
        dsc=$(ls "$dl"/openssl_*.dsc)
        upstream=${v#*:}
        upstream=${upstream%-*}
        src="$dest/openssl-$v"
        rm -rf "$src"
        if [[ $orig -eq 1 ]]; then
            tarball="$dl/openssl_$upstream.orig.tar.gz"
            [[ -f "$tarball" ]] || die "openssl=$v: $(basename "$tarball") not among the downloaded files"
            mkdir -p "$src"
            tar -xzf "$tarball" -C "$src" --strip-components=1 >&2 || die "tar -x $tarball failed"
            [[ -f "$src/Configure" && ! -d "$src/debian" ]] || die "$tarball: not an upstream OpenSSL tree"
            basename "$tarball" >"$src/.orig"
        else
            dpkg-source --no-check -x "$dsc" "$src" >&2 || die "dpkg-source -x $dsc failed"
        fi
        rm -rf "$dl"
        echo "$v" >"$src/.debian-version"
        what="upstream $upstream"
        [[ $orig -eq 0 ]] || what+=": the orig tarball, without Debian's patches"
        echo "$me: openssl $v ($what) unpacked in $src" >&2
        echo "$src"
        exit 0
    fi
    echo "$me: openssl=$v did not download, trying the next listed version" >&2
    rm -rf "$dl"
done
die "none of the listed openssl versions (${versions[*]}) could be downloaded for $suite"
