#!/bin/sh
# tail-predict.sh - the tail model's prediction on a real run (docs/statistics.md): per task of
# a job log, the model fitted to the first 20 % of its activation latencies (in release order),
# and the exceedances of its fitted 1e-3 and 1e-4 levels counted in the remaining 80 %, against
# the binomial's 95 % interval of what the model expects (m p +- 1.96 sqrt(m p (1 - p))). The
# fit is made even when the series' assumptions are rejected (tail_fit --fit-always): the
# rejection is printed beside it, since that is when a prediction is expected to fail.
#
#   analysis/tail-predict.sh JOBS.CSV [TASK...]     (default: every task with 5000 jobs or more)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tool=${PF_BUILD:-$top/build}/t/tail_fit
[ -x "$tool" ] || { echo "tail-predict: $tool is not built (run make unit-tests)" >&2; exit 3; }
[ $# -ge 1 ] && [ -r "$1" ] || { echo "usage: analysis/tail-predict.sh JOBS.CSV [TASK...]" >&2; exit 2; }
jl=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the series of each task, in release order: activation latency s_k - r_k
awk -F, -v dir="$tmp" '/^#/ || $1 == "task" { next }
	$4 >= $3 { print $3, $4 - $3 > (dir "/" $1 ".raw") }' "$jl"
tasks=$*
[ -n "$tasks" ] || tasks=$(for f in "$tmp"/*.raw; do [ "$(wc -l < "$f")" -ge 5000 ] && basename "$f" .raw; done)
for t in $tasks; do
	sort -n -k1,1 "$tmp/$t.raw" | awk '{ print $2 }' > "$tmp/$t.series"
	n=$(wc -l < "$tmp/$t.series")
	fit=$((n / 5))
	head -n "$fit" "$tmp/$t.series" | "$tool" --fit-always > "$tmp/$t.fit"
	hold=$(tr ' ' '\n' < "$tmp/$t.fit" | sed -n 's/^hold=//p')
	for p in 0.001 0.0001; do
		q=$(tr ' ' '\n' < "$tmp/$t.fit" | sed -n "s/^q$p=//p")
		case $q in *nan*) echo "$t n=$n fit on $fit: too few samples for a tail model (1000 needed)"; break ;; esac
		tail -n +"$((fit + 1))" "$tmp/$t.series" | awk -v q="$q" -v p="$p" -v t="$t" -v n="$n" -v fit="$fit" \
			-v hold="$hold" '
			{ m++; if ($1 > q) k++ }
			END {
				e = m * p; sd = sqrt(m * p * (1 - p)); lo = e - 1.96 * sd; if (lo < 0) lo = 0
				printf "%-10s n=%d fit on %d (assumptions %s)  level %-6s = %.1f us: %d of %d above, expected %.1f [%.1f, %.1f]: %s\n",
					t, n, fit, (hold == 1 ? "held" : "rejected"), p, q / 1000, k, m, e, lo, e + 1.96 * sd,
					((k >= lo && k <= e + 1.96 * sd) ? "holds" : (k > e ? "FAILS (more)" : "FAILS (fewer)"))
			}'
	done
done
