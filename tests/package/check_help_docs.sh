#!/usr/bin/env bash
# The manual page and the bash completion against the program's own --help texts (run by
# check_package.sh on the unpacked package): every subcommand that `cineflow --help` names has its
# section in the manual page and completes after `cineflow`; every option that a --help lists
# appears in that command's part of the page and completes after a '-'; an option's choices
# complete after it.
#
#   tests/package/check_help_docs.sh CINEFLOW MAN_PAGE.gz COMPLETION
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 CINEFLOW MAN_PAGE.gz COMPLETION" >&2
  exit 2
fi
cineflow=$1
man_page=$2
completion=$3

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The page as a reader sees it, with lines too long to break and no hyphenation, so that every
# option stays whole.
page=$(gzip -dc "$man_page" | LC_ALL=C groff -man -Tascii -P-c -P-b -P-u -rLL=5000n -rHY=0)

# The options a --help lists: those of its usage lines (up to the first blank line) and of its lines
# of two spaces and an option (and ", --other" beside it).
listed_options() {
  awk 'NR == 1, /^$/ { print; next } /^  -/ { sub(/^  /, ""); sub(/   *.*/, ""); print }' |
    grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u
}

# The rendered page from a heading to the next heading of the same level or above.
section_of() {
  awk -v heading="$1" '$0 == heading { on = 1; next }
    on && (/^[^ ]/ || (heading ~ /^   / && /^   [^ ]/)) { exit }
    on' <<<"$page"
}

# What the completion offers for these words (the last one is being completed).
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cineflow
    printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$@"
}

has_word() { grep -qE -- "(^|[^a-z0-9-])$2([^a-z0-9-]|$)" <<<"$1"; }

main_help=$("$cineflow" --help)
# `cineflow X` in the help names a subcommand (not cineflow.rf/1, nor ~/.cache/cineflow).
subcommands=$(grep -oE '(^|[ (`])cineflow [a-z][a-z-]*' <<<"$main_help" | awk '{ print $2 }' |
  sort -u)
[ -n "$subcommands" ] || fail "cineflow --help names no subcommand"
echo "   subcommands: $(echo $subcommands)"

top=$(sed '/^COMMANDS$/,$d' <<<"$page")
offered=$(complete_words cineflow --)
for option in $(listed_options <<<"$main_help"); do
  has_word "$top" "$option" || fail "the manual page does not describe cineflow $option"
  has_word "$offered" "$option" || fail "the completion does not offer cineflow $option"
done
offered=$(complete_words cineflow "")
for command in $subcommands; do
  has_word "$offered" "$command" || fail "the completion does not offer cineflow $command"
  section=$(section_of "   cineflow $command")
  [ -n "$section" ] || fail "the manual page has no section for cineflow $command"
  help=$("$cineflow" "$command" --help) || fail "cineflow $command --help"
  offered_here=$(complete_words cineflow "$command" --)
  count=0
  for option in $(listed_options <<<"$help"); do
    has_word "$section" "$option" || fail "the manual page does not describe cineflow $command $option"
    has_word "$offered_here" "$option" || fail "the completion does not offer cineflow $command $option"
    count=$((count + 1))
  done
  echo "   cineflow $command: $count options in the manual page and the completion"
done
has_word "$(complete_words cineflow --backend "")" cpu ||
  fail "the completion does not offer the choices of --backend"
