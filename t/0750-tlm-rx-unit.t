#!/bin/sh
# 0750-tlm-rx-unit.t - the ground station's telemetry receiver on synthetic
# frames: gaps, duplicates, reorders, late frames, rejected datagrams, the
# delay statistics and the report (tlm-7)
. "$(dirname "$0")/lib/test-lib.sh"
run_unit tlm_rx_test
