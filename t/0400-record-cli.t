#!/bin/sh
# 0400-record-cli.t - preflight record: options, usage errors, no privilege
. "$(dirname "$0")/lib/test-lib.sh"
plan 18

run_cmd "$PREFLIGHT" record --help
is "$rc" 0 "rec-cli-1.1 --help exits 0"
like "$out" "--buffer-kb N .*default: 16384" "rec-cli-1.2 --help lists options with defaults"
like "$out" "--flight-recorder" "rec-cli-1.3 --help lists the flight recorder"
# every option but --help states its default in its text block
is "$(printf '%s\n' "$out" | perl -ne 'if (/^  (-\w, )?(--[\w-]+)/ || /^      (--[\w-]+)/) { $o = $+; $h{$o} = 0; push @o, $o } $h{$o} ||= /default/ if $o; END { print join(" ", grep { !$h{$_} && !/^--help$/ } @o) }')" "" \
	"rec-cli-1.4 every option in --help states its default"

run_cmd "$PREFLIGHT" record -- sleep 1
is "$rc" 2 "rec-cli-2.1 missing -o is a usage error"
run_cmd "$PREFLIGHT" record -o "$TMP/x.dat" --events 'sched;reboot' -- true
is "$rc" 2 "rec-cli-2.2 bad --events is a usage error"
run_cmd "$PREFLIGHT" record -o "$TMP/x.dat" --buffer-kb 1x -- true
is "$rc" 2 "rec-cli-2.3 bad --buffer-kb is a usage error"
run_cmd "$PREFLIGHT" record -o "$TMP/x.dat" --instance ../evil -- true
is "$rc" 2 "rec-cli-2.4 an instance name with a slash is refused"
run_cmd "$PREFLIGHT" record -o "$TMP/x.dat" sleep 1
like "$rc:$err" "^2:.*unexpected argument" "rec-cli-2.5 a command without -- is refused"
run_cmd "$PREFLIGHT" record -o "$TMP/x.dat" -F --trigger 'a*b' -- true
is "$rc" 2 "rec-cli-2.6 glob characters in --trigger are refused"

# (its last line: a recorder killed beside this test, by t/0780, leaves an instance that this
# record recovers and removes first, saying so on lines of its own)
run_cmd "$PREFLIGHT" record -o "$TMP/no/such/dir/x.dat" -d 1s
like "$rc:$(printf '%s\n' "$err" | tail -n 1)" "^[23]:preflight: record: .*(tracefs|no/such/dir/x.dat': cannot create a temporary directory beside it: No such file)" \
	"rec-cli-2.7 an output in a missing directory is refused before recording (or no tracefs)"

run_cmd "$PREFLIGHT" record -o "$TMP" -d 100ms
like "$rc:$err" "^2:preflight: record: -o '$TMP': is a directory" \
	"rec-cli-2.8 an output that is a directory is refused before recording"
mkfifo "$TMP/fifo.dat"
run_cmd "$PREFLIGHT" record -o "$TMP/fifo.dat" -d 100ms
like "$rc:$err:$(test -p "$TMP/fifo.dat" && echo still-a-fifo)" \
	"^2:preflight: record: -o '$TMP/fifo.dat': not a regular file .*:still-a-fifo$" \
	"rec-cli-2.9 an output that is a FIFO or device (/dev/null) is refused, never replaced by the .dat"

echo "not a trace" > "$TMP/text.dat"
run_cmd "$PREFLIGHT" record --summary "$TMP/text.dat"
like "$rc:$err" "^2:preflight: record: .*not a readable trace-cmd file" "rec-cli-3.1 --summary of a text file: one-line error, exit 2"
# a cut-off .dat (libtracecmd's tracecmd_open() faults closing it): read as far as it goes,
# one line says it is incomplete and where it ends (traces/rec_cut.c; t/0527 cuts everywhere)
head -c 84990 "$TOP/traces/ref/app-text-markers.dat" > "$TMP/cut.dat"
run_cmd "$PREFLIGHT" record --summary "$TMP/cut.dat"
is "$rc:$err" "0:preflight: record: note: INCOMPLETE: '$TMP/cut.dat': truncated: the file ends at byte 84990 of the 212992 its headers declare (cut short: power loss or a full disk); read as far as it goes" \
	"rec-cli-3.2 --summary of a truncated .dat: read as far as it goes, one line says so, no crash"
# one corrupt byte in an event format ("size:21" -> "size:\243""1") makes libtraceevent fault
cp "$TOP/traces/ref/app-text-markers.dat" "$TMP/fmt.dat"
printf '\243' | dd of="$TMP/fmt.dat" bs=1 seek=11217 conv=notrunc 2>/dev/null
run_cmd "$PREFLIGHT" record --summary "$TMP/fmt.dat"
like "$rc:$err" "^2:preflight: record: '$TMP/fmt.dat': not a readable trace-cmd file \(corrupt: libtracecmd faulted reading it, SIGSEGV \(Segmentation fault\)\)$" \
	"rec-cli-3.3 --summary of a .dat with a corrupt event format: one-line error, exit 2, no crash"
# stdout a pipe already closed by its reader (--summary | head): no corruption claimed, ended as a filter is
run_cmd perl -e 'pipe(R, W); close R; open STDOUT, ">&W"; exec @ARGV' "$PREFLIGHT" record --summary "$TOP/traces/ref/app-alone.dat"
is "$rc:$err" "141:" "rec-cli-3.4 --summary into a closed pipe: ended by SIGPIPE like any filter, no 'corrupt' error"

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	run_cmd setpriv --reuid=65534 --regid=65534 --clear-groups "$PREFLIGHT" record -o /tmp/never.dat -- true
	like "$rc:$err" "^3:preflight: record: tracefs: " "rec-cli-4.1 without privilege: exit 3 with a clear message"
else
	run_cmd "$PREFLIGHT" record -o "$TMP/x.dat" -- true
	like "$rc:$err" "^3:preflight: record: tracefs: " "rec-cli-4.1 without privilege: exit 3 with a clear message"
fi
done_testing
