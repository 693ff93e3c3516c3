#!/bin/sh
# 0350-fsw-tlm.t - telemetry frames (encode / decode, CRC and every rejection
# reason), the non-blocking sender on loopback, the navigation snapshot, and
# the io task's SPI transfer timing histogram (tlm-1..4, spit-1..2)
. "$(dirname "$0")/lib/test-lib.sh"
run_unit fsw_tlm_test
