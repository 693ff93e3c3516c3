#!/bin/sh
# 0560-analyze-unit.t - unit tests of the analysis building blocks (t/unit/analyze_test.c)
. "$(dirname "$0")/lib/test-lib.sh"
run_unit analyze_test
