#!/bin/sh
# 0527-analyze-v7-cut.t - a trace-cmd v7 (compressed) trace cut short (a full
# disk, a killed copy; issue 27 item 6). trace-cmd writes the index of a v7
# file's CPU data last, so every cut used to be refused whole. Now: cut
# anywhere after its headers, analyze and record --summary read every whole
# compressed chunk before the cut and say in one line that it is INCOMPLETE
# and ends at byte N; cut inside its headers, one positioned line, exit 2.
# The salvaged part analyses as the same chunks of the whole file do. On the
# committed v7 fixture (recorded by preflight record -z), on trace-cmd's own
# v7 writer (a gentrace trace converted), and on one recorded here with
# record -z when tracefs is there. t/lib/dat-v7-layout.pl says where the
# chunks are.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:t/gentrace
plan 27

LAYOUT="$TOP/t/lib/dat-v7-layout.pl"

# events N - analyze $SRC cut at N bytes ($TMP/cut.dat) into $TMP/c.json; prints its events
# (-1: refused), its first incomplete note into $TMP/c.note (c.json read once: its parse is
# most of a cut's time) and sets rc, err (not in a $(...) subshell)
events() {
	head -c "$1" "$SRC" > "$TMP/cut.dat"
	rm -f "$TMP/c.json" "$TMP/c.note"
	run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/cut.dat" -o "$TMP/c.json"
	if [ "$rc" = 0 ]; then
		json_get "$TMP/c.json" trace.events incomplete.0 > "$TMP/c.vals" 2>/dev/null
		sed -n 2p "$TMP/c.vals" > "$TMP/c.note"
		sed -n 1p "$TMP/c.vals"
	else
		echo -1
	fi
}

# same_results A B - two results.json equal but for where they came from and the INCOMPLETE note
same_results() {
	perl -MJSON::PP -e '
		my @d = map { local $/; open my $f, "<", $_ or die "$_: $!"; JSON::PP->new->decode(<$f>) } @ARGV;
		for (@d) { delete @$_{qw(inputs generator incomplete)}; delete $_->{trace}{file}; }
		my $j = JSON::PP->new->canonical;
		exit($j->encode($d[0]) eq $j->encode($d[1]) ? 0 : 1)' "$1" "$2"
}

# cuts_check ID FILE - 8 tests: FILE cut in its headers, at every chunk's start, middle and
# last byte, at each block and at the index, in its trailing sections and one byte short
cuts_check() {
	id=$1 SRC=$2
	size=$(wc -c < "$SRC")
	perl "$LAYOUT" "$SRC" > "$TMP/layout" || { echo "# $SRC: no v7 layout"; }
	"$PREFLIGHT" analyze -q --trace "$SRC" -o "$TMP/whole.json"
	whole=$(json_get "$TMP/whole.json" trace.events)
	opt=$(awk '$1 == "options" { print $2, $3 }' "$TMP/layout")
	index=$(awk '$1 == "index" { print $2 }' "$TMP/layout")
	last=$(awk '$1 == "chunk" { s = $4 } END { print s }' "$TMP/layout")

	# in the headers: before the first options section is whole
	bad=
	for n in 10 40 ${opt% *} $((${opt#* } - 1)); do
		events "$n" > /dev/null
		lines=$(printf '%s\n' "$err" | grep -c .)
		printf '%s' "$err" | grep -q "^preflight: analyze: $TMP/cut\\.dat: offset $n: a trace-cmd v7 file cut short inside its headers" &&
			[ "$rc:$lines" = 2:1 ] && [ ! -e "$TMP/c.json" ] || bad="$bad $n($rc: $err)"
		run_cmd "$PREFLIGHT" record --summary "$TMP/cut.dat"
		lines=$(printf '%s\n' "$err" | grep -c .)
		printf '%s' "$err" | grep -q "^preflight: record: '$TMP/cut\\.dat': offset $n: a trace-cmd v7 file cut short inside its headers" &&
			[ "$rc:$lines" = 2:1 ] || bad="$bad summary:$n($rc: $err)"
	done
	is "${bad:-none}" none "$id.1 cut in its headers (10, 40, ${opt% *}, $((${opt#* } - 1)) bytes): analyze and --summary exit 2, one line with the offset, no results.json"

	# after them: every chunk's start, middle, last byte and end, the blocks, the index, the tail
	awk '$1 == "chunk" { print int(($3 + $4) / 2); print $4 - 1; print $4 }
	     $1 == "block" { print $3 + 2 }
	     $1 == "index" { print $2 + 1 } $1 == "size" { print $2 - 1 }' "$TMP/layout" |
		sort -n -u | awk -v lo="${opt#* }" '$1 >= lo' > "$TMP/cuts"
	bad= badsum= prev=0 nonmono= over= ncuts=0
	while read -r n; do
		ncuts=$((ncuts + 1))
		events "$n" > "$TMP/ev"
		ev=$(cat "$TMP/ev")
		note=$(cat "$TMP/c.note" 2>/dev/null)
		lines=$(printf '%s\n' "$err" | grep -c .)
		case "$rc:$lines:$note" in
		"0:1:trace: truncated: the file ends at byte $n of at least "*" its headers declare (cut short: "*) ;;
		*) bad="$bad $n($rc:$lines: $note $err)" ;;
		esac
		[ "$ev" -ge "$prev" ] || nonmono="$nonmono $n($ev<$prev)"
		[ "$ev" -ge 0 ] && [ "$ev" -le "$whole" ] || over="$over $n($ev)"
		prev=$ev
		sum=$("$PREFLIGHT" record --summary "$TMP/cut.dat" 2> "$TMP/sum.err")
		src=$?
		printf '%s\n' "$sum" | grep -q "^events $ev\$" &&
			printf '%s\n' "$sum" | grep -q "^incomplete truncated: the file ends at byte $n of at least " &&
			[ "$src:$(grep -c . "$TMP/sum.err")" = 0:1 ] &&
			grep -q "^preflight: record: note: INCOMPLETE: '$TMP/cut\\.dat': truncated: the file ends at byte $n of " "$TMP/sum.err" ||
			badsum="$badsum $n($src: $(cat "$TMP/sum.err"))"
		echo "$n $ev" >> "$TMP/events.$id"
	done < "$TMP/cuts"
	is "${bad:-none}" none "$id.2 $ncuts cuts after the headers: analyze exits 0, one line, results.json's incomplete says where the file ends"
	is "${badsum:-none}" none "$id.3 ... record --summary: exit 0, the same events, 'incomplete' and one INCOMPLETE line on stderr"
	is "${nonmono:-none}" none "$id.4 ... the longer the file, the more events (never fewer)"
	is "${over:-none}" none "$id.5 ... between none and the whole file's $whole events"

	# the data all there (cut at the index): the same results as the whole file
	events "$index" > /dev/null
	same_results "$TMP/c.json" "$TMP/whole.json"
	is "$?:$(json_get "$TMP/c.json" trace.events)" "0:$whole" "$id.6 cut at the index ($index of $size): results.json the same as the whole file's"

	# one byte into the last chunk, and one short of it: that chunk alone lost
	a=$(awk '$1 == "chunk" { s = $3 } END { print s }' "$TMP/layout")
	e1=$(events $((a + 1)))
	e2=$(events $((last - 1)))
	e3=$(events "$last")	# the index: nothing lost
	[ "$e1" = "$e2" ] && [ "$e2" -lt "$e3" ] && [ "$e3" = "$whole" ]
	is "$?" 0 "$id.7 cut inside the last chunk ($((a + 1)), $((last - 1))): $e1, $e2 events, only that chunk lost ($e3 with it, $whole whole)"

	# cut where the first CPU's chunks end: that CPU's events, as trace-cmd reports them
	b1=$(awk '$1 == "block" && $2 == 1 { print $3 }' "$TMP/layout")
	if [ -n "$b1" ] && test_have_prereq CMD:trace-cmd; then
		e=$(events "$b1")
		c0=$(trace-cmd report --cpu 0 -i "$SRC" 2>/dev/null | grep -c '\[000\]')
		is "$e" "$c0" "$id.8 cut where CPU 1's block starts ($b1): CPU 0's events, all of them ($c0 in trace-cmd report --cpu 0)"
	else
		skip "$id.8" "${prereq_why:-one CPU block only}"
	fi
}

# the committed fixture: a preflight record -z trace of the selftest (2 CPUs, zstd)
cuts_check v7cut-1 "$TOP/t/fixtures/selftest/lost.dat"

# trace-cmd's own v7 writer: a gentrace trace converted (three options sections)
if test_have_prereq CMD:trace-cmd; then
	"$B/t/gentrace" basic "$TMP/b.dat" > /dev/null
	trace-cmd convert --file-version 7 --compression zstd -i "$TMP/b.dat" -o "$TMP/b7.dat" > /dev/null 2>&1
	cuts_check v7cut-2 "$TMP/b7.dat"
else
	skip "v7cut-2.1 v7cut-2.2 v7cut-2.3 v7cut-2.4 v7cut-2.5 v7cut-2.6 v7cut-2.7 v7cut-2.8"
fi

# recorded here with record -z
if test_have_prereq TRACEFS; then
	"$PREFLIGHT" record -q -z -e sched -o "$TMP/r7.dat" -- sh -c 'for i in 1 2 3 4 5 6 7 8; do sleep 0.05; done'
	cuts_check v7cut-3 "$TMP/r7.dat"
else
	skip "v7cut-3.1 v7cut-3.2 v7cut-3.3 v7cut-3.4 v7cut-3.5 v7cut-3.6 v7cut-3.7 v7cut-3.8"
fi

# a cut in the trailing strings section of a whole file: all read, still flagged
SRC="$TOP/t/fixtures/selftest/lost.dat"
n=$(($(wc -c < "$SRC") - 1))
events "$n" > "$TMP/ev"
like "$rc:$(cat "$TMP/ev"):$(json_get "$TMP/c.json" incomplete.0)" "^0:17990:trace: truncated: the file ends at byte $n of at least $((n + 1)) " \
	"v7cut-4.1 one byte short: every event, flagged INCOMPLETE"
# a v6 file cut short: record --summary reads it as far as it goes too
"$B/t/gentrace" basic "$TMP/b6.dat" > /dev/null
size=$(wc -c < "$TMP/b6.dat")
head -c $((size - 5000)) "$TMP/b6.dat" > "$TMP/cut6.dat"
run_cmd "$PREFLIGHT" record --summary "$TMP/cut6.dat"
like "$rc:$(printf '%s\n' "$out" | grep '^incomplete')" "^0:incomplete truncated: the file ends at byte $((size - 5000)) of the $size its headers declare" \
	"v7cut-4.2 a v6 file cut short: record --summary reads it as far as it goes, as analyze does"
# a guard, not a change: the v7 magic then garbage is refused as before, not salvaged
printf '\027\010Dtracing7\000\000\010\000\020\000\000garbage' > "$TMP/g.dat"
head -c 4096 /dev/zero >> "$TMP/g.dat"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/g.dat" -o "$TMP/g.json"
a="$rc:$err"
run_cmd "$PREFLIGHT" record --summary "$TMP/g.dat"
like "$a|$rc:$err" "^2:preflight: analyze: $TMP/g\\.dat: [^|]*\\|2:preflight: record: '$TMP/g\\.dat': " \
	"v7cut-4.3 v7 magic then garbage: analyze and --summary exit 2, one line each"
