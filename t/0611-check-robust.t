#!/bin/sh
# 0611-check-robust.t - inputs that once broke 'preflight check': a metric
# whose parent statistics object has a count but no unit, and a name without a
# unit suffix (tasks.ctl100.preemptions_per_job.max), made check write out of bounds
# (SIGBUS, no output); it must give its verdict like any other metric.
. "$(dirname "$0")/lib/test-lib.sh"
plan 3

cat > "$TMP/r.json" <<'JSON'
{"schema": "preflight-results/1",
 "tasks": [{"name": "ctl100", "preemptions_per_job": {"count": 3, "min": 1, "max": 5}}]}
JSON
cat > "$TMP/b.ini" <<'INI'
[REQ-X-001]
text   = ctl100 is seldom preempted
metric = tasks.ctl100.preemptions_per_job.max
bound  = <= 10
INI
run_cmd "$PREFLIGHT" check "$TMP/r.json" --budgets "$TMP/b.ini"
is "$rc" 0 "check-rob-1.1 a unitless statistics object's member: checked, exit 0 (was SIGBUS)"
like "$out" "^ok 1 - REQ-X-001" "check-rob-1.2 ... one passing verdict"
sed -i 's/<= 10/<= 4/' "$TMP/b.ini"
run_cmd "$PREFLIGHT" check "$TMP/r.json" --budgets "$TMP/b.ini"
is "$rc" 1 "check-rob-1.3 ... and a failing one when the bound is below the value"
