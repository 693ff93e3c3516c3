#!/bin/sh
# 0529-analyze-decoder.t - the direct page decoder (traces/rec_pages.c) gives
# results.json byte for byte as the libtracecmd path does, on every trace
# there is: the reference traces, every .dat fixture (the RT guests', rtla's,
# the selftest's, v7 with zstd), every gentrace scenario as a 64-bit and a
# 32-bit kernel writes its pages, with absolute time stamps and padding
# events, and converted to v7 (zstd, and uncompressed), lost events, a second
# buffer instance holding the same events (every time stamp a tie), v6 and v7
# files cut short in their CPU data; errors name the same offsets (v7: the
# uncompressed data's, as libtracecmd numbers them); and a file it does not
# know (an option, a page or an event out of bounds) is read through
# libtracecmd with one note on stderr, the same results.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace CMD:perl CMD:trace-cmd
plan 142

# same ID DESC ARGS... - analyze ARGS with either decoder: the same exit code, stderr and
# results.json (or none with both: a trace refused, its one line naming the same offset in it)
same() {
	id=$1 desc=$2
	shift 2
	rm -f "$TMP/d.json" "$TMP/l.json"
	"$PREFLIGHT" analyze -q --decoder=direct -o "$TMP/d.json" "$@" >/dev/null 2>"$TMP/d.err"
	drc=$?
	"$PREFLIGHT" analyze -q --decoder=libtracecmd -o "$TMP/l.json" "$@" >/dev/null 2>"$TMP/l.err"
	lrc=$?
	if [ "$drc" = "$lrc" ] && cmp -s "$TMP/d.err" "$TMP/l.err" &&
	   { cmp -s "$TMP/d.json" "$TMP/l.json" ||
	     { [ ! -e "$TMP/d.json" ] && [ ! -e "$TMP/l.json" ] && [ "$drc" = 2 ] && grep -q ': offset [0-9]' "$TMP/l.err"; }; }; then
		_report 0 "$id $desc"
	else
		_report 1 "$id $desc"
		echo "#   exit direct $drc, libtracecmd $lrc; $(cmp "$TMP/d.json" "$TMP/l.json" 2>&1 | head -1)"
		sed 's/^/#   direct: /' "$TMP/d.err"
		sed 's/^/#   libtracecmd: /' "$TMP/l.err"
	fi
}

# note_of ARGS... - the stderr of the direct decoder without -q (its note, if it read through libtracecmd)
note_of() {
	"$PREFLIGHT" analyze --decoder=direct -o "$TMP/n.json" "$@" 2>&1 >/dev/null
}

# dec-1: every committed trace
i=0
for f in "$TOP"/traces/ref/*.dat $(find "$TOP/t/fixtures" -name '*.dat' | sort); do
	i=$((i + 1))
	same "dec-1.$i" "${f#"$TOP"/}: the same results.json" --trace "$f"
done
is "$i" 14 "dec-1.0 14 committed traces (4 reference, 10 fixtures)"
ok "dec-1.v6 a v6 reference trace is read by the direct decoder (no note)" \
	test -z "$(note_of --trace "$TOP/traces/ref/app-alone.dat")"
ok "dec-1.v7 a v7 trace (zstd) of the RT guest is read by the direct decoder (no note)" \
	test -z "$(note_of --trace "$TOP/t/fixtures/rt/softirq-preempted.dat")"

# dec-2: every gentrace scenario, as 64- and 32-bit kernels write pages, with and without
# absolute time stamps and padding events (GENTRACE_LONG, GENTRACE_STAMPS)
for v in plain long4 stamps long4-stamps; do
	case $v in
	plain) env="" ;; long4) env="GENTRACE_LONG=4" ;; stamps) env="GENTRACE_STAMPS=1" ;;
	long4-stamps) env="GENTRACE_LONG=4 GENTRACE_STAMPS=1" ;;
	esac
	mkdir -p "$TMP/$v"
	j=0
	for m in basic lost lostgap markers observer irqs chain chained silent inferback early ipi exits rt window storm; do
		j=$((j + 1))
		g="$TMP/$v/$m.dat"
		case $m in
		basic|lost|lostgap|markers|observer|irqs)
			env $env "$GEN" "$m" "$g" "$TMP/$v/$m.csv"; set -- --trace "$g" --joblog "$TMP/$v/$m.csv" ;;
		window) env $env "$GEN" window "$g" 20000 70000 "$TMP/$v/$m.csv"; set -- --trace "$g" --joblog "$TMP/$v/$m.csv" ;;
		storm) env $env "$GEN" storm "$g" 30000; set -- --trace "$g" ;;
		*) env $env "$GEN" "$m" "$g"; set -- --trace "$g" ;;
		esac
		same "dec-2.$v.$j" "gentrace $m ($v pages)" "$@"
		# the plain pages in v7, compressed and not: the same again
		if [ "$v" = plain ]; then
			shift 2		# --trace FILE: the job log's arguments remain
			for c in zstd none; do
				trace-cmd convert -i "$g" -o "$TMP/$v/$m.$c.dat" --file-version 7 --compression "$c" >/dev/null 2>&1
				same "dec-2.v7-$c.$j" "gentrace $m (v7, $c)" --trace "$TMP/$v/$m.$c.dat" "$@"
			done
		fi
	done
done
# the pages differ, the events are the same: so are the results (the file names aside)
"$PREFLIGHT" analyze -q --trace "$TMP/plain/lost.dat" --joblog "$TMP/plain/lost.csv" -o "$TMP/p.json" 2>/dev/null
"$PREFLIGHT" analyze -q --trace "$TMP/long4-stamps/lost.dat" --joblog "$TMP/long4-stamps/lost.csv" -o "$TMP/q.json" 2>/dev/null
sed 's|long4-stamps/|plain/|g' "$TMP/q.json" > "$TMP/q2.json"
ok "dec-2.1 a 32-bit kernel's pages with time stamps and padding: the results of the plain trace" \
	cmp -s "$TMP/p.json" "$TMP/q2.json"
is "$(json_get "$TMP/q.json" trace.lost_events)" 7 "dec-2.2 ... its lost events counted (the pages' and the CPU statistics')"
ok "dec-2.3 ... read by the direct decoder (no note)" \
	test -z "$(note_of --trace "$TMP/long4-stamps/lost.dat")"

# dec-3: cut short in its CPU data: read as far as it goes, the same way
f="$TMP/plain/storm.dat"
size=$(stat -c %s "$f")
k=0
for n in $((size / 2)) $((size / 2 + 1000)) $((size - 4096)) $((size - 1)); do
	k=$((k + 1))
	head -c "$n" "$f" > "$TMP/cut.dat"
	same "dec-3.$k" "cut at byte $n of $size" --trace "$TMP/cut.dat"
done
like "$(json_get "$TMP/d.json" incomplete.0)" "^trace: truncated: the file ends at byte $((size - 1)) " \
	"dec-3.5 ... flagged truncated"
f="$TMP/plain/storm.zstd.dat"
size=$(stat -c %s "$f")
for n in $((size / 2)) $((size * 3 / 4)) $((size - 100)); do
	k=$((k + 1))
	head -c "$n" "$f" > "$TMP/cut.dat"
	same "dec-3.$((k + 1))" "v7 (zstd) cut at byte $n of $size" --trace "$TMP/cut.dat"
done
ok "dec-3.9 ... read by the direct decoder (no note)" test -z "$(note_of --trace "$TMP/cut.dat" 2>&1 | grep 'read through')"
same dec-3.10 "v7 (zstd): an error names the uncompressed offset libtracecmd gives" --trace "$TMP/plain/early.zstd.dat"
like "$(cat "$TMP/d.err")" "early.zstd.dat: offset [0-9]+: corrupt marker" "dec-3.11 ... an error with an offset"

# the CPU data of a gentrace file: the offset and size of CPU 0 and CPU 1
pairs() { perl -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = <$f>; my $i = index($d, "flyrecord\0") + 10;
	print join(" ", unpack("Q<4", substr($d, $i, 32))), "\n"' "$1"; }
# patch FILE OFFSET PACK VALUE - write VALUE (perl pack format PACK) at OFFSET of FILE
patch() { perl -e 'open my $f, "+<", $ARGV[0] or die; seek $f, $ARGV[1], 0; print $f pack($ARGV[2], $ARGV[3])' "$@"; }

# dec-4: a file it does not know: read through libtracecmd, one note, the same results
cp "$TMP/plain/lost.dat" "$TMP/c.dat"
set -- $(pairs "$TMP/c.dat")
patch "$TMP/c.dat" $(($1 + 8)) "Q<" 4090
same dec-4.1 "a page whose commit runs past its end" --trace "$TMP/c.dat" --joblog "$TMP/plain/lost.csv"
like "$(note_of --trace "$TMP/c.dat")" "read through libtracecmd: .*CPU 0 \(merged 0\): .*out of its bounds \(offset $1\)" \
	"dec-4.2 ... said, with where"
cp "$TMP/plain/lost.dat" "$TMP/c.dat"
patch "$TMP/c.dat" $(($3 + 4096 + 16)) "L<" 0
patch "$TMP/c.dat" $(($3 + 4096 + 20)) "L<" 100000
same dec-4.3 "an event whose length runs past its page (libtracecmd stops there: exit 2)" --trace "$TMP/c.dat" --joblog "$TMP/plain/lost.csv"
like "$(note_of --trace "$TMP/c.dat")" "read through libtracecmd: .*CPU 1 \(merged 1\): " "dec-4.4 ... said"
cp "$TMP/plain/lost.dat" "$TMP/c.dat"
opt=$(perl -e 'local $/; open my $f, "<", $ARGV[0]; my $d = <$f>; print index($d, "options  \0") + 10' "$TMP/c.dat")
patch "$TMP/c.dat" "$opt" "S<" 99
same dec-4.5 "an option it does not know" --trace "$TMP/c.dat" --joblog "$TMP/plain/lost.csv"
like "$(note_of --trace "$TMP/c.dat")" "read through libtracecmd: .*: option 99$" "dec-4.6 ... said"
out=$(note_of -q --trace "$TMP/c.dat")
is "$out" "" "dec-4.7 ... not with -q"

# dec-5: a second buffer instance holding the same pages as the top one: each event twice,
# every time stamp a tie, broken the same way (the lower buffer, then the lower CPU)
perl -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $d = <$f>;
	my $o = index($d, "options  \0") + 10; my $p = $o;
	while (unpack("S<", substr($d, $p, 2))) { $p += 6 + unpack("L<", substr($d, $p + 2, 4)) }
	my $fly = index($d, "flyrecord\0", $p); my $pairs = substr($d, $fly + 10, 32);
	my $opt = pack("S<L<", 3, 8 + 5) . pack("Q<", length $d) . "inst\0";
	my $head = substr($d, 0, $p) . $opt . substr($d, $p, 2 + 10 + 32);
	my $first = unpack("Q<", $pairs);
	die "no room" if length($head) > $first;
	$head .= "\0" x ($first - length $head);
	print $head, substr($d, $first), "flyrecord\0", $pairs' "$TMP/plain/lost.dat" > "$TMP/inst.dat"
same dec-5.1 "two buffers with the same events: ties broken alike" --trace "$TMP/inst.dat" --joblog "$TMP/plain/lost.csv"
is "$(json_get "$TMP/d.json" trace.events)" "$(($(json_get "$TMP/p.json" trace.events) * 2))" \
	"dec-5.2 ... every event read from both buffers"
ok "dec-5.3 ... by the direct decoder (no note)" test -z "$(note_of --trace "$TMP/inst.dat")"
trace-cmd convert -i "$TMP/inst.dat" -o "$TMP/inst7.dat" --file-version 7 --compression zstd >/dev/null 2>&1
same dec-5.4 "the same in v7 (zstd, a BUFFER option per buffer)" --trace "$TMP/inst7.dat" --joblog "$TMP/plain/lost.csv"
ok "dec-5.5 ... by the direct decoder (no note)" test -z "$(note_of --trace "$TMP/inst7.dat")"

# dec-6: the switch
run_cmd "$PREFLIGHT" analyze -q --decoder=kbuffer --trace "$TOP/traces/ref/app-alone.dat" -o "$TMP/x.json"
like "$rc:$err" "^2:.*--decoder: 'kbuffer' is not 'direct' or 'libtracecmd'" "dec-6.1 --decoder of another name: exit 2"
run_cmd env PREFLIGHT_DECODER=nope "$PREFLIGHT" analyze -q --trace "$TOP/traces/ref/app-alone.dat" -o "$TMP/x.json"
like "$rc:$err" "^2:.*PREFLIGHT_DECODER: 'nope' is not" "dec-6.2 PREFLIGHT_DECODER of another name: exit 2"
run_cmd env PREFLIGHT_DECODER=libtracecmd "$PREFLIGHT" analyze --trace "$TMP/c.dat" -o "$TMP/x.json"
is "$rc:$(printf '%s' "$err" | grep -c 'read through libtracecmd')" "0:0" \
	"dec-6.3 PREFLIGHT_DECODER=libtracecmd: the reference path, no note"
done_testing
