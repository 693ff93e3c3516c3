#!/bin/sh
# 0760-run-observer.t - preflight run keeps the observer off the app's CPUs: with the app pinned
# to one CPU the recorder runs on the others (read back from /proc), a load's process (a helper)
# follows it while the load's own work (the SPI exerciser) stays where the load was started;
# with the app on every CPU the run says so in run.json's warnings and in the summary
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS RT CPUS2
need BUILT:flightapp
plan 16

last=$(($(nproc) - 1))
orig=$(grep Cpus_allowed_list /proc/self/status | cut -f2)
printf '[app]\ncpus = %s\n' "$last" > "$TMP/pinned.ini"
# scenario FILE TRACE DURATION [CONFIG] - a one-phase flightapp scenario, with the spi load
# (rate 200, SCHED_OTHER) when CONFIG (the app's placement) is given
scenario() {
	{
		printf '[scenario]\nname = observer\n[flightapp]\ntrace = %s\nargs = --no-dma-latency\n' "$2"
		[ -n "${4:-}" ] && printf 'config = %s\n[load spi]\nrate = 200\nprio = 0\n' "$4"
		printf '[phase app]\nduration = %s\nmeasure = flightapp\n' "$3"
		[ -n "${4:-}" ] && printf 'loads = spi\n'
	} > "$1"
}
scenario "$TMP/pinned-scn.ini" full 3s "$TMP/pinned.ini"
run_cmd "$PREFLIGHT" run "$TMP/pinned-scn.ini" -o "$TMP/pinned" --no-report
like "$rc" "^[01]$" "run-obs-1.1 the run with the app pinned to CPU $last is done (exit 0 or 1)" ||
	sed 's/^/#   /' "$TMP/pinned/run.log"
R="$TMP/pinned/run.json"
ok "run-obs-1.7 the recorder is set up before the phase's load starts, the app after both (run.log)" \
	perl -ne '$r = $. if /phase app: recorder: set up in [0-9.]+ s/; $l = $. if /phase app: load spi: pid/;
		$a = $. if /phase app: recorder \(pid/; END { exit !($r && $l && $a && $r < $l && $l < $a) }' \
	"$TMP/pinned/run.log"
like "$(cat "$TMP/pinned/report.txt")" "recorder +on CPUs [0-9]" "run-obs-1.6 the summary says where the recorder ran"
# the housekeeping CPUs of an app pinned to the last CPU: every other online CPU, not isolated
want=$(perl -e '
	open my $f, "<", "/sys/devices/system/cpu/online" or die; my $on = <$f>; chomp $on;
	my %c; for (split /,/, $on) { my ($a, $b) = split /-/; $b //= $a; $c{$_} = 1 for $a .. $b }
	delete $c{$ARGV[0]};
	for my $file ("isolated", "nohz_full") {
		open my $g, "<", "/sys/devices/system/cpu/$file" or next; my $t = <$g> // ""; chomp $t;
		for (split /,/, $t) { my ($a, $b) = split /-/; $b //= $a; delete $c{$_} for $a .. $b }
	}
	my @c = sort { $a <=> $b } keys %c; my @r;
	while (@c) { my $s = shift @c; my $e = $s; $e = shift @c while @c && $c[0] == $e + 1; push @r, $s == $e ? $s : "$s-$e" }
	print join ",", @r' "$last")
is "$(json_get "$R" phases.0.housekeeping_cpus)" "$want" "run-obs-1.2 housekeeping CPUs: every online CPU but the app's $last"
is "$(json_get "$R" phases.0.recorder_cpus)" "$want" "run-obs-1.3 the recorder runs on them (its threads' Cpus_allowed_list)"
is "$(json_get "$R" warnings)" "[]" "run-obs-1.4 no warning: a CPU was free"
like "$(cat "$TMP/pinned/run.log")" "housekeeping CPUs: $want \\(measured tasks on $last\\)" \
	"run-obs-1.5 run.log names the housekeeping CPUs"
# the trace: the recorder's threads (observer_pids but the runner) were switched out only on those CPUs
T="$TMP/pinned/01-app/trace.dat"
runner=$(sed -n 's/.*, pid \([0-9]*\)$/\1/p' "$TMP/pinned/run.log" | head -1)
obs=$(json_get "$TMP/pinned/results.json" trace.observer_pids | tr -d '[]' | tr ',' ' ')
like " $obs " " $runner " "run-obs-2.1 the runner is listed as the observer too (results.json trace.observer_pids)"
cpus=$(trace-cmd report -i "$T" 2>/dev/null | awk -v obs=" $obs " -v runner="$runner" '
	/sched_switch:/ { split($0, a, "sched_switch: +"); split(a[2], b, "[: ]"); pid = b[2]
		if (pid != runner && index(obs, " " pid " ")) { c = $2; gsub(/[][]/, "", c); print c + 0 } }' | sort -un | tr '\n' ' ')
ok "run-obs-2.2 the recorder's threads ran only on the housekeeping CPUs (seen on: $cpus)" \
	perl -e 'my %ok = map { $_ => 1 } split /,/, $ARGV[0]; exit(!(@ARGV > 1 && !grep { !$ok{$_} } @ARGV[1..$#ARGV]))' \
	"$(echo "$want" | perl -pe 's/(\d+)-(\d+)/join ",", $1..$2/ge')" $cpus
like "$(json_get "$TMP/pinned/results.json" tasks.name=io.decomposition.observer_ns.count)" "^[1-9]" \
	"run-obs-2.3 observer_ns is measured for the app's tasks"

# the spi load's process is a helper (housekeeping CPUs), its exerciser thread is the load's work
scenario "$TMP/load-scn.ini" off 30s "$TMP/pinned.ini"
"$PREFLIGHT" run "$TMP/load-scn.ini" -o "$TMP/load" --no-report >/dev/null 2>&1 &
runpid=$!
wait_for 60 grep -q "load spi: ready" "$TMP/load/run.log"
lpid=$(sed -n 's/.*load spi: pid \([0-9]*\) .*/\1/p' "$TMP/load/run.log" | head -1)
aff() { grep Cpus_allowed_list "/proc/$lpid/task/$1/status" | cut -f2; }
xfer=$(grep -l '^pf-spi-xfer$' /proc/"$lpid"/task/*/comm 2>/dev/null | head -1 | cut -d/ -f5)
is "$(aff "$lpid")" "$want" "run-obs-3.1 the spi load's process (a helper) runs on the housekeeping CPUs"
is "$(aff "$xfer")" "$orig" "run-obs-3.2 its exerciser thread (the load's work) runs where the load was started ($orig)"
kill -INT "$runpid"
wait "$runpid"

# the app on every CPU: no housekeeping CPU is left, the run says so
scenario "$TMP/all-scn.ini" full 2s
run_cmd "$PREFLIGHT" run "$TMP/all-scn.ini" -o "$TMP/all" --no-report
like "$rc" "^[01]$" "run-obs-4.1 the run with the app on every CPU is done"
is "$(json_get "$TMP/all/run.json" phases.0.housekeeping_cpus)" "" "run-obs-4.2 no housekeeping CPU"
like "$(json_get "$TMP/all/run.json" warnings.0)" "^phase app: no housekeeping CPU: the app may run on every CPU" \
	"run-obs-4.3 run.json warns that the recorder shares the app's CPUs"
like "$(cat "$TMP/all/report.txt")" "warning: phase app: no housekeeping CPU" "run-obs-4.4 ... and so does the summary"
