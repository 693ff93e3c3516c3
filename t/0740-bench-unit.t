#!/bin/sh
# 0740-bench-unit.t - unit tests of the loads' parameter parsers and the scenario model
. "$(dirname "$0")/lib/test-lib.sh"
run_unit bench_test
