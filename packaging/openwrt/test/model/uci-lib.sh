# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# A model of the part of OpenWrt's UCI that the openssl init script and the
# package scripts use, in this project's own words, over the files in
# "$OWRT_ROOT/etc/config" (OWRT_ROOT: the scratch root standing for /):
#   config_load CONFIG, config_foreach FUNC TYPE, config_get_bool VAR SECTION
#   OPTION DEFAULT (the shell API of /lib/functions.sh), and uci_get /
#   uci_delete (what `uci -q get|delete CONFIG.SECTION` do; model/uci).
# Covered: named sections (`config TYPE 'NAME'`), `option KEY 'VALUE'`,
# quotes ' or " or none, comments.  Not covered (the package writes none):
# anonymous sections, lists.  A `uci delete` here is written at once, so
# `uci commit` has nothing left to do.

_uci_file() { echo "$OWRT_ROOT/etc/config/$1"; }

# _uci_dump FILE: "TYPE NAME" for each section, "NAME KEY VALUE" for each option.
_uci_dump() {
	[ -f "$1" ] || return 0
	awk '
	function unq(s) { gsub(/^["'"'"']|["'"'"']$/, "", s); return s }
	/^[ \t]*#/ { next }
	$1 == "config" { sec = unq($3); print "S", unq($2), sec; next }
	$1 == "option" && sec != "" {
		v = $0; sub(/^[ \t]*option[ \t]+[^ \t]+[ \t]*/, "", v)
		print "O", sec, unq($2), unq(v)
	}' "$1"
}

config_load() { _UCI_LOADED=$(_uci_file "$1"); }

# config_foreach FUNC TYPE: FUNC SECTION for every section of TYPE, in order.
config_foreach() {
	_f=$1 _t=$2
	for _s in $(_uci_dump "$_UCI_LOADED" | awk -v t="$_t" '$1 == "S" && $2 == t { print $3 }'); do
		"$_f" "$_s"
	done
}

_uci_option() { # SECTION OPTION: its value, or nothing
	_uci_dump "$_UCI_LOADED" | awk -v s="$1" -v k="$2" '$1 == "O" && $2 == s && $3 == k { v = $4 } END { printf "%s", v }'
}

# config_get_bool VAR SECTION OPTION DEFAULT: 1 or 0 for the usual spellings,
# DEFAULT for anything else (unset included).
config_get_bool() {
	_v=$(_uci_option "$2" "$3")
	case $_v in
	1 | on | true | yes | enabled) _v=1 ;;
	0 | off | false | no | disabled) _v=0 ;;
	*) _v=$4 ;;
	esac
	eval "$1=\$_v"
}

# uci_get CONFIG.SECTION: prints the section's type, fails when it is absent.
uci_get() {
	_c=${1%%.*} _s=${1#*.}
	_uci_dump "$(_uci_file "$_c")" | awk -v s="$_s" '$1 == "S" && $3 == s { print $2; f = 1 } END { exit !f }'
}

# uci_delete CONFIG.SECTION: the section and its options go; fails when absent.
uci_delete() {
	_c=${1%%.*} _s=${1#*.}
	uci_get "$1" >/dev/null || return 1
	_file=$(_uci_file "$_c")
	awk -v s="$_s" '
	function unq(x) { gsub(/^["'"'"']|["'"'"']$/, "", x); return x }
	$1 == "config" { skip = (unq($3) == s) }
	!skip' "$_file" >"$_file.new" && mv "$_file.new" "$_file"
}
