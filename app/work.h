/*
 * work.h - calibrated CPU work (app/work.c): the executive's entry point.
 * Bodies use app_work_cpu_ns() of task.h.
 */
#ifndef APP_WORK_H
#define APP_WORK_H

#include <stdint.h>

/*
 * app_work_from_ns - app_work_cpu_ns continuing from a thread CPU time just
 * read (saves the executive a read of the CPU clock); the CPU time at the end
 */
int64_t app_work_from_ns(int64_t cpu_now_ns, int64_t work_ns);

#endif
