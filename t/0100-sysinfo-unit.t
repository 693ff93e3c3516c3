#!/bin/sh
# 0100-sysinfo-unit.t - unit tests of the survey's parsers: cpulists, the kernel
# command line, isolcpus flags, preemption evidence and the model decision
. "$(dirname "$0")/lib/test-lib.sh"
run_unit sysinfo_test
