#!/bin/sh
# 0522-analyze-trace-faults.t - a corrupt .dat on which libtracecmd or
# libtraceevent faults never kills preflight analyze (or record --summary):
# the library runs in a child process, and its fault becomes one error line
# naming the library call, and exit 2. The inputs: the committed mutants of
# the reference traces on which the library faulted
# (t/fixtures/corrupt-dat/*.bytes), and deterministic mutants made here.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight
REF="$TOP/traces/ref"
FX="$TOP/t/fixtures/corrupt-dat"
plan 11

# apply BYTES DST - write the reference trace a .bytes file names, with its bytes changed
apply() {
	perl -e '
		my ($spec, $refdir, $dst) = @ARGV; my ($ref, @ch);
		open my $s, "<", $spec or die; while (<$s>) {
			next if /^#/; if (/^ref (\S+)/) { $ref = $1; next }
			push @ch, [$1, $2] if /^(\d+) ([0-9a-f]{2})$/ }
		local $/; open my $f, "<:raw", "$refdir/$ref" or die; my $t = <$f>;
		substr($t, $_->[0], 1) = chr(hex $_->[1]) for @ch;
		open my $o, ">:raw", $dst or die; print $o $t;' "$1" "$REF" "$2"
}

# mutate SRC DST SEED - a deterministic mutant of a .dat: bytes changed in the
# headers, the event formats, the options or the CPU data pages
mutate() {
	perl -e '
		my ($src, $dst, $seed) = @ARGV; srand($seed);
		local $/; open my $f, "<:raw", $src or die; my $t = <$f>;
		my $n = length $t; my $k = $seed % 5;
		my @d = (0 .. 9, " ", "\n", ":", ";", "[", "]", "(", ")", "\0", "\xff", "-", "%");
		if ($k == 0) { substr($t, 2048 + int(rand(45000)), 1) = $d[int(rand(@d))] for 1 .. 1 + int(rand(4)) }
		elsif ($k == 1) { substr($t, int(rand(49152)), 1) = chr(int(rand(256))) for 1 .. 1 + int(rand(4)) }
		elsif ($k == 2) { my $p = int(($n - 49152) / 4096);
			substr($t, 49152 + 4096 * int(rand($p)) + int(rand(16)), 1) = chr(int(rand(256))) for 1 .. 1 + int(rand(3)) }
		elsif ($k == 3) { substr($t, 49152 + int(rand($n - 49152)), 1) = chr(int(rand(256))) for 1 .. 1 + int(rand(8)) }
		else { substr($t, 40000 + int(rand(9152)), 4) = pack("V", int(rand(2**32))) for 1 .. 1 + int(rand(3)) }
		open my $o, ">:raw", $dst or die; print $o $t;' "$1" "$2" "$3"
}

# one_line CODE PATTERN - the last run_cmd exited CODE with exactly one stderr line matching PATTERN
one_line() {
	[ "$rc" = "$1" ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && printf '%s' "$err" | grep -Eq -- "$2"
}

# the committed inputs: each one faulted in the library before it was isolated
n=0 bad=""
for spec in "$FX"/*.bytes; do
	n=$((n + 1))
	apply "$spec" "$TMP/c.dat"
	run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/c.dat" -o "$TMP/c.json"
	one_line 2 "^preflight: analyze: $TMP/c.dat: corrupt trace: libtracecmd \(.*\) .* faulted \(SIG[A-Z]+ \(.*\)\)" ||
		bad="$bad $(basename "$spec"): rc=$rc $err;"
	[ -e "$TMP/c.json" ] && bad="$bad $(basename "$spec"): results.json written;"
done
ok "trfault-1.1 $n committed corrupt traces found" [ "$n" -ge 4 ]
is "$bad" "" "trfault-1.2 each: exit 2, one line naming the library call and the signal, no results.json"

# the line names where the iteration was: the events read and the last record's offset
apply "$FX/app-alone-47.bytes" "$TMP/c.dat"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/c.dat" -o "$TMP/c.json"
like "$err" "tracecmd_iterate_events_multi, kbuffer\) reading the CPU data faulted \(SIGSEGV .*\) after [1-9][0-9]* events, the last at offset [1-9][0-9]*$" \
	"trfault-1.3 a fault while reading records: the events read and the last good offset"
is "$out" "" "trfault-1.4 nothing on stdout"

# the same file through a run directory (analyze RUN_DIR)
mkdir "$TMP/run" && cp "$TMP/c.dat" "$TMP/run/trace.dat"
run_cmd "$PREFLIGHT" analyze -q "$TMP/run"
one_line 2 "corrupt trace: libtracecmd .* faulted"
is "$?" 0 "trfault-1.5 analyze RUN_DIR of a faulting trace: exit 2, one line"
[ -e "$TMP/run/results.json" ]
is "$?" 1 "trfault-1.6 no results.json in the run directory"

# record --summary reads through the same isolation
bad=""
for spec in "$FX"/*.bytes; do
	apply "$spec" "$TMP/c.dat"
	run_cmd "$PREFLIGHT" record --summary "$TMP/c.dat"
	one_line 2 "^preflight: record: '$TMP/c.dat': not a readable trace-cmd file \(corrupt: .* faulted reading it, SIG" ||
		bad="$bad $(basename "$spec"): rc=$rc $err;"
done
is "$bad" "" "trfault-1.7 record --summary of each: exit 2, one line"

# deterministic mutants of every reference trace: exit 0 or 2, never a signal, one line at most
bad="" refused=0 total=0
for ref in "$REF"/*.dat; do
	for seed in $(seq 1 40); do
		total=$((total + 1))
		mutate "$ref" "$TMP/m.dat" "$seed"
		"$PREFLIGHT" analyze -q --trace "$TMP/m.dat" -o "$TMP/m.json" > /dev/null 2> "$TMP/m.err"
		r=$?
		if { [ $r != 0 ] && [ $r != 2 ]; } || [ "$(wc -l < "$TMP/m.err")" -gt 1 ]; then
			bad="$bad $(basename "$ref") seed $seed: exit $r $(head -c 200 "$TMP/m.err");"
		fi
		[ $r = 2 ] && refused=$((refused + 1))
	done
done
is "$bad" "" "trfault-2.1 $total mutants of the reference traces: exit 0 or 2 with at most one line"
ok "trfault-2.2 some mutants were refused (the mutation reached the reader)" [ "$refused" -gt 0 ]

# an intact reference trace still analyses in the child, with its output
run_cmd "$PREFLIGHT" analyze --trace "$REF/app-alone.dat" -o "$TMP/ok.json"
is "$rc" 0 "trfault-3.1 an intact trace: exit 0"
ok "trfault-3.2 its results.json and summary are written" sh -c "[ -s '$TMP/ok.json' ] && [ -n \"\$1\" ]" _ "$out"
done_testing
