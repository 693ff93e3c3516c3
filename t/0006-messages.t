#!/bin/sh
# 0006-messages.t - what the programs tell a user is what happened: flightapp's job-log line,
# a failing load tool's own reason, no app logger where no app ran, the priority a user set
# beside the kernel's, one schema-name form (old run directories still read), fly --keep
# keeps the job log it promises
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:flightapp
plan 10

# --- flightapp without a job log says so, and counts no rows it never wrote
run_cmd "$B/flightapp" --no-rt --no-dma-latency -q -d 1
like "$out" "job log: none \\(no --joblog\\), [0-9]+ records dropped" "msg-1.1 flightapp: no job log, said plainly"
! printf '%s' "$out" | grep -q "none ([0-9]* rows"; _report $? "msg-1.2 and no 'none (N rows' count"

# --- a load whose tool fails shows the tool's own reason
mkdir "$TMP/bin"
cat > "$TMP/bin/stress-ng" <<'SH'
#!/bin/sh
echo "stress-ng: info:  [42] dispatching hogs: 1 cpu" >&2
echo "stress-ng: error: [42] temp-path '.' must be readable and writeable" >&2
exit 1
SH
chmod +x "$TMP/bin/stress-ng"
run_cmd env PATH="$TMP/bin:$PATH" "$PREFLIGHT" load cpu -d 5s hackbench_groups=0 stress_cpus=1
like "$rc:$err" "^3:.*stress-ng exited early with 1: stress-ng: error: \\[42\\] temp-path '.' must be readable and writeable" \
	"msg-2.1 the load's failure carries stress-ng's own reason"

# --- no app in a phase: nothing about an app logger
R="$TMP/run"
cp -r "$TOP/t/fixtures/run" "$R"
perl -MJSON::PP -e '
	my $f = shift; local $/; open my $h, "<", $f or die; my $j = decode_json(<$h>); close $h;
	my ($l) = grep { $_->{phase} eq "loaded" } @{$j->{phases}};
	$l->{loads}{sd} = { load => "sd", achieved => { write_mb_per_s => 4.0, fsyncs => 20,
		fsync_latency_p99_ns => 3000000, fsync_latency_max_ns => 3100000 } };
	open $h, ">", $f or die; print $h encode_json($j);' "$R/loads.json"
sdline=$("$PREFLIGHT" summary "$R" 2>/dev/null | grep -E '^ +sd +4.00 MB/s')
like "$sdline" "4.00 MB/s written, 20 fsyncs" "msg-3.1 the loaded cyclictest phase shows the SD load"
! printf '%s' "$sdline" | grep -q "app logger"; _report $? "msg-3.2 and says nothing about an app logger"

# --- the priority a user set, beside the kernel's
run_cmd "$PREFLIGHT" analyze --trace "$TOP/traces/ref/app-alone.dat" -o "$TMP/ref.json"
like "$(printf '%s\n' "$out" | grep -E '^ctl100 ')" "^ctl100 +[0-9]+ FIFO 80 \\(19\\) " \
	"msg-4.1 ctl100: FIFO 80 as set, kernel prio 19 beside it"

# --- one schema-name form: preflight-NAME/N everywhere the tools write one
forms=$(cd "$TOP" && grep -rhoE '"#? ?preflight-[a-z-]+ v[0-9]+' --include='*.c' --include='*.h' \
	analysis app bench ci lib reports traces preflight.c | sort -u | tr '\n' ' ')
is "$forms" "" "msg-5.1 no 'preflight-NAME vN' schema name is written"
run_cmd "$PREFLIGHT" fly --duration 5
is "$(printf '%s' "$out" | json_get - schema)" "preflight-fly/1" "msg-5.2 fly's summary: preflight-fly/1"
"$B/flightapp" --no-rt --no-dma-latency -q -d 1 --joblog "$TMP/jobs.csv" >/dev/null 2>&1
sed '1s|^# preflight-joblog/1$|# preflight-joblog v1|' "$TMP/jobs.csv" > "$TMP/old.csv"
run_cmd "$PREFLIGHT" analyze --joblog "$TMP/old.csv" -o "$TMP/old.json" -q
is "$(head -1 "$TMP/jobs.csv"):$(head -1 "$TMP/old.csv"):$rc" "# preflight-joblog/1:# preflight-joblog v1:0" \
	"msg-5.3 the job log says preflight-joblog/1, and one in the old form still reads"

# --- fly --keep keeps the job log its help promises
if test_have_prereq RT BUILT:sensorsim; then
	run_cmd "$PREFLIGHT" fly --realtime --duration 5 --keep "$TMP/keep" --output "$TMP/fly.json"
	is "$rc:$(head -1 "$TMP/keep/jobs.csv" 2>/dev/null)" "0:# preflight-joblog/1" "msg-6.1 fly --keep DIR: DIR/jobs.csv" ||
		printf '%s\n' "$err" | sed 's/^/#   /'
else
	skip "msg-6.1"
fi
done_testing
