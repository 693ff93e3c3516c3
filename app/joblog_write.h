/*
 * joblog_write.h - the job log (app/joblog_write.c, docs/joblog.md): the program opens
 * it, writes its header once the threads run and closes it at the end; the
 * logger thread drains the rings into it through app->drain (exec.h), set to
 * app_logger_drain by the program.
 */
#ifndef APP_JOBLOG_WRITE_H
#define APP_JOBLOG_WRITE_H

#include "exec.h"

/* app_logger_drain - move every record from the rings into the job log; records moved */
uint64_t app_logger_drain(struct app *app);

/* app_joblog_open - create the job log; 0 or -errno */
int app_joblog_open(struct app *app, const char *path);

/* app_joblog_header - the "# preflight-joblog/1" header, metadata and column row */
int app_joblog_header(struct app *app);

/* app_joblog_close - final drop counts, flush and close; 0 or the first write error */
int app_joblog_close(struct app *app);

#endif
