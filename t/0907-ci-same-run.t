#!/bin/sh
# 0907-ci-same-run.t - a run counts once (issue 27 item 5): ten copies of one
# run (one run.json uuid) made a "10-run" baseline, and compare judged runs
# the baseline was made of, or one run given three times, without a word.
# baseline and compare now refuse them (exit 2, one line naming both), by the
# key history de-duplicates with: run.json's uuid, else the results' hash.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/ci_genruns
plan 10

G="$B/t/ci_genruns"
D="$TMP/runs"
mkdir -p "$D"
"$G" "$D/base" --runs 10 --seed 11 >/dev/null || exit 1
"$G" "$D/new" --runs 2 --seed 12 --first 11 >/dev/null || exit 1
for i in 01 02 03 04 05 06 07 08 09 10; do cp -r "$D/base/run-01" "$D/copy-$i"; done

run_cmd "$PREFLIGHT" baseline create "$D"/copy-* -o "$TMP/copies.json"
like "$rc:$err" "^2:preflight: baseline: $D/copy-02: the same run as $D/copy-01 \\([0-9a-f-]{36}\\): a run counts once$" \
	"same-1.1 ten copies of one run are no baseline: exit 2, one line naming two of them"
ok "same-1.2 ... nothing written" test ! -e "$TMP/copies.json"
run_cmd "$PREFLIGHT" baseline create "$D"/base/run-0[1-9] "$D/copy-01" -o "$TMP/copies.json"
like "$rc:$err" "^2:preflight: baseline: $D/copy-01: the same run as $D/base/run-01 " \
	"same-1.3 nine runs and a copy of one of them: refused"

# runs of an older preflight, without a uuid: their results' hash tells them apart, as in history
for i in 01 02; do sed '/"uuid"/d' "$D/base/run-01/run.json" > "$D/copy-$i/run.json.new" && mv "$D/copy-$i/run.json.new" "$D/copy-$i/run.json"; done
run_cmd "$PREFLIGHT" baseline create "$D/copy-01" "$D/copy-02" --allow-small -o "$TMP/old.json"
like "$rc:$err" "^2:preflight: baseline: $D/copy-02: the same run as $D/copy-01 \\(results-[0-9a-f]{16}\\)" \
	"same-1.4 copies of a run without a uuid: the same results, refused"

run_cmd "$PREFLIGHT" baseline create "$D"/base/run-* -o "$TMP/bl.json"
is "$rc:$(json_get "$TMP/bl.json" runs.2.uuid)" "0:$(json_get "$D/base/run-03/run.json" uuid)" \
	"same-2.1 ten distinct runs make a baseline, each run's uuid kept"

run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D/new/run-11" "$D/base/run-03"
like "$rc:$err" "^2:preflight: compare: $D/base/run-03: run [0-9a-f-]{36} is in the baseline $TMP/bl\\.json \\(runs\\[2\\], $D/base/run-03\\): compare judges new runs only$" \
	"same-2.2 a run the baseline holds: exit 2, one line"
is "$out" "" "same-2.3 ... and no verdicts"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D/copy-05"
like "$rc:$err" "^2:preflight: compare: $D/copy-05: run [0-9a-f-]{36} is in the baseline" \
	"same-2.4 a copy of a baseline run (another path) is still that run"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D/new/run-11" "$D/new/run-11" "$D/new/run-11"
like "$rc:$err" "^2:preflight: compare: $D/new/run-11: the same run as $D/new/run-11 " \
	"same-2.5 one new run given three times: refused"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D/new/run-11" "$D/new/run-12"
like "$rc" "^[01]$" "same-2.6 two new runs compare (exit 0 or 1)"
