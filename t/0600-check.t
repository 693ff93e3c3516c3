#!/bin/sh
# 0600-check.t - preflight check on hand-written results.json fixtures
# (t/fixtures/results): pass, fail with margin and culprit, not measured,
# wildcard expansion and selectors, unit conversions, exit codes.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/check-lib.sh"
FX="$TOP/t/fixtures/results"
SEED="$TOP/budgets/seed.ini"
plan 60

# --- check-1: everything measured passes
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$SEED"
is "$rc" 0 "check-1.1 all measured requirements met: exit 0"
is "$(printf '%s\n' "$out" | head -1)" "1..15" "check-1.2 TAP plan first: one test per requirement and element"
like_verdict "^ok 2 - REQ-LAT-001 ctl100 wakeup_latency max$" "41.2 us <= 62 us \(margin 34 %\)" \
	"check-1.3 value, bound and margin in the bound's unit"
like_verdict "^ok 6 - REQ-CPU-001 app utilisation$" "52.1 % <= 60 % \(margin 13 %\)" "check-1.4 fraction shown in %"
like_verdict "^ok 7 - REQ-OVR-001 slots overruns$" "0 == 0" "check-1.5 second metric of a requirement"
is "$(printf '%s\n' "$out" | grep -c 'REQ-LAT-001 logger')" 0 "check-1.6 select=rt leaves out the SCHED_OTHER logger"
is "$(printf '%s\n' "$out" | grep -c 'REQ-OVR-001 ekf')" 0 "check-1.7 select=deadline_ns>0 leaves out a task without a deadline (ekf here)"
like_line "ok 12 - REQ-SPI-001 loads spi achieved transfer_time max # SKIP not measured: no 'loads' in results.json" \
	"check-1.8 absent metric: TAP SKIP 'not measured' with the reason"
is "$(printf '%s\n' "$out" | tail -1)" "# 11 passed, 0 failed, 4 not measured (4 not in this run, 0 without a value)" \
	"check-1.9 summary counts not measured apart from passed"

# issue 32.3: REQ-LOG-001 is the app logger's dropped records (the sd load's report of the app's
# stats), not preflight's job-log ring; REQ-OVR-001 takes every task with a deadline (ekf's 1 s)
perl -MJSON::PP -e 'local $/; my $j = decode_json(<>); $j->{loads} = { sd => { achieved => { logger => { dropped => 3, joblog_rows => 1333 } } } };
	$_->{name} eq "ekf" and $_->{deadline_ns} = 1000000000, $_->{deadline_misses} = 2 for @{$j->{tasks}}; print encode_json($j)' \
	"$FX/pass.json" > "$TMP/log.json"
run_cmd "$PREFLIGHT" check "$TMP/log.json" --budgets "$SEED"
like_verdict "^not ok [0-9]+ - REQ-LOG-001 loads sd achieved logger dropped$" "3 == 0$" \
	"check-1.10 REQ-LOG-001 judges the app logger's dropped records (loads.sd.achieved.logger.dropped)"
is "$(printf '%s\n' "$out" | grep -c 'REQ-LOG-001 .*joblog')" 0 "check-1.11 ... not the job log's ring"
like_verdict "^not ok [0-9]+ - REQ-OVR-001 ekf deadline_misses$" "2 == 0$" "check-1.12 REQ-OVR-001 takes ekf, whose deadline is 1 s"
is "$(printf '%s\n' "$out" | grep -c 'REQ-OVR-001 logger')" 0 "check-1.13 ... and not the logger, which has none"

# --- check-2: failures
run_cmd "$PREFLIGHT" check "$FX/fail.json" --budgets "$SEED"
is "$rc" 1 "check-2.1 a requirement failed: exit 1"
like_verdict "^not ok 2 - REQ-LAT-001 ctl100 wakeup_latency max$" "188 us <= 62 us \(margin -203 %\)" \
	"check-2.2 not ok with the value, bound and negative margin"
is "$(printf '%s\n' "$out" | sed -n '/^not ok 2 /,/^\(not \)*ok [0-9]/p' | grep '^#   worst case')" \
	"#   worst case: ctl100 job 4711: 188 us late - ksoftirqd/1 (NET_RX) 120 us, iperf3 40 us, timer IRQ delay 20 us" \
	"check-2.3 the culprit line of the worst case as a diagnostic (ASCII for CI viewers)"
is "$(printf '%s\n' "$out" | sed -n '/^not ok 3 /,/^\(not \)*ok [0-9]/p' | grep '^#   worst case')" \
	"#   worst case: nav10 job 99: 70 us late - kworker/1:2 66 us" \
	"check-2.4 the culprit of the job holding the max (max_id), not just the first listed"
like_line "#   lost trace events overlap tasks.nav10.wakeup_latency_ns.max" "check-2.5 lost events flagged"
like_verdict "^not ok 6 - REQ-CPU-001 app utilisation$" "65 % <= 60 % \(margin -8 %\)" "check-2.6 utilisation over budget"
like_verdict "^not ok 10 - REQ-OVR-001 nav10 deadline_misses$" "2 == 0$" "check-2.7 count requirement fails, no margin"
is "$(printf '%s\n' "$out" | tail -1)" "# 7 passed, 4 failed, 4 not measured (4 not in this run, 0 without a value)" "check-2.8 summary"
full=$out
run_cmd "$PREFLIGHT" check "$FX/fail.json" --budgets "$SEED" --failures
is "$rc:$(printf '%s\n' "$out" | grep -E '^(not )?ok ' | cut -d' ' -f1-4 | paste -sd,)" \
	"1:not ok 2 -,not ok 3 -,not ok 6 -,not ok 10 -" \
	"check-2.8a --failures: only the four failed verdicts, numbered as in the TAP, the same exit code"
is "$(printf '%s\n' "$out" | head -1):$(printf '%s\n' "$out" | tail -1)" \
	"# failures only (not TAP): 4 of 15 verdicts:# 7 passed, 4 failed, 4 not measured (4 not in this run, 0 without a value)" \
	"check-2.8b ... says it is a view of 4 of 15 (no plan), and ends with the counts of all"
is "$(printf '%s\n' "$out" | sed -n '/^not ok 2 /,/^not ok 3 /p')" "$(printf '%s\n' "$full" | sed -n '/^not ok 2 /,/^not ok 3 /p')" \
	"check-2.8c ... each with the same lines as in the TAP"
# issue 32: a wakeup latency's worst case is its job's activation, explained from the release
# (188 us here), while the wakeup latency (150 us) counts from the waking: the line says which;
# a max whose job has no culprit line never borrows another job's as its own
perl -MJSON::PP -e 'local $/; my $j = decode_json(<>); for (@{$j->{tasks}}) {
	$_->{wakeup_latency_ns}{max} = 150000 if $_->{name} eq "ctl100";
	$_->{wakeup_latency_ns}{max_id} = 555 if $_->{name} eq "nav10" } print encode_json($j)' \
	"$FX/fail.json" > "$TMP/wake.json"
run_cmd "$PREFLIGHT" check "$TMP/wake.json" --budgets "$SEED"
is "$(printf '%s\n' "$out" | sed -n '/^not ok 2 /,/^\(not \)*ok [0-9]/p' | grep '^#   worst case')" \
	"#   worst case: its activation, 188.0 us from its release (the wakeup latency, 150.0 us, counts from its waking, less the higher-priority tasks' runs): ctl100 job 4711: 188 us late - ksoftirqd/1 (NET_RX) 120 us, iperf3 40 us, timer IRQ delay 20 us" \
	"check-2.9 a wakeup verdict's worst case says it is the job's activation, with both figures"
is "$(printf '%s\n' "$out" | sed -n '/^not ok 3 /,/^\(not \)*ok [0-9]/p' | grep '^#   worst case')" \
	"#   worst case: not the job that holds the value (job 555 has no culprit line: not among the worst activations explained); the worst explained: nav10 job 12: 65 us late - fio 60 us" \
	"check-2.10 a max whose job has no culprit line: said, and the line shown is named as another job's"

# --- check-3: not measured and the exit code
run_cmd "$PREFLIGHT" check "$FX/units.json" --budgets "$SEED"
like_line "ok 6 - REQ-CPU-001 app utilisation # SKIP not measured: 'app' is null in results.json" \
	"check-3.1 a null member is not measured"
is "$rc" 0 "check-3.2 not measured alone does not fail by default"
run_cmd "$PREFLIGHT" check "$FX/units.json" --budgets "$SEED" --strict
is "$rc" 1 "check-3.3 --strict: not measured fails"
cat > "$TMP/none.ini" <<'INI'
[REQ-X-001]
text = nothing here is measured
metric = loads.gps.fix_time_ns.max
bound = < 1s
INI
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/none.ini"
is "$rc" 1 "check-3.4 nothing measured at all: exit 1, no verdict"
like_line "# 0 passed, 0 failed, 1 not measured \\(1 not in this run, 0 without a value\\)" "check-3.5 summary says so, and why"
cat > "$TMP/wk.ini" <<'INI'
[REQ-W-001]
text = wakeup latency of every thread
metric = threads.*.wakeup_latency_ns.p99
bound = <= 100us
INI
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/wk.ini"
like_line "ok 3 - REQ-W-001 logger wakeup_latency p99 # SKIP not measured: no sched_waking events in the trace" \
	"check-3.6 the results' *_unavailable reason is given"

printf '[REQ-T-001]\ntext = a requirement whose text\n  goes on (62 \302\265s)\nmetric = tasks.ctl100.activation_latency_ns.max\nbound = < 1us\n' > "$TMP/text.ini"
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/text.ini"
like_line "^#   requirement: a requirement whose text goes on \(62 us\)$" \
	"check-3.7 text continued on an indented line, shown on failure in ASCII"
like_line "^#   measured: tasks.ctl100.activation_latency_ns.max = 41200$" "check-3.8 the raw path and value"
printf '[REQ-T-001]\ntext = %s\nmetric = app.utilisation\nbound = <= 1%%\n' "$(printf '%01000d' 7)" > "$TMP/text.ini"
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/text.ini"
like_line "^#   requirement: 0{999}7$" "check-3.9 a 1000-character requirement text is kept whole"

# --- check-4: wildcards and selectors
cat > "$TMP/sel.ini" <<'INI'
[REQ-S-001]
text = named tasks, one of them absent
metric = tasks.*.activation_latency_ns.p99.9
select = io ctl100 gps
bound = <= 62us

[REQ-S-002]
text = predicate on a member
metric = tasks.*.jobs
select = prio>=80
bound = >= 100

[REQ-S-003]
text = string predicate
metric = tasks.*.overruns
select = policy=other
bound = == 0

[REQ-S-004]
text = cpus keyed by number, named element
metric = cpus.*.idle, cpus.1.softirq
bound = >= 0%

[REQ-S-005]
text = named element
metric = tasks.ekf.deadline_misses
bound = >= 0
INI
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/sel.ini"
is "$(printf '%s\n' "$out" | grep -c 'REQ-S-001')" 3 "check-4.1 a name list gives one test per name"
like_verdict "^ok 1 - REQ-S-001 io activation_latency p99.9$" "18.999 us <= 62 us" "check-4.2 dotted key p99.9 resolved"
like_line "ok 3 - REQ-S-001 gps activation_latency p99.9 # SKIP not measured: no element 'gps' in tasks\[\]" \
	"check-4.3 a named element that results.json lacks is not measured"
is "$(printf '%s\n' "$out" | grep 'REQ-S-002' | sed 's/.*REQ-S-002 \([a-z0-9]*\) .*/\1/' | tr '\n' ' ')" "io ctl100 " \
	"check-4.4 prio>=80 selects io and ctl100"
is "$(printf '%s\n' "$out" | grep 'REQ-S-003' | sed 's/.*REQ-S-003 \([a-z0-9]*\) .*/\1/')" "logger" \
	"check-4.5 policy=other selects logger"
like_verdict "REQ-S-004 0 idle$" "60 % >= 0 %" "check-4.6 cpus[] keyed by cpu number"
like_verdict "REQ-S-004 1 softirq$" "1 % >= 0 %" "check-4.7 a named array element"
like_verdict "REQ-S-005 ekf deadline_misses$" "0 >= 0" "check-4.8 tasks.ekf.* by name"
printf '[REQ-X-001]\ntext = t\nmetric = tasks.*.jobs\nselect = rt !ekf !mission1\nbound = > 0\n' > "$TMP/ex.ini"
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/ex.ini"
is "$(printf '%s\n' "$out" | grep 'REQ-X-001' | sed 's/.*REQ-X-001 \([a-z0-9]*\) .*/\1/' | tr '\n' ' ')" "io ctl100 nav10 " \
	"check-4.10 rt !ekf !mission1: exclusions win over the filter"
printf '[REQ-X-001]\ntext = t\nmetric = tasks.*.jobs\nselect = !logger\nbound = > 0\n' > "$TMP/ex.ini"
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/ex.ini"
is "$(printf '%s\n' "$out" | grep -c 'REQ-X-001')" 5 "check-4.11 only an exclusion: every other element"
cat > "$TMP/empty-sel.ini" <<'INI'
[REQ-E-001]
text = selector matching nothing
metric = tasks.*.overruns
select = prio>1000
bound = == 0
INI
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/empty-sel.ini"
like_line "# SKIP not measured: no element of tasks\[\] selected by prio>1000" \
	"check-4.9 a wildcard selecting nothing is reported, never silently dropped"

# --- check-5: units
cat > "$TMP/units.ini" <<'INI'
[REQ-U-001]
text = ms bound on a ns statistic
metric = loads.spi.achieved.transfer_time_ns.max
bound = < 1 ms

[REQ-U-002]
text = exactly at the bound in ns
metric = tasks.ctl100.activation_latency_ns.max
bound = <= 41200ns

[REQ-U-003]
text = just under in us: strict comparison fails
metric = tasks.ctl100.activation_latency_ns.max
bound = < 41.2us

[REQ-U-004]
text = seconds
metric = trace.duration_ns
bound = >= 60s

[REQ-U-005]
text = a percentage metric
metric = loads.wifi.achieved.rate_achieved_pct
bound = >= 95%

[REQ-U-006]
text = micro sign
metric = tasks.io.activation_latency_ns.max
bound = <= 21µs

[REQ-U-007]
text = a bare limit is an upper bound
metric = tasks.io.activation_latency_ns.max
bound = 62us
INI
run_cmd "$PREFLIGHT" check "$FX/units.json" --budgets "$TMP/units.ini"
like_verdict "^ok 1 - REQ-U-001 loads spi achieved transfer_time max$" "0.64 ms < 1 ms \(margin 36 %\)" "check-5.1 ns shown in ms"
like_verdict "^ok 2 - REQ-U-002 ctl100 activation_latency max$" "41200 ns <= 41200 ns \(margin 0 %\)" "check-5.2 <= at the bound passes"
like_verdict "^not ok 3 - REQ-U-003 ctl100 activation_latency max$" "41.2 us < 41.2 us" "check-5.3 < at the bound fails"
like_verdict "^ok 4 - REQ-U-004 trace duration$" "60 s >= 60 s" "check-5.4 seconds"
like_verdict "^ok 5 - REQ-U-005 loads wifi achieved rate_achieved_pct$" "97.5 % >= 95 % \(margin 3 %\)" "check-5.5 _pct metric in %"
like_verdict "^ok 6 - REQ-U-006 io activation_latency max$" "21 us <= 21 us" "check-5.6 µs accepted"
like_verdict "^ok 7 - REQ-U-007 io activation_latency max$" "21 us <= 62 us \(margin 66 %\)$" "check-5.7 bare '62us' means <= 62us"

# --- check-6: run directory, -o
mkdir -p "$TMP/run"
cp "$FX/pass.json" "$TMP/run/results.json"
cp "$SEED" "$TMP/run/budgets.ini"
run_cmd "$PREFLIGHT" check "$TMP/run" -o "$TMP/run/verdicts.tap"
is "$rc" 0 "check-6.1 a run directory: its results.json and budgets.ini"
is "$out" "" "check-6.2 -o: nothing on stdout"
is "$(tail -1 "$TMP/run/verdicts.tap")" "# 11 passed, 0 failed, 4 not measured (4 not in this run, 0 without a value)" "check-6.3 -o: TAP in the file"
run_cmd "$PREFLIGHT" check "$FX/pass.json"
is "$rc" 2 "check-6.4 no --budgets for a file: usage error"
out=$("$PREFLIGHT" check - --budgets "$SEED" < "$FX/pass.json" | tail -1)
is "$out" "# 11 passed, 0 failed, 4 not measured (4 not in this run, 0 without a value)" "check-6.7 results.json from stdin ('-')"
run_cmd "$PREFLIGHT" check --help
like_line "--budgets FILE" "check-6.5 --help lists the options"
like_line "--strict .*default: off" "check-6.6 --help gives defaults"
done_testing
