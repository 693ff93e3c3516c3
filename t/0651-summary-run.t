#!/bin/sh
# 0651-summary-run.t - a one-second cyclictest run as root: 'preflight run'
# writes report.txt by running 'preflight summary' as a child, and the file is
# what 'preflight summary' prints for that run directory
. "$(dirname "$0")/lib/test-lib.sh"
need RT
need CMD:cyclictest
plan 5

printf '[scenario]\nname = t0651\n[phase idle]\nduration = 1s\nmeasure = cyclictest\n' > "$TMP/s.ini"
R="$TMP/run"
run_cmd "$PREFLIGHT" run "$TMP/s.ini" -o "$R" --no-report
like "$rc" '^[01]$' "summary-run-1.1 the run produced its verdicts (exit 0 or 1, got $rc)" ||
	echo "$err" | sed 's/^/#   /'
ok "summary-run-1.2 report.txt written" test -s "$R/report.txt"
is "$(printf '%s' "$err" | grep -c 'not written')" 0 "summary-run-1.3 no stage said 'not written'"
run_cmd "$PREFLIGHT" summary "$R"
is "$out" "$(cat "$R/report.txt")" "summary-run-1.4 report.txt is the summary of the run directory"
like "$(sed -n 2p "$R/report.txt")" "^run directory $R, " "summary-run-1.5 and names the run directory"
done_testing
