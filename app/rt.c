/*
 * rt.c - realtime hygiene of the process: the set-up at a realtime priority,
 * memory locked, and the CPU idle
 * states held shallow through /dev/cpu_dma_latency for as long as the app
 * runs (the kernel keeps the request only while the file stays open).
 */
#include "rt.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int app_rt_main_priority(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, prio ? SCHED_FIFO : SCHED_OTHER, &sp) ? -errno : 0;
}

int app_rt_lock_memory(void)
{
	return mlockall(MCL_CURRENT | MCL_FUTURE) ? -errno : 0;
}

const char *app_rt_dma_latency_path(void)
{
	const char *test = getenv("PREFLIGHT_TEST_DMA_LATENCY");

	return test && *test ? test : "/dev/cpu_dma_latency";
}

int app_rt_dma_latency_hold(int32_t latency_us)
{
	int fd = open(app_rt_dma_latency_path(), O_WRONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	if (write(fd, &latency_us, sizeof(latency_us)) != (ssize_t)sizeof(latency_us)) {
		ret = -errno;
		close(fd);
		return ret ? ret : -EIO;
	}
	return fd;
}

void app_rt_dma_latency_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
