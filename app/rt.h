/*
 * rt.h - process-wide realtime set-up of flightapp: locked memory and the
 * /dev/cpu_dma_latency request (see rt.c).
 */
#ifndef APP_RT_H
#define APP_RT_H

#include <pthread.h>
#include <stdint.h>

/*
 * The priority of the app's own bounded work outside its tasks: the main
 * thread's set-up (up to the job log's header), its waiting and its end, and
 * the logger's last drain. SCHED_FIFO 1, below every task and every load's
 * band: on one CPU under load (the 1-CPU armhf PREEMPT_RT guest), a
 * SCHED_OTHER main thread shared the time realtime throttling leaves with the
 * loads' processes (hackbench alone runs 40) and had not written the job
 * log's header when the phase ended.
 */
#define APP_RT_OWN_PRIO 1

/* app_rt_lock_memory - mlockall(current and future); 0 or -errno */
int app_rt_lock_memory(void);

/* app_rt_dma_latency_hold - request 'latency_us' from /dev/cpu_dma_latency; the fd to keep open, or -errno */
int app_rt_dma_latency_hold(int32_t latency_us);

/* app_rt_own_priority - thread 'th' to SCHED_FIFO APP_RT_OWN_PRIO; 0 or -errno (EPERM unprivileged) */
int app_rt_own_priority(pthread_t th);

/* app_rt_dma_latency_release - drop the request */
void app_rt_dma_latency_release(int fd);

#endif
