/*
 * bodies.c - flightapp's table of task bodies: which code runs in each
 * task's jobs.
 *
 * This is the one file where flight software plugs into the executive (see
 * task.h): part of the program, not of the executive, which gets the table
 * from flightapp.c (app_bodies_init() of exec.h) and so never links the
 * flight software itself. A task whose name has no entry here, or whose
 * entry has a NULL job, does only its calibrated CPU work ('work' in the
 * configuration), which the executive adds after every job anyway.
 * app_bodies_register() is the place to register configuration sections
 * ([links], [fsw], ...) with app_config_add_section() before the
 * configuration is read.
 */
#include "bodies.h"
#include "fsw/fsw_task.h"

const struct app_task_body app_bodies[] = {
	/* name          init           job                fini -- flight software: app/fsw/ (enabled by [links] uart) */
	{ "io",          fsw_task_init, fsw_task_io,       fsw_task_fini },
	{ "ctl100",      fsw_task_init, fsw_task_ctl100,   fsw_task_fini },
	{ "nav10",       fsw_task_init, fsw_task_nav10,    fsw_task_fini },
	{ "ekf",         fsw_task_init, fsw_task_ekf,      fsw_task_fini },
	{ "mission1",    fsw_task_init, fsw_task_mission1, fsw_task_fini },
	{ "telemetry",   fsw_task_telemetry_init, fsw_task_telemetry, fsw_task_fini },
	{ NULL,          NULL, NULL, NULL },
};

int app_bodies_register(void)
{
	return fsw_task_register();	/* [fsw], [links] and [telemetry] */
}
