#!/bin/sh
# 0736-run-cyclictest-trace.t - the scenario key cyclictest.trace (docs/scenarios.md):
# a baseline phase recorded in full, one with the flight recorder triggered by
# cyclictest's own live worst, and one left untraced (the default): each traced
# phase keeps its trace in its directory, run.json says how it was traced and
# lists the file, and its results.json explains cyclictest's worst wakeups
# (cyclictest_wakeups, docs/results.md); the untraced one records nothing.
# A bad value is a scenario error before anything runs.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
need RT
command -v cyclictest >/dev/null 2>&1 || skip_all "cyclictest not installed (rt-tests)"
plan 15

printf '[scenario]\nname = bad\n[phase b]\nduration = 2s\nmeasure = cyclictest\ncyclictest.trace = partial\n' > "$TMP/bad.ini"
run_cmd "$PREFLIGHT" run --check "$TMP/bad.ini"
is "$rc:$err" "2:preflight: run: $TMP/bad.ini:6: cyclictest.trace: 'partial': expected full, flight or off" \
	"ctr-1.1 a bad cyclictest.trace: the file and line, exit 2"

cat > "$TMP/t.ini" <<'INI'
[scenario]
name = t0736
[cyclictest]
interval = 500us
[phase full]
duration = 1s
measure = cyclictest
cyclictest.trace = full
[phase flight]
duration = 2s
measure = cyclictest
cyclictest.trace = flight
cyclictest.trigger = 1us
cyclictest.max_snapshots = 2
[phase plain]
duration = 1s
measure = cyclictest
INI
R="$TMP/run"
run_cmd "$PREFLIGHT" run "$TMP/t.ini" -o "$R" --keep-trace always
like "$rc" '^[01]$' "ctr-1.2 the run ran and produced verdicts (exit 0 or 1, got $rc)" || echo "$err" | sed 's/^/#   /'
is "$(json_get "$R/run.json" phases.0.trace phases.1.trace phases.1.trigger_ns phases.1.max_snapshots phases.2.trace | tr '\n' ' ')" \
	"full flight 1000 2 off " "ctr-1.3 run.json: how each phase was traced (off by default), the flight recorder's trigger and budget"
like "$(json_get "$R/run.json" traces.*.file)" "^01-full/trace\\.dat 02-flight/trace-0[0-9][0-9]\\.dat" \
	"ctr-1.4 run.json lists the baseline's trace and snapshot like the app's"
ok "ctr-1.5 the full trace is kept in its phase directory" test -s "$R/01-full/trace.dat"
ok "ctr-1.6 the untraced phase recorded nothing" test -z "$(ls "$R/03-plain" | grep '\.dat$')"
like "$(cat "$R/run.log")" "phase flight: [0-9]+ worst [0-9.]+ us > trigger 1us: snapshot requested" \
	"ctr-1.7 the snapshot was triggered by cyclictest's live worst"

F="$R/01-full/results.json"
ncpu=$(nproc)
is "$(json_get "$F" inputs.trace):$(json_get "$F" cyclictest_wakeups.source):$(json_get "$F" cyclictest_wakeups.release_from)" \
	"$R/01-full/trace.dat:trace:hrtimer_start" "ctr-2.1 the phase's analysis read its trace: wakeups from the expiry each thread armed"
is "$(json_get "$F" 'cyclictest_wakeups.threads.*.name')" "$(seq 0 $((ncpu - 1)) | sed 's/^/T/' | tr '\n' ' ' | sed 's/ $//')" \
	"ctr-2.2 one measuring thread per CPU (-S), each matched with cyclictest's own"
w=$(json_get "$F" cyclictest_wakeups.worst.0.latency_ns)
m=$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0]; my $t = decode_json(<$f>)->{cyclictest_wakeups}{threads};
	my ($m) = sort { $b <=> $a } map { $_->{latency_ns}{max} } @$t; print $m' "$F")
ok "ctr-2.3 the worst wakeup explained ($w ns) is at least the worst any thread had measured ($m ns)" test "$w" -ge "$m"
like "$(json_get "$F" cyclictest_wakeups.worst.0.summary)" "^cyclictest T[0-9]+ \\(tid [0-9]+\\) wakeup [0-9]+ on CPU [0-9]+, .* late( — |.* \\[)" \
	"ctr-2.4 with its culprit line"
is "$(json_get "$R/02-flight/results.json" cyclictest_wakeups.source)" snapshots \
	"ctr-2.5 the flight-recorder phase's wakeups come from its snapshots"
json_get "$R/03-plain/results.json" cyclictest_wakeups >/dev/null 2>&1
is "$?:$(json_get "$R/03-plain/results.json" inputs.trace)" "1:null" "ctr-2.6 the untraced phase: no trace, no cyclictest_wakeups"
like "$(cat "$R/report.txt")" "cyclictest's worst wakeups explained" "ctr-2.7 the run's summary explains the baseline's worst wakeups"
n=$(json_get "$F" 'cyclictest_wakeups.worst' | grep -o '"summary"' | wc -l)
if [ -e "$R/report.html" ] || command -v gnuplot >/dev/null; then
	is "$(grep -c '^<li>cyclictest T' "$R/report.html"):$(grep -c "cyclictest's worst wakeups explained (idle phase, from its trace)" "$R/report.html")" \
		"$n:1" "ctr-2.8 the HTML report lists the traced baseline's worst wakeups (its first idle phase: 01-full)"
else	# a target board (the emulated guests) has no gnuplot: the run says why it made no report
	like "$(cat "$R/report.log")" "gnuplot: not found: install the Debian package" \
		"ctr-2.8 no gnuplot here: no report, and report.log says why"
fi
