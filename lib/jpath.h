/*
 * jpath.h - one way to name a value inside a JSON document: a dotted path
 * ("tasks.0.activation_latency_ns.p99.99"), used by the reports (the
 * qualification summary, the budget check) to reach into results.json,
 * run.json and the other files of a run directory.
 *
 * A segment under an array is an element index ("tasks.0") or the name of
 * an element: the object whose "name" (or "comm") it is ("tasks.ctl100",
 * "threads.ksoftirqd/1" - a name holding a dot is not reachable). Under an object
 * the longest run of segments that is one of its keys is taken first, so a
 * key that itself holds dots ("p99.99", "p99.999") is one step, and
 * "latency_ns.p99.99" finds it without quoting.
 */
#ifndef PF_JPATH_H
#define PF_JPATH_H

#include <jansson.h>
#include <stddef.h>

/*
 * pf_jpath_get - the value at 'path' under 'root' (borrowed), or NULL when
 * any step is missing; "" is root itself
 */
json_t *pf_jpath_get(json_t *root, const char *path);

/*
 * pf_jpath_key - one step into an object: the member named by the longest
 * dot-separated prefix of 'path' ("p99.99" before "p99"), with that prefix's
 * length in *len; NULL when no prefix is a key of 'obj' (or obj is no object)
 */
json_t *pf_jpath_key(json_t *obj, const char *path, size_t *len);

/*
 * pf_json_load_schema - a JSON file whose "schema" is 'schema' (a run's
 * verdicts.json, a baseline), new reference; NULL when it cannot be read or
 * parsed or is of another schema, with why ("PATH: what jansson said", "PATH:
 * not SCHEMA") in 'why'
 */
json_t *pf_json_load_schema(const char *path, const char *schema, char *why, size_t why_size);

#endif
