#!/bin/sh
# 0010-lava.t - preflight run by a real LAVA (issue 31.1, docs/fleet.md): Debian's
# lava-dispatcher runs ci/lava/qemu-job.yaml with lava-run on the emulated amd64
# PREEMPT_RT board (scripts/lava-check); LAVA's own results, read from its log,
# hold preflight's verdicts as test cases, each with its result and, where it
# has one, its measurement and units. Minutes: the dispatcher's root and the
# image are made when missing, then the board boots and runs target-smoke.
# Run by make check-fleet, not by make check.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$TOP/t/lib/lava-lib.sh"
need ROOT
need CMD:mmdebstrap CMD:qemu-system-x86_64 CMD:git
plan 10

O="$TMP/lava"
run_cmd "$TOP/scripts/lava-check" -o "$O"
is "$rc" 0 "lava-1.1 lava-run ran the job to its end (exit 0)" || printf '%s\n' "$err" | tail -5 | sed 's/^/# /'
lava_asserts lava-1 "$O"
done_testing
