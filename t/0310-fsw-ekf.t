#!/bin/sh
# 0310-fsw-ekf.t - the navigation EKF against simulator truth: Jacobian vs
# finite differences, P positive definite at every step, Monte-Carlo NEES
# (and its negative test), gyro bias estimation
. "$(dirname "$0")/lib/test-lib.sh"
run_unit fsw_ekf_test
