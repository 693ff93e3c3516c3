/*
 * bodies.h - flightapp's table of task bodies (app/bodies.c): the program
 * hands it to the executive with app_bodies_init() (exec.h). Only the
 * program links it; the executive knows bodies through the table alone.
 */
#ifndef APP_BODIES_H
#define APP_BODIES_H

#include "task.h"

/* app_bodies - flightapp's body table, ended by an entry with name NULL */
extern const struct app_task_body app_bodies[];

/* app_bodies_register - called once before the configuration is read: the bodies' config sections */
int app_bodies_register(void);

#endif
