/*
 * rt.h - process-wide realtime set-up of flightapp: the main thread's priority
 * while it sets up, locked memory and the /dev/cpu_dma_latency request (see rt.c).
 */
#ifndef APP_RT_H
#define APP_RT_H

#include <stdint.h>

/*
 * app_rt_main_priority - the calling (main) thread at SCHED_FIFO 'prio', or
 * back to SCHED_OTHER with 0; 0 or -errno
 */
int app_rt_main_priority(int prio);

/* app_rt_lock_memory - mlockall(current and future); 0 or -errno */
int app_rt_lock_memory(void);

/*
 * app_rt_dma_latency_path - /dev/cpu_dma_latency, or PREFLIGHT_TEST_DMA_LATENCY
 * (tests only: a kernel without the device, or a file standing in for it)
 */
const char *app_rt_dma_latency_path(void);

/* app_rt_dma_latency_hold - request 'latency_us' from app_rt_dma_latency_path(); the fd to keep open, or -errno */
int app_rt_dma_latency_hold(int32_t latency_us);

/* app_rt_dma_latency_release - drop the request */
void app_rt_dma_latency_release(int fd);

#endif
