/*
 * rt.h - process-wide realtime set-up of flightapp: locked memory and the
 * /dev/cpu_dma_latency request (see rt.c).
 */
#ifndef APP_RT_H
#define APP_RT_H

#include <stdint.h>

/* app_rt_lock_memory - mlockall(current and future); 0 or -errno */
int app_rt_lock_memory(void);

/* app_rt_dma_latency_hold - request 'latency_us' from /dev/cpu_dma_latency; the fd to keep open, or -errno */
int app_rt_dma_latency_hold(int32_t latency_us);

/* app_rt_dma_latency_release - drop the request */
void app_rt_dma_latency_release(int fd);

#endif
