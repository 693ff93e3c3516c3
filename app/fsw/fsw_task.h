/*
 * fsw_task.h - the flight software's task bodies for flightapp's executive
 * (app/task.h). app/bodies.c, part of the program flightapp, lists them in
 * the table it hands to the executive and calls fsw_task_register() from
 * app_bodies_register().
 */
#ifndef FSW_TASK_H
#define FSW_TASK_H

#include "app/task.h"

/* fsw_task_register - register the [fsw], [links] and [telemetry] configuration sections */
int fsw_task_register(void);

/* fsw_task_init - every body's init: the first one creates the flight software (if [links] uart is set) */
int fsw_task_init(struct app_task *t, struct app *app);
/* fsw_task_fini - every body's fini: the last one writes [fsw] stats_json and closes the links */
void fsw_task_fini(struct app_task *t);

/* the jobs: fsw_io_job ... fsw_mission1_job of fsw.h */
void fsw_task_io(struct app_task *t, const struct app_job *job);
void fsw_task_ctl100(struct app_task *t, const struct app_job *job);
void fsw_task_ekf(struct app_task *t, const struct app_job *job);
void fsw_task_nav10(struct app_task *t, const struct app_job *job);
void fsw_task_mission1(struct app_task *t, const struct app_job *job);

/* the telemetry task: init opens the [telemetry] dest socket; one frame per job (fsw_tlm.h) */
int fsw_task_telemetry_init(struct app_task *t, struct app *app);
void fsw_task_telemetry(struct app_task *t, const struct app_job *job);

#endif
