#!/bin/sh
# 0341-sim-links.t - the app is started only once its simulator's links exist:
# 'preflight fly --realtime' and 'preflight run' against a stand-in sensorsim
# that makes its UART pty link and SPI socket late (as the real one does on an
# emulated CPU), that never makes them, or that dies first. Each late start
# flies; each failure is one line naming the link and the simulator's state.
# The stand-in's delays only outlast the old code's guesses (0.3 s in run, 5 s
# in fly), and the flights are 1 s: their length buys no assertion; nothing
# asserts how long a wait took.
. "$(dirname "$0")/lib/test-lib.sh"
need RT
need BUILT:flightapp BUILT:sensorsim
plan 9

# a copy of preflight finds flightapp and sensorsim beside itself: the stand-in there
S="$TMP/bin"
mkdir "$S"
cp "$B/preflight" "$S/preflight"
ln -s "$B/flightapp" "$S/flightapp"
cat > "$S/sensorsim" <<EOF2
#!/bin/sh
# stand-in: STANDIN=late:N (links after N s), never (no links, stays: sleep 6341), exit:N (dies at once)
case " \$* " in *" --pty-link "*)
	case "\$STANDIN" in
	late:*) sleep "\${STANDIN#late:}" ;;
	never) exec sleep 6341 ;;
	exit:*) exit "\${STANDIN#exit:}" ;;
	esac ;;
esac
exec "$B/sensorsim" "\$@"
EOF2
chmod +x "$S/sensorsim"

# --- fly --realtime ----------------------------------------------------------------------------
run_cmd env STANDIN=late:6 "$S/preflight" fly --realtime --duration 1 --keep "$TMP/f1" --output "$TMP/f1.json"
ok "links-1.1 fly: a simulator that makes its links 6 s late: flies (exit 0)" test "$rc" -eq 0 ||
	cat "$TMP/f1/flightapp.log" 2>/dev/null | sed 's/^/# /' | head -5
run_cmd env STANDIN=never PREFLIGHT_TEST_AWAIT_MS=1500 "$S/preflight" fly --realtime --duration 3 --keep "$TMP/f2"
like "$rc:$err" "^3:preflight: fly: waiting for the simulator's links: '$TMP/f2/uart' not there after 1500 ms, sensorsim still running \\(pid [0-9]+\\); see $TMP/f2/sensorsim.log\$" \
	"links-1.2 fly: links that never come: exit 3, one line naming the link and the running simulator"
ok "links-1.3 fly: ... the app never started, the simulator stopped" \
	test ! -e "$TMP/f2/flightapp.log" -a -z "$(ps -eo args | grep -F 'sleep 6341' | grep -v grep)"
run_cmd env STANDIN=exit:4 "$S/preflight" fly --realtime --duration 3 --keep "$TMP/f3"
like "$rc:$err" "^3:preflight: fly: waiting for the simulator's links: sensorsim exited with 4 before '$TMP/f3/uart' appeared; see " \
	"links-1.4 fly: a simulator that dies first: exit 3, its exit named"

# --- run --------------------------------------------------------------------------------------
cat > "$TMP/t.ini" <<'INI'
[scenario]
name = t0341
[flightapp]
sim = yes
trace = off
[phase app]
duration = 1s
measure = flightapp
INI
run_cmd env STANDIN=late:3 "$S/preflight" run "$TMP/t.ini" -o "$TMP/r1" --no-report
like "$rc" '^[01]$' "links-2.1 run: a simulator that makes its links 3 s late: the phase runs (exit $rc)" ||
	sed 's/^/# /' "$TMP/r1/01-app/flightapp.err" 2>/dev/null | head -5
ok "links-2.2 run: ... the app wrote its job log, after the links were there" \
	sh -c 'grep -q "^# start_mono_ns=" "$0/01-app/jobs.csv" && grep -q "phase app: sensorsim: its links are there" "$0/run.log"' "$TMP/r1"
run_cmd env STANDIN=never PREFLIGHT_TEST_AWAIT_MS=1500 "$S/preflight" run "$TMP/t.ini" -o "$TMP/r2" --no-report
like "$rc:$(printf '%s\n' "$err" | grep -v '^preflight: warning' | head -1)" \
	"^3:preflight: run: phase app: waiting for the simulator's links: '$TMP/r2/01-app/uart' not there after 1500 ms, sensorsim still running \\(pid [0-9]+\\); see $TMP/r2/01-app/sensorsim.err\$" \
	"links-2.3 run: links that never come: exit 3, one line naming the link and the running simulator"
ok "links-2.4 run: ... the app never started, the simulator stopped" \
	test ! -e "$TMP/r2/01-app/flightapp.err" -a -z "$(ps -eo args | grep -F 'sleep 6341' | grep -v grep)"
run_cmd env STANDIN=exit:4 "$S/preflight" run "$TMP/t.ini" -o "$TMP/r3" --no-report
like "$rc:$(printf '%s\n' "$err" | grep -v '^preflight: warning' | head -1)" \
	"^3:preflight: run: phase app: waiting for the simulator's links: sensorsim exited with 4 before '$TMP/r3/01-app/uart' appeared; see " \
	"links-2.5 run: a simulator that dies first: exit 3, its exit named"
