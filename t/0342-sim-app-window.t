#!/bin/sh
# 0342-sim-app-window.t - what the simulator counts while the app flew, apart from before and after
# it (issue 32.15: "GPS fixes 90 (app) vs 101 (simulator) unexplained", "the maximum track error at
# t = 101.3 s, after the app stopped", "failsafe_events 0 but time in failsafe 0.301 s"): sensorsim
# runs 8 s (its truth metrics from 1 s), flightapp (--no-rt, SCHED_OTHER: no realtime needed) 3 s from
# once the links are there.
# The identities of sim.json and fsw.json are asserted, never a time taken.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:sensorsim BUILT:flightapp
plan 8

D="$TMP/w"
mkdir "$D"
cat > "$D/app.ini" <<INI
[links]
uart = $D/uart
uart_baud = 115200
spi = seqpacket
spi_path = $D/spi
spi_frame_len = 500
[fsw]
stats_json = $D/fsw.json
INI
printf '[sim]\nmetrics_start_s = 1\n' > "$D/sim.ini"
"$B/sensorsim" -q -s "$D/sim.ini" -d 8 --pty-link "$D/uart" --spi-socket "$D/spi" --summary-json "$D/sim.json" 2> "$D/sim.err" &
sim=$!
wait_for 30 test -e "$D/uart" -a -S "$D/spi"
"$B/flightapp" -q --no-rt --no-dma-latency -c "$D/app.ini" -d 3 > /dev/null 2> "$D/app.err"
app_rc=$?
wait "$sim"
is "$app_rc:$?" "0:0" "window-1.1 flightapp 3 s beside sensorsim 8 s: both exit 0" || sed 's/^/# /' "$D/app.err" "$D/sim.err" | head -10
s="$D/sim.json"
is "$(json_get "$s" .gps_fixes)" "$(awk -v a="$(json_get "$s" .gps_fixes_before_app)" -v b="$(json_get "$s" .gps_fixes_app)" \
	-v c="$(json_get "$s" .gps_fixes_after_app)" 'BEGIN { print (a == "" || b == "" || c == "") ? "missing" : a + b + c }')" \
	"window-1.2 the simulator's GPS fixes ($(json_get "$s" .gps_fixes)) = before the app + while it flew + after it"
ok "window-1.3 ... fixes after the app stopped are counted apart ($(json_get "$s" .gps_fixes_after_app) >= 2; the app decoded $(json_get "$D/fsw.json" .gps_fixes), $(json_get "$s" .gps_fixes_app) made while it flew)" \
	test "$(json_get "$s" .gps_fixes_after_app)" -ge 2 2>/dev/null
# the IMU frames split alike; the app decodes none sent after it stopped
ib=$(json_get "$s" .imu_frames_before_app) if=$(json_get "$s" .imu_frames_app) ia=$(json_get "$s" .imu_frames_after_app)
awk -v n="$(json_get "$s" .imu_frames)" -v b="$ib" -v f="$if" -v a="$ia" -v app="$(json_get "$D/fsw.json" .imu_frames)" \
	'BEGIN { exit !(b != "" && f != "" && a != "" && n == b + f + a && a > 0 && app <= f + b) }'
ok "window-1.2a the simulator's IMU frames ($(json_get "$s" .imu_frames)) = before $ib + while $if + after $ia; the app decoded $(json_get "$D/fsw.json" .imu_frames), at most $((if + ib)) (none sent after it stopped)" test $? -eq 0
awk -v a="$(json_get "$s" .app_start_s)" -v e="$(json_get "$s" .app_end_s)" -v t="$(json_get "$s" .track_err_max_t_s)" \
	-v end="$(json_get "$s" .sim_time_s)" 'BEGIN { exit !(a > 0 && e > a && e < end - 1 && t >= a && t <= e) }'
ok "window-1.4 the track error's max ($(json_get "$s" .track_err_max_m) m at t = $(json_get "$s" .track_err_max_t_s) s) lies in the app's flight ($(json_get "$s" .app_start_s) .. $(json_get "$s" .app_end_s) s), which ended before the simulator's ($(json_get "$s" .sim_time_s) s)" test $? -eq 0
like "$(json_get "$s" .track_err_after_app_max_m)" '^[0-9.e+-]+$' "window-1.5 ... the drift after it stopped is given apart ($(json_get "$s" .track_err_after_app_max_m) m)"
f="$D/fsw.json"
awk -v t="$(json_get "$f" failsafe_time.total_s)" -v a="$(json_get "$f" failsafe_time.startup_s)" -v b="$(json_get "$f" failsafe_time.imu_stale_s)" \
	-v c="$(json_get "$f" failsafe_time.mission_s)" 'BEGIN { exit !(t != "" && (t - a - b - c) < 1e-9 && (t - a - b - c) > -1e-9) }'
ok "window-1.6 the app's time in failsafe ($(json_get "$f" failsafe_time.total_s) s) = start-up + IMU stale + mission failsafe" test $? -eq 0
awk -v m="$(json_get "$f" failsafe_time.mission_s)" -v e="$(json_get "$f" failsafe_events)" 'BEGIN { exit !((m > 0) == (e > 0)) }'
ok "window-1.7 ... mission failsafe time only with failsafe events ($(json_get "$f" failsafe_events))" test $? -eq 0
