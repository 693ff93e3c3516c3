# check-lib.sh - helpers of the analysis tests (t/0580-0649), sourced after test-lib.sh

# like_line REGEX DESC - some line of $out matches; on failure $out is shown
# as '# ' lines (a multi-line value must never reach prove as TAP)
like_line() {
	if printf '%s\n' "$out" | grep -Eq -- "$1"; then
		_report 0 "$2"
	else
		_report 1 "$2"
		printf '%s\n' "$out" | head -40 | sed 's/^/#   /'
		echo "#   expected a line matching: '$1'"
	fi
}

# need_ct_dump - the cyclictest_load() test helper must be built; sets DUMP
need_ct_dump() {
	need BUILT:t/ct_dump
	DUMP="$B/t/ct_dump"
}

# like_verdict NAME VALUE DESC - a TAP line of $out matches NAME (a regex) and
# the diagnostic line right after it is '#   ' followed by VALUE (a regex): the
# verdicts of 'preflight check' keep their name stable and give the numbers
# on that next line
like_verdict() {
	if printf '%s\n' "$out" | perl -e 'my ($n, $v) = @ARGV; my @l = <STDIN>; chomp @l;
		for my $i (0 .. $#l - 1) { exit 0 if $l[$i] =~ /$n/ && $l[$i + 1] =~ /^#   $v/ } exit 1' "$1" "$2"; then
		_report 0 "$3"
	else
		_report 1 "$3"
		printf '%s\n' "$out" | head -40 | sed 's/^/#   /'
		echo "#   expected a line matching: '$1', then '#   $2'"
	fi
}
