#!/bin/sh
# 0320-fsw-fly.t - the closed loop in the faster-than-real-time harness:
# three laps, GPS outage, silent sensor link, garbage / truncated frames,
# determinism, 1 kHz IMU
. "$(dirname "$0")/lib/test-lib.sh"
run_unit fsw_fly_test
