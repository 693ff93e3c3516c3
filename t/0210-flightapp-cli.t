#!/bin/sh
# 0210-flightapp-cli.t - flightapp's command line and configuration errors:
# --help lists every option with its default; every malformed configuration
# is rejected with "file:line: what is wrong" and exit code 2.
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/app-lib.sh"
plan 35

run_cmd "$FLIGHTAPP" --help
is "$rc" 0 "app-1.1 --help exits 0"
missing_opts=""
for o in --config --profile --duration --no-rt --joblog --stats-json --trace-instance --trace-text \
	--no-dma-latency --require-dma-latency --quiet --help; do
	printf '%s' "$out" | grep -q -- "$o" || missing_opts="$missing_opts $o"
done
is "$missing_opts" "" "app-1.2 --help lists every option"
is "$(printf '%s\n' "$out" | grep -c '^  .*--.*default')" 11 "app-1.3 every option line states its default"

run_cmd "$FLIGHTAPP" --bogus
is "$rc" 2 "app-1.4 unknown option: exit 2"
run_cmd "$FLIGHTAPP" --duration 3parsecs
is "$rc:$err" "2:flightapp: --duration: bad duration '3parsecs' (seconds, or with a unit: 500ms)" \
	"app-1.5 bad --duration: exit 2, one line"
run_cmd "$FLIGHTAPP" --profile no-such-profile
like "$rc:$err" "^2:flightapp: --profile: profile 'no-such-profile' not found \\(searched .*/app/profiles/no-such-profile\\.ini \\(build tree\\), .*\\)$" \
	"app-1.6 unknown profile: exit 2, what was searched on one line"
run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 0.05 --profile omap3-60 --stats-json "$TMP/p.json"
like "$rc:$(json_get "$TMP/p.json" .profile):$(json_get "$TMP/p.json" .config)" '^0:omap3-60:.*/app/profiles/omap3-60\.ini$' \
	"app-1.6a --profile NAME found beside the program"
mkdir -p "$TMP/data/profiles" && printf '[task io]\nwork = 1ms\n' > "$TMP/data/profiles/mine.ini"
PREFLIGHT_DATA="$TMP/data" run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 0.05 --profile mine \
	--stats-json "$TMP/p.json"
is "$rc:$(json_get "$TMP/p.json" .tasks.0.work_ns)" "0:1000000" "app-1.6b --profile from \$PREFLIGHT_DATA/profiles"
run_cmd "$FLIGHTAPP" --config "$TMP/absent.ini"
is "$rc:$err" "2:flightapp: $TMP/absent.ini: No such file or directory" "app-1.7 missing config file: exit 2"
run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 0.05 --config "$TMP"
is "$rc:$err" "2:flightapp: $TMP: Is a directory" "app-1.7a a directory as config file: exit 2, not read as empty"
run_cmd "$FLIGHTAPP" --trace-text
is "$rc:$err" "2:flightapp: --trace-text: needs --trace-instance" "app-1.8 --trace-text alone: exit 2"
run_cmd "$FLIGHTAPP" extra
is "$rc" 2 "app-1.9 stray argument: exit 2"

if test_have_prereq CMD:readelf; then
	is "$(readelf -n "$FLIGHTAPP" | sed -n 's/^ *Name: \(job_[a-z]*\)$/\1/p' | sort | tr '\n' ' ')" "job_end job_start " \
		"app-1.10 USDT probes preflight:job_start and job_end are in the binary"
else
	skip app-1.10
fi

# bad_config ID DESC EXPECTED-MESSAGE-AFTER-FILE INI - the INI (printf format) must fail with file:line
bad_config() {
	f="$TMP/case$1.ini"
	printf "$4" > "$f"
	run_cmd "$FLIGHTAPP" --no-rt --duration 1 --config "$f"
	is "$rc:$err" "2:flightapp: $f:$3" "app-2.$1 $2"
}
bad_config 1 "unknown key" "4: unknown key 'prio' in [task io]" \
	'[app]\nslot = 10ms\n[task io]\nprio = 90\n'
bad_config 2 "bad unit" "2: work: bad duration '500uS' (a number with a unit: ns, us, ms, s)" \
	'[task ctl100]\nwork = 500uS\n'
bad_config 3 "number without a unit" "2: period: bad duration '10' (a number with a unit: ns, us, ms, s)" \
	'[task ctl100]\nperiod = 10\n'
bad_config 4 "priority out of range" "3: priority: '120' out of range (SCHED_FIFO 1..99)" \
	'; comment\n[task nav10]\npriority = 120\n'
bad_config 5 "period not a multiple of the slot" "2: task nav10: period 25000000 ns is not a multiple of the slot (10000000 ns)" \
	'[task nav10]\nperiod = 25ms\n'
bad_config 6 "slot that the default periods do not divide" "5: task ctl100: period 10000000 ns is not a multiple of the slot (4000000 ns)" \
	'[task ctl100]\nwork = 1ms\n\n[app]\nslot = 4ms\n'
bad_config 7 "phase not a multiple of the slot" "3: task new: phase 5000000 ns is not a multiple of the slot (10000000 ns)" \
	'[task new]\nperiod = 20ms\nphase = 5ms\n'
bad_config 8 "unknown kind" "2: kind: unknown kind 'sporadic' (tick, periodic, event, background)" \
	'[task ekf]\nkind = sporadic\n'
bad_config 9 "unknown policy" "2: policy: unknown policy 'rr' (fifo or other)" \
	'[task io]\npolicy = rr\n'
bad_config 10 "unknown section" "3: unknown section [gps]" \
	'[task io]\nwork = 1ms\n[gps]\nport = x\n'
bad_config 11 "syntax error" "3: syntax error (expected [section] or key = value)" \
	'[app]\nslot: 10ms\nring 64\n'
bad_config 12 "tick period other than the slot" "2: task io: a tick task's period must be the slot (10000000 ns)" \
	'[task io]\nperiod = 20ms\n'
bad_config 13 "ring not a power of two" "2: ring: bad entry count '1000' (a power of two, 64..16777216)" \
	'[app]\nring = 1000\n'
bad_config 14 "fifo without a priority" "1: task radar: policy fifo needs a priority 1..99" \
	'[task radar]\npolicy = fifo\nperiod = 20ms\n'
bad_config 14a "line longer than inih's buffer" "2: line too long (at most 199 characters)" \
	"[task io]\n; $(printf '%0250d' 0)\nwork = 1ms\n"

f="$TMP/notick.ini"
printf '[task io]\nenabled = false\n' > "$f"
run_cmd "$FLIGHTAPP" --no-rt --config "$f"
is "$rc:$err" "2:flightapp: $f: 0 enabled tick tasks: exactly one task must be of kind tick" \
	"app-2.15 no tick task: exit 2"

run_cmd "$FLIGHTAPP" --no-rt --duration 1 --joblog /nonexistent-dir/x.csv
is "$rc:$err" "2:flightapp: --joblog: /nonexistent-dir/x.csv: No such file or directory" \
	"app-2.16 unwritable job log: exit 2"
run_cmd "$FLIGHTAPP" --no-rt --duration 2 --stats-json /nonexistent-dir/s.json
is "$rc:$err" "2:flightapp: /nonexistent-dir/s.json: cannot write: No such file or directory" \
	"app-2.16a unwritable --stats-json: exit 2 before the run, one line"
run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 0.05 --stats-json /dev/stdout
is "$rc:$(printf '%s\n' "$out" | sed -n '/^{/,/^}/p' | json_get - schema)" \
	"0:preflight-flightapp-stats/1" "app-2.16b --stats-json to a stream (/dev/stdout)"
run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 0.1 --joblog /dev/full
is "$rc:$err" "3:flightapp: --joblog: /dev/full: No space left on device" "app-2.16c job log on a full device: exit 3, one line with the reason"
run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 0.1 --stats-json /dev/full
is "$rc:$err" "3:flightapp: --stats-json: /dev/full: No space left on device" "app-2.16d statistics on a full device: exit 3, one line"
run_cmd "$FLIGHTAPP" --no-rt --duration 1 --trace-instance preflight-no-such-instance-$$
is "$rc" 3 "app-2.17 missing tracefs instance: exit 3 (environment)"
done_testing
