#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# No `PROGRAM | grep -q` in a script that sets pipefail.  grep -q leaves at
# its first match; a program still writing then dies of SIGPIPE, and pipefail
# turns a match into a failure.  Whether it does depends on how the program's
# writes fall: musl's stdout writes its first line on its own, so
# eip93-doctor's --help piped into grep -q '^usage:' failed once in CI's musl
# stage.
# Capture instead: grep -q PATTERN <<<"$(PROGRAM)".  A line that runs where
# pipefail is not set (a heredoc for a guest's /bin/sh) says "pipe-ok: why".
#
# usage: scripts/check-pipes.sh [SOURCE_DIR]   (default: this checkout)
set -euo pipefail

src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src"
found=0
while IFS= read -r f; do
  [ -f "$f" ] && grep -q 'pipefail' "$f" || continue
  case $f in *.sh) ;; *) [[ $(head -c 11 "$f") == '#!/bin/bash' ]] || continue ;; esac
  while IFS= read -r hit; do
    echo "check-pipes: $f:$hit: pipe into grep -q under pipefail (capture the output instead)"
    found=1
  done < <(grep -nE '(^|[^|])\|[[:space:]]*grep[[:space:]]+(-[A-Za-z]*q|--quiet)' "$f" |
    grep -vE '^[0-9]+:[[:space:]]*#|pipe-ok' || true)
done < <(git ls-files)
[ "$found" -eq 0 ] && echo "check-pipes: no pipe into grep -q under pipefail"
[ "$found" -eq 0 ]
