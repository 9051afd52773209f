#!/bin/sh
# Every command the overview ('raidsim help') lists answers --help with
# the text 'raidsim help COMMAND' prints, on stdout with status 0: each
# command's file holds its usage, and the help command prints the same
# text, so a command wired to another's text or missing from main()'s
# table fails here.  Without a command, the overview goes to stderr with
# status 2; an unknown command or help topic is refused with status 2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"

"$raidsim" help >"$tmp/overview" 2>"$tmp/overview.err"
check "help: status 0" [ $? -eq 0 ]
check "help: nothing on stderr" [ ! -s "$tmp/overview.err" ]
# The command words of the overview's "Commands:" block.
commands=$(awk '/^Commands:/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' \
	"$tmp/overview" | sort -u)
check "overview lists the commands" [ "$(echo "$commands" | wc -l)" -ge 7 ]

same_help() { # command
	"$raidsim" "$1" --help >"$tmp/$1.h" 2>"$tmp/$1.err" || return 1
	"$raidsim" help "$1" >"$tmp/$1.help" || return 1
	[ ! -s "$tmp/$1.err" ] && cmp -s "$tmp/$1.h" "$tmp/$1.help" &&
		head -n 1 "$tmp/$1.h" | grep -q "^Usage: raidsim $1 "
}
for c in $commands; do
	[ "$c" = help ] && continue
	check "$c --help is 'help $c'" same_help "$c"
done

check "--help is the overview" sh -c "'$raidsim' --help | cmp -s - '$tmp/overview'"
check "-h is the overview" sh -c "'$raidsim' -h | cmp -s - '$tmp/overview'"

"$raidsim" >"$tmp/none.out" 2>"$tmp/none.err"
check "no command: status 2" [ $? -eq 2 ]
check "no command: the overview on stderr" cmp -s "$tmp/none.err" "$tmp/overview"
check "no command: nothing on stdout" [ ! -s "$tmp/none.out" ]

"$raidsim" frobnicate >"$tmp/unknown.out" 2>"$tmp/unknown.err"
check "unknown command: status 2" [ $? -eq 2 ]
check "unknown command: named" grep -q "^raidsim: unknown command 'frobnicate'$" \
	"$tmp/unknown.err"

"$raidsim" help frobnicate >"$tmp/topic.out" 2>"$tmp/topic.err"
check "unknown help topic: status 2" [ $? -eq 2 ]
check "unknown help topic: named" grep -q "^raidsim: no help for 'frobnicate'$" \
	"$tmp/topic.err"

check "help limits lists the caps" sh -c "'$raidsim' help limits | grep -q '^  devices '"

summary help
