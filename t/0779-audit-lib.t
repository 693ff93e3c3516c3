#!/bin/sh
# 0779-audit-lib.t - the leftover audit of the fault tests (t/lib/audit-lib.sh) tells this test's
# processes and pid-named items from another's by the mark in their environment, not by pid
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/audit-lib.sh"
plan 6

audit_begin
sleep 300 &
own=$!
(PF_AUDIT_MARK=another-test sleep 301 & echo $! > "$TMP/foreign.pid")
foreign=$(cat "$TMP/foreign.pid")
like "$(audit_procs)" "^ *$own .*sleep 300$" "audit-1.1 a process the test started is listed"
is "$(audit_procs | grep -c -e "sleep 301" -e "0779-audit-lib")" 0 \
	"audit-1.2 neither another test's process nor the test's own shell is"
audit_own "$foreign"
is "$(audit_procs | grep -c "sleep 301")" 0 "audit-1.3 nor another's whose pid the test logged (recycled)"
kill "$own" "$foreign"
wait "$own" 2>/dev/null
wait_for 10 audit_settled
is "$(audit_procs)" "" "audit-1.4 settled once its processes ended"

# an item named after a pid: this test's while that pid is dead or still the test's
touch "/tmp/left-by-$own.$$" "/tmp/left-by-1.$$"
audit_own "$own" 1
like "$(audit_left)" "tmp left-by-$own\.$$" "audit-2.1 an item named after a dead pid of the test is left by it"
is "$(audit_left | grep -c "left-by-1\.")" 0 "audit-2.2 one named after a pid another process has now (init) is not"
rm -f "/tmp/left-by-$own.$$" "/tmp/left-by-1.$$"
