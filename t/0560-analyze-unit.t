#!/bin/sh
# 0560-analyze-unit.t - unit tests of the analysis building blocks (analysis/test-analyze.c)
. "$(dirname "$0")/test-lib.sh"
run_unit an-unit
