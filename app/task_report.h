/*
 * task_report.h - what flightapp tells people and programs about a run: the live
 * one-line-per-task status, the final task table and the statistics JSON.
 */
#ifndef APP_TASK_REPORT_H
#define APP_TASK_REPORT_H

#include "exec.h"

#include <stdio.h>

/* app_report_status - the live view: one line per task (reads the statistics without tearing) */
void app_report_status(struct app *app, FILE *f, int64_t now_ns);

/* app_report_table - the final table, in the spirit of ArduPilot's task report */
void app_report_table(struct app *app, FILE *f);

/* app_report_json - write the final statistics as JSON to f (opened before the run); 0 or -errno */
int app_report_json(struct app *app, FILE *f);

/* app_utilisation_pct - CPU time of the realtime (fifo-configured) threads over the run, % of one CPU */
double app_utilisation_pct(const struct app *app);

#endif
