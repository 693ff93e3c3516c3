/*
 * trace.h - what trace.c offers: one streaming pass over a trace-cmd .dat
 * file, its events decoded and handed to sched.c and tasks.c.
 */
#ifndef AN_TRACE_H
#define AN_TRACE_H

#include "types.h"

int  an_trace_read(struct an_run *r, const char *path);

#endif
