#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# apt.sh CACHE_DIR apt-get|apt-cache ARGS... | apt.sh CACHE_DIR update
#
# apt-get or apt-cache against the mipsel suite's own package index: Debian
# bookworm, bookworm-updates and bookworm-security (main, mipsel only: the
# last Debian release with mipsel), kept in CACHE_DIR/apt.  The host's
# sources, lists, dpkg architectures and package cache are not touched;
# nothing is ever installed with it (the suite uses "update", "download",
# "depends", "show", "policy").  "update" refreshes the index at most once
# every 12 hours (stamp file), so warm runs stay offline.
set -euo pipefail

die() {
    echo "mipsel/apt: error: $*" >&2
    exit 1
}

[[ $# -ge 2 ]] || die "usage: $0 CACHE_DIR apt-get|apt-cache ARGS... | $0 CACHE_DIR update"
mkdir -p "$1/apt"
root=$(cd "$1/apt" && pwd)
shift

mkdir -p "$root/lists/partial" "$root/cache/archives/partial" "$root/etc/preferences.d"
sources=$root/etc/mipsel.sources
cat >"$sources.new.$$" <<SRC
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Architectures: mipsel
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Architectures: mipsel
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
if cmp -s "$sources.new.$$" "$sources"; then rm -f "$sources.new.$$"; else mv "$sources.new.$$" "$sources"; fi

opts=(
    -o "Dir::Etc::SourceList=/dev/null"
    -o "Dir::Etc::SourceParts=$root/etc"
    -o "Dir::Etc::Preferences=/dev/null"
    -o "Dir::Etc::PreferencesParts=$root/etc/preferences.d"
    -o "Dir::State::Lists=$root/lists"
    -o "Dir::State::status=/dev/null"
    -o "Dir::Cache=$root/cache"
    -o "Dir::Cache::pkgcache="
    -o "Dir::Cache::srcpkgcache="
    -o "APT::Architecture=mipsel"
    -o "APT::Architectures::=mipsel"
    -o "APT::Sandbox::User=root"
    -o "Acquire::Languages=none"
)

if [[ "$1" == update ]]; then
    stamp=$root/updated
    if [[ -f "$stamp" && -z "$(find "$stamp" -mmin +720)" ]]; then
        exit 0
    fi
    exec 9>"$root/.lock"
    flock 9
    apt-get -q "${opts[@]}" update >&2 || die "apt-get update (bookworm mipsel) failed"
    touch "$stamp"
    exit 0
fi

tool=$1
shift
case "$tool" in
apt-get | apt-cache) ;;
*) die "only apt-get or apt-cache" ;;
esac
exec "$tool" "${opts[@]}" "$@"
