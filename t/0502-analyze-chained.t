#!/bin/sh
# 0502-analyze-chained.t - the latency each task is judged on, what a silent
# CPU is blamed for, one root event behind several worst cases, and the two
# clocks of a job (issue 32 items 1, 6, 7, 8), on traces of t/tools/gentrace.c
# whose answers are fixed by construction:
#   chained  io starts 12 us after its release and runs 3500 us; it wakes
#            ctl100 3000 us into its job, and ctl100 starts 10 us after that;
#            in slot 2 io wakes ctl100 for its own CPU before its start marker
#            (as the tick does), and ctl100 starts 2 us after io sleeps
#   silent   the same, but in slot 1 CPU 0 shows no event for 3955 us before
#            the timer interrupt that wakes io, 3855 us after io's release
#   irqs     a job log beside the 'basic' trace: ctl100's job 1 took 42 us of
#            interrupts the job log's CPU time charges to it
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 27

SEED="$TOP/budgets/seed.ini"
stat3() { printf '%s/%s/%s' "$(json_get "$1" "$2.min")" "$(json_get "$1" "$2.max")" "$(json_get "$1" "$2.count")"; }

# --- 1: a chained task is judged from its waking, a timer-released one from its release
"$GEN" chained "$TMP/c.dat"
R="$TMP/c.json"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/c.dat" -o "$R"
aout=$out
is "$rc" 0 "chained-1.1 the chained trace is analysed"
T=tasks.name=ctl100
is "$(stat3 "$R" $T.activation_latency_ns)|$(stat3 "$R" $T.wakeup_latency_ns)|$(json_get "$R" $T.chained_jobs)" \
	"3022000/3517000/3|2000/10000/3|3" \
	"chained-1.2 ctl100: activation latency up to 3517 us (io's work inside), wakeup latency 10 us from io's waking (2 us when io's own 3504 us on its CPU are taken out), 3 chained jobs"
T=tasks.name=io
is "$(stat3 "$R" $T.activation_latency_ns)|$(stat3 "$R" $T.wakeup_latency_ns)|$(json_get "$R" $T.chained_jobs)" \
	"12000/12000/3|12000/12000/3|0" "chained-1.3 io, woken by its timer: its wakeup latency is its activation latency"
like "$(printf '%s\n' "$out" | grep '^ctl100 ')" "^ctl100 +trace +3 +=max +3517\.0 +10\.0 +4017\.0 +500\.0 " \
	"chained-1.4 the summary's task table shows the wake max beside the activation latency"
run_cmd "$PREFLIGHT" check "$R" --budgets "$SEED"
is "$(printf '%s\n' "$out" | grep -- '- REQ-LAT-001 ')" "ok 1 - REQ-LAT-001 io wakeup_latency max
ok 2 - REQ-LAT-001 ctl100 wakeup_latency max" \
	"chained-1.5 every wakeup is fast but io runs long: the seed's REQ-LAT-001 passes for both tasks"
is "$(json_get "$R" tasks.name=ctl100.culprits.*.seq | tr '\n' ' ')/$(json_get "$R" tasks.name=ctl100.culprits.0.wakeup_latency_ns)/$(json_get "$R" tasks.name=ctl100.culprits.0.root)/$(json_get "$R" tasks.name=io.culprits.0.root)" \
	'0 1 2 /10000/{"release_ns":1000000000000,"seq":0,"task":"io"}/{"release_ns":1000000000000,"seq":0,"task":"io"}' \
	"chained-1.6 ctl100's worst activations ranked by the wakeup latency it is judged on: jobs 0 and 1 (10 us) before job 2 (2 us, the largest activation latency, 3517 us); job 0's lateness is io's job 0, io's its own"
like "$(printf '%s\n' "$aout" | grep '^ctl100 job 2 ')" "— released by io \(pid 101, job 2\) after 11 µs, io itself 12 µs late; io \(pid 101\) 3504 µs, switch-in to start 2\.0 µs \[100 % explained\]$" \
	"chained-1.7 woken by io before io's own start marker: still released by io, its job 2"

"$PREFLIGHT" analyze -q --trace "$TMP/c.dat" -o "$TMP/c2.json" --csv "$TMP/csv"
is "$(grep '^"ctl100"' "$TMP/csv/results-tasks.csv" | awk -F, '{ print $(NF - 1) "," $NF }')/$(sed -n 1p "$TMP/csv/results-culprits.csv" | awk -F, '{ print $(NF - 1) "," $NF }')/$(grep '^"ctl100","2"' "$TMP/csv/results-culprits.csv" | awk -F, '{ print $(NF - 1) "," $NF }')" \
	'"10000","3"/"root_task","root_seq"/"io","2"' "chained-1.8 the CSV tables: the wakeup latency's max and the chained jobs, each culprit's root"
is "$(cut -d, -f6,7 "$TMP/csv/results-culprits.csv" | sed -n '1p;/^"3517000"/p' | paste -sd/)" '"latency_ns","wakeup_latency_ns"/"3517000","2000"' \
	"chained-1.9 ... each culprit's wakeup latency beside its activation latency (ctl100 job 2: 3517 us late, woken in 2 us)"

is "$(json_get "$R" tasks.name=ctl100.tail.wakeup_latency_ns.source tasks.name=ctl100.tail.wakeup_latency_ns.count \
	tasks.name=ctl100.tail.wakeup_latency_ns.reason tasks.name=ctl100.tail.activation_latency_ns | tr '\n' '|')" \
	"trace|3|too few samples for a tail model (n = 3, it needs 1000)|" \
	"chained-1.10 the trace's wakeup latency has its tail object (3 jobs: no model, why); no job log, no activation tail"

# --- 2: a timer held off by a CPU that shows no event
"$GEN" silent "$TMP/s.dat"
R="$TMP/s.json"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/s.dat" -o "$R"
C=tasks.name=io.culprits.0
is "$(json_get "$R" $C.seq)/$(json_get "$R" $C.latency_ns)/$(json_get "$R" $C.timer_expiry_delay_ns)" "1/3864000/3856000" \
	"silent-2.1 io's worst job: 3864 us late, its timer 3856 us late"
is "$(json_get "$R" $C.contributors.0.kind)|$(json_get "$R" $C.contributors.0.name)|$(json_get "$R" $C.contributors.0.duration_ns)|$(json_get "$R" $C.contributors.0.id)" \
	"silent|timer interrupt late: interrupts off or CPU not running (no event on CPU 0 for 3955.0 µs)|3855000|0" \
	"silent-2.2 the silence from the release to the timer interrupt is its own contributor, on CPU 0"
is "$(json_get "$R" $C.silent)" '{"cpu":0,"duration_ns":3955000,"from_ns":1000009900000,"to_ns":1000013855000}' \
	"silent-2.3 ... the whole silence: from stress-ng's switch-in to the interrupt's entry"
is "$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my ($t) = grep { $_->{name} eq "io" } @{$j->{tasks}};
	print join ",", map { "$_->{kind}:$_->{duration_ns}" } @{$t->{culprits}[0]{contributors}}' "$R")" \
	"silent:3855000,irq:5000,thread:2000,app:2000" \
	"silent-2.4 stress-ng-cpu (SCHED_OTHER) is blamed for 2 us after the interrupt, not for the 3857 us it was current"
is "$(json_get "$R" $C.explained_ns)/$(json_get "$R" $C.complete)" "9000/true" \
	"silent-2.5 the silence explains nothing: 9 us explained, the parts (silence included) add up"
like "$(printf '%s\n' "$out" | grep '^io job 1 ')" \
	"^io job 1 \(pid 101, released at 1000\.010000000 s\): 3864 µs late — timer interrupt late: interrupts off or CPU not running \(no event on CPU 0 for 3955 µs\) 3855 µs, local_timer interrupt \(vector 236\) 5\.0 µs, stress-ng-cpu \(pid 600\) 2\.0 µs, switch-in to start 2\.0 µs; its timer interrupt came 3856 µs after the release \[0 % explained\]$" \
	"silent-2.6 the culprit line says it, and never 100 % explained"
is "$(json_get "$R" tasks.name=ctl100.wakeup_latency_ns.max)/$(json_get "$R" tasks.name=ctl100.activation_latency_ns.max)" \
	"10000/3907000" "silent-2.7 ctl100, released by the late io: woken fast all the same"

# --- 3: the late timers that are not silence
"$GEN" chain "$TMP/ch.dat"
"$PREFLIGHT" analyze -q --trace "$TMP/ch.dat" -o "$TMP/ch.json"
is "$(json_get "$TMP/ch.json" tasks.name=io.culprits.0.contributors.0.name)/$(json_get "$TMP/ch.json" tasks.name=io.culprits.0.silent)" \
	"hog/null" "late-3.1 io woken on time but held 3281 us by a FIFO 95 hog: the hog, no silence"
"$GEN" irqs "$TMP/i.dat" "$TMP/i.log"
"$PREFLIGHT" analyze -q --trace "$TMP/i.dat" --joblog "$TMP/i.log" -o "$TMP/i.json"
is "$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my $n = 0; for my $t (@{$j->{tasks}}) { for my $c (@{$t->{culprits}}) { $n++ if grep { $_->{kind} eq "silent" } @{$c->{contributors}}; $n++ if defined $c->{silent} } }
	print $n' "$TMP/i.json")" 0 \
	"late-3.2 a timer interrupt 4 us after the release on an idle CPU (below 10 us): no silence anywhere"

# --- 4: one event behind several worst cases (each task's worst by the wakeup latency it is judged on)
is "$(json_get "$TMP/c.json" root_events)" \
	'[{"latency_ns":12000,"release_ns":1000000000000,"seq":0,"summary":"1 event explains the worst case of 2 tasks: io job 0 (released at 1000.000000000 s, 12 µs late) — io, ctl100","task":"io","tasks":["io","ctl100"]}]' \
	"root-4.1 chained: io's job 0 is the root of io's worst case and of ctl100's, which io released late"
is "$(printf '%s\n' "$aout" | grep -c '^1 event explains the worst case of 2 tasks: io job 0 (released at 1000.000000000 s, 12 µs late) — io, ctl100$')" 1 \
	"root-4.2 ... said once in the text summary"
is "$(json_get "$R" root_events.*.summary)" \
	"1 event explains the worst case of 1 task: io job 1 (released at 1000.010000000 s, 3864 µs late) — io 1 event explains the worst case of 1 task: io job 0 (released at 1000.000000000 s, 12 µs late) — ctl100" \
	"root-4.3 silent: the silent slot is io's worst case, not ctl100's, which io's waking reached in 7 us there (10 us in job 0)"

# --- 5: two clocks, one number
A=tasks.name=ctl100.agreement
is "$(stat3 "$TMP/i.json" $A.exec_time_diff_ns)|$(json_get "$TMP/i.json" $A.uncertainty)" \
	'0/42000/11|{"activation_latency_ns":1000,"authoritative":"trace","exec_time_ns":42000}' \
	"agree-5.1 ctl100: job log CPU time - trace execution time is 42 us in job 1 (its interrupts); the trace is authoritative"
is "$(json_get "$TMP/i.json" tasks.name=io.agreement.uncertainty)" \
	'{"activation_latency_ns":0,"authoritative":"trace","exec_time_ns":0}' "agree-5.2 io: the two clocks agree"

# --- 6: the qualification summary (preflight summary) of a run whose results.json is the silent trace's
cp -r "$TOP/t/fixtures/run" "$TMP/run"
cp "$R" "$TMP/run/results.json"
run_cmd "$PREFLIGHT" summary "$TMP/run"
is "$(printf '%s\n' "$out" | grep -E '^  (io|ctl100) ' | head -2)" \
"  io             3864.0 us     =max n=3    3864.0 us     3964.0 us     0         0       3     -
  ctl100         3907.0 us     =max n=3    10.0 us       4407.0 us     0         0       3     -" \
	"wsum-6.1 the app tasks' table: the wake max REQ-LAT-001 judges beside the activation latency"
cp "$TMP/c.json" "$TMP/run/results.json"
run_cmd "$PREFLIGHT" summary "$TMP/run"
is "$(printf '%s\n' "$out" | grep -c '^  1 event explains the worst case of 2 tasks: io job 0 ')" 1 \
	"wsum-6.2 the root event under the worst culprits"
cp "$TMP/i.json" "$TMP/run/results.json"
run_cmd "$PREFLIGHT" summary "$TMP/run"
like "$(printf '%s\n' "$out" | grep -E '^  ctl100 ')" " 1\.0 us$" "wsum-6.3 the clock diff column: the job log's largest difference from the trace"
