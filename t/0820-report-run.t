#!/bin/sh
# 0820-report-run.t - 'preflight run' writes the reviewer report at the end
# (report.html, report.pdf) and the summary names it; --no-report writes none.
# A tiny scenario as root: a cyclictest phase and the app traced, a few seconds each.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
need RT
need BUILT:preflight BUILT:flightapp
need CMD:gnuplot
need CMD:chromium
plan 8

cat > "$TMP/t.ini" <<'INI'
[scenario]
name = t0820
[flightapp]
sim = no
[phase idle]
duration = 2s
measure = cyclictest
[phase app]
duration = 3s
measure = flightapp
INI
R="$TMP/run"
run_cmd "$PREFLIGHT" run "$TMP/t.ini" -o "$R"
like "$rc" '^[01]$' "reportrun-1.1 the run produced verdicts (exit 0 or 1, got $rc)" || echo "$err" | sed 's/^/#   /'
ok "reportrun-1.2 report.html written at the end" test -s "$R/report.html"
ok "reportrun-1.3 report.pdf written at the end" test -s "$R/report.pdf"
like "$(cat "$R/report.txt")" "report: $R/report.html \\(and report.pdf\\)" "reportrun-1.4 the summary names the report"
like "$(grep -o '<figure id="fig-[A-Z0-9.]*"' "$R/report.html" | sed 's/.*fig-//; s/"//' | tr '\n' ' ')" \
	'^B1 H1 E1 T1 M1 R1 U1 (G1\.[0-9]+ )+$' \
	"reportrun-1.5 the report of a real run has the figures B1 H1 E1 T1 M1 R1 U1 and G1 per worst case"
"$PREFLIGHT" report "$R" -o "$TMP/again.html" >/dev/null 2>&1
ok "reportrun-1.6 rendering it again gives the same bytes" cmp "$R/report.html" "$TMP/again.html"

sed 's/^name = t0820/name = t0820n/; /^\[phase app\]/,$d' "$TMP/t.ini" > "$TMP/n.ini"
run_cmd "$PREFLIGHT" run "$TMP/n.ini" -o "$TMP/norep" --no-report
like "$rc" '^[01]$' "reportrun-2.1 a run with --no-report (exit $rc)" || echo "$err" | sed 's/^/#   /'
ok "reportrun-2.2 ... writes no report" test ! -e "$TMP/norep/report.html" -a ! -e "$TMP/norep/report.pdf"
