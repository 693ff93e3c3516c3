#!/bin/sh
# 0525-analyze-rt-guest.t - PREEMPT_RT semantics (analysis/rt.c, docs/results.md) on real traces:
# t/fixtures/rt/*.dat were recorded in the amd64 PREEMPT_RT guest (6.1.0-57-rt-amd64, 2 emulated
# CPUs) of rtwork (t/tools/rtwork.c) on CPU 1 (t/fixtures/rt/README.md says how). Every expected
# value below is exact, and is first read from the same trace by t/fixtures/rt/oracle.pl, an
# independent reader of `trace-cmd report -l -t` (no preflight code): the test fails when the
# analysis and the trace's own account disagree, and when the value written here does.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need CMD:trace-cmd PERL:JSON::PP
plan 32

F="$TOP/t/fixtures/rt"
# oracle FILE WHAT [ARG] - the independent reading of a fixture
oracle() { trace-cmd report -l -t "$F/$1" 2>/dev/null | perl "$F/oracle.pl" "$2" ${3:+"$3"}; }
# pi_inv RESULTS TASK - per job "seq:pi:inversion" of the task's culprits, then its inversion_count
pi_inv() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
		my ($t) = grep { $_->{name} eq $ARGV[1] } @{$j->{tasks}};
		print join(",", (map { my $p = $_->{pi}; my $v = $_->{inversion};
			"$_->{seq}:" . ($p ? "$p->{holder_pid}/$p->{boost_prio}/$p->{boosted_ns}/$p->{blocked_ns}" : "-")
			. ":" . ($v ? "$v->{waker_pid}/$v->{waker_prio}/" . ($v->{blocked_ns} // "null") : "-") }
			sort { $a->{seq} <=> $b->{seq} } @{$t->{culprits}}), "inversions=$t->{inversion_count}"), "\n"' "$1" "$2"
}
# worst RESULTS TASK PERL - the fields PERL lists of the task's worst culprit $c, joined by /
worst() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
		my ($t) = grep { $_->{name} eq $ARGV[1] } @{$j->{tasks}}; our $c = $t->{culprits}[0];
		print join("/", eval "my \$c = \$main::c; $ARGV[2]"), "\n"; die $@ if $@' "$1" "$2" "$3"
}
# fixture NAME [OPTION...] - analyse fixture NAME.dat into $TMP/NAME.json, the summary in $out
fixture() {
	_fx=$1
	shift
	run_cmd "$PREFLIGHT" analyze --trace "$F/$_fx.dat" -o "$TMP/$_fx.json" "$@"
}

# (c) priority inheritance: 'hi' (FIFO 80, pid 223) locks a PTHREAD_PRIO_INHERIT mutex that
# rt-low (SCHED_OTHER, pid 221) holds while rt-mid (FIFO 50) is runnable: rt-low runs boosted to
# kernel prio 19 (RT 80) until it unlocks; rt-mid waits. Three rounds, each a PI wait.
fixture pi
is "$rc" 0 "rtg-1.1 the guest's PI trace is analysed"
is "$(trace-cmd report "$F/pi.dat" 2>/dev/null | grep -c 'sched_pi_setprio: *comm=rt-low')" 6 \
	"rtg-1.2 the trace holds rt-low's 3 boosts and 3 deboosts (sched_pi_setprio)"
E="0:221/19/4518965/4575042:-,1:221/19/3060831/3100597:-,2:221/19/510651/533955:-"
is "$(oracle pi.dat jobs)" "$E,inversions=0/0" "rtg-1.3 oracle: holder 221 boosted to 19; boosted 4519/3061/511 us; blocked 4575/3101/534 us"
is "$(pi_inv "$TMP/pi.json" hi)" "$E,inversions=0" "rtg-1.4 the analysis: the same pi of every job, and no inversion (the holder's unlock is none)"
is "$(json_get "$TMP/pi.json" tasks.name=hi.culprits.seq=0.pi.holder_comm)" "rt-low" "rtg-1.5 the holder by name"
like "$(printf '%s\n' "$out" | grep '^hi job 0 ')" "; PI: blocked 4575 µs on a lock held by rt-low \(pid 221\), boosted to RT 80, ran 4519 µs boosted$" \
	"rtg-1.6 job 0's summary line names the holder, its boost, its time boosted and the time blocked"

# (d) the same with PTHREAD_PRIO_NONE: rt-mid preempts rt-low while 'hi' (pid 230) waits; rt-low
# (pid 228, nice 0) unlocks and wakes it: an inversion in rounds 0 and 1 (in round 2 rt-low took
# the lock after 'hi' had released it: no wait)
fixture nopi
is "$rc" 0 "rtg-2.1 the guest's non-PI trace is analysed"
E="0:-:228/120/9048339,1:-:228/120/8384977,2:-:-"
is "$(oracle nopi.dat jobs)" "$E,inversions=2/2" "rtg-2.2 oracle: jobs 0 and 1 woken by rt-low (prio 120) after 9048 / 8385 us blocked, no PI boost"
is "$(pi_inv "$TMP/nopi.json" hi)" "$E,inversions=2" "rtg-2.3 the analysis: the same inversions, no pi"
like "$(printf '%s\n' "$out" | grep '^hi job 0 ')" "; priority inversion: woken by rt-low \(pid 228, nice 0\) below its RT 80 after 9048 µs blocked$" \
	"rtg-2.4 job 0's summary line flags the inversion"
is "$(json_get "$TMP/nopi.json" threads.pid=230.inversions)/$(json_get "$TMP/nopi.json" tasks.name=hi.inversions.0.kind)" \
	"2/woken_by_lower_prio" "rtg-2.5 threads[]: hi's 2 inversions; tasks[].inversions says what they are"

# (b) softirq work in ktimers/1: 'tfd' (FIFO 80, pid 234) on a 2 ms timerfd, which expires in
# ktimers/1 (FIFO 1, pid 28); rt-fifo1 (FIFO 1, pid 235) spins and keeps ktimers/1 waiting. On
# PREEMPT_RT the timerfd's wait-queue lock is a sleeping lock that ktimers/1 still holds when it
# wakes tfd: tfd runs, blocks on it and boosts ktimers/1 (a real PI wait in every job), and is
# woken again by the unlock; the first waking, by ktimers/1 at prio 98, is an inversion, and
# what delayed ktimers/1 is what ran before it (never tfd itself, which ran after it).
fixture timerfd --top 25
is "$rc" 0 "rtg-3.1 the guest's timerfd trace is analysed"
W=$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my ($t) = grep { $_->{name} eq "tfd" } @{$j->{tasks}};
	print join(",", map { my $w = $_->{woken_by} || {}; my ($d) = grep { $_->{pid} && $_->{pid} != $w->{pid} } @{$w->{delayed_by}};
		join("/", $_->{seq}, $_->{latency_ns}, $w->{pid} // "-", $w->{prio} // "-", $w->{after_ns} // "-",
		     $_ == $t->{culprits}[0] ? ($d->{pid}, $d->{duration_ns}) : ()) } sort { $a->{seq} <=> $b->{seq} } @{$t->{culprits}})' "$TMP/timerfd.json")
oracle timerfd.dat woken > "$TMP/tfd.woken"
is "$(tr , '\n' < "$TMP/tfd.woken" | sed -n 12p)" "11/20506166/28/98/20294393/235/12024791" \
	"rtg-3.2 oracle: worst job 11, 20506 us late, woken by pid 28 (prio 98) after 20294 us, which pid 235 kept off CPU 1 for 12025 us"
is "$W" "$(cat "$TMP/tfd.woken")" "rtg-3.3 the analysis: every job's waker and after_ns, and the worst's delayed_by, the same"
is "$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my ($t) = grep { $_->{name} eq "tfd" } @{$j->{tasks}};
	print scalar grep { ($_->{pid} // 0) == 234 } map { @{$_->{woken_by}{delayed_by}} } @{$t->{culprits}}' "$TMP/timerfd.json")" 0 \
	"rtg-3.3b no job names tfd itself among what delayed ktimers/1 (it ran after the first waking)"
is "$(json_get "$TMP/timerfd.json" tasks.name=tfd.culprits.0.woken_by.comm)/$(json_get "$TMP/timerfd.json" tasks.name=tfd.culprits.0.woken_by.thread_kind)/$(json_get "$TMP/timerfd.json" tasks.name=tfd.culprits.0.woken_by.service)/$(json_get "$TMP/timerfd.json" tasks.name=tfd.culprits.0.woken_by.delayed_by.0.name)" \
	"ktimers/1/softirq_thread/timers/rt-fifo1" "rtg-3.4 the waker is ktimers/1, a softirq_thread doing timers; rt-fifo1 what delayed it"
like "$(printf '%s\n' "$out" | grep '^tfd job 11 ')" " 20506 µs late — woken by ktimers/1 \(timers, pid 28\) at RT 1 after 20294 µs, which waited behind rt-fifo1 \(pid 235\) 12025 µs, " \
	"rtg-3.5 job 11's summary line: the waker and what delayed it, not rt-fifo1 as the FIFO 80 task's culprit"
oracle timerfd.dat jobs > "$TMP/tfd.oracle"
pi_inv "$TMP/timerfd.json" tfd > "$TMP/tfd.analysis"
is "$(tr , '\n' < "$TMP/tfd.analysis" | head -25 | tr '\n' ,)" "$(tr , '\n' < "$TMP/tfd.oracle" | head -25 | tr '\n' ,)" \
	"rtg-3.6 all 25 jobs: the PI wait on ktimers/1's lock (holder 28, prio 19) and the inversion as the oracle reads them"
is "$(tr , '\n' < "$TMP/tfd.oracle" | sed -n '12p;26p' | tr '\n' ' ')" "11:28/19/10731/25028:28/98/20218964 inversions=26/25 " \
	"rtg-3.7 ... job 11: 11 us boosted, 25 us blocked; 20219 us blocked before ktimers/1 woke it; 26 inversions, 25 by the last job's end"
is "$(json_get "$TMP/timerfd.json" tasks.name=tfd.inversion_count)/$(json_get "$TMP/timerfd.json" threads.pid=234.inversions)" "25/26" \
	"rtg-3.8 the task's inversions are its jobs' (25), its thread's every one (26: rt-fifo1's exit wakes its joiner)"

# (a) a threaded IRQ handler delaying a realtime task: 'nav' (FIFO 40, pid 221) every 1 ms on
# CPU 1 while /dev/ttyS0 is written from CPU 0; irq/4-ttyS0 (FIFO 50, pid 99) runs on CPU 1
fixture irq
is "$rc" 0 "rtg-4.1 the guest's threaded-IRQ trace is analysed"
N=tasks.name=nav.culprits.0
C=$(worst "$TMP/irq.json" nav 'my ($th) = grep { $_->{kind} eq "thread" && $_->{name} =~ m{^irq/4-} } @{$c->{contributors}};
	my ($h) = grep { $_->{kind} eq "irq" && $_->{name} eq "irq 4 (ttyS0)" } @{$c->{contributors}};
	($c->{seq}, $c->{latency_ns}, $th->{pid}, $th->{duration_ns}, $h->{duration_ns})')
E="50/19641817/99/3032144/174467"
is "$(oracle irq.dat irq 4)" "$E" "rtg-4.2 oracle: worst job 50, 19642 us late; irq/4-ttyS0 (pid 99) 3032 us on CPU 1 from release to start, IRQ 4's hard part 174 us"
is "$C" "$E" "rtg-4.3 the analysis: the IRQ thread and the hard IRQ apart, the same times"
is "$(json_get "$TMP/irq.json" $N.contributors.1.name)/$(json_get "$TMP/irq.json" $N.contributors.1.thread_kind)/$(json_get "$TMP/irq.json" $N.contributors.1.irq)/$(json_get "$TMP/irq.json" $N.contributors.1.action)" \
	"irq/4-ttyS0/irq_thread/4/ttyS0" "rtg-4.4 the contributor is an irq_thread of IRQ 4, action ttyS0"
like "$(printf '%s\n' "$out" | grep '^nav job 50 ')" " 19642 µs late — nav itself \(previous job\) 14069 µs, irq/4-ttyS0 \(IRQ 4\) 3032 µs, .*irq 4 \(ttyS0\) 174 µs" \
	"rtg-4.5 job 50's summary line: irq/4-ttyS0 (IRQ 4) 3032 us, apart from irq 4 (ttyS0)"

# (e) a softirq preempted inside its thread: the selftest's trace in the amd64 RT guest (a 20 ms
# cut, `trace-cmd split`): ktimers/1 (pid 28), in its HRTIMER softirq, is preempted for 7.6 ms;
# st_pi (raw markers of task 6, pid 329) runs jobs 41 and 42 meanwhile. Its time is its own: the
# softirq goes on when ktimers/1 runs again (an analysis that kept the CPU in the softirq gave
# job 42 an execution time of -33 us and exit 2)
fixture softirq-preempted --csv "$TMP/sirq"
is "$rc" 0 "rtg-6.1 the trace with a preempted softirq is analysed"
for id in 6 1 2 3 4; do
	printf '%s,' $(awk -F, -v t="\"task$id\"" '$1 == t { print $2 "/" $9 }' "$TMP/sirq/results-jobs.csv")
	echo
done > "$TMP/sirq.analysis"
for id in 6 1 2 3 4; do oracle softirq-preempted.dat exec $id | sed 's/$/,/'; done > "$TMP/sirq.oracle"
is "$(head -n 1 "$TMP/sirq.oracle")" "41/132080,42/75593," "rtg-6.2 oracle: st_pi's jobs 41 and 42 ran 132080 and 75593 ns outside interrupts"
is "$(cat "$TMP/sirq.analysis")" "$(cat "$TMP/sirq.oracle")" "rtg-6.3 the analysis: every job's execution time of the five tasks as the oracle reads it"

# (f) a CPU that shows nothing while a realtime thread's timer is due: the arm64 guest's t/0584
# trace (a 470 ms cut): CPU 1 has no event for 264.3 ms after cyclictest's main thread (SCHED_OTHER,
# pid 3128) was switched in, until the timer interrupt that wakes the FIFO 80 thread (tid 3130)
# 299 ms late. A SCHED_OTHER thread cannot hold off that timer: the silence is the culprit
# ("timer interrupt late: interrupts off or CPU not running"), as for the app's tasks, not
# whichever thread was current (the analysis once gave pid 3128 264 ms, "100 % explained")
fixture cyclictest-silent
is "$rc" 0 "rtg-7.1 the arm64 guest's cyclictest trace with a silent CPU is analysed"
gap=$(trace-cmd report -t -i "$F/cyclictest-silent.dat" 2>/dev/null | perl -ne 'next unless /\[001\]\s+(\d+)\.(\d+):/;
	my $t = $1 * 1e9 + $2; if (defined $p && $t - $p > $g) { $g = $t - $p; $e = $t } $p = $t; END { print "$e $g\n" }')
is "$gap" "1393471678768 264297072" "rtg-7.2 oracle: CPU 1's longest silence, 264297072 ns, ends at 1393.471678768 s"
cw=$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my ($w) = grep { $_->{tid} == 3130 } @{$j->{cyclictest_wakeups}{worst}};
	print join(" ", $w->{latency_ns}, $w->{release_ns} + $w->{latency_ns} - $w->{explained_ns},
		map { "$_->{kind}:$_->{id}:$_->{duration_ns}" } @{$w->{contributors}}), "\n"' "$TMP/cyclictest-silent.json")
rel=$(json_get "$TMP/cyclictest-silent.json" 'cyclictest_wakeups.worst.tid=3130.release_ns')
is "$cw" "298812176 $((rel + 298812176 - 35054352)) silent:1:$((1393471678768 - rel)) thread:3127:29248464 irq:11:5691840 thread:3128:114048" \
	"rtg-7.3 tid 3130's worst wakeup: the silence from its expiry to the interrupt, then the hog, the timer IRQ, pid 3128 only its 114 us"
like "$(json_get "$TMP/cyclictest-silent.json" 'cyclictest_wakeups.worst.tid=3130.summary')" \
	" 298812 µs late — timer interrupt late: interrupts off or CPU not running \(no event on CPU 1 for 264297 µs\) 263758 µs, pfhog \(pid 3127\) 29248 µs, .*\[12 % explained\]\$" \
	"rtg-7.4 its summary line says so, and that 12 % is explained"
