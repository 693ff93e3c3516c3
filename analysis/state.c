/*
 * state.c - the end of one analysis run's state: above sched.c, tasks.c and
 * cyclictest_wakeups.c, timerlat.c, which each free their own part (docs/ARCHITECTURE.md).
 */
#include "state.h"
#include "cyclictest_wakeups.h"
#include "sched.h"
#include "tasks.h"
#include "timerlat.h"

void an_run_free(struct an_run *r)
{
	an_cw_free(r);
	an_tlat_free(r);
	an_tasks_free(r);
	an_sched_free(r);
}
