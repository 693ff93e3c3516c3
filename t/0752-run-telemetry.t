#!/bin/sh
# 0752-run-telemetry.t - 'preflight qualify' of a one-phase scenario (the app
# with its simulator under the wifi and spi loads, 3 s, no trace), as root:
# the runner points the app's telemetry at the wifi load's receiver, the
# delivery lands in loads.json, the app's own SPI transfer times in
# results.json (fsw.spi_transfer_ns) where REQ-SPI-001 reads them beside the
# exerciser's, and the summary prints both. No timing bound is asserted.
. "$(dirname "$0")/lib/test-lib.sh"
need RT
need CMD:iperf3
need BUILT:flightapp BUILT:sensorsim
plan 11

cat > "$TMP/t.ini" <<'INI'
[scenario]
name = t0752
[flightapp]
sim = yes
trace = off
[load wifi]
rate = 4mbit
udp_rate = 1mbit
chunk = 2s
[load spi]
rate = 500
[phase app]
duration = 3s
measure = flightapp
loads = wifi spi
INI
R="$TMP/run"
# (no selftest, no report: what they cost buys no assertion here)
run_cmd "$PREFLIGHT" qualify --scenario "$TMP/t.ini" -o "$R" --no-selftest --no-report
like "$rc" '^[01]$' "tlm-9.1 qualify ran and produced verdicts (exit $rc)" || printf '%s\n' "$err" | sed 's/^/#   /' | tail -5
P="$R/01-app"
json_get "$R/loads.json" phases.0.loads.wifi.achieved.telemetry > "$TMP/tlm.json"
dest=$(sed -n 's/^dest = //p' "$P/flightapp.ini")
is "$dest" "$(json_get "$TMP/tlm.json" receiver)" "tlm-9.2 flightapp.ini [telemetry] dest is the wifi load's receiver ($dest)"
like "$dest" '^10\.213\.[0-9]+\.2:' "tlm-9.3 ... in the ground-station namespace"
sent=$(json_get "$P/fsw.json" telemetry.sent); recv=$(json_get "$TMP/tlm.json" received)
ok "tlm-9.4 loads.json: the app sent $sent frames (jobs ran), $recv received" \
	test "$(json_get "$TMP/tlm.json" sent)" = "$sent" -a "$sent" -gt 0 -a "$recv" -gt 0 -a "$recv" -le "$sent"
ok "tlm-9.5 lost $(json_get "$TMP/tlm.json" lost), late $(json_get "$TMP/tlm.json" late) counted" \
	test "$(json_get "$TMP/tlm.json" late)" -le "$recv" -a $((recv + $(json_get "$TMP/tlm.json" lost))) -le "$sent"
n=$(json_get "$R/results.json" fsw.spi_transfer_ns.count)
is "$n" "$(json_get "$P/fsw.json" spi_transfer_ns.count)" "spit-4.1 results.json carries the app's SPI transfer times (fsw, $n transfers)"
ok "spit-4.2 max >= p99 >= min in results.json" test "$(json_get "$R/results.json" fsw.spi_transfer_ns.max)" -ge \
	"$(json_get "$R/results.json" fsw.spi_transfer_ns.p99)" -a "$(json_get "$R/results.json" fsw.spi_transfer_ns.p99)" -ge \
	"$(json_get "$R/results.json" fsw.spi_transfer_ns.min)" -a "$n" -gt 0
like "$(grep -A1 'REQ-SPI-001 loads' "$R/verdicts.tap" | paste -sd'|')" "ok [0-9]+ - REQ-SPI-001 loads spi achieved transfer_time max\|#   [0-9.]+ .s < 1 ms" \
	"spit-4.3 REQ-SPI-001 judges the exerciser"
like "$(grep -A1 'REQ-SPI-001 fsw' "$R/verdicts.tap" | paste -sd'|')" "^(not )?ok [0-9]+ - REQ-SPI-001 fsw spi_transfer max\|#   [0-9.]+ .s < 1 ms" \
	"spit-4.4 ... and the app's own transfer (a verdict, not 'not measured')"
like "$(grep -A1 '^    spi ' "$R/qualification.txt")" "app spi  +$n transfers of 500 bytes \(io task, seqpacket\), min .*, max .*, p99 .*, over 1 ms: [0-9]+" \
	"spit-4.5 the summary prints the app's SPI figures right below the exerciser's"
like "$(grep -A1 '^    wifi ' "$R/qualification.txt")" "app tlm  +$sent sent, $recv received, [0-9]+ lost, [0-9]+ late \(> 100 ms\), delay p99 .* max " \
	"tlm-9.6 the summary prints the telemetry delivery below the wifi load"
