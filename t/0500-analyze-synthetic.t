#!/bin/sh
# 0500-analyze-synthetic.t - preflight analyze on the synthetic 'basic' trace
# (t/tools/gentrace.c describes it): every delay, culprit, overrun, migration
# and utilisation there is known by construction and must be found exactly.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 76

"$GEN" basic "$TMP/b.dat" "$TMP/b.csv"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/b.dat" --joblog "$TMP/b.csv" -o "$TMP/r.json" --top 5
is "$rc" 0 "syn-1.1 analyze exits 0"
R="$TMP/r.json"
is "$(json_get "$R" schema)" "preflight-results/1" "syn-1.2 schema"
is "$(json_get "$R" trace.events)" 191 "syn-1.3 every event read"
is "$(json_get "$R" trace.cpus)" 2 "syn-1.4 CPUs"
is "$(json_get "$R" trace.clock)" mono "syn-1.5 trace clock from the file"
is "$(json_get "$R" trace.duration_ns)" 113015000 "syn-1.6 duration"
is "$(json_get "$R" trace.lost_events)" 0 "syn-1.7 nothing lost"

# threads
is "$(json_get "$R" threads.comm=io.wakeup_latency_ns.max)" 4000 "syn-2.1 io waking->run 4 us"
is "$(json_get "$R" threads.comm=io.wakeup_latency_from_wakeup_ns.max)" 3000 "syn-2.2 io wakeup->run 3 us"
is "$(json_get "$R" threads.comm=io.wakeup_latency_ns.count)" 11 "syn-2.3 io wakeup latencies (none for the inferred switch-in)"
is "$(json_get "$R" threads.comm=io.wakeup_latency_inferred_ns.max)" 6000 "syn-2.3b ... whose upper bound (waking to start marker) is kept apart"
is "$(json_get "$R" threads.comm=ctl100.wakeup_latency_ns.max)" 1009000 "syn-2.4 ctl100 worst wakeup latency (slot 5)"
is "$(json_get "$R" threads.comm=ctl100.wakeup_latency_ns.max_id)" 100 "syn-2.5 max_id is the pid"
is "$(json_get "$R" threads.comm=ctl100.runtime_ns)" 32151000 "syn-2.6 ctl100 runtime (100 us before slot 0 inferred from its declaration marker)"
is "$(json_get "$R" threads.comm=io.runtime_ns)" 12163000 "syn-2.7 io runtime (slot 7 from its wakeup on the idle CPU, the switch-in being missing)"
is "$(json_get "$R" threads.comm=hog.runtime_ns)" 200000 "syn-2.8 hog runtime"
is "$(json_get "$R" threads.comm=hog.rtprio)" 95 "syn-2.9 hog FIFO priority"
is "$(json_get "$R" threads.comm=hog.policy)" rt "syn-2.10 hog policy"
is "$(json_get "$R" threads.pid=300.policy)" normal "syn-2.11 ksoftirqd policy"
is "$(json_get "$R" threads.pid=300.preemptions)" 1 "syn-2.12 ksoftirqd preempted once"
is "$(json_get "$R" threads.comm=ctl100.migrations)" 2 "syn-2.13 ctl100 migrations"
is "$(json_get "$R" threads.comm=ctl100.preemptions)" 0 "syn-2.14 ctl100 never preempted"
is "$(json_get "$R" threads.comm=ctl100.utilisation_max_10ms)" 0.899 "syn-2.15 worst 10 ms window (aligned to the trace start 1 ms before slot 0)"
is "$(json_get "$R" threads.comm=io.prios_seen)" "[9]" "syn-2.16 priority seen"

# cpus
is "$(json_get "$R" cpus.1.hardirq_ns)" 20000 "syn-3.1 hard IRQ time on CPU 1"
is "$(json_get "$R" cpus.1.softirq_ns)" 100000 "syn-3.2 softirq time on CPU 1"
is "$(json_get "$R" cpus.0.elapsed_ns)" 113015000 "syn-3.3 CPU elapsed from its first event"
is "$(json_get "$R" trace.switches_inferred)" 1 "syn-3.4 the switch not in the trace is inferred"

# tasks
T=tasks.name=ctl100
is "$(json_get "$R" $T.source)" trace+joblog "syn-4.1 source"
is "$(json_get "$R" $T.jobs)" 11 "syn-4.2 ctl100 jobs"
is "$(json_get "$R" $T.activation_latency_ns.max)" 2013000 "syn-4.3 worst activation latency"
is "$(json_get "$R" $T.activation_latency_ns.max_id)" 9 "syn-4.4 ... of job 9"
is "$(json_get "$R" $T.activation_latency_ns.min)" 12000 "syn-4.5 best activation latency"
is "$(json_get "$R" $T.response_time_ns.max)" 12012000 "syn-4.6 worst response (job 8)"
is "$(json_get "$R" $T.exec_time_ns.max)" 12000000 "syn-4.7 exec time from the trace"
is "$(json_get "$R" $T.cpu_time_ns.max)" 12000000 "syn-4.8 cpu time from the job log"
is "$(json_get "$R" $T.overruns)" 1 "syn-4.9 one overrun"
is "$(json_get "$R" $T.deadline_misses)" 1 "syn-4.10 one deadline miss"
is "$(json_get "$R" $T.missed_activations)" 1 "syn-4.11 one missed activation (slot 10)"
is "$(json_get "$R" $T.migrations)" 2 "syn-4.12 migrations inside jobs"
is "$(json_get "$R" $T.migrations_per_job.max)" 1 "syn-4.13 at most one per job"
is "$(json_get "$R" $T.decomposition.timer_expiry_delay_ns.max)" 5000 "syn-4.14 timer expiry delay"
is "$(json_get "$R" $T.decomposition.timer_expiry_delay_ns.count)" 10 "syn-4.15 timer-released jobs (not job 9)"
is "$(json_get "$R" $T.decomposition.wake_to_run_ns.max)" 1009000 "syn-4.16 wake-to-run"
is "$(json_get "$R" $T.decomposition.app_delay_ns.max)" 2000 "syn-4.17 app delay"
is "$(json_get "$R" $T.agreement.matched)" 11 "syn-4.18 every job matched with the job log"
is "$(json_get "$R" $T.agreement.activation_latency_diff_ns.max)" 1000 "syn-4.19 trace vs job log: exactly 1 us"
is "$(json_get "$R" $T.joblog.missed_activations)" 1 "syn-4.20 job log's missed column"
is "$(json_get "$R" tasks.name=io.activation_latency_ns.max)" 12000 "syn-4.21 io latency"
is "$(json_get "$R" tasks.name=io.period_ns)" 10000000 "syn-4.22 period from the declaration"
is "$(json_get "$R" tasks.name=io.decomposition.release_to_wake_ns.count)" 12 "syn-4.23 io: release to wake for every job"
is "$(json_get "$R" tasks.name=io.decomposition.wake_to_run_ns.count)" 11 "syn-4.24 io: not after the inferred switch-in"
is "$(json_get "$R" tasks.name=io.decomposition.wake_to_start_ns.count)/$(json_get "$R" tasks.name=io.decomposition.wake_to_start_ns.max)" 12/6000 \
	"syn-4.25 io: waking to start for every job"

# culprits
C=$T.culprits
is "$(json_get "$R" $C.0.seq)/$(json_get "$R" $C.1.seq)/$(json_get "$R" $C.2.seq)/$(json_get "$R" $C.3.seq)" 9/3/6/5 "syn-5.1 worst activations in order of the wakeup latency the task is judged on (job 5: 1017 us late, 1005 of them io's work, woken in 12 us: last)"
is "$(json_get "$R" $C.1.contributors.0.name)=$(json_get "$R" $C.1.contributors.0.duration_ns)" hog=150000 "syn-5.2 job 3: the higher-priority thread, 150 us"
is "$(json_get "$R" $C.1.runnable_ns)/$(json_get "$R" $C.1.waited)" "144000/runnable, not chosen" "syn-5.3 job 3: runnable but not chosen 144 us"
is "$(json_get "$R" $C.2.contributors.0.name)=$(json_get "$R" $C.2.contributors.0.duration_ns)" "ksoftirqd/1 (NET_RX)=80000" "syn-5.4 job 6: softirq 80 us"
is "$(json_get "$R" $C.2.contributors.1.name)=$(json_get "$R" $C.2.contributors.1.duration_ns)" "irq 24 (virtio0-input)=20000" "syn-5.5 job 6: hard IRQ 20 us"
is "$(json_get "$R" $C.2.contributors.2.name)=$(json_get "$R" $C.2.contributors.2.duration_ns)" "ksoftirqd/1=8000" "syn-5.6 job 6: the thread without its IRQ time"
is "$(json_get "$R" $C.3.contributors.0.name)=$(json_get "$R" $C.3.contributors.0.duration_ns)" "io=1005000" "syn-5.7 job 5 on CPU 0 waited for io"
is "$(json_get "$R" $C.0.contributors.0.kind)" self "syn-5.8 job 9 waited for its own previous job"
like "$out" 'ctl100 job 3 \(pid 100, released at 1000\.030000000 s\): 152 µs late — hog \(pid 200\) 150 µs, switch-in to start 2\.0 µs; its timer interrupt came 5\.0 µs after the release \[100 % explained\]' "syn-5.9 culprit summary line"

# app and slots
is "$(json_get "$R" app.utilisation)" 0.392107242 "syn-6.1 app utilisation"
is "$(json_get "$R" app.utilisation_max_slot)" 0.9995 "syn-6.2 worst slot-length window"
is "$(json_get "$R" app.threads)" "[101,100]" "syn-6.3 the app's realtime threads"
is "$(json_get "$R" slots.count)" 12 "syn-6.4 slots"
is "$(json_get "$R" slots.overruns)" 1 "syn-6.5 slot overruns"
is "$(json_get "$R" slots.overrun_slots)" "[8]" "syn-6.6 the overrun slot"
# interrupts: not the job's execution time, but its CPU's (t/tools/gentrace.c, 'irqs')
"$GEN" irqs "$TMP/i.dat" "$TMP/i.csv"
mkdir -p "$TMP/icsv"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/i.dat" --joblog "$TMP/i.csv" -o "$TMP/i.json" --top 20 --csv "$TMP/icsv"
is "$rc" 0 "irq-1.1 analyze exits 0"
I="$TMP/i.json"
job_exec() { awk -F, -v s="$1" '$1 == "\"ctl100\"" && $2 == s { print $9 }' "$TMP/icsv/results-jobs.csv"; }
is "$(job_exec 1)/$(job_exec 2)" 1958000/2000000 \
	"irq-1.2 job 1's execution time is its 2000 us on the CPU less 42 us of IRQs, local timer and softirqs (nested counted once); job 2's is whole"
is "$(json_get "$I" threads.comm=ctl100.runtime_ns)" 32194000 \
	"irq-1.3 the thread's runtime still holds them (basic's, and job 2's 43 us more: in at its wakeup r+7, out at r+2055)"
is "$(json_get "$I" trace.events_seen.irq_vectors_entry)/$(json_get "$I" trace.events_seen.irq_handler_entry)" 2/3 \
	"irq-1.4 the local timer counted apart from irq_handler_entry"
is "$(json_get "$I" cpus.1.hardirq_ns)" 56000 "irq-1.5 hard IRQ time on CPU 1: IRQ 24 and the local timer (20 + 5 + 20 + 9 + 2 us)"
is "$(json_get "$I" tasks.name=ctl100.culprits.seq=1.contributors.name=local_timer\ interrupt\ \(vector\ 236\).duration_ns)" 5000 \
	"irq-1.6 job 1's latency names the local timer interrupt, 5 us"
is "$(json_get "$I" tasks.name=ctl100.cpu_time_ns.max)" 12000000 "irq-1.7 the job log's CPU time unchanged"
is "$(json_get "$I" tasks.name=ctl100.culprits.seq=2.contributors.name=worker.duration_ns)" 7000 \
	"irq-1.8 a realtime thread woken above a SCHED_OTHER one, its switch-in missing: it ran from its wakeup (worker 7 us, not 52)"

done_testing
