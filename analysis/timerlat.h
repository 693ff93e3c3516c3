/*
 * timerlat.h - what timerlat.c offers: the samples of the kernel's timerlat
 * tracer (the ftrace "timerlat" entries rtla timerlat reads, and the osnoise
 * events beside them) found in a trace, per CPU, the worst thread sample of
 * each CPU explained by the culprit code of tasks.c and by the tracer's own
 * osnoise accounting, as rtla timerlat's auto-analysis explains its worst
 * sample. results.json member "timerlat" (docs/results.md), absent from a
 * trace without timerlat samples. It calls sched.c, tasks.c and results.c
 * (docs/ARCHITECTURE.md); trace.c feeds it.
 */
#ifndef AN_TIMERLAT_H
#define AN_TIMERLAT_H

#include "types.h"

/* what a timerlat entry's 'context' says */
enum an_tlat_context { AN_TLAT_IRQ = 0, AN_TLAT_THREAD = 1 };

/* the osnoise events the accounting reads (their 'start' is the tracer's own clock) */
enum an_tlat_noise { AN_TLAT_NOISE_IRQ, AN_TLAT_NOISE_SOFTIRQ, AN_TLAT_NOISE_THREAD };

/*
 * an_tlat_on_sample - a timerlat entry on cpu at ts in pid's context: an IRQ
 * sample (the timer's interrupt, latency its expiry to the handler's clock
 * read) or the thread's (expiry to the timerlat/N thread's clock read);
 * the worst thread sample of the CPU is explained. 0 or an exit code
 */
int  an_tlat_on_sample(struct an_run *r, int cpu, int64_t ts, int pid, uint32_t seq, int context,
		     int64_t latency_ns);

/*
 * an_tlat_on_noise - an osnoise irq_noise / softirq_noise / thread_noise event
 * on cpu: interference the tracer accounted (name: the IRQ's description or
 * the thread's comm, id its vector or pid), start on the tracer's clock
 */
void an_tlat_on_noise(struct an_run *r, int cpu, enum an_tlat_noise kind, const char *name, int len, int id,
		    int64_t start, int64_t duration_ns);

/* an_tlat_fold - results.json's "timerlat", left out when the trace held no timerlat sample */
void an_tlat_fold(struct an_run *r, json_t *res);

void an_tlat_free(struct an_run *r);

#endif
