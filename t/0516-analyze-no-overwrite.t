#!/bin/sh
# 0516-analyze-no-overwrite.t - no command writes over one of its inputs or
# over a run's evidence (a file its SHA256SUMS lists, or SHA256SUMS itself):
# analyze (-o, --csv), check, summary, report, baseline, compare and history
# refuse with exit 2 before writing anything (lib/outguard.c); the tables of
# analyze --csv are named apart from a run's inputs, so analysing a phase
# directory into itself leaves its job log as it was.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace BUILT:t/ci_genruns
plan 24

# a phase directory of an app run: its trace and its job log
P="$TMP/03-app"
mkdir -p "$P"
"$GEN" basic "$P/trace.dat" "$P/jobs.csv"
cp "$P/jobs.csv" "$TMP/jobs.orig"

# --- out-1: analyze
run_cmd "$PREFLIGHT" analyze "$P" --csv "$P" -q
is "$rc" 0 "out-1.1 analyze D --csv D: the tables go beside the job log"
ok "out-1.2 ... and the job log (jobs.csv) is as it was" cmp "$P/jobs.csv" "$TMP/jobs.orig"
is "$(json_get "$P/results.json" tasks.name=ctl100.jobs)" 11 "out-1.3 ... and results.json read it (11 ctl100 jobs)"
run_cmd "$PREFLIGHT" analyze -q --trace "$P/trace.dat" --joblog "$P/jobs.csv" -o "$P/jobs.csv"
is "$rc" 2 "out-1.4 -o naming the job log: exit 2"
like "$err" "^preflight: analyze: .*jobs\.csv: refusing to write over an input of this command" \
	"out-1.5 ... one line saying why"
ok "out-1.6 ... and the job log is untouched" cmp "$P/jobs.csv" "$TMP/jobs.orig"
ln "$P/jobs.csv" "$TMP/hardlink.csv"
run_cmd "$PREFLIGHT" analyze -q --joblog "$TMP/hardlink.csv" -o "$P/../03-app/./jobs.csv"
is "$rc" 2 "out-1.7 the same file by another name (a hard link, another path): refused"
mkdir "$TMP/c"
cp "$P/jobs.csv" "$TMP/c/results-jobs.csv"
run_cmd "$PREFLIGHT" analyze -q --trace "$P/trace.dat" --joblog "$TMP/c/results-jobs.csv" --csv "$TMP/c" -o "$TMP/c/r.json"
is "$rc:$(ls "$TMP/c" | tr '\n' ' ')" "2:results-jobs.csv " \
	"out-1.8 an input where a --csv table would go: exit 2 before anything is written"

# a run directory with its evidence, summed as 'preflight run' sums it
R="$TMP/run"
mkdir -p "$R"
cp -r "$TOP/t/fixtures/run"/*.json "$TOP/t/fixtures/run/verdicts.tap" "$TOP/t/fixtures/run/01-idle" "$R"
mkdir "$R/02-loaded"
cp "$P/trace.dat" "$P/jobs.csv" "$P/results.json" "$R/02-loaded"
( cd "$R" && find . -type f -print0 | sort -z | xargs -0 sha256sum > "$TMP/sums" ) && mv "$TMP/sums" "$R/SHA256SUMS"
cp "$P/jobs.csv" "$TMP/jl.csv"
run_cmd "$PREFLIGHT" analyze -q --joblog "$TMP/jl.csv" -o "$R/01-idle/results.json"
is "$rc" 2 "out-2.1 analyze -o a phase's results.json that the run's SHA256SUMS lists: exit 2"
like "$err" "refusing to write over a run's evidence: .*run/SHA256SUMS lists it" "out-2.2 ... naming the SHA256SUMS"
run_cmd "$PREFLIGHT" analyze -q "$R/02-loaded"
is "$rc" 2 "out-2.3 analyze of a recorded phase directory into itself: refused (its results.json is evidence)"
run_cmd "$PREFLIGHT" check "$R" --budgets "$TOP/budgets/seed.ini" -o "$R/verdicts.tap"
is "$rc" 2 "out-2.4 check -o the run's verdicts.tap: exit 2"
run_cmd "$PREFLIGHT" check "$R/results.json" --budgets "$TOP/budgets/seed.ini" -o "$R/results.json"
is "$rc" 2 "out-2.5 check -o its own results.json: exit 2"
cp "$TOP/budgets/seed.ini" "$TMP/b.ini"
run_cmd "$PREFLIGHT" check "$R/results.json" --budgets "$TMP/b.ini" -o "$TMP/b.ini"
is "$rc:$(cmp "$TMP/b.ini" "$TOP/budgets/seed.ini" && echo same)" "2:same" "out-2.6 check -o its budget file: exit 2, the file untouched"
run_cmd "$PREFLIGHT" summary "$R" -o "$R/run.json"
is "$rc" 2 "out-2.7 summary -o the run.json it reads: exit 2"
run_cmd "$PREFLIGHT" summary "$R" -o "$R/SHA256SUMS"
is "$rc" 2 "out-2.8 summary -o the run's SHA256SUMS: exit 2"
run_cmd "$PREFLIGHT" summary "$R" -o "$R/report.txt"
is "$rc" 0 "out-2.9 summary -o report.txt (not evidence: written after the checksums) still works"
run_cmd "$PREFLIGHT" report "$R" -o "$R/sysinfo.json"
is "$rc" 2 "out-2.10 report -o a file of the run: exit 2"
ok "out-2.11 the run's evidence is intact after all of that" sh -c 'cd "$1" && sha256sum -c --quiet SHA256SUMS' sh "$R"

# --- out-3: baseline, compare, history
G="$B/t/ci_genruns"
"$G" "$TMP/runs" --runs 10 --seed 11 >/dev/null || echo "# ci_genruns failed"
run_cmd "$PREFLIGHT" baseline create "$TMP"/runs/run-* -o "$TMP/bl.json"
is "$rc" 0 "out-3.1 a baseline of ten runs"
cp "$TMP/bl.json" "$TMP/bl.orig"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" --md "$TMP/bl.json" "$TMP/runs/run-01"
is "$rc:$(cmp "$TMP/bl.json" "$TMP/bl.orig" && echo same)" "2:same" "out-3.2 compare --md over its baseline: exit 2, untouched"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" --json "$TMP/runs/run-01/results.json" "$TMP/runs/run-01/results.json"
is "$rc" 2 "out-3.3 compare --json over a run's results.json it reads: exit 2"
run_cmd "$PREFLIGHT" baseline create "$TMP"/runs/run-* -o "$TMP/runs/run-02"
is "$rc" 2 "out-3.4 baseline -o one of its input runs: exit 2"
run_cmd "$PREFLIGHT" history add --db "$TMP/h.sqlite" "$TMP"/runs/run-01
run_cmd "$PREFLIGHT" history trend --db "$TMP/h.sqlite" --metric io.activation_latency.max --csv "$TMP/h.sqlite"
is "$rc" 2 "out-3.5 history trend --csv over its database: exit 2"
