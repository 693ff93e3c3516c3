# rec-lib.sh - helpers of the recorder's shell tests (t/04xx), sourced after t/lib/test-lib.sh.

REC_REF="$TOP/traces/ref"

# rec_summary FILE KEY - one value of 'preflight record --summary FILE'
rec_summary() {
	"$PREFLIGHT" record --summary "$1" 2>/dev/null | awk -v k="$2" '$1 == k { print $2; exit }'
}

# rec_report_count FILE [EVENT] - events (of one name) as trace-cmd report lists them
rec_report_count() {
	trace-cmd report -i "$1" 2>/dev/null |
		grep -E "\[[0-9]{3}\] +[0-9]+\.[0-9]+: +${2:-[a-z_]+}:" | wc -l | tr -d ' '
}

# rec_summary_event FILE SYSTEM:EVENT - count of one event type in the summary
rec_summary_event() {
	"$PREFLIGHT" record --summary "$1" 2>/dev/null | awk -v k="$2" '$1 == "event" && $2 == k { print $3; f = 1 } END { if (!f) print 0 }'
}

# rec_instances - this test's instances (named $PFT-*) still present in tracefs; the pid in
# the name keeps runs of the same test in the shared tree (make check beside make check) apart
PFT="pf-t-$$"
rec_instances() {
	ls "$TRACEFS/instances" 2>/dev/null | grep -E "^$PFT-" || true
}

# A private copy of the preflight binary: in a working tree shared with other builds,
# build/preflight may be relinked while a test runs (the copy is checked before use).
for _i in 1 2 3 4 5; do
	cp "$B/preflight" "$TMP/preflight" 2>/dev/null && "$TMP/preflight" --version >/dev/null 2>&1 && break
	sleep 1
done
PREFLIGHT="$TMP/preflight"

# rec_storm FILE - a recording sure to lose events (needs TRACEFS RT CMD:taskset): the
# recorder and a FIFO-99 flood of 100000 markers share CPU 0, so its reader cannot run until
# the flood is over and the 8 KiB buffers overflow; 'run_cmd' results ($rc, $err)
rec_storm() {
	run_cmd taskset -c 0 "$PREFLIGHT" record -o "$1" -e sched -b 8 --no-kallsyms -- chrt -f 99 perl -e '
		open my $m, ">", "$ENV{PREFLIGHT_TRACE_DIR}/trace_marker" or die "trace_marker: $!\n";
		syswrite $m, "flood $_\n" for 1 .. 100000;'
}

# rec_signal_taken PID - no signal is pending for process PID: the last one sent was delivered
rec_signal_taken() {
	awk '/^(SigPnd|ShdPnd):/ && $2 !~ /^0+$/ { p = 1 } END { exit p }' "/proc/$1/status"
}
