# selftest-lib.sh - what a live 'preflight selftest --quick' must show, sourced after
# test-lib.sh: t/0771 runs one for the target guests, t/0720 asserts the same of the one
# 'preflight qualify' runs (make check runs the quick selftest once, inside qualify).
# Its verdicts are measurements of the machine, never asserted: each case ran, or says why
# it could not, its files are kept and nothing is left behind.

# stlive_check RC DIR OUT ERR - the seven stlive-1.x tests of a quick selftest that exited
# with RC, wrote DIR and printed its TAP in OUT (ERR: its error lines, shown on a failure)
stlive_check() {
	like "$1" '^[01]$' "stlive-1.1 the selftest ran to verdicts (exit 0 or 1, got $1)" ||
		printf '%s\n' "$4" | tail -n 20 | sed 's/^/#   /' >&2
	_j="$2/selftest.json"
	is "$(json_get "$_j" schema) $(json_get "$_j" quick)" "preflight-selftest/1 true" "stlive-1.2 selftest.json of a quick run"
	_c=0
	for _case in block preempt timer overrun migrate event; do
		{ [ "$(json_get "$_j" cases.name=$_case.injections)" -ge 1 ] ||
		  [ -n "$(json_get "$_j" cases.name=$_case.not_run 2>/dev/null)" ]; } && _c=$((_c + 1))
	done
	is "$_c" 6 "stlive-1.3 cases 1-6: each made injections, or says why the platform cannot run it (how many of the 120 planned count depends on the host's load: a job delayed past its slot takes none, so no count is asserted here)"
	is "$(printf '%s\n' "$3" | grep -c '^\(not \)\?ok [0-9]* - selftest-[0-9]* ')" 10 "stlive-1.4 one TAP line per case"
	ok "stlive-1.5 the injector log and both traces are kept" test -s "$2/inject.csv" -a -s "$2/trace.dat" -a -s "$2/lost.dat"
	is "$(json_get "$_j" cases.name=agree.checks.0.ok)" true "stlive-1.6 every job of the trace is in the job log"
	is "$(ls /sys/kernel/tracing/instances | grep -c "preflight-selftest-")" 0 "stlive-1.7 no tracefs instance left behind"
}
