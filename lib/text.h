/*
 * text.h - names and bytes that come from outside: the task-name syntax every
 * reader enforces (docs/joblog.md, docs/markers.md), bytes quoted for a
 * one-line message, and a JSON string of bytes that may not be UTF-8 (a path,
 * a thread's comm), which jansson would refuse and a writer silently drop.
 */
#ifndef PF_TEXT_H
#define PF_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define PF_TASK_NAME_MAX 15	/* a thread's comm: 15 bytes and its NUL */
#define PF_TASK_NAME_SYNTAX "[A-Za-z0-9_]{1,15}"

/* pf_task_name_valid - a task name: 1-15 of [A-Za-z0-9_] (fits a thread's comm) */
bool pf_task_name_valid(const char *name);

/* pf_quote_bytes - s for a message: printable ASCII as it is, every other byte as \xNN (cut to fit); buf */
const char *pf_quote_bytes(const char *s, char *buf, size_t size);

/*
 * pf_json_bytes - a JSON string of s: s itself when it is UTF-8, else s with
 * every byte outside printable ASCII written \xNN (*quoted set); NULL only
 * when out of memory
 */
json_t *pf_json_bytes(const char *s, bool *quoted);

#endif
