#!/bin/sh
# result-to-lava.sh - report a result.txt (lines '<case> <result> [<measurement>
# <units>]', see preflight-run.sh) to LAVA: each line becomes one
# lava-test-case with its verdict, and one '<case>_value' case with the
# measurement, always 'pass' - a number is not a verdict, and LAVA's charts
# and queries want measurements apart from pass/fail (as Linaro's
# test-definitions advise). Outside LAVA (no lava-test-case on PATH) the
# commands are printed instead.
#
# usage: result-to-lava.sh RESULT_TXT

set -u
[ $# -eq 1 ] && [ -r "$1" ] || { echo "usage: $0 RESULT_TXT" >&2; exit 2; }
if command -v lava-test-case >/dev/null 2>&1; then
	ltc() { lava-test-case "$@"; }
else
	ltc() { echo "lava-test-case $*"; }
fi
while read -r name result value units rest; do
	case $name in ''|'#'*) continue ;; esac
	case $result in
	pass|fail|skip|unknown) ;;
	*) echo "result-to-lava: $name: bad result '$result'" >&2; result=unknown ;;
	esac
	ltc "$name" --result "$result"
	if [ -n "$value" ]; then
		ltc "${name}_value" --result pass --measurement "$value" --units "${units:-count}"
	fi
done < "$1"
