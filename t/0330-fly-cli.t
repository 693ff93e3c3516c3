#!/bin/sh
# 0330-fly-cli.t - 'preflight fly' (harness mode) and sensorsim from the
# command line: summary keys, scenario files with faults, bad input, the
# truth log, clean shutdown on SIGTERM
. "$(dirname "$0")/lib/test-lib.sh"
plan 36

SIM="$B/sensorsim"

run_cmd "$PREFLIGHT" fly --help
ok "fly-cli-1.1 --help exits 0" test "$rc" -eq 0
like "$(echo "$out" | tr "\n" " ")" "--duration.*--scenario.*--seed.*--realtime.*--no-rt.*--keep.*--output" "fly-cli-1.2 --help lists every option"

run_cmd "$PREFLIGHT" fly --duration 60 --output "$TMP/fly.json"
ok "fly-cli-2.1 a 60 s harness flight exits 0" test "$rc" -eq 0
ok "fly-cli-2.2 the summary has the required keys" json_get "$TMP/fly.json" pos_err_rms_m track_err_rms_m alt_err_rms_m \
	waypoints_reached imu_frames gps_fixes frame_errors failsafe_events
is "$(json_get "$TMP/fly.json" .imu_frames)/$(json_get "$TMP/fly.json" .frame_errors)/$(json_get "$TMP/fly.json" .mode)" "6000/0/harness" \
	"fly-cli-2.3 60 s at 100 Hz: 6000 IMU frames, no frame errors"
like "$(json_get "$TMP/fly.json" .waypoints_reached)" "^[2-9]$" "fly-cli-2.4 the first waypoints are reached within 60 s"
# every GPS fix accounted for (issue 32.15): the harness's first fix precedes the INS history, the rest update
is "$(json_get "$TMP/fly.json" .gps_fixes .ekf.released_for_fix .ekf.updates .ekf.outside_history .ekf.before_alignment \
	.ekf.gated .ekf.not_positive_definite .ekf.fixes_unused_other | tr '\n' ' ')" "59 59 58 1 0 0 0 0 " \
	"fly-cli-2.5 59 fixes: 59 releases of ekf, 58 updates and 1 outside the INS history (its first, at alignment)"

cat > "$TMP/faults.ini" <<'INI'
; a short flight with a bad SPI link and a noisy UART
[sim]
seed = 5
duration_s = 30
[faults]
spi_truncate_every = 20
corrupt_per_byte = 0.0005
INI
run_cmd "$PREFLIGHT" fly --scenario "$TMP/faults.ini" --output "$TMP/faults.json"
ok "fly-cli-3.1 a scenario with faults flies" test "$rc" -eq 0
short=$(json_get "$TMP/faults.json" .rejected.spi_short)
crc=$(json_get "$TMP/faults.json" .rejected.imu_crc)
ok "fly-cli-3.2 truncated SPI frames ($short) and corrupted IMU frames ($crc) counted" test "$short" -ge 140 -a "$crc" -gt 0
is "$(json_get "$TMP/faults.json" .seed)" "5" "fly-cli-3.3 the scenario's seed is used"
# a seed past 2^31 is the same seed on a 32-bit build; one past the documented range is refused
run_cmd "$PREFLIGHT" fly --scenario "$TMP/faults.ini" --seed 3000000000 --duration 1 --output "$TMP/big.json"
is "$rc/$(json_get "$TMP/big.json" .seed)" "0/3000000000" "fly-cli-3.4 --seed 3000000000 (past 2^31) is flown with that seed"
run_cmd "$PREFLIGHT" fly --seed 1000000000000001 --duration 1 --output "$TMP/big2.json"
like "$rc:$err" "^2:preflight: fly: --seed: '1000000000000001': expected a whole number 0-1000000000000000" \
	"fly-cli-3.5 a seed past 10^15 is a one-line usage error"

printf '[sim]\nduration_s = 20\n[links]\nspi_frame_len = 128\n' > "$TMP/spi128.ini"
run_cmd "$PREFLIGHT" fly --scenario "$TMP/spi128.ini" --output "$TMP/spi128.json"
is "$rc/$(json_get "$TMP/spi128.json" .frame_errors)/$(json_get "$TMP/spi128.json" .spi_frames)" "0/0/1999" \
	"fly-cli-3.4 128-byte SPI frames ([links] spi_frame_len, both ends): every transfer decoded"

printf '[sim]\nduration_s = 10\nwind_n_mps = fast\n' > "$TMP/bad.ini"
run_cmd "$PREFLIGHT" fly --scenario "$TMP/bad.ini"
is "$rc" 2 "fly-cli-4.1 a bad scenario value exits 2"
like "$err" "^preflight: fly: scenario: .*bad.ini:3: wind_n_mps: 'fast'" "fly-cli-4.2 ... with file:line and the key"
printf '[sim]\nduration_s = 10\n[fsw]\nwaypoint = 1,2\n' > "$TMP/bad2.ini"
run_cmd "$PREFLIGHT" fly --scenario "$TMP/bad2.ini"
like "$rc:$err" "^2:.*bad2.ini:4: waypoint: '1,2'" "fly-cli-4.3 a malformed waypoint is rejected with file:line"
printf '[sim]\n; %0300d\nduration_s = 10\n' 0 > "$TMP/bad3.ini"
run_cmd "$PREFLIGHT" fly --scenario "$TMP/bad3.ini"
like "$rc:$err" "^2:.*bad3.ini:2: line too long" "fly-cli-4.3a an overlong line is an error at its own line"
# values far past the integer each is stored in: refused by the range check before any conversion
for kv in "sim uart_baud 1e300 not a standard baud rate" "sim seed 1e300 expected a whole number" \
	  "faults spi_truncate_len 1e300 out of range" "faults spi_truncate_every -1e300 out of range"; do
	set -- $kv
	printf '[%s]\n%s = %s\n' "$1" "$2" "$3" > "$TMP/huge.ini"
	run_cmd "$PREFLIGHT" fly --scenario "$TMP/huge.ini"
	like "$rc:$err" "^2:preflight: fly: scenario: .*huge.ini:2: $2: '$3': $4" "fly-cli-4.3b [$1] $2 = $3 is refused"
done
run_cmd "$PREFLIGHT" fly --duration -3
is "$rc" 2 "fly-cli-4.4 a negative duration exits 2"
run_cmd "$PREFLIGHT" fly --keep "$TMP/k"
is "$rc" 2 "fly-cli-4.5 --keep without --realtime exits 2"

run_cmd "$SIM" --help
like "$rc:$(echo "$out" | tr "\n" " ")" "^0:usage: sensorsim.*--pty-link.*--spi-socket.*--baud.*--truth-log.*--summary-json.*--rt-priority" "sim-cli-1.1 sensorsim --help lists its options"
run_cmd "$SIM" --duration 1 --pty-link "$TMP/uart" --spi-socket "$TMP/spi" --truth-log "$TMP/truth.csv" --summary-json "$TMP/sim.json" --quiet
ok "sim-cli-1.2 a 1 s sensorsim run exits 0" test "$rc" -eq 0
like "$(head -3 "$TMP/truth.csv" | tr '\n' '|')" "^# preflight-truthlog/1\|# model=aerosonde.*\|t_s,north_m,east_m,alt_m,.*,throttle,app_mode,est_north_m,est_east_m,est_alt_m,pos_err_m,track_err_m,alt_err_m\|$" \
	"sim-cli-1.3 truth log: versioned header and column row"
is "$(($(wc -l < "$TMP/truth.csv") - 3))/$(json_get "$TMP/sim.json" .imu_frames)" "10/100" "sim-cli-1.4 10 rows per second; 100 IMU frames in 1 s"

"$SIM" --duration 100 --pty-link "$TMP/uart2" --spi-socket "$TMP/spi2" --quiet &
pid=$!
wait_for 60 test -e "$TMP/spi2"
kill -TERM $pid
wait $pid
st=$?
ok "sim-cli-2.1 SIGTERM: exit 0, pty link and socket removed" test $st -eq 0 -a ! -e "$TMP/uart2" -a ! -e "$TMP/spi2"
run_cmd "$SIM" --scenario "$TMP/bad.ini"
like "$rc:$err" "^2:sensorsim: scenario: .*bad.ini:3:" "sim-cli-2.2 sensorsim rejects a bad scenario with file:line, exit 2"
printf '[fsw]\nbogus = 1\n' > "$TMP/app-bad.ini"
run_cmd "$B/flightapp" --config "$TMP/app-bad.ini" --no-rt --duration 1 --quiet
like "$rc:$err" "^2:.*app-bad.ini:2: unknown key 'bogus' in \[fsw\]" "fsw-cfg-1.1 flightapp: an unknown [fsw] key is file:line, exit 2"
printf '[links]\nuart = %s/nothere\nspi = seqpacket\n' "$TMP" > "$TMP/app-nodev.ini"
run_cmd "$B/flightapp" --config "$TMP/app-nodev.ini" --no-rt --duration 1 --quiet
like "$rc:$err" "^3:.*fsw: uart '.*nothere': No such file" "fsw-cfg-1.2 flightapp: a missing UART device is an environment error, exit 3"
printf '[links]\nspi = i2c\n[fsw]\nwaypoint = 1, 2, 3000000\n' > "$TMP/app-bad2.ini"
run_cmd "$B/flightapp" --config "$TMP/app-bad2.ini" --no-rt --duration 1 --quiet
like "$rc:$err" "^2:.*app-bad2.ini:2: spi: 'i2c': expected seqpacket, spidev or none" "fsw-cfg-1.3 flightapp: an unknown SPI backend is file:line, exit 2"
printf '[links]\nuart = /dev/ptmx\nspi = spidev\nspi_path = %s/spidev9.9\n' "$TMP" > "$TMP/app-spidev.ini"
run_cmd "$B/flightapp" --config "$TMP/app-spidev.ini" --no-rt --duration 1 --quiet
like "$rc:$err" "^3:.*fsw: spi spidev '.*spidev9.9': No such file" "fsw-cfg-1.4 flightapp: the spidev backend is selectable (absent here: exit 3)"
run_cmd "$SIM" --seed 3 --duration 0.5 --pty-link "$TMP/u3" --spi-socket "$TMP/s3" --summary-json - --quiet
like "$rc:$(echo "$out" | tr -d '\n ')" '^0:.*"imu_frames":50' "sim-cli-2.3 --seed and a sub-second duration"
# the seed fly hands over: the whole range fly takes
run_cmd "$SIM" --seed 1000000000000000 --duration 0.1 --pty-link "$TMP/u4" --spi-socket "$TMP/s4" --summary-json - --quiet
is "$rc" 0 "sim-cli-2.4 sensorsim takes every seed fly takes (10^15)"
run_cmd "$SIM" --seed 1000000000000001 --duration 0.1 --pty-link "$TMP/u5" --spi-socket "$TMP/s5" --quiet
is "$rc" 2 "sim-cli-2.5 and refuses the next one"
done_testing
