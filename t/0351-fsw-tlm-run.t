#!/bin/sh
# 0351-fsw-tlm-run.t - the telemetry task and the io task's SPI timing in a
# real run: sensorsim + flightapp (--no-rt, 4 s) sending telemetry to a
# loopback receiver ('preflight load telemetry'): one frame per telemetry
# job, all received in order on loopback, the receiver's delay statistics;
# the SPI transfer statistics in the fsw stats (count = replies decoded,
# max >= p99 >= min). No timing bound is asserted. Then: no destination
# (says so), bad destinations (file:line, exit 2).
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:flightapp BUILT:sensorsim
plan 17
FLIGHTAPP="$B/flightapp"
sim=; rx=
trap 'kill $sim $rx 2>/dev/null; rm -rf "$TMP"' EXIT

port=$((20000 + $$ % 20000))
"$B/sensorsim" -q --duration 12s --pty-link "$TMP/uart" --spi-socket "$TMP/spi.sock" \
	--summary-json "$TMP/sim.json" 2> "$TMP/sim.err" &
sim=$!
"$PREFLIGHT" load telemetry -d 15s bind=127.0.0.1:$port app_stats="$TMP/fsw.json" -o "$TMP/rx.json" 2> "$TMP/rx.err" &
rx=$!
cat > "$TMP/app.ini" <<INI
[links]
uart = $TMP/uart
spi = seqpacket
spi_path = $TMP/spi.sock
[fsw]
stats_json = $TMP/fsw.json
[telemetry]
dest = 127.0.0.1:$port
INI
# the simulator's links and the receiver's port are up
wait_for 60 test -e "$TMP/uart" -a -S "$TMP/spi.sock"
wait_for 60 sh -c 'ss -Huln "sport = :$0" | grep -q .' "$port"
run_cmd "$FLIGHTAPP" --no-rt --duration 4 --config "$TMP/app.ini" --joblog "$TMP/jobs.csv"
is "$rc" 0 "tlm-5.1 flightapp with telemetry to 127.0.0.1:$port and the simulator: exit 0" ||
	printf '%s\n' "$err" | sed 's/^/#   /' | head -5
kill -TERM $rx; wait $rx; rxrc=$?
kill -TERM $sim; wait $sim
F="$TMP/fsw.json"; R="$TMP/rx.json"
jobs=$(grep -c '^telemetry,' "$TMP/jobs.csv")
sent=$(json_get "$F" telemetry.sent)
is "$(json_get "$F" telemetry.enabled):$(json_get "$F" telemetry.dest):$(json_get "$F" telemetry.send_errors)" \
	"true:127.0.0.1:$port:0" "tlm-5.2 stats: telemetry enabled, its destination, no send error"
ok "tlm-5.3 one frame per telemetry job: $sent sent, $jobs jobs in the job log" test "$sent" -eq "$jobs" -a "$jobs" -ge 30
is "$rxrc" 0 "tlm-5.4 the receiver stops on SIGTERM and reports (exit 0)"
is "$(json_get "$R" achieved.telemetry.sent)" "$sent" "tlm-5.5 the receiver reads the frames sent from the app's stats"
is "$(json_get "$R" achieved.telemetry.received)" "$sent" "tlm-5.6 loopback: every frame received"
is "$(json_get "$R" achieved.telemetry.lost):$(json_get "$R" achieved.telemetry.duplicates):$(json_get "$R" achieved.telemetry.reordered):$(json_get "$R" achieved.telemetry.rejected)" \
	"0:0:0:0" "tlm-5.7 no gap, duplicate, reorder or rejected frame"
is "$(json_get "$R" achieved.telemetry.highest_seq)" "$((sent - 1))" "tlm-5.8 sequence numbers contiguous from 0 to sent - 1"
d="achieved.telemetry.delay_ns"
ok "tlm-5.9 one-way delay of every frame: count $(json_get "$R" $d.count), min $(json_get "$R" $d.min) <= p99 <= max $(json_get "$R" $d.max) ns" \
	test "$(json_get "$R" $d.count)" -eq "$sent" -a "$(json_get "$R" $d.min)" -ge 0 \
	-a "$(json_get "$R" $d.p99)" -ge "$(json_get "$R" $d.min)" -a "$(json_get "$R" $d.max)" -ge "$(json_get "$R" $d.p99)"
late=$(json_get "$R" achieved.telemetry.late)
ok "tlm-5.10 late frames counted against the 100 ms bound ($late)" \
	test "$(json_get "$R" achieved.telemetry.late_bound_ns)" -eq 100000000 -a "$late" -ge 0 -a "$late" -le "$sent"

s="spi_transfer_ns"
n=$(json_get "$F" $s.count)
ok "spit-3.1 SPI transfer statistics in the fsw stats: $n transfers of $(json_get "$F" $s.frame_bytes) bytes ($(json_get "$F" $s.backend))" \
	test "$n" -gt 100 -a "$(json_get "$F" $s.frame_bytes)" -eq 500 -a "$(json_get "$F" $s.backend)" = seqpacket
is "$((n + $(json_get "$F" $s.unmatched_replies)))" "$(($(json_get "$F" spi_frames) + $(json_get "$F" spi_stale)))" \
	"spit-3.2 every SPI reply decoded was timed (count + unmatched = frames + stale)"
st=$(json_get "$TMP/sim.json" spi_transfers)
# never more than the simulator made; how many are still unread at the end depends on the load
ok "spit-3.3 count: at most the simulator's transfers, most of them ($n of $st)" test "$n" -le "$st" -a $((2 * n)) -gt "$st"
ok "spit-3.4 max $(json_get "$F" $s.max) >= p99 $(json_get "$F" $s.p99) >= min $(json_get "$F" $s.min) ns, over 1 ms $(json_get "$F" $s.over_1ms)" \
	test "$(json_get "$F" $s.max)" -ge "$(json_get "$F" $s.p99)" -a "$(json_get "$F" $s.p99)" -ge "$(json_get "$F" $s.min)" \
	-a "$(json_get "$F" $s.over_1ms)" -le "$n"

# without a destination: nothing sent, and the stats say why
printf '[fsw]\nstats_json = %s/off.json\n' "$TMP" > "$TMP/off.ini"
run_cmd "$FLIGHTAPP" --no-rt --duration 1 --config "$TMP/off.ini"
is "$rc:$(json_get "$TMP/off.json" telemetry.enabled):$(json_get "$TMP/off.json" telemetry.sent):$(json_get "$TMP/off.json" flight_software)" \
	"0:false:0:false" "tlm-6.1 no [telemetry] dest: disabled, 0 sent, stats written without the flight software"
like "$(json_get "$TMP/off.json" telemetry.reason)" "no destination" "tlm-6.2 ... and the reason says so"
printf '[telemetry]\ndest = 127.0.0.1\n' > "$TMP/bad.ini"
run_cmd "$FLIGHTAPP" --no-rt --duration 1 --config "$TMP/bad.ini"
like "$rc:$err" "^2:flightapp: .*bad.ini:2: dest: '127.0.0.1': expected HOST:PORT" "tlm-6.3 dest without a port: file:line, exit 2"
