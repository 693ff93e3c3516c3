#!/bin/sh
# 0640-bad-input-fuzz.t - corrupted cyclictest files, budget files and
# results.json (fixed random seed): every run ends with exit 0, 1 or 2 and
# at most one error line, never a crash
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/check-lib.sh"
need_ct_dump
FX="$TOP/t/fixtures"
N=150
plan 4

# mutate SRC DST SEED - flip, drop, duplicate or cut bytes / lines of SRC
mutate() {
	perl -e '
		my ($src, $dst, $seed) = @ARGV; srand($seed);
		local $/; open my $f, "<", $src or die; my $t = <$f>;
		my $k = int(rand(5));
		if ($k == 0) { substr($t, int(rand(length $t)), 1) = chr(int(rand(256))) for 1 .. 1 + int(rand(4)) }
		elsif ($k == 1) { $t = substr($t, 0, int(rand(length $t))) }
		elsif ($k == 2) { my @l = split /\n/, $t, -1; splice(@l, int(rand(@l)), 1); $t = join "\n", @l }
		elsif ($k == 3) { my @l = split /\n/, $t, -1; my $i = int(rand(@l)); splice(@l, $i, 0, $l[$i]); $t = join "\n", @l }
		else { my @d = (0 .. 9, "-", ".", "x", " ", "\t", "#", "[", "]", "{", "}", "\"", ",", ":");
		       substr($t, int(rand(length $t)), 1) = $d[int(rand(@d))] for 1 .. 1 + int(rand(3)) }
		open my $o, ">", $dst or die; print $o $t;
	' "$1" "$2" "$3"
}

# survive ID DESC CMD... - over N mutations of $SRC into $TMP/m, CMD exits 0..2, one error line at most
survive() {
	id=$1 desc=$2; shift 2
	bad=""
	refused=0
	i=0
	while [ $i -lt $N ]; do
		mutate "$SRC" "$TMP/m" $((i + 1))
		"$@" > /dev/null 2> "$TMP/m.err"
		rc=$?
		if [ $rc -gt 2 ] || [ "$(wc -l < "$TMP/m.err")" -gt 1 ]; then
			bad="$bad seed $((i + 1)): exit $rc $(head -c 200 "$TMP/m.err")"
			break
		fi
		[ $rc -eq 2 ] && refused=$((refused + 1))
		i=$((i + 1))
	done
	[ -z "$bad" ] && [ $refused -eq 0 ] && bad="no mutation was refused: the fuzz tested nothing"
	is "$bad" "" "$id $desc"
}

SRC="$FX/cyclictest/ovf.json"; survive fuzz-1.1 "$N corrupted cyclictest --json files" "$DUMP" "$TMP/m"
SRC="$FX/cyclictest/ovf-H.hist"; survive fuzz-1.2 "$N corrupted cyclictest -H histograms" "$DUMP" "$TMP/m"
SRC="$TOP/budgets/seed.ini"; survive fuzz-1.3 "$N corrupted budget files" "$PREFLIGHT" check "$FX/results/fail.json" --budgets "$TMP/m"
SRC="$FX/results/fail.json"; survive fuzz-1.4 "$N corrupted results.json" "$PREFLIGHT" check "$TMP/m" --budgets "$TOP/budgets/seed.ini"
done_testing
