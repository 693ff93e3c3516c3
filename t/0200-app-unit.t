#!/bin/sh
# 0200-app-unit.t - unit tests of flightapp's executive (config, releases, ring, stats, markers)
. "$(dirname "$0")/lib/test-lib.sh"
cd "$TOP" || exit 1
run_unit app_test
