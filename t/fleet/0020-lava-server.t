#!/bin/sh
# 0020-lava-server.t - the scheduler's path (issue 31.2, docs/fleet.md): the same job
# submitted by lavacli to a local lava-server (its PostgreSQL, gunicorn, the
# scheduler, the publisher and a lava-worker for the qemu device, started by
# scripts/lava-check --server: there is no init system), scheduled on the
# emulated amd64 PREEMPT_RT board, and preflight's verdicts read back as test
# cases through the server's REST API. Everything started is stopped after.
# Run by make check-fleet, not by make check.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$TOP/t/lib/lava-lib.sh"
need ROOT
need CMD:mmdebstrap CMD:qemu-system-x86_64 CMD:git CMD:curl
plan 12

O="$TMP/lava"
run_cmd "$TOP/scripts/lava-check" --server -o "$O"
is "$rc" 0 "srv-1.1 lava-server scheduled the job, it ran to its end (exit 0)" || printf '%s\n' "$err" | tail -5 | sed 's/^/# /'
like "$(cat "$O/job-show.txt" 2>/dev/null | tr '\n' '|')" "device *: preflight-qemu.*Health *: Complete" \
	"srv-1.1a ... on the qemu device, Health Complete (lavacli jobs show)"
lava_asserts srv-1 "$O"
is "$(ps -eo args | grep -c '[g]unicorn3 lava_server\|[l]ava-scheduler\|[l]ava-worker \|[p]ostgres: ')" 0 \
	"srv-1.10 nothing of the server left running"
done_testing
