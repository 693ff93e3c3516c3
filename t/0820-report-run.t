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
plan 24

cat > "$TMP/t.ini" <<'INI'
[scenario]
name = t0820
[flightapp]
sim = no
[load spi]
rate = 200
size = 64
[phase idle]
duration = 1s
measure = cyclictest
[phase app]
duration = 3s
measure = flightapp
loads = spi
INI
R="$TMP/run"
run_cmd "$PREFLIGHT" run "$TMP/t.ini" -o "$R"
like "$rc" '^[01]$' "reportrun-1.1 the run produced verdicts (exit 0 or 1, got $rc)" || echo "$err" | sed 's/^/#   /'
ok "reportrun-1.2 report.html written at the end" test -s "$R/report.html"
ok "reportrun-1.3 report.pdf written at the end" test -s "$R/report.pdf"
like "$(cat "$R/report.txt")" "report: $R/report.html \\(and report.pdf\\)" "reportrun-1.4 the summary names the report"
like "$(grep -o '<figure id="fig-[A-Z0-9.]*"' "$R/report.html" | sed 's/.*fig-//; s/"//' | tr '\n' ' ')" \
	'^V1 L1\.1 L1\.2 B1 X2 H1 E1 X1 T1 R1 U1 (G1\.[0-9]+ )+$' \
	"reportrun-1.5 the report of a real run has the figures V1 L1.1 L1.2 (the spi load's share of its rate) B1 X2 H1 E1 X1 (exceedance curves) T1 R1 U1 and G1 per worst case"
"$PREFLIGHT" report "$R" -o "$TMP/again.html" >/dev/null 2>&1
ok "reportrun-1.6 rendering it again gives the same bytes" cmp "$R/report.html" "$TMP/again.html"

# what produced the run, recorded in it (run.json "preflight", docs/scenarios.md)
like "$(json_get "$R/run.json" preflight.commit)" "^$(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)(-dirty)?\$" \
	"reportrun-3.1 run.json names the commit preflight was built from"
is "$(json_get "$R/run.json" preflight.libraries.libtracecmd) $(json_get "$R/run.json" preflight.tools.gnuplot)" \
	"$(pkg-config --modversion libtracecmd) $(gnuplot --version)" "reportrun-3.2 ... the libraries it was built with and the tools it ran"
if [ -r /proc/config.gz ]; then
	is "$(json_get "$R/run.json" preflight.kernel_config.sha256)" "$(sha256sum "$R/kernel.config" | cut -c1-64)" \
		"reportrun-3.3 the kernel config is copied whole, with its SHA-256"
	is "$(grep -v '^#' "$R/kernel.config" | grep -c .)" "$(zcat /proc/config.gz | grep -v '^#' | grep -c .)" \
		"reportrun-3.4 ... every option of the running kernel's"
else
	ok "reportrun-3.3 no readable kernel config: said in run.json" test -n "$(json_get "$R/run.json" preflight.kernel_config.error)"
	ok "reportrun-3.4 ... and none copied" test ! -e "$R/kernel.config"
fi
ok "reportrun-3.5 the load wrote its samples into the phase's directory" test "$(grep -c '^[0-9]' "$R/02-app/load-spi.csv")" -ge 1
like "$(grep -o 'preflight commit (run)</th><td>[^<]*' "$R/report.html")" "$(json_get "$R/run.json" preflight.commit)\$" \
	"reportrun-3.6 the report states the commit"
# what was tested, by its bytes: every program of the build the run executed, with its SHA-256 (issue 32.12)
bins=$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<>); print join("|", map { "$_->{name}=$_->{sha256}" } @{$j->{preflight}{binaries}})' "$R/run.json")
is "$bins" "preflight=$(sha256sum "$B/preflight" | cut -c1-64)|flightapp=$(sha256sum "$B/flightapp" | cut -c1-64)|sensorsim=$(sha256sum "$B/sensorsim" | cut -c1-64)|selftest-inject=$(sha256sum "$B/selftest-inject" | cut -c1-64)|flightapp-perf=$(sha256sum "$B/flightapp-perf" | cut -c1-64)" \
	"reportrun-3.7 run.json: the SHA-256 of preflight and of the programs beside it the run executes"
is "$(json_get "$R/run.json" preflight.build_tree)" "$(case $(json_get "$R/run.json" preflight.commit) in unknown) echo 'unknown (not built in a git checkout)';; *-dirty) echo 'uncommitted changes (git diff HEAD not empty)';; *) echo clean;; esac)" \
	"reportrun-3.8 ... and whether the build tree had uncommitted changes, as its commit's suffix says"
like "$(grep -o '<tr><th>binaries (SHA-256)</th><td class="hashes">[^/]*' "$R/report.html")" "preflight <code>$(sha256sum "$B/preflight" | cut -c1-64)" \
	"reportrun-3.9 the report lists them with their SHA-256"
like "$(grep -o '<tr><th>cyclictest command (01-idle)</th><td>[^<]*' "$R/report.html")" 'cyclictest .*-h' \
	"reportrun-3.10 ... and the idle phase's cyclictest command line"
# each phase's steal time per CPU, from /proc/stat (issue 32.6), in run.json, the summary and the report
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
like "$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<>); print join("|", map { my $s = $_->{steal_ms}; ref $s ? scalar(@$s) . ":" . (grep({ $_ < 0 } @$s) ? "negative" : "ok") : "null" } @{$j->{phases}})' "$R/run.json")" \
	"^$ncpu:ok\\|$ncpu:ok\$" "reportrun-3.11 run.json: every phase's steal_ms, one value per CPU ($ncpu), none negative"
like "$(grep -c '^    steal    cpu0 [0-9]* ms' "$R/report.txt"):$(grep -o '<td>cpu0 [0-9]*[^<]*</td><td>0[12]-' "$R/report.html" | wc -l)" '^2:2$' \
	"reportrun-3.12 ... a steal line under each phase of the summary, a column of the report's phase table"

sed 's/^name = t0820/name = t0820n/; /^\[phase app\]/,$d' "$TMP/t.ini" > "$TMP/n.ini"
run_cmd "$PREFLIGHT" run "$TMP/n.ini" -o "$TMP/norep" --no-report
like "$rc" '^[01]$' "reportrun-2.1 a run with --no-report (exit $rc)" || echo "$err" | sed 's/^/#   /'
ok "reportrun-2.2 ... writes no report" test ! -e "$TMP/norep/report.html" -a ! -e "$TMP/norep/report.pdf"

# --previous and --history given to run go to its report, and run.json and the summary say what it was
# compared with (issue 32.14): the same scenario again, compared with the first run, which is in the history
"$PREFLIGHT" history add --db "$TMP/h.sqlite" "$R" >/dev/null
C="$TMP/cmp"
run_cmd "$PREFLIGHT" run "$TMP/t.ini" -o "$C" --previous "$R" --history "$TMP/h.sqlite"
like "$rc:$(json_get "$C/run.json" compared_with.previous):$(json_get "$C/run.json" compared_with.history)" \
	"^[01]:$R:$TMP/h.sqlite\$" "reportrun-4.1 run --previous --history: run.json's compared_with names them"
like "$(sed -n 3p "$C/report.txt")" "^compared with: previous run $R \\(report V1\\); the scenario's runs up to this one in history $TMP/h.sqlite \\(report V2\\)\$" \
	"reportrun-4.2 ... and the summary's third line"
figs=$(grep -o '<figure id="fig-[A-Z0-9.]*"' "$C/report.html" | sed 's/.*fig-//; s/"//' | tr '\n' ' ')
like "$figs:$(perl -MMIME::Base64 -ne 'print decode_base64($1) if /<figure id="fig-V1"><img [^>]*src="data:image\/svg\+xml;base64,([^"]+)"/' "$C/report.html" | grep -c 'previous run (run)')" \
	'^V1 V2(\.1 V2\.2)? .*:1$' "reportrun-4.3 ... its report: V1 with the previous run, V2 with the history (two figures of at most 8 panels)"
like "$(perl -MMIME::Base64 -ne 'print decode_base64($1) if /<figure id="fig-V2(?:\.1)?"><img [^>]*src="data:image\/svg\+xml;base64,([^"]+)"/' "$C/report.html")" \
	'V2(\.1)? each requirement in this run and the 1 run of scenario t0820 before it' "reportrun-4.4 ... V2: the first run and this one"
