#!/bin/sh
# 0011-hist.t - unit tests of lib/hist.c (the log-linear histogram)
. "$(dirname "$0")/lib/test-lib.sh"
run_unit hist_test
