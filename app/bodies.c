/*
 * bodies.c - the table of task bodies: which code runs in each task's jobs.
 *
 * This is the one file where flight software plugs into the executive (see
 * task.h). A task whose name has no entry here, or whose entry has a NULL
 * job, does only its calibrated CPU work ('work' in the configuration), which
 * the executive adds after every job anyway. app_bodies_register() is the
 * place to register configuration sections ([links], [fsw], ...) with
 * app_config_add_section() before the configuration is read.
 */
#include "config.h"
#include "task.h"

#include <string.h>

const struct app_task_body app_bodies[] = {
	/* name          init  job   fini   -- calibrated work only, for now */
	{ "io",          NULL, NULL, NULL },
	{ "ctl100",      NULL, NULL, NULL },
	{ "nav10",       NULL, NULL, NULL },
	{ "ekf",         NULL, NULL, NULL },
	{ "mission1",    NULL, NULL, NULL },
	{ "telemetry",   NULL, NULL, NULL },
	{ NULL,          NULL, NULL, NULL },
};

int app_bodies_register(void)
{
	return 0;
}

const struct app_task_body *app_body_find(const char *name)
{
	const struct app_task_body *b;

	for (b = app_bodies; b->name; b++)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}
