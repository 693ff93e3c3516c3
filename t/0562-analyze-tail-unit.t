#!/bin/sh
# 0562-analyze-tail-unit.t - the tail statistics on synthetic series with known tails (t/unit/tail_test.c)
. "$(dirname "$0")/lib/test-lib.sh"
run_unit tail_test
