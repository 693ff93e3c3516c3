#!/bin/sh
# 0751-wifi-telemetry.t - the wifi load's telemetry receiver in its
# ground-station namespace, as root: the load writes where it listens
# (tlm_dest_out), flightapp (--no-rt, 4 s, no simulator) sends its
# telemetry there over the shaped veth link next to the iperf3 traffic, and
# the load's report carries the delivery: received > 0, lost / late counted
# consistently, delays of every frame; nothing is left behind.
. "$(dirname "$0")/lib/test-lib.sh"
need ROOT
need CMD:iperf3
plan 9

"$PREFLIGHT" load wifi -d 20s rate=2mbit udp_rate=500kbit chunk=2s port=$((30000 + $$ % 20000)) \
	tlm_dest_out="$TMP/dest" app_stats="$TMP/fsw.json" -w "$TMP" -o "$TMP/wifi.json" 2> "$TMP/wifi.err" &
load=$!
trap 'kill $load 2>/dev/null; rm -rf "$TMP"' EXIT
wait_for 60 test -s "$TMP/dest"
dest=$(cat "$TMP/dest" 2>/dev/null)
like "$dest" '^10\.213\.[0-9]+\.2:[0-9]+$' "tlm-8.1 the receiver listens on the namespace's address ($dest)"
printf '[fsw]\nstats_json = %s/fsw.json\n[telemetry]\ndest = %s\n' "$TMP" "$dest" > "$TMP/app.ini"
run_cmd "$B/flightapp" --no-rt --duration 4 --config "$TMP/app.ini"
is "$rc" 0 "tlm-8.2 flightapp sends its telemetry to the ground station (exit 0)"
sleep 0.5
kill -TERM $load; wait $load
is "$?" 0 "tlm-8.3 the wifi load stops and reports (exit 0)"
T=achieved.telemetry
sent=$(json_get "$TMP/fsw.json" telemetry.sent); recv=$(json_get "$TMP/wifi.json" $T.received)
is "$(json_get "$TMP/wifi.json" $T.sent):$(json_get "$TMP/wifi.json" $T.receiver)" "$sent:$dest" \
	"tlm-8.4 the report: frames the app sent ($sent) and where they were received"
ok "tlm-8.5 frames received through the namespace: $recv of $sent" test "$recv" -gt 0 -a "$recv" -le "$sent"
lost=$(json_get "$TMP/wifi.json" $T.lost); late=$(json_get "$TMP/wifi.json" $T.late)
ok "tlm-8.6 lost ($lost) and not received ($(json_get "$TMP/wifi.json" $T.not_received)) are consistent with sent" \
	test $((recv + lost)) -le "$sent" -a "$(json_get "$TMP/wifi.json" $T.not_received)" -eq $((sent - recv))
ok "tlm-8.7 late frames ($late of $recv, > $(json_get "$TMP/wifi.json" $T.late_bound_ns) ns) and a delay for every frame" \
	test "$late" -ge 0 -a "$late" -le "$recv" -a "$(json_get "$TMP/wifi.json" $T.delay_ns.count)" -eq "$recv"
ok "tlm-8.8 the bulk traffic ran beside it ($(json_get "$TMP/wifi.json" achieved.received_bps) bit/s)" \
	test "$(json_get "$TMP/wifi.json" achieved.received_bps | cut -d. -f1)" -gt 100000
ns=$(json_get "$TMP/wifi.json" achieved.namespace); gs=${dest%:*}
left=$(ip netns list | grep -c "^$ns\b"; pgrep -fc "[i]perf3 .*$gs")
is "$(echo $left)" "0 0" "tlm-8.9 namespace $ns removed, no iperf3 of $gs left"
