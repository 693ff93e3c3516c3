#!/bin/sh
# 0010-lava.t - preflight run by a real LAVA (issue 31.1, docs/fleet.md): Debian's
# lava-dispatcher runs ci/lava/qemu-job.yaml with lava-run on the emulated amd64
# PREEMPT_RT board (scripts/lava-check); LAVA's own results, read from its log,
# hold preflight's verdicts as test cases, each with its result and, where it
# has one, its measurement and units. Minutes: the dispatcher's root and the
# image are made when missing, then the board boots and runs target-smoke.
# Run by make check-fleet, not by make check.
. "$(dirname "$0")/../lib/test-lib.sh"
need ROOT
need CMD:mmdebstrap CMD:qemu-system-x86_64 CMD:git
plan 10

O="$TMP/lava"
run_cmd "$TOP/scripts/lava-check" -o "$O"
is "$rc" 0 "lava-1.1 lava-run ran the job to its end (exit 0)" || printf '%s\n' "$err" | tail -5 | sed 's/^/# /'
like "$(cat "$O/result.yaml" 2>/dev/null)" "case: job.*result: pass|result: pass" "lava-1.2 LAVA's verdict on the job: pass (result.yaml)"
R="$O/results.tsv"
# definition 0 is the board's set-up, 1 preflight's own (ci/lava/preflight.yaml from git)
is "$(awk -F'\t' '$1 == "0_board-setup" { print $2 ":" $3 }' "$R" | paste -sd' ')" \
	"preflight-installed:pass tracefs:pass" "lava-1.3 the board set up in LAVA's test shell: preflight installed, tracefs there"
verdicts=$(awk -F'\t' '$1 == "1_preflight" && $2 ~ /^run1_REQ-/ && $2 !~ /_value$/' "$R" 2>/dev/null)
n=$(printf '%s' "$verdicts" | grep -c .)
ok "lava-1.4 preflight's verdicts are LAVA test cases ($n)" test "$n" -ge 1
is "$(printf '%s\n' "$verdicts" | awk -F'\t' '$3 !~ /^(pass|fail|skip)$/' | wc -l)" 0 \
	"lava-1.5 ... each with LAVA's result pass, fail or skip"
ids=$(sed -n 's/^\[\(REQ-[A-Z0-9-]*\)\]$/\1/p' "$TOP/budgets/seed.ini" | sort -u)
missing=$(for id in $ids; do printf '%s\n' "$verdicts" | grep -q "	run1_${id}_" || echo "$id"; done)
is "$(echo $ids | wc -w):$missing" "$(echo $ids | wc -w):" "lava-1.6 ... every requirement of the budgets the smoke judges by is among them ($(echo $ids))"
ok "lava-1.6a ... (the budgets have requirements)" test -n "$ids"
values=$(awk -F'\t' '$1 == "1_preflight" && $2 ~ /^run1_REQ-.*_value$/' "$R")
like "$(printf '%s\n' "$values" | head -n 1)" "	pass	[-0-9.e+]+	[a-z%]+$" \
	"lava-1.7 a verdict's measured value is a LAVA measurement with its units"
is "$(printf '%s\n' "$values" | awk -F'\t' '$4 == "" || $5 == ""' | wc -l)" 0 "lava-1.8 ... every one of them"
lat=$(printf '%s\n' "$values" | awk -F'\t' '$2 ~ /^run1_REQ-LAT-001_io_wakeup_latency_max_value$/ { print $4 " " $5 }')
like "$lat" "^[0-9.]+ us$" "lava-1.9 REQ-LAT-001's io wakeup latency reached LAVA in us ($lat)"
done_testing
