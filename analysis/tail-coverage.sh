#!/bin/sh
# tail-coverage.sh - the tail model's validation on synthetic series (docs/statistics.md):
# for each distribution with a known 1e-6 level (exponential, Weibull 1.5, Pareto 3, a light
# body with a heavy 1e-3 mixture), how often its assumptions hold and how often the 95 %
# interval of the fitted 1e-6 level holds the true one; for a dependent series (AR(1),
# coefficient 0.3) and a non-stationary one (a level shift of 1 % of the scale at half
# time), how often they are rejected (accepted = not rejected).
#
#   analysis/tail-coverage.sh [N] [SEEDS]     (default 100000 samples, 200 seeds each)
#
# Fixed seeds (1000 ...): the same numbers every run. Exit 0, or the tool's.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tool=${PF_BUILD:-$top/build}/t/tail_coverage
[ -x "$tool" ] || { echo "tail-coverage: $tool is not built (run make unit-tests)" >&2; exit 3; }
n=${1:-100000}
seeds=${2:-200}
for d in exp weibull pareto mixture ar1 shift; do
	"$tool" "$d" "$n" "$seeds"
done
