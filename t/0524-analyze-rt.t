#!/bin/sh
# 0524-analyze-rt.t - PREEMPT_RT semantics (analysis/rt.c, docs/results.md) on the 'rt'
# trace of t/tools/gentrace.c, written in the RT 6.1 kernel's layout (common_preempt_lazy_count:
# sched_switch's prev_comm at offset 12): a threaded IRQ handler named with its IRQ number and
# action apart from its hard part; a timer expiring in ktimers/1 (FIFO 1) that rcuc/1 (FIFO 1)
# kept waiting, named as the waker and rcuc/1 as what delayed it, never as what delayed the
# FIFO 90 task; a PI lock's holder, boost and blocked time; a non-PI lock's inversion. Exact
# values, known by construction.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 14

"$GEN" rt "$TMP/rt.dat"
R="$TMP/rt.json"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/rt.dat" -o "$R"
is "$rc" 0 "rt-1.1 the RT-layout trace is analysed"
like "$(trace-cmd report "$TMP/rt.dat" 2>/dev/null | grep -m1 'sched_switch:.*rcuc/1')" "swapper:0 \[120\] R ==> rcuc/1:20 \[98\]" \
	"rt-1.2 the fixture is in the RT layout trace-cmd reads (prev_comm at offset 12)"

# a threaded IRQ handler above the task (nav, FIFO 40 < irq/45-spi0, FIFO 50)
N=tasks.name=nav.culprits.0
is "$(json_get "$R" $N.contributors.0.kind)/$(json_get "$R" $N.contributors.0.thread_kind)/$(json_get "$R" $N.contributors.0.irq)/$(json_get "$R" $N.contributors.0.action)/$(json_get "$R" $N.contributors.0.pid)/$(json_get "$R" $N.contributors.0.duration_ns)" \
	"thread/irq_thread/45/spi0/150/120000" "rt-2.1 irq/45-spi0: an irq_thread of IRQ 45, action spi0, 120 us"
is "$(json_get "$R" $N.contributors.2.kind)/$(json_get "$R" $N.contributors.2.name)/$(json_get "$R" $N.contributors.2.duration_ns)" \
	"irq/irq 45 (spi0)/2000" "rt-2.2 ... apart from the hard IRQ that woke it (2 us)"
like "$(printf '%s\n' "$out" | grep '^nav job 0 ')" " 126 µs late — irq/45-spi0 \(IRQ 45\) 120 µs, .*irq 45 \(spi0\) 2\.0 µs.* \[100 % explained\]$" \
	"rt-2.3 the summary line: irq/45-spi0 (IRQ 45) 120 us"

# io job 0: released by ktimers/1 (FIFO 1), which rcuc/1 (FIFO 1) kept from running
I=tasks.name=io.culprits
io0=$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my ($t) = grep { $_->{name} eq "io" } @{$j->{tasks}}; my ($c) = grep { $_->{seq} == 0 } @{$t->{culprits}};
	my $w = $c->{woken_by}; my @n = map { $_->{name} } @{$c->{contributors}};
	print join "/", $w->{pid}, $w->{comm}, $w->{thread_kind}, $w->{service}, $w->{prio}, $w->{after_ns},
		$w->{delayed_by}[0]{name}, $w->{delayed_by}[0]{duration_ns}, (grep { $_ eq "rcuc/1" } @n) ? "rcuc named" : "rcuc not named",
		$c->{contributors}[0]{thread_kind}, $c->{explained_ns}, $c->{complete} ? "complete" : "incomplete"' "$R")
is "$io0" "17/ktimers/1/softirq_thread/timers/98/6904000/rcuc/1/6900000/rcuc not named/softirq_thread/6912000/complete" \
	"rt-3.1 woken by ktimers/1 (timers, prio 98) after 6904 us, which rcuc/1 delayed 6900 us; rcuc/1 no contributor of io"
like "$(printf '%s\n' "$out" | grep '^io job 0 ')" " 6912 µs late — woken by ktimers/1 \(timers, pid 17\) at RT 1 after 6904 µs, which waited behind rcuc/1 \(RCU callbacks, pid 20\) 6900 µs; ktimers/1 \(timers, pid 17\) 4\.0 µs, ktimers/1 \(HRTIMER\) 2\.0 µs, switch-in to start 2\.0 µs; its timer interrupt came 6903 µs after the release \[100 % explained\]; priority inversion: woken by ktimers/1 \(pid 17, RT 1\) below its RT 90 after 7804 µs blocked$" \
	"rt-3.2 ... and its line: the waker, what delayed it, the inversion"

# io job 1: a PI lock held by lowprio (SCHED_OTHER), boosted to io's priority
P=$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my ($t) = grep { $_->{name} eq "io" } @{$j->{tasks}};
	print join ",", map { my $p = $_->{pi}; my $v = $_->{inversion};
		"$_->{seq}:" . ($p ? "$p->{holder_pid}/$p->{holder_comm}/$p->{boost_prio}/$p->{boosted_ns}/$p->{blocked_ns}" : "-")
		. ":" . ($v ? "$v->{waker_pid}/$v->{waker_prio}/$v->{prio}/" . ($v->{blocked_ns} // "null") : "-") }
		sort { $a->{seq} <=> $b->{seq} } @{$t->{culprits}}' "$R")
is "$P" "0:-:17/98/9/7804000,1:600/lowprio/9/800000/801000:-,2:-:600/120/9/678000" \
	"rt-4.1 pi of job 1: holder 600, boosted to prio 9, 800 us boosted, 801 us blocked, no inversion; job 2 (no PI): an inversion, 678 us blocked"
like "$(printf '%s\n' "$out" | grep '^io job 1 ')" "\[100 % explained\]; PI: blocked 801 µs on a lock held by lowprio \(pid 600\), boosted to RT 90, ran 800 µs boosted$" \
	"rt-4.2 the PI wait in job 1's line"
like "$(printf '%s\n' "$out" | grep '^io job 2 ')" "; priority inversion: woken by lowprio \(pid 600, nice 0\) below its RT 90 after 678 µs blocked$" \
	"rt-4.3 the inversion in job 2's line"
is "$(json_get "$R" tasks.name=io.inversion_count)/$(json_get "$R" tasks.name=io.inversions.1.seq)/$(json_get "$R" tasks.name=io.inversions.1.waker_comm)/$(json_get "$R" tasks.name=io.inversions.1.kind)/$(json_get "$R" tasks.name=nav.inversion_count)" \
	"2/2/lowprio/woken_by_lower_prio/0" "rt-4.4 io: 2 inversions (ktimers/1 in job 0, lowprio in job 2); nav, woken in a hard IRQ: none"
is "$(json_get "$R" threads.pid=101.inversions)/$(json_get "$R" threads.pid=600.prio)/$(json_get "$R" threads.pid=600.policy)" "2/120/normal" \
	"rt-4.5 threads[]: io's 2 inversions; lowprio's own priority, not its PI boost"

# the summary of a run prints the inversions (the fixture run with this results.json)
cp -r "$TOP/t/fixtures/run" "$TMP/run"
cp "$R" "$TMP/run/results.json"
run_cmd "$PREFLIGHT" summary "$TMP/run"
like "$out" "priority inversion: io woken by a lower-priority thread 2 times, first by ktimers/1 \(pid 17, kernel prio 98 > 9\)" \
	"rt-5.1 the summary's inversion line"

# an RT-layout trace with sched_pi_setprio and the flags analysed the same by both builds (t/0590's rule)
"$PREFLIGHT" analyze -q --trace "$TMP/rt.dat" -o "$TMP/again.json"
sed -i '/"generator"/d' "$R" "$TMP/again.json"
ok "rt-6.1 the analysis is deterministic" cmp "$R" "$TMP/again.json"
