#!/bin/sh
# 0019-load-achieved.t - unit tests of lib/load_achieved.c (a load's achieved
# share of its target: check's [validity] gate and the report's L1.2)
. "$(dirname "$0")/lib/test-lib.sh"
run_unit load_achieved_test
