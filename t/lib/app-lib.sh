# app-lib.sh - helpers of the flightapp tests (t/02xx), sourced after test-lib.sh.
#
#   app_summary JOBLOG [TOL]   summarise a job log into $TMP/summary (t/lib/app-joblog.pl)
#   app_get KEY                one value of that summary ("jobs.io")

FLIGHTAPP="$B/flightapp"
need BUILT:flightapp

app_summary() { perl "$TOP/t/lib/app-joblog.pl" "$@" > "$TMP/summary"; }
app_get() { sed -n "s/^$1=//p" "$TMP/summary"; }

# app_within GOT EXPECTED SLACK DESC - an integer within +-SLACK of EXPECTED
app_within() {
	if [ -n "$1" ] && [ "$1" -ge $(($2 - $3)) ] && [ "$1" -le $(($2 + $3)) ]; then
		_report 0 "$4"
	else
		_report 1 "$4"
		echo "#   got: '$1', expected $2 +- $3"
	fi
}
