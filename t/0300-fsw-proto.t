#!/bin/sh
# 0300-fsw-proto.t - flight software frame formats: IMU (CRC-16), UBX NAV-PVT,
# SPI 500-byte frames; every rejection reason, resynchronisation, random bytes
. "$(dirname "$0")/lib/test-lib.sh"
run_unit fsw_proto_test
