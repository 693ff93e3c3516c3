/*
 * marker.h - trace markers of flightapp's jobs (format: docs/markers.md) and
 * its USDT probes.
 *
 * The marker file of a tracefs instance is opened once at setup; a job then
 * writes one 24-byte binary record to trace_marker_raw (default) or one short
 * text line to trace_marker, built on the stack: no allocation, no
 * formatting library, one write(2). A failed write is counted, not fatal.
 * USDT probes (sys/sdt.h) sit at the same two points and cost a nop when no
 * tracer is attached. They are part of every build unless it is made with
 * NO_USDT=1 (CONFIG_USDT 0 in the generated build_config.h): then they compile
 * to nothing. The Makefile stops when sys/sdt.h is missing, so a build never
 * loses them silently.
 */
#ifndef APP_MARKER_H
#define APP_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "build_config.h"

#if CONFIG_USDT
#include <sys/sdt.h>
#else
#define DTRACE_PROBE3(p, n, a, b, c) do { } while (0)
#define DTRACE_PROBE5(p, n, a, b, c, d, e) do { } while (0)
#endif

#define APP_MARKER_ID     0x50464d31u	/* "PFM1" */
#define APP_MARKER_START  'S'
#define APP_MARKER_END    'E'
#define APP_MARKER_RAW_SIZE 24
#define APP_MARKER_TEXT_MAX 96
#define APP_MARKER_MISS_TEXT "flightapp deadline miss"	/* a trigger for 'preflight record -F --trigger' */
#define APP_MARKER_MISS_MAX 160

/* The binary payload written to trace_marker_raw (host byte order). */
struct app_marker_raw {
	uint32_t id;		/* APP_MARKER_ID */
	uint8_t  kind;		/* 'S' or 'E' */
	uint8_t  task_id;
	uint16_t flags;		/* job-log flags known at that point; 0 on start */
	uint32_t seq;
	uint32_t pad;
	uint64_t release_ns;
};

struct app_marker {
	int  fd;		/* trace_marker_raw or trace_marker, -1 when off */
	int  text_fd;		/* trace_marker: task declarations (and text-form jobs) */
	bool text;		/* job markers in text form */
	char path[512];		/* the marker file, for messages */
};

/* app_marker_off - a marker writer that writes nothing */
void app_marker_off(struct app_marker *m);

/*
 * app_marker_open - open the marker files of tracefs instance 'instance'
 * (which must exist); 0, or -errno with the reason in err
 */
int app_marker_open(struct app_marker *m, const char *instance, bool text, char *err, size_t err_size);

/* app_marker_close - close the marker files */
void app_marker_close(struct app_marker *m);

/* app_marker_declare - write one text line (task declarations, setup only); 0 or -errno */
int app_marker_declare(const struct app_marker *m, const char *line);

/* app_marker_encode_raw - the 24-byte binary payload of a job marker */
void app_marker_encode_raw(struct app_marker_raw *p, char kind, uint8_t task_id, uint16_t flags,
			   uint32_t seq, int64_t release_ns);

/* app_marker_encode_text - the text form "pf1 S 3 17 12345\n"; returns its length */
size_t app_marker_encode_text(char *buf, char kind, uint8_t task_id, uint16_t flags,
			      uint32_t seq, int64_t release_ns);

/*
 * app_marker_encode_miss - the text of a deadline-miss marker:
 * "flightapp deadline miss: task 3 seq 17 release_ns 123 response_ns 456\n"; its length
 */
size_t app_marker_encode_miss(char *buf, uint8_t task_id, uint32_t seq, int64_t release_ns,
			      int64_t response_ns);

/*
 * app_marker_miss - write a deadline-miss marker to trace_marker (text in both
 * forms, so the flight recorder's trigger can match it; realtime path, only
 * on a miss); 0, 1 when off, or -errno
 */
int app_marker_miss(const struct app_marker *m, uint8_t task_id, uint32_t seq, int64_t release_ns,
		    int64_t response_ns);

/* app_marker_job - write one job marker (realtime path); 0, 1 when off, or -errno */
int app_marker_job(const struct app_marker *m, char kind, uint8_t task_id, uint16_t flags,
		   uint32_t seq, int64_t release_ns);

#endif
