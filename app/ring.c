/*
 * ring.c - allocation of the per-task job-record rings (ring.h): done at
 * setup, with every page touched so the realtime path never faults.
 */
#include "ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int app_ring_init(struct app_ring *r, uint32_t entries)
{
	memset(r, 0, sizeof(*r));
	if (entries < 2 || (entries & (entries - 1)))
		return -EINVAL;
	if (posix_memalign((void **)&r->rec, APP_CACHELINE, entries * sizeof(*r->rec)))
		return -ENOMEM;
	memset(r->rec, 0, entries * sizeof(*r->rec));
	r->mask = entries - 1;
	return 0;
}

void app_ring_free(struct app_ring *r)
{
	free(r->rec);
	r->rec = NULL;
}
