#!/bin/sh
# 0010-lib.t - unit tests of lib/ (parsing, growing array, INI reader,
# data-file resolver, process spawner, output files: lib-10.x, gnuplot quoting: lib-11.x)
. "$(dirname "$0")/lib/test-lib.sh"
run_unit lib_test
