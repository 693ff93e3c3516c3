#!/bin/sh
# 0010-lib.t - unit tests of lib/ (parsing, histogram)
. "$(dirname "$0")/test-lib.sh"
run_unit test-lib
