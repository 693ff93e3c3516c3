#!/bin/sh
# 0007-cli-options.t - a bad option is one line on stderr (ours, not getopt's as well) that
# quotes it, for every preflight command and the programs flightapp and sensorsim; help texts
# print what they mean (no printf escapes)
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:flightapp BUILT:sensorsim
cmds=$("$PREFLIGHT" help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' | grep -v '^help$')
ncmds=$(echo "$cmds" | wc -l)
plan $((2 * ncmds + 7))

# one_line ID WHAT QUOTED CMD... - exit 2 and exactly one stderr line naming QUOTED
one_line() {
	_id=$1 _quoted=$3; shift 3
	run_cmd "$@"
	is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "$_id exit 2 and one line on stderr" ||
		printf '%s\n' "$err" | sed 's/^/#   /'
	like "$err" "'$_quoted': (unknown option|needs a value)" "$_id the line quotes $_quoted"
}

for c in $cmds; do
	case $c in
	baseline|history) sub=$([ "$c" = baseline ] && echo create || echo list) ;;
	*) sub= ;;
	esac
	# shellcheck disable=SC2086
	one_line "cli-opt-1.$c" "$c" --bogus-flag "$PREFLIGHT" "$c" $sub --bogus-flag
done
one_line "cli-opt-2.1 flightapp" flightapp --bogus-flag "$B/flightapp" --bogus-flag
one_line "cli-opt-2.2 sensorsim" sensorsim -x "$B/sensorsim" -x
run_cmd "$PREFLIGHT" check --budgets
like "$err" "^preflight: check: '--budgets': needs a value" "cli-opt-2.3 a missing value says so"
run_cmd "$PREFLIGHT" record --help
like "$out" "--buffer-percent N +wake the per-CPU readers at N % full" "cli-opt-3.1 --buffer-percent help prints %, not %%"
escapes=
for c in $cmds; do "$PREFLIGHT" help "$c" | grep -q '%%' && escapes="$escapes $c"; done
is "$escapes" "" "cli-opt-3.2 no command's help prints a printf escape (%%)"
done_testing
