#!/bin/sh
# 0770-selftest.t - the selftest's comparison on a recorded selftest (t/fixtures/selftest:
# a quick run's trace and storm trace, the executive's job logs, the injector log, the
# recorder's summary, flightapp-perf's figures): 'preflight selftest --from' analyses them
# again and compares with the injector's time stamps. Exact counts and distributions of
# this one recording; edited injector logs show that the comparison follows them.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight CMD:gzip
plan 50

F="$TOP/t/fixtures/selftest"
# fixture - a copy of the recorded selftest in $1, job logs unpacked
fixture() {
	mkdir -p "$1" && cp "$F"/* "$1"/ && gzip -d "$1"/*.csv.gz
}
fixture "$TMP/in"
run_cmd "$PREFLIGHT" selftest --from "$TMP/in" -o "$TMP/out"
# a quick run on this project's 2-vCPU VM while other builds ran: the host's stalls put block, preempt,
# timer and event beyond the 2 us goal at p99, and a marker cost 1.52 us (probe): those verdicts are the
# machine's; what is asserted is the comparison's arithmetic on this one recording
is "$rc" 1 "st-1.1 the recorded selftest: exit 1 (cases failed on a noisy host)" || echo "$err" | sed 's/^/#   /'
is "$(echo "$out" | head -2 | tr '\n' ' ')" "TAP version 13 1..10 " "st-1.2 TAP with a plan of ten cases"
J="$TMP/out/selftest.json"
is "$(json_get "$J" schema)" preflight-selftest/1 "st-1.3 selftest.json names its schema"
like "$out" '^ok 4 - selftest-4 overrun: 120 injections, 120 valid$' "st-1.4 overruns: every count exact"
is "$(json_get "$J" cases.name=overrun.checks)" \
	'[{"expected":120,"measured":120,"name":"overruns","ok":true},{"expected":120,"measured":120,"name":"deadline misses","ok":true},{"expected":120,"measured":120,"name":"missed activations (trace)","ok":true},{"expected":120,"measured":120,"name":"missed activations (job log, none resynchronised silently)","ok":true},{"expected":120,"measured":120,"name":"slot overruns","ok":true}]' \
	"st-1.5 overruns, misses, missed activations (trace and job log), slot overruns"
like "$out" '^ok 5 - selftest-5 migrate: 120 injections, 120 valid$' "st-1.6 migrations counted exactly"
like "$out" '^ok 7 - selftest-7 lost: 47 loss windows, 385 jobs overlapping one or hidden by one$' \
	"st-1.6a lost: its injections are loss windows, its samples the traced jobs overlapping one (69) and the releases a loss hid (316) (never 'N injections, M > N valid')"
like "$out" '#   ok  missed activations the job log does not have \(hidden by a loss\): expected 0, measured 0' \
	"st-1.6b lost: no release a loss hid is called missed (the analysis before this counted 316)"
like "$out" '#   ok  lost events \(analysis = recorder\): expected 253435, measured 253435' \
	"st-1.7 lost events: the analysis counts what the recorder counted"
like "$out" '#   ok  jobs overlapping a loss flagged: expected 69, measured 69' \
	"st-1.8 every job that overlaps a loss is flagged in jobs.csv"
is "$(json_get "$J" cases.name=block.valid) $(json_get "$J" cases.name=block.invalid)" "116 4" \
	"st-1.9 blocking: 116 valid injections of 120 (a quick run has 120 per case: its p99 is not its maximum)"
is "$(json_get "$J" cases.name=block.error)" '{"count":116,"max":-761,"min":-2515,"p50":-1433,"p99":-891,"unit":"ns"}' \
	"st-1.10 blocking: the error distribution (activation latency - (the job's own start stamp - release))"
like "$out" '#   ok  culprit line kept names the hog \(its pid among the contributors\): expected 59, measured 59' \
	"st-1.11 blocking: every culprit line names the hog by its pid"
is "$(json_get "$J" cases.name=timer.valid) $(json_get "$J" cases.name=timer.error.p50) $(json_get "$J" cases.name=timer.error.p99)" "115 0 0" \
	"st-1.12 timer: the expiry pass's clock read inside the hog's interruption at the release (error 0) in 99 % of 115"
is "$(json_get "$J" cases.name=agree.checks.0.measured)" 11042 "st-1.14 trace vs job log: every job matched"
is "$(json_get "$J" pass)" false "st-1.15 selftest.json: pass is false when a case failed"
is "$(json_get "$J" cases.name=event.error)" '{"count":120,"max":-682,"min":-23083,"p50":-933,"p99":-712,"unit":"ns"}' \
	"st-1.16 event: latency - (the job's own start stamp - the write time W)"
like "$out" '#   ok  jobs released at the event.s time stamp: expected 120, measured 120' \
	"st-1.17 event: every job released at the injector's write time W, not at its trigger"
is "$(json_get "$J" cases.name=preempt.error) $(json_get "$J" cases.name=preempt.figures.response_growth_error_ns.p50)" \
	'{"count":94,"max":14578,"min":-1443,"p50":-49,"p99":14578,"unit":"ns"} 232' \
	"st-1.18 preemption: response - (the job's own end stamp - release + the clean jobs' end marker - end stamp); its growth - what the job lost"
is "$(json_get "$J" cases.name=block.figures.hog_end_to_switch_in_ns.p50) $(json_get "$J" cases.name=timer.figures.interruption_ns.p50) $(json_get "$J" cases.name=timer.figures.expiry_minus_interruption_ns.p50)" \
	"8517 34074 21050" "st-1.19 figures: the hog's last clock read to the victim's switch-in; the timer's interruption as the hog saw it, and the expiry in it"
is "$(json_get "$J" cases.name=preempt.figures.jobs_stalled_by_the_host)" 7 \
	"st-1.21 preemption: jobs whose spin lost 10 us more than the CPU clock, the hog and the phase's usual switches explain: the host took the vCPU"
like "$out" '#   ok  the hog.s run is in no job.s execution time \(error < the hog.s run; jobs the host did not stall\): expected 87, measured 87' \
	"st-1.22 ... left out of the check whether the hog's run is in a job's execution time"
# the recording predates 'selftest' recording sched_pi_setprio: the analysis (branch rtsem) sees the
# inversions, never a boost
like "$out" '#   ok  none: the inversion names the holder as the waker: expected 24, measured 24' \
	"st-1.20 pi: every inversion of a PTHREAD_PRIO_NONE injection with a culprit line names the holder"
like "$out" '#   NOT PI: the culprit names the holder: expected 22, measured 0' \
	"st-1.26 ... a trace without sched_pi_setprio names no PI holder: the check fails"

# a failed check: a job whose thread CPU time (and loss) were 100 us less, its 20 us hog's run counted in
fixture "$TMP/f"
awk -F, -v OFS=, '$1 == "preempt" && $3 == 292 { $11 -= 100000; $12 -= 100000 } { print }' "$F/inject.csv" > "$TMP/f/inject.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/f" -o "$TMP/f.out"
JF="$TMP/f.out/selftest.json"
like "$rc $out" '#   NOT the hog.s run is in no job.s execution time \(error < the hog.s run; jobs the host did not stall\): expected 87, measured 86' \
	"st-1.13 a job whose execution time holds its hog's run: the check fails"
is "$rc" 1 "st-1.25 ... exit 1"
is "$(echo "$out" | grep -A7 '^not ok 2 ' | grep worst | cut -d' ' -f4-9)" "worst: st_victim slot 490 release_ns 5034796807823" \
	"st-1.23 a failed case names its worst injection's time stamps"
is "$(json_get "$JF" pass)" false "st-1.24 selftest.json: pass is false when a case failed"

# the comparison follows the injector log, not the plan
# edited NAME AWK - a copy of the fixture whose inject.csv AWK rewrote, compared again into $TMP/NAME.out
edited() {
	fixture "$TMP/$1"
	awk -F, -v OFS=, "$2" "$F/inject.csv" > "$TMP/$1/inject.csv"
	run_cmd "$PREFLIGHT" selftest --from "$TMP/$1" -o "$TMP/$1.out"
}
fixture "$TMP/m1"
awk -F, -v OFS=, -v r="$(awk -F, '$1 == "overrun" { print $4; exit }' "$F/inject.csv")" \
	'$1 == "st_ovr" && $3 == r { $5 = sprintf("%.0f", r + 1000000); $6 = 400000 } { print }' "$TMP/in/jobs.csv" > "$TMP/m1/jobs.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/m1" -o "$TMP/m1.out"
like "$out" '#   NOT overruns: expected 119, measured 120' "st-2.1 a job that ended inside its period by its own end stamp is not expected to overrun"
fixture "$TMP/m1b"
awk -F, -v OFS=, -v r="$(awk -F, '$1 == "overrun" { printf "%.0f\n", $4 + 10000000; exit }' "$F/inject.csv")" \
	'$1 == "st_ovr" && $3 == r { $5 = sprintf("%.0f", r + 6000000) } { print }' "$TMP/in/jobs.csv" > "$TMP/m1b/jobs.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/m1b" -o "$TMP/m1b.out"
like "$out" '#   NOT overruns: expected 121, measured 120' \
	"st-2.1b a clean job of the case that ended after its period by its own end stamp is expected to overrun"
edited m2 '$1 == "block" { $11 = sprintf("%.0f", $11 - 500) } { print }'
is "$(json_get "$TMP/m2.out/selftest.json" cases.name=block.error.p50)" -933 "st-2.2 a start stamp 500 ns earlier: every blocking error 500 ns larger"
edited m3 '$1 == "migrate" && !done { $10 = $7; done = 1 } { print }'
like "$out" '#   NOT migrations: expected 119, measured 120' "st-2.3 a move the injector did not see change CPU is not expected"
edited m4 '$1 == "event" && !done { $4 = sprintf("%.0f", $4 + 1); done = 1 } { print }'
like "$out" '#   NOT jobs released at the event.s time stamp: expected 120, measured 119' \
	"st-2.4 an event whose job the analysis has at another release: the check fails"
edited m5 '$1 == "timer" { $13 = sprintf("%.0f", $7 + 1) } { print }'
is "$(json_get "$TMP/m5.out/selftest.json" cases.name=timer.error.p50)" 21049 \
	"st-2.5 an interruption 1 ns long: each expiry is measured against its end (21.05 us into the real one at p50)"
edited m6 '$1 == "preempt" && $10 != 0 { $11 = sprintf("%.0f", $11 + 1000) } { print }'
is "$(json_get "$TMP/m6.out/selftest.json" cases.name=preempt.figures.response_growth_error_ns.p50)" -768 \
	"st-2.6 preempted jobs that lost 1 us more: every growth error 1 us smaller"
edited m7 '$1 == "block" && !done { $7 = 0; done = 1 } { print }'
is "$(json_get "$TMP/m7.out/selftest.json" cases.name=block.invalid)" 5 "st-2.7 a hog that never saw the victim released: the injection is invalid"
edited m8 '$1 == "timer" && !done { $13 = 0; done = 1 } { print }'
is "$(json_get "$TMP/m8.out/selftest.json" cases.name=timer.invalid)" 6 "st-2.8 a timer hog that saw no interruption end at or after the release: invalid"

# one CPU: the injector logs why a case could not run; it is reported so, and not failed
fixture "$TMP/one"
awk -F, -v OFS=, '/^# skip|^# ncpus/ { next } $1 == "migrate" { next } /^# storm=/ { print; print "# skip.migrate=one CPU: a job has no other CPU to move to"; next } { print }' \
	"$F/inject.csv" > "$TMP/one/inject.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/one" -o "$TMP/one.out"
like "$out" '^ok 5 - selftest-5 migrate # SKIP not run on this platform: one CPU: a job has no other CPU to move to$' \
	"st-2.9 a case the platform cannot run: TAP ok with SKIP and the reason"
is "$(json_get "$TMP/one.out/selftest.json" cases.name=migrate.not_run) $(json_get "$TMP/one.out/selftest.json" cases.name=migrate.pass)" \
	"one CPU: a job has no other CPU to move to true" "st-2.10 ... selftest.json: the reason in not_run, pass true"
like "$out" '# selftest: 3 of 9 cases passed, 1 not run on this platform' "st-2.11 ... the last line counts it apart"

# bad input
fixture "$TMP/b1"
sed -i '25s/.*/block,st_victim,x/' "$TMP/b1/inject.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/b1" -o "$TMP/ob1"
like "$rc:$err" '^2:preflight: selftest: .*inject.csv:25: bad injection row$' "st-3.1 a bad injector row: exit 2, file and line"
fixture "$TMP/b2"
sed -i '1s/.*/# something else/' "$TMP/b2/inject.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/b2" -o "$TMP/ob2"
like "$rc:$err" '^2:.*inject.csv:1: not an injector log' "st-3.2 not an injector log: exit 2"
run_cmd "$PREFLIGHT" selftest --help
like "$(echo "$out" | tr '\n' ' ')" '--output DIR .*default.*--quick .*default.*--cpu N .*default.*--from DIR .*default' \
	"st-3.3 --help lists every option with its default"
run_cmd "$PREFLIGHT" selftest --cpu 4096
like "$rc:$err" "^2:.*--cpu '4096': not an online CPU" "st-3.4 --cpu outside the online CPUs: exit 2"
fixture "$TMP/b3" && rm "$TMP/b3/jobs.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/b3" -o "$TMP/ob3"
like "$rc:$err:$(echo "$err" | wc -l)" "^2:preflight: selftest: --from $TMP/b3: no readable jobs.csv \\(No such file or directory; .*\\):1\$" \
	"st-3.5 a recorded selftest without its job log: exit 2, one line naming the missing file"
# a job log of another format version: refused by the one job-log reader (lib/joblog_read.c) that
# analyze and the comparison share, in one line naming file and line, never compared
fixture "$TMP/b4" && sed -i '1s|.*|# preflight-joblog/2|' "$TMP/b4/jobs.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/b4" -o "$TMP/ob4"
like "$rc:$(echo "$err" | wc -l):$err" "^2:1:preflight: selftest: .*$TMP/b4/jobs.csv:1: job-log format v2 is not supported \\(v1 is\\)\$" \
	"st-3.6 a job log of format v2: exit 2, one line naming file and line"
ok "st-3.7 ... no selftest.json" test ! -e "$TMP/ob4/selftest.json"

# the qualification summary's "measurement validity" section
cp -r "$TOP/t/fixtures/run" "$TMP/run" && mkdir "$TMP/run/selftest" && cp "$JF" "$TMP/run/selftest/"
run_cmd "$PREFLIGHT" summary "$TMP/run"
like "$out" '^WARNING: the selftest failed on this machine: the verdicts below rest on measurements it could not validate' \
	"st-4.1 a failed selftest: the summary says so at the top"
like "$out" '^  4   overrun    120   120      counts                          pass$' \
	"st-4.2 the summary's measurement validity table: one line per case"
run_cmd "$PREFLIGHT" report "$TMP/run" -o "$TMP/run/report.html"
like "$(grep -c 'SELFTEST FAILED\|<h3>Selftest (preflight selftest --quick' "$TMP/run/report.html")" '^2$' \
	"st-4.3 the reviewer report: the failed selftest at the top and its table under Measurement validity"
