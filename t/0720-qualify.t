#!/bin/sh
# 0720-qualify.t - a short scenario end to end as root through 'preflight qualify':
# baseline idle and loaded, the app under loads; the run directory is complete,
# every file parses, results and verdicts are produced, the checksums hold; the quick
# selftest it runs first shows what t/0771 asserts of one (make check runs it only here).
# The phases are as short as their assertions allow: a live run's length buys none.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
need RT
need BUILT:flightapp BUILT:sensorsim BUILT:selftest-inject BUILT:flightapp-perf
. "$TOP/t/lib/selftest-lib.sh"
plan 35

cat > "$TMP/t.ini" <<'INI'
[scenario]
name = t0720
[flightapp]
sim = yes
[load wifi]
rate = 10mbit
chunk = 2s
[load rt-swarm]
tasks = 100
[load cpu]
hackbench_loops = 100
stress_cpus = 1
stress_load = 20
[phase idle]
duration = 1s
measure = cyclictest
[phase loaded]
duration = 2s
measure = cyclictest
loads = wifi spi cpu rt-swarm
[phase app]
duration = 3s
measure = flightapp
loads = wifi sd spi
INI
R="$TMP/run"
run_cmd "$PREFLIGHT" qualify --scenario "$TMP/t.ini" -o "$R"
like "$rc" '^[01]$' "qualify-1.1 qualify ran and produced verdicts (exit 0 or 1, got $rc)" ||
	echo "$err" | sed 's/^/#   /'
like "$out" "== system survey" "qualify-1.2 the survey comes first"
like "$out" "result: (PASS|FAIL)" "qualify-1.3 the summary ends with the verdict"
like "$out" "results: $R" "qualify-1.4 and says where the results are"
like "$(json_get "$R/03-app/sim.json" spi_transfers)" '^[1-9]' "qualify-1.5 the app flew with the simulator (SPI transfers)"

missing_files=
for f in run.json run.log scenario.ini budgets.ini sysinfo.json loads.json results.json \
	verdicts.tap verdicts.json report.txt qualification.txt SHA256SUMS \
	01-idle/cyclictest.json 02-loaded/cyclictest.json 02-loaded/load-wifi.json \
	03-app/trace.dat 03-app/jobs.csv 03-app/app-stats.json 03-app/load-sd.json \
	03-app/sim.json 03-app/fsw.json; do
	[ -s "$R/$f" ] || missing_files="$missing_files $f"
done
is "$missing_files" "" "qualify-2.1 the run directory is complete"

bad_json=
for f in $(cd "$R" && find . -name '*.json'); do
	json_get "$R/$f" >/dev/null 2>&1 || bad_json="$bad_json $f"
done
is "$bad_json" "" "qualify-2.2 every JSON file parses"
like "$(head -1 "$R/verdicts.tap")" '^1\.\.[0-9]+' "qualify-2.3 verdicts.tap is TAP"
is "$(json_get "$R/verdicts.json" schema)" "preflight-verdicts/1" "qualify-2.3a verdicts.json: the same verdicts as records ..."
is "$(json_get "$R/verdicts.json" 'verdicts.*.verdict' | tr ' ' '\n' | grep -c .)" "$(grep -cE '^(not )?ok ' "$R/verdicts.tap")" \
	"qualify-2.3b ... one per TAP test"
like "$(json_get "$R/verdicts.json" 'emulated.*.interface')" "wifi spi sd sensorsim" \
	"qualify-2.3c ... naming the emulated wifi, spi, sd and the simulator's links"
like "$(head -4 "$R/qualification.txt")" "EMULATED: wifi" "qualify-2.3d qualification.txt says so in its first lines"
ok "qualify-2.4 SHA256SUMS verifies" sh -c "cd '$R' && sha256sum --quiet -c SHA256SUMS"
ok "qualify-2.5 the trace is a trace-cmd file" "$PREFLIGHT" record --summary "$R/03-app/trace.dat"

is "$(json_get "$R/run.json" partial)" false "qualify-3.1 run.json: complete, not partial"
# results.json read once (a live run's is megabytes): res N is the value of the Nth path
# (a path it does not have is said on stderr, and the values after it move up: they fail)
json_get "$R/results.json" partial tasks.0.name cyclictest.all.latency_ns.count loads.spi.achieved.transfers \
	tasks.name=io.jobs tasks.name=io.missed_activations tasks.name=io.hidden_releases \
	tasks.name=io.joblog.jobs tasks.name=io.joblog.missed_activations > "$TMP/res"
res() { sed -n "$1p" "$TMP/res"; }
is "$(res 1)" false "qualify-3.2 results.json: not partial"
like "$(res 2)" '^[a-z]' "qualify-3.3 results.json has the app's tasks"
like "$(res 3)" '^[1-9]' "qualify-3.4 results.json has the cyclictest baseline beside the app"
like "$(res 4)" '^[1-9]' "qualify-3.5 results.json carries the app phase's achieved loads"
like "$(json_get "$R/loads.json" phases.1.loads.rt-swarm.achieved.jobs)" '^[1-9]' \
	"qualify-3.6 loads.json: the loaded baseline's rt-swarm ran"
is "$(json_get "$R/loads.json" phases.0.loads)" "{}" "qualify-3.7 loads.json: the idle phase had no load"
left=
for g in $(sed -n 's/.*load wifi: pid \([0-9]*\) .*/\1/p' "$R/run.log"); do
	ip netns list | grep -Eq "^pfw$g( |$)" && left="$left pfw$g"
done
is "$left" "" "qualify-4.1 no namespace of its wifi loads left behind"
is "$(json_get "$R/selftest/selftest.json" quick)" true "qualify-5.1 the quick selftest ran first, moved into the run directory"
like "$(printf '%s\n' "$out" | grep -c '^== measurement validity\|^measurement validity (preflight selftest --quick')" '^[2-9]' \
	"qualify-5.2 its TAP on stdout and its table in the summary's measurement validity section"
# the reviewer report carries the selftest too ('run' renders it before qualify moves selftest/ in)
if [ -e "$R/report.html" ]; then
	st_failed=$(json_get "$R/selftest/selftest.json" pass | sed 's/false/SELFTEST FAILED/; s/true//')
	is "$(grep -c 'Selftest (preflight selftest --quick, selftest/selftest.json)' "$R/report.html"):$(grep -o 'SELFTEST FAILED' "$R/report.html" | head -1)" \
		"1:$st_failed" "qualify-5.3 report.html shows the selftest's table, and a failed selftest at its top"
else
	skip "qualify-5.3" "run wrote no report.html (gnuplot or chromium missing)"
fi
# the selftest's exit code as qualify tells it: 1 a warning on stdout, another a line on stderr
st_rc=$(printf '%s\n' "$err" | sed -n 's/.*the selftest (preflight selftest --quick) did not run (exit \([0-9]*\)).*/\1/p')
[ -n "$st_rc" ] || st_rc=$(printf '%s\n' "$out" | grep -c '^WARNING: the selftest failed: ')
stlive_check "$st_rc" "$R/selftest" "$out" "$err"

# values a wrong analysis or check would get wrong, whatever this machine's latency: the trace
# and the job log are two readings of the same releases; 3 s of a 10 ms task are 300 releases;
# each verdict is its comparison of its value with its bound
# (releases a loss of trace events hid are the trace's too: hidden_releases)
io="$(res 5) $(res 6) $(res 7)"
log="$(res 8) $(res 9)"
is "$(echo $io | awk '{ print $1 + $2 + $3 }')" "$(echo $log | awk '{ print $1 + $2 }')" \
	"qualify-6.1 io's releases (jobs + missed): the trace's count is the job log's ($io / $log)"
like "$(echo $io | awk '{ n = $1 + $2; print (n >= 294 && n <= 306) ? "near 300" : n }')" "^near 300$" \
	"qualify-6.2 ... and 3 s of a 10 ms task: 300 releases (within 2 %)"
bad=$(perl -MJSON::PP -e '
	local $/; open my $h, "<", $ARGV[0] or die; my $d = decode_json(<$h>); my @bad;
	my %op = ("<=" => sub { $_[0] <= $_[1] }, "<" => sub { $_[0] < $_[1] }, ">=" => sub { $_[0] >= $_[1] },
		  ">" => sub { $_[0] > $_[1] }, "==" => sub { $_[0] == $_[1] });
	for my $v (@{ $d->{verdicts} }) {
		next unless defined $v->{value} && $op{ $v->{comparison} } && $v->{verdict} =~ /^(pass|fail)$/;
		my $holds = $op{ $v->{comparison} }->($v->{value}, $v->{bound}) ? "pass" : "fail";
		push @bad, "$v->{id} $v->{element}: $v->{value} $v->{comparison} $v->{bound} is $v->{verdict}" if $holds ne $v->{verdict};
	}
	print join("; ", @bad);' "$R/verdicts.json")
is "$bad" "" "qualify-6.3 every verdict of verdicts.json is its value compared with its bound"
done_testing
