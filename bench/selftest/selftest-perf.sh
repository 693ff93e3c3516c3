#!/bin/sh
# selftest-perf.sh - the live selftest as a benchmark of this machine ('make perf'):
# 'preflight selftest' (full: 100 injections per case, 500 for blocking) into a
# temporary directory, its TAP and each case's error distribution printed. A case
# that misses its goal is a measurement of the machine, not a failure of 'make perf':
# exit 0 when the selftest ran (its exit 0 or 1), its exit code otherwise (3: not
# root, no tracefs). docs/selftest.md says what each case measures.
#
# usage: bench/selftest/selftest-perf.sh [--quick]
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/selftest-perf.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

"$TOP/build/preflight" selftest ${1:+"$1"} -o "$TMP/st"
rc=$?
[ "$rc" -le 1 ] || exit "$rc"
echo "selftest: $( [ "$rc" -eq 0 ] && echo 'every case passed' || echo 'some cases missed their goal (see above and docs/selftest.md)')"
exit 0
