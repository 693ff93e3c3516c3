#!/bin/sh
# 0012-jpath.t - unit tests of lib/jpath.c (dotted paths into JSON documents)
. "$(dirname "$0")/lib/test-lib.sh"
run_unit jpath_test
