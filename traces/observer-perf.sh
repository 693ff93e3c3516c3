#!/bin/sh
# observer-perf.sh - what tracing costs the app ('make perf'): the flight app's activation
# latency distribution, from its job log, in three configurations measured side by side in one
# run (rounds interleaved, the order rotated each round):
#
#   off    tracing off: flightapp with its job log only
#   away   tracing on, the recorder pinned away from the app (preflight record --cpus HK)
#   same   tracing on, the recorder on the app's CPU (preflight record --cpus APP)
#
#   traces/observer-perf.sh [SECONDS] [ROUNDS]   (default 10 s per configuration per round, 3
#                                                rounds; needs root, tracefs, 2 CPUs, stress-ng)
#
# The app's threads are pinned to the last CPU ([app] cpus); the first CPU is the housekeeping
# CPU. The same event source runs beside the app in every configuration (stress-ng --switch on
# the housekeeping CPU, about 100 000 sched events/s), so that the recorder has pages to move
# while the app runs and only its placement differs. Printed: jobs, p50 / p99 / max of the
# activation latency (start - release) of the app's realtime tasks, pooled over the rounds, then
# the differences away - off, same - off and same - away (the same for the highest-priority
# task alone, which nothing of the app delays), and what 'preflight analyze' counted
# as the observer (observer_ns) in the traced configurations.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
P="$TOP/build/preflight"
APP="$TOP/build/flightapp"
T=/sys/kernel/tracing
SECS=${1:-10}
ROUNDS=${2:-3}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/preflight-observer.XXXXXX")
STORM=
trap '[ -n "$STORM" ] && kill "$STORM" 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT

[ "$(id -u)" -eq 0 ] || { echo "observer-perf: needs root (tracefs, realtime priorities)" >&2; exit 3; }
[ -e "$T/trace_marker" ] || mount -t tracefs nodev "$T" || exit 3
[ -x "$P" ] && [ -x "$APP" ] || { echo "observer-perf: build first (make)" >&2; exit 3; }
command -v stress-ng >/dev/null || { echo "observer-perf: stress-ng is not installed" >&2; exit 3; }
NCPU=$(nproc)
[ "$NCPU" -ge 2 ] || { echo "observer-perf: needs two CPUs, this machine has $NCPU" >&2; exit 3; }
APPCPU=$((NCPU - 1))
HK=0
printf '[app]\ncpus = %s\n' "$APPCPU" > "$TMP/app.ini"

# run CONFIG ROUND - one measurement: the job log into $TMP/CONFIG-ROUND.csv (and the trace)
run() {
	c=$1 n=$2
	app="$APP --config $TMP/app.ini -d ${SECS}s -q --joblog $TMP/$c-$n.csv"
	case $c in
	off)	$app >/dev/null 2>"$TMP/$c-$n.err" ;;
	away|same)
		[ "$c" = away ] && cpus=$HK || cpus=$APPCPU
		inst=pf-observer-perf-$$-$c-$n
		"$P" record -q -o "$TMP/$c-$n.dat" --no-kallsyms -i "$inst" --cpus "$cpus" \
			-- $app --trace-instance "$inst" >/dev/null 2>"$TMP/$c-$n.err" ;;
	esac || { echo "observer-perf: $c round $n failed:" >&2; cat "$TMP/$c-$n.err" >&2; exit 3; }
	if [ "$c" != off ]; then
		"$P" analyze -q --trace "$TMP/$c-$n.dat" --joblog "$TMP/$c-$n.csv" -o "$TMP/$c-$n.json" \
			2>>"$TMP/$c-$n.err" || echo "observer-perf: analyze of $c round $n failed" >&2
		rm -f "$TMP/$c-$n.dat"
	fi
}

taskset -c "$HK" stress-ng --switch 1 --switch-freq 18000 --timeout $((SECS * ROUNDS * 3 + 120))s -q &
STORM=$!
echo "# preflight observer benchmark: $NCPU CPUs, $(uname -r), app on CPU $APPCPU ([app] cpus), housekeeping CPU $HK"
echo "# ${ROUNDS} rounds x ${SECS} s per configuration, interleaved; beside the app in every configuration:"
echo "# stress-ng --switch 1 --switch-freq 18000 on CPU $HK (sched events for the recorder to move)"
for n in $(seq 1 "$ROUNDS"); do
	case $((n % 3)) in
	1) order="off away same" ;;
	2) order="away same off" ;;
	0) order="same off away" ;;
	esac
	for c in $order; do
		run "$c" "$n"
	done
done

perl - "$TMP" "$ROUNDS" "$HK" "$APPCPU" <<'PERL'
use strict; use warnings;
my ($dir, $rounds, $hk, $appcpu) = @ARGV;
my %label = (off => "tracing off (job log only)", away => "tracing on, recorder on CPU $hk",
	     same => "tracing on, recorder on CPU $appcpu (the app's)");
my (%lat, %top, %obs, $topname);
# pct - the value of rank ceil(q * n) of sorted samples (nearest rank)
sub pct { my ($s, $q) = @_; my $i = int($q * @$s + 0.999999) - 1; $i = 0 if $i < 0; return $s->[$i]; }
for my $c (qw(off away same)) {
	for my $n (1 .. $rounds) {
		open my $f, '<', "$dir/$c-$n.csv" or die "observer-perf: $dir/$c-$n.csv: $!\n";
		my (%fifo, @col, $topprio);
		while (<$f>) {
			chomp;
			if (/^# task\.(\w+)=.*policy=fifo prio=(\d+)/) {
				$fifo{$1} = 1;
				($topname, $topprio) = ($1, $2) if !defined $topprio || $2 > $topprio;
				next;
			}
			next if /^#/;
			if (!@col) { @col = split /,/; next }
			my %r; @r{@col} = split /,/;
			next unless $fifo{$r{task}} && $r{start_ns} && $r{release_ns};
			push @{$lat{$c}}, ($r{start_ns} - $r{release_ns}) / 1000.0;
			push @{$top{$c}}, ($r{start_ns} - $r{release_ns}) / 1000.0 if $r{task} eq $topname;
		}
		next if $c eq 'off';
		open my $j, '<', "$dir/$c-$n.json" or next;
		local $/; my $t = <$j>;
		# observer_ns of each task: its max and the jobs it touched
		while ($t =~ /"observer_ns":\s*\{[^{}]*?"max":\s*(\d+)/g) { $obs{$c}{max} = $1 if $1 > ($obs{$c}{max} // 0) }
		while ($t =~ /"observer_jobs":\s*(\d+)/g) { $obs{$c}{jobs} += $1 }
	}
}
# table TITLE SAMPLES - jobs, p50, p99, max per configuration, then the differences
sub table {
	my ($title, $samples) = @_;
	my %st;
	printf "%-44s %8s %9s %9s %9s\n", "# $title", "jobs", "p50", "p99", "max";
	for my $c (qw(off away same)) {
		my @s = sort { $a <=> $b } @{$samples->{$c} // []};
		die "observer-perf: no jobs in configuration $c\n" unless @s;
		$st{$c} = [scalar @s, pct(\@s, 0.50), pct(\@s, 0.99), $s[-1]];
		printf "%-44s %8d %9.1f %9.1f %9.1f\n", $label{$c}, @{$st{$c}};
	}
	for my $d (["away", "off"], ["same", "off"], ["same", "away"]) {
		my ($x, $y) = @$d;
		printf "%-44s %8s %+9.1f %+9.1f %+9.1f\n", "  difference $x - $y", "", map { $st{$x}[$_] - $st{$y}[$_] } 1 .. 3;
	}
}
table("activation latency (us), all realtime tasks", \%lat);
table("activation latency (us), $topname (highest priority)", \%top);
for my $c (qw(away same)) {
	printf "# observer_ns (analysis), %s: %d jobs delayed by the recorder, max %.1f us\n", $c,
		$obs{$c}{jobs} // 0, ($obs{$c}{max} // 0) / 1000.0;
}
PERL
