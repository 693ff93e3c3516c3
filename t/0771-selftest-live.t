#!/bin/sh
# 0771-selftest-live.t - 'preflight selftest --quick' on this machine, end to end as root:
# the injections happen, the traces are recorded and analysed, and every case reports a
# distribution. Its verdicts are measurements of this machine, not asserted here (the
# run on a noisy VM may miss the 2 us goal); what is asserted is that each case ran, or
# (one CPU: migrate) says why it could not, and that its watchdog did not have to end it.
# For the target guests (scripts/target.mk): make check asserts the same of the quick
# selftest that t/0720's qualification runs (t/lib/selftest-lib.sh), not of a second one.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS RT BUILT:selftest-inject BUILT:flightapp-perf
. "$TOP/t/lib/selftest-lib.sh"
plan 7

run_cmd "$PREFLIGHT" selftest --quick -o "$TMP/st"
# on failure its error lines go to stderr, which prove shows without -v (CI logs: this test
# failed once beside an emulated guest's run, with nothing said why)
stlive_check "$rc" "$TMP/st" "$out" "$err"
done_testing
