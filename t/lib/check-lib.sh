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
