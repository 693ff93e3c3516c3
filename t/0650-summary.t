#!/bin/sh
# 0650-summary.t - 'preflight summary RUN_DIR': the plain-text qualification
# summary of a run directory fixture (the files of a real t0720 run, trimmed to
# what the summary reads), byte for byte the text 'preflight qualify --summary'
# prints (t/fixtures/run-summary.txt); missing files are said so;
# bad input is one line, exit 2
. "$(dirname "$0")/lib/test-lib.sh"
plan 49

cd "$TOP" || exit 1
FX=t/fixtures/run
EXPECTED=$(cat t/fixtures/run-summary.txt)

run_cmd "$PREFLIGHT" summary "$FX"
is "$rc" 0 "summary-1.1 a run directory: exit 0"
is "$out" "$EXPECTED" "summary-1.2 the summary, exactly as before it moved to reports/"
is "$err" "" "summary-1.3 nothing on stderr"
run_cmd "$PREFLIGHT" summary "$FX" -o "$TMP/s.txt"
is "$rc:$out:$err" "0::" "summary-1.4 -o FILE: exit 0, nothing on stdout or stderr"
ok "summary-1.5 -o FILE holds the same text" cmp "$TMP/s.txt" t/fixtures/run-summary.txt
run_cmd "$PREFLIGHT" qualify --summary "$FX"
is "$rc:$out" "0:$EXPECTED" "summary-1.6 'qualify --summary' prints the same (through 'preflight summary')"
like "$out" "  spi      .* max 50766\.5 us, p99\.99 50766\.5 us" "summary-1.7 a key with dots (p99.99) is read whole"

# a run directory with files missing: each section says so
cp -r "$FX" "$TMP/part"
rm "$TMP/part/results.json" "$TMP/part/sysinfo.json" "$TMP/part/verdicts.json" "$TMP/part/SHA256SUMS"
run_cmd "$PREFLIGHT" summary "$TMP/part"
is "$rc" 0 "summary-2.1 files missing: still a summary, exit 0"
like "$out" "\(no sysinfo.json: 'preflight sysinfo' did not run\)" "summary-2.2 no sysinfo.json is said"
like "$out" "results: no results.json \(analysis did not run\)" "summary-2.3 no results.json is said"
like "$out" "\(no verdicts.json\)" "summary-2.4 no verdicts.json is said"
like "$out" "\(no SHA256SUMS\)" "summary-2.5 no SHA256SUMS is said"
like "$out" "result: FAIL: requirements not met$" "summary-2.6 the result is run.json's"

# the top-level results.json's cyclictest is the last loaded cyclictest phase's (docs/scenarios.md), run before the
# app: named by its phase, never "beside the app" (issue 32.15: qualification.txt said so of phase 02)
cp -r t/fixtures/report-run "$TMP/rr"
find "$TMP/rr" -name '*.gz' -exec gunzip {} +
is "$("$PREFLIGHT" summary "$TMP/rr" | grep '^  cyclictest baseline')" \
	"  cyclictest baseline under the loads, phase 02-loaded, without the app (not beside it): max 261691.0 us, p99.99 unknown (>= 10000.0 us)" \
	"summary-2.9 the cyclictest baseline named by its phase (02-loaded), without the app"
# a cyclictest histogram that overflowed (-h 10000) is said in words: how many samples, its range, which percentiles
# are unknown (issue 32.15: the idle baseline's showed "p99.99 -" without a word)
S=$("$PREFLIGHT" summary "$TMP/rr")
is "$(printf '%s\n' "$S" | sed -n '/^  01-idle/,/^  02-loaded/p' | sed -n 2,3p)" \
"    baseline cyclictest max 23448.0 us, p99.99 unknown (>= 10000.0 us), 14263 samples
             histogram overflowed: 41 of 14263 samples (0.29 %) at or above 10000.0 us, the end of its range (-h 10000), have no value but the max, 23448.0 us; the histogram covers 99.71 % of the samples, so p99.9 and p99.99, above that, are unknown (only >= the range's end and <= the max)" \
	"summary-5.1 the idle phase's overflowed histogram: 41 of 14263 samples past 10 ms, p99.9 and p99.99 unknown"
is "$(printf '%s\n' "$S" | grep -A1 '^  cyclictest baseline' | sed -n 2p)" \
"    histogram overflowed: 277 of 13865 samples (2.00 %) at or above 10000.0 us, the end of its range (-h 10000), have no value but the max, 261691.0 us; the histogram covers 98.00 % of the samples, so p99, p99.9 and p99.99, above that, are unknown (only >= the range's end and <= the max)" \
	"summary-5.2 the loaded baseline under the app's table: 277 overflows, p99 and above unknown"
is "$(printf '%s\n' "$EXPECTED" | grep -c 'overflowed')" 0 "summary-5.3 a run whose cyclictest kept no histogram says nothing of overflows"
# the simulator's counts while the app flew, apart from before and after it; the app's time in failsafe by cause
# (issue 32.15: GPS fixes 90 vs 101, the track error's max after the app stopped, 0 failsafe events but 0.301 s)
cp -r "$FX" "$TMP/win"
perl -MJSON::PP -i -0777 -pe 'my $j = JSON::PP->new->decode($_); @$j{qw(gps_fixes gps_fixes_before_app gps_fixes_app
	gps_fixes_after_app app_start_s app_end_s metrics_start_s track_err_max_m track_err_max_t_s track_err_after_app_max_m
	failsafe_s)} = (101, 2, 88, 11, 1.25, 91.5, 5, 12.5, 47.25, 30.75, 0.301); $_ = JSON::PP->new->encode($j)' "$TMP/win/03-app/sim.json"
perl -MJSON::PP -i -0777 -pe 'my $j = JSON::PP->new->decode($_); $j->{gps_fixes} = 90; $j->{failsafe_events} = 0;
	$j->{failsafe_time} = { total_s => 0.3, startup_s => 0.2, imu_stale_s => 0.1, mission_s => 0, frames => 30,
	startup_frames => 20, imu_stale_frames => 10, mission_frames => 0, frame_s => 0.01 };
	$_ = JSON::PP->new->encode($j)' "$TMP/win/03-app/fsw.json"
S=$("$PREFLIGHT" summary "$TMP/win")
is "$(printf '%s\n' "$S" | grep -A2 '^    sim ' | sed -n 2,3p)" \
"             the app flew from 1.250 s to 91.500 s of simulated time: GPS fixes 2 before it, 88 while it flew (the app decoded 90), 11 after; time in failsafe 0.301 s (its frames)
             track error max 12.5 m at t = 47.250 s, while the app flew (truth errors counted from 5 s); after it stopped, the aircraft drifting: max 30.8 m" \
	"summary-5.4 the simulator's GPS fixes before / while / after the app, the track error's max while it flew and the drift after, apart"
is "$(printf '%s\n' "$S" | grep -A1 '^    fsw ' | sed -n 2p)" \
	"             time in failsafe 0.300 s: 0.200 s at start-up (before mission1's first decision), 0.100 s with the IMU stale (ctl100's reflex: stale events, no failsafe event), 0.000 s in mission failsafe (0 failsafe events)" \
	"summary-5.5 the app's time in failsafe by cause beside its 0 failsafe events"
perl -MJSON::PP -i -0777 -pe 'my $j = JSON::PP->new->decode($_); $j->{cyclictest}{file} = "/var/tmp/smoke/03-app/cyclictest.json";
	$_ = JSON::PP->new->encode($j)' "$TMP/rr/results.json"
like "$("$PREFLIGHT" summary "$TMP/rr" | grep '^  cyclictest baseline')" "phase 03-app, beside the app: " \
	"summary-2.10 ... beside the app only when it ran in the app's phase"

# what the report compared the run with (run --previous / --baseline / --history: run.json compared_with), under the run line
cp -r "$FX" "$TMP/cmp"
perl -MJSON::PP -i -0777 -pe 'my $j = JSON::PP->new->decode($_); $j->{compared_with} = {previous => "runs/a", baseline => undef,
	history => "h.sqlite"}; $_ = JSON::PP->new->encode($j)' "$TMP/cmp/run.json"
run_cmd "$PREFLIGHT" summary "$TMP/cmp"
is "$rc:$(printf '%s\n' "$out" | sed -n 3p)" "0:compared with: previous run runs/a (report V1); the scenario's runs up to this one in history h.sqlite (report V2)" \
	"summary-2.7 the third line says what the report compared the run with, the baseline not given left out (V2: the runs up to this one)"
perl -MJSON::PP -i -0777 -pe 'my $j = JSON::PP->new->decode($_); delete $j->{started_utc}; $_ = JSON::PP->new->encode($j)' "$TMP/cmp/run.json"
is "$("$PREFLIGHT" summary "$TMP/cmp" | sed -n 3p)" "compared with: previous run runs/a (report V1); the scenario's latest runs in history h.sqlite (report V2)" \
	"summary-2.7a ... a run.json without its start: the latest runs, as the report's V2 takes them"
is "$(printf '%s\n' "$out" | sed "3d; s|$TMP/cmp|$FX|g")" "$EXPECTED" "summary-2.8 ... and nothing else changes"

# --- summary-4: the verdicts are verdicts.json's (issue 27.13), never the TAP's wording
cp -r "$FX" "$TMP/v"
sed 's/^not ok \([0-9]*\) - /not ok \1 - reworded: /; s/^ok /fine /' "$FX/verdicts.tap" > "$TMP/v/verdicts.tap"
run_cmd "$PREFLIGHT" summary "$TMP/v"
is "$(printf '%s\n' "$out" | sed -n '/^verdicts/,/^evidence/p')" "$(printf '%s\n' "$EXPECTED" | sed -n '/^verdicts/,/^evidence/p')" \
	"summary-4.1 a reworded verdicts.tap changes nothing: the verdicts come from verdicts.json"
like "$(printf '%s\n' "$out" | grep '^  FAIL ' | head -1)" "^  FAIL +REQ-SPI-001 loads spi achieved transfer_time max: 5\.427 ms < 1 ms \(margin -443 %\), n = 6793$" \
	"summary-4.2 a verdict line: the value, the bound, the margin and n"
like "$(printf '%s\n' "$out" | sed -n 3p)" "^EMULATED: wifi \(a veth pair into network namespace pfw23382.*\); spi \(.*seqpacket socket.*not a SPI bus, 1 verdicts\); sd .*; sensorsim .*" \
	"summary-4.3 the third line names the emulated interfaces (issue 32.5)"
perl -MJSON::PP -e 'local $/; my $j = decode_json(<>); my $v = $j->{verdicts}[7];
	@$v{qw(verdict reason text)} = ("not_measured", "n = 0: no samples behind slots.overruns (its count is 0)", undef);
	my $w = $j->{verdicts}[8]; @$w{qw(verdict reason)} = ("not_valid", "the cpu load achieved 39.5 % of its target");
	$j->{load_gate}{loads} = [{ load => "cpu", achieved_pct => 39.5, min_pct => 90, compared => "stress-ng CPU use / configured load", ok => JSON::PP::false }];
	print encode_json($j)' "$FX/verdicts.json" > "$TMP/v/verdicts.json"
run_cmd "$PREFLIGHT" summary "$TMP/v"
like "$out" "  NOT MEASURED REQ-OVR-001 slots overruns
               why: n = 0: no samples behind slots.overruns" "summary-4.4 a verdict on nothing: NOT MEASURED with why (issue 32.2)"
like "$out" "  NOT VALID    REQ-OVR-001 io deadline_misses: 0 == 0, n = 600
               not valid: the cpu load achieved 39.5 % of its target" "summary-4.5 not valid, with the reason (issue 32.4)"
like "$(printf '%s\n' "$out" | sed -n 4p)" "^WARNING: the cpu load achieved 39\.5 % of its target \(stress-ng CPU use / configured load\), below the 90 %" \
	"summary-4.6 a load short of its threshold is said at the top"

# bad ID REGEX DESC ARGS... - refused: one line on stderr matching REGEX, exit 2, nothing on stdout
bad() {
	_id=$1; _re=$2; _desc=$3; shift 3
	run_cmd "$PREFLIGHT" "$@"
	is "$rc" 2 "$_id $_desc: exit 2"
	like "$(printf '%s' "$err" | wc -l | tr -d ' '):$err:$out" "^0:preflight: [a-z]+: $_re:\$" "$_id $_desc: one line, nothing on stdout"
}
mkdir "$TMP/empty" "$TMP/notjson" "$TMP/other"
echo '{ "phases": [' > "$TMP/notjson/run.json"
cp "$FX/results.json" "$TMP/other/run.json"
bad summary-3.1 "'$TMP/none': no such run directory: No such file or directory" \
	"no such directory" summary "$TMP/none"
bad summary-3.2 "'$FX/run.json': not a run directory \(not a directory\)" "a file" summary "$FX/run.json"
bad summary-3.3 "'$TMP/empty': not a run directory: run.json: missing" "no run.json" summary "$TMP/empty"
bad summary-3.4 "'$TMP/notjson': not a run directory: run.json: .+" "run.json not JSON" summary "$TMP/notjson"
bad summary-3.5 "'$TMP/other': not a run directory: run.json is not a 'preflight-run/1' manifest" \
	"run.json of another schema" summary "$TMP/other"
bad summary-3.6 "which run directory\? .*" "no run directory" summary
bad summary-3.7 "$TMP/none/s.txt: cannot write: No such file or directory" "-o into no directory" \
	summary "$FX" -o "$TMP/none/s.txt"
bad summary-3.8 "'$TMP/none': no such run directory: .*" "qualify --summary of no directory" \
	qualify --summary "$TMP/none"
# a directory that can be opened, but its run.json's path is longer than PATH_MAX: said so, never a cut path read
L=$(long_dir "$TMP" 4090)
bad summary-3.9 "'$L': File name too long" "a run.json path too long" summary "$L"
bad summary-3.10 "'$L': File name too long" "... the same for qualify --summary" qualify --summary "$L"
done_testing
