#!/bin/sh
# 0401-record-unit.t - unit tests of the recorder (stats parsing, event sets, comm table, ref traces)
. "$(dirname "$0")/lib/test-lib.sh"
cd "$TOP" || exit 1
run_unit rec_test
