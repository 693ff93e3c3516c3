# analyze-lib.sh - helpers of the 'preflight analyze' tests (t/05xx)

# the synthetic trace generator (t/tools/gentrace.c); a test using it says need BUILT:t/gentrace
GEN="$B/t/gentrace"
