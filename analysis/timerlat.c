/*
 * timerlat.c - the kernel's timerlat tracer in a trace: its samples per CPU,
 * and the worst thread sample of each CPU explained twice, by preflight's
 * culprit code and by the tracer's own osnoise accounting, as rtla timerlat's
 * auto-analysis explains its worst sample (docs/results.md, "timerlat").
 *
 * The tracer (the current tracer of the recorded instance, set by rtla
 * timerlat or by hand) arms a CLOCK_MONOTONIC hrtimer each period per CPU.
 * Its handler writes a timerlat entry of context irq (latency: expiry to the
 * handler's clock read) and wakes the timerlat/N thread, which writes one of
 * context thread (expiry to its own clock read), both with the CPU's cycle
 * number (seqnum). These are the numbers rtla prints: its per-CPU maximum is
 * the maximum of the entries, exactly.
 *
 * The worst thread sample of a CPU gets the culprits of tasks.c from the
 * expiry (thread entry's time stamp - its latency) to the thread entry: the
 * IRQs, softirqs and threads that ran, idle. Beside them, the osnoise events
 * the tracer wrote between the two entries of that cycle, read the way rtla's
 * auto-analysis (timerlat_aa.c, Linux 6.3) reads them: the first irq_noise
 * after the IRQ entry is the timer's own interrupt; the first thread_noise of
 * the thread the IRQ entry was written in (the thread the timer interrupted)
 * is the blocking thread, whatever its start; the other irq_noise,
 * softirq_noise and thread_noise (the blocking thread's later runs too) are
 * interference. So that preflight's part can be set beside them, the culprit
 * code runs a second time over rtla's window, from the IRQ entry to the
 * thread entry (after_irq). Memory is per CPU, never per event.
 */
#define _GNU_SOURCE
#include "timerlat.h"
#include "results.h"
#include "sched.h"
#include "tasks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* an_tlat_acct - the tracer's accounting of one cycle, from its IRQ entry to its thread entry */
struct an_tlat_acct {
	bool     timer_irq;		/* the timer's own irq_noise seen */
	char     timer_irq_name[32];
	int64_t  timer_irq_start;	/* tracer clock */
	int64_t  timer_irq_ns;
	int      run_pid;		/* the IRQ entry's context: the thread the timer interrupted, 0 idle */
	char     blocking[24];		/* its first thread_noise after the IRQ entry, "" none seen */
	int      blocking_pid;
	int64_t  blocking_ns;		/* that thread_noise's duration (the tracer's, net of interrupts) */
	int64_t  irq_ns, softirq_ns, thread_ns;	/* interference */
	int      nirq, nsoftirq, nthread;
	char     top_irq[32];		/* the longest interfering IRQ */
	int64_t  top_irq_ns;
	char     top_thread[24];	/* the longest interfering thread_noise */
	int      top_thread_pid;
	int64_t  top_thread_ns;
};

/* an_tlat_worst - a CPU's worst thread sample */
struct an_tlat_worst {
	uint32_t seq;
	int64_t  thread_ns, irq_ns;	/* irq_ns -1: its IRQ entry not in the trace */
	int64_t  irq_entry_ns;		/* time stamp of the IRQ entry, 0 none */
	struct an_tlat_acct acct;
	struct an_culprit c;		/* expiry to thread entry */
	struct an_culprit after_irq;	/* IRQ entry to thread entry: rtla's window */
};

/* an_tlat_cpu - one CPU's samples */
struct an_tlat_cpu {
	bool     seen;
	int      pid;			/* its timerlat/N thread, from the thread entries */
	struct an_stat irq, thread;	/* latencies */
	uint64_t seq_gaps;		/* cycles missing between two thread entries */
	uint64_t unpaired;		/* thread entries without the IRQ entry of their cycle */
	uint32_t last_seq;		/* of the last thread entry, 0 none */
	/* the cycle in progress: its IRQ entry and the accounting since */
	bool     open;
	uint32_t irq_seq;
	int64_t  irq_lat_ns, irq_entry_ns;
	struct an_tlat_acct acct;
	bool     has_worst;
	struct an_tlat_worst worst;
};

struct an_tlat {
	struct an_tlat_cpu *cpu;
	int      ncpus;
};

/* an_tlat_get - the state of cpu, made on first use; NULL out of memory or range */
static struct an_tlat_cpu *an_tlat_get(struct an_run *r, int cpu)
{
	struct an_tlat_cpu *c;

	if (cpu < 0 || cpu >= r->ncpus)
		return NULL;
	if (!r->tlat) {
		r->tlat = calloc(1, sizeof(*r->tlat));
		if (!r->tlat || !(r->tlat->cpu = calloc((size_t)r->ncpus, sizeof(*r->tlat->cpu)))) {
			free(r->tlat);
			r->tlat = NULL;
			return NULL;
		}
		r->tlat->ncpus = r->ncpus;
	}
	c = &r->tlat->cpu[cpu];
	if (!c->seen) {
		c->seen = true;
		an_stat_init(&c->irq, AN_LAT_BIN_NS, AN_LAT_NBINS, "ns");
		an_stat_init(&c->thread, AN_LAT_BIN_NS, AN_LAT_NBINS, "ns");
	}
	return c;
}

/* an_tlat_copy - a name of len bytes (not NUL-terminated) into dst */
static void an_tlat_copy(char *dst, size_t size, const char *name, int len)
{
	snprintf(dst, size, "%.*s", name ? len : 0, name ? name : "");
}

void an_tlat_on_noise(struct an_run *r, int cpu, enum an_tlat_noise kind, const char *name, int len, int id,
		    int64_t start, int64_t duration_ns)
{
	struct an_tlat_cpu *c = r->tlat && cpu >= 0 && cpu < r->tlat->ncpus ? &r->tlat->cpu[cpu] : NULL;
	struct an_tlat_acct *a;

	if (!c || !c->open)
		return;
	a = &c->acct;
	switch (kind) {
	case AN_TLAT_NOISE_IRQ:
		if (!a->timer_irq) {	/* written at the exit of the interrupt the IRQ entry was in */
			a->timer_irq = true;
			snprintf(a->timer_irq_name, sizeof(a->timer_irq_name), "%.*s:%d", len, name ? name : "", id);
			a->timer_irq_start = start;
			a->timer_irq_ns = duration_ns;
			break;
		}
		a->irq_ns += duration_ns;
		a->nirq++;
		if (duration_ns > a->top_irq_ns) {
			a->top_irq_ns = duration_ns;
			snprintf(a->top_irq, sizeof(a->top_irq), "%.*s:%d", len, name ? name : "", id);
		}
		break;
	case AN_TLAT_NOISE_SOFTIRQ:
		a->softirq_ns += duration_ns;
		a->nsoftirq++;
		break;
	case AN_TLAT_NOISE_THREAD:
		if (a->run_pid && id == a->run_pid && !a->blocking[0]) {
			an_tlat_copy(a->blocking, sizeof(a->blocking), name, len);
			a->blocking_pid = id;
			a->blocking_ns = duration_ns;
			break;
		}
		a->thread_ns += duration_ns;
		a->nthread++;
		if (duration_ns > a->top_thread_ns) {
			a->top_thread_ns = duration_ns;
			an_tlat_copy(a->top_thread, sizeof(a->top_thread), name, len);
			a->top_thread_pid = id;
		}
		break;
	}
}

/* an_tlat_fill - c's contributors from c->release_ns, with th's switch-in, waking, timer and silence of this cycle */
static void an_tlat_fill(struct an_run *r, struct an_thread *th, int cpu, struct an_culprit *c)
{
	c->switch_in_ns = th->switch_in_ns >= c->release_ns ? th->switch_in_ns : 0;
	c->waking_ns = th->last_waking_ns >= c->release_ns ? th->last_waking_ns : 0;
	c->timer_ns = th->last_timer_ns >= c->release_ns ? th->last_timer_ns : 0;
	c->waker_pid = th->last_waker_pid;
	if (th->last_quiet_to_ns >= c->release_ns) {	/* the CPU silent before a late timer interrupt */
		c->silent_from_ns = th->last_quiet_from_ns;
		c->silent_to_ns = th->last_quiet_to_ns;
	}
	an_culprit_fill(r, th, cpu, c);
}

/* an_tlat_explain - the thread entry of cycle seq at ts, the CPU's worst so far: kept with its culprits */
static void an_tlat_explain(struct an_run *r, struct an_tlat_cpu *c, int cpu, int64_t ts, int pid, uint32_t seq,
			  int64_t latency_ns, bool paired)
{
	struct an_tlat_worst *w = &c->worst;
	struct an_thread *th = an_thread_find(r, pid);

	memset(w, 0, sizeof(*w));
	c->has_worst = true;
	w->seq = seq;
	w->thread_ns = latency_ns;
	w->irq_ns = paired ? c->irq_lat_ns : -1;
	w->irq_entry_ns = paired ? c->irq_entry_ns : 0;
	if (paired)
		w->acct = c->acct;
	w->c.seq = seq;
	w->c.cpu = cpu;
	w->c.pid = pid;
	w->c.release_ns = w->c.from_ns = ts - latency_ns;
	w->c.start_ns = ts;
	w->c.latency_ns = latency_ns;
	if (!th)
		return;
	an_tlat_fill(r, th, cpu, &w->c);
	if (!paired)
		return;
	w->after_irq = (struct an_culprit){ .seq = seq, .cpu = cpu, .pid = pid, .release_ns = w->irq_entry_ns,
					    .from_ns = w->irq_entry_ns, .start_ns = ts,
					    .latency_ns = ts - w->irq_entry_ns };
	an_tlat_fill(r, th, cpu, &w->after_irq);
}

int an_tlat_on_sample(struct an_run *r, int cpu, int64_t ts, int pid, uint32_t seq, int context,
		    int64_t latency_ns)
{
	struct an_tlat_cpu *c = an_tlat_get(r, cpu);
	bool paired;

	if (!c)
		return cpu < 0 || cpu >= r->ncpus ? 0 : pf_fail(PF_EXIT_INTERNAL, "out of memory");
	if (context == AN_TLAT_IRQ) {
		if (an_stat_add(&c->irq, latency_ns, ts, cpu))
			return pf_fail(PF_EXIT_INTERNAL, "out of memory");
		c->open = true;
		c->irq_seq = seq;
		c->irq_lat_ns = latency_ns;
		c->irq_entry_ns = ts;
		memset(&c->acct, 0, sizeof(c->acct));
		c->acct.run_pid = pid;
		return 0;
	}
	if (context != AN_TLAT_THREAD)
		return 0;
	if (an_stat_add(&c->thread, latency_ns, ts, cpu))
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	c->pid = pid;
	if (c->last_seq && seq > c->last_seq + 1)
		c->seq_gaps += seq - c->last_seq - 1;
	c->last_seq = seq;
	paired = c->open && c->irq_seq == seq;
	c->unpaired += !paired;
	if (!c->has_worst || latency_ns > c->worst.thread_ns)
		an_tlat_explain(r, c, cpu, ts, pid, seq, latency_ns, paired);
	c->open = false;
	return 0;
}

/* an_tlat_thread_json - a thread of the osnoise account: name, pid, duration; null none */
static json_t *an_tlat_thread_json(const char *name, int pid, int64_t duration_ns)
{
	json_t *b;

	if (!name[0])
		return json_null();
	b = json_object();
	json_object_set_new(b, "name", json_string(name));
	json_object_set_new(b, "pid", json_integer(pid));
	json_object_set_new(b, "duration_ns", json_integer(duration_ns));
	return b;
}

/* an_tlat_acct_json - the tracer's own accounting of the worst cycle (osnoise events) */
static json_t *an_tlat_acct_json(const struct an_tlat_worst *w)
{
	const struct an_tlat_acct *a = &w->acct;
	json_t *o = json_object();

	json_object_set_new(o, "timer_irq", a->timer_irq ? json_string(a->timer_irq_name) : json_null());
	json_object_set_new(o, "timer_irq_duration_ns", a->timer_irq ? json_integer(a->timer_irq_ns) : json_null());
	json_object_set_new(o, "interrupted_pid", json_integer(a->run_pid));
	json_object_set_new(o, "blocking_thread", an_tlat_thread_json(a->blocking, a->blocking_pid, a->blocking_ns));
	json_object_set_new(o, "irq_interference_ns", json_integer(a->irq_ns));
	json_object_set_new(o, "irq_interference_count", json_integer(a->nirq));
	json_object_set_new(o, "irq_interference_top", a->top_irq[0] ? json_string(a->top_irq) : json_null());
	json_object_set_new(o, "softirq_interference_ns", json_integer(a->softirq_ns));
	json_object_set_new(o, "thread_interference_ns", json_integer(a->thread_ns));
	json_object_set_new(o, "thread_interference_count", json_integer(a->nthread));
	json_object_set_new(o, "thread_interference_top",
			    an_tlat_thread_json(a->top_thread, a->top_thread_pid, a->top_thread_ns));
	return o;
}

/* an_tlat_worst_json - a CPU's worst thread sample with both explanations */
static json_t *an_tlat_worst_json(struct an_run *r, const struct an_tlat_worst *w)
{
	json_t *o = json_object(), *after;
	char line[640], us[32];
	size_t len;

	json_object_set_new(o, "seqnum", json_integer(w->seq));
	json_object_set_new(o, "thread_latency_ns", json_integer(w->thread_ns));
	json_object_set_new(o, "irq_latency_ns", w->irq_ns >= 0 ? json_integer(w->irq_ns) : json_null());
	json_object_set_new(o, "irq_entry_ns", w->irq_entry_ns ? json_integer(w->irq_entry_ns) : json_null());
	/* the IRQ entry to the thread entry: the timer IRQ's own rest, then what ran before the thread */
	json_object_set_new(o, "irq_to_thread_ns", w->irq_entry_ns ? json_integer(w->c.start_ns - w->irq_entry_ns)
			    : json_null());
	an_culprit_parts_json("timerlat", &w->c, o);
	if (w->irq_ns >= 0) {
		after = json_object();
		an_culprit_parts_json("timerlat", &w->after_irq, after);
		json_object_set_new(o, "after_irq", after);
	} else {
		json_object_set_new(o, "after_irq", json_null());
	}
	json_object_set_new(o, "osnoise", w->irq_ns >= 0 ? an_tlat_acct_json(w) : json_null());
	an_fmt_us(us, sizeof(us), w->thread_ns);
	snprintf(line, sizeof(line), "CPU %d cycle %u: thread latency %s", w->c.cpu, w->seq, us);
	len = strlen(line);
	if (w->irq_ns >= 0) {
		an_fmt_us(us, sizeof(us), w->irq_ns);
		snprintf(line + len, sizeof(line) - len, " (IRQ %s)", us);
		len = strlen(line);
	}
	an_culprit_parts_text(r, "timerlat", &w->c, line + len, sizeof(line) - len);
	json_object_set_new(o, "summary", json_string(line));
	return o;
}

void an_tlat_fold(struct an_run *r, json_t *res)
{
	struct an_tlat *tl = r->tlat;
	json_t *o, *cpus, *x, *lat;
	int64_t max_ns = -1;
	int i, worst_cpu = -1;

	if (!tl)
		return;		/* no timerlat sample: the member is left out */
	o = json_object();
	cpus = json_array();
	for (i = 0; i < tl->ncpus; i++) {
		struct an_tlat_cpu *c = &tl->cpu[i];

		if (!c->seen)
			continue;
		x = json_object();
		json_object_set_new(x, "cpu", json_integer(i));
		json_object_set_new(x, "tid", c->pid ? json_integer(c->pid) : json_null());
		json_object_set_new(x, "irq_latency_ns", an_stat_json(&c->irq));
		lat = an_stat_json(&c->thread);
		json_object_set_new(x, "thread_latency_ns", lat);
		json_object_set_new(x, "cycles_missing", json_integer((json_int_t)c->seq_gaps));
		json_object_set_new(x, "thread_unpaired", json_integer((json_int_t)c->unpaired));
		json_object_set_new(x, "worst", c->has_worst ? an_tlat_worst_json(r, &c->worst) : json_null());
		if (c->has_worst && c->worst.thread_ns > max_ns) {
			max_ns = c->worst.thread_ns;
			worst_cpu = i;
		}
		json_array_append_new(cpus, x);
	}
	json_object_set_new(o, "thread_latency_max_ns", max_ns >= 0 ? json_integer(max_ns) : json_null());
	json_object_set_new(o, "worst_cpu", worst_cpu >= 0 ? json_integer(worst_cpu) : json_null());
	json_object_set_new(o, "cpus", cpus);
	json_object_set_new(res, "timerlat", o);
}

void an_tlat_free(struct an_run *r)
{
	int i;

	if (!r->tlat)
		return;
	for (i = 0; i < r->tlat->ncpus; i++) {
		if (!r->tlat->cpu[i].seen)
			continue;
		an_stat_free(&r->tlat->cpu[i].irq);
		an_stat_free(&r->tlat->cpu[i].thread);
	}
	free(r->tlat->cpu);
	free(r->tlat);
	r->tlat = NULL;
}
