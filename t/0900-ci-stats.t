#!/bin/sh
# 0900-ci-stats - the rank statistics of 'preflight compare' against hand-computed values
. "$(dirname "$0")/lib/test-lib.sh"
run_unit ci_stats_test
