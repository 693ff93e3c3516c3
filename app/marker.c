/*
 * marker.c - writing flightapp's job markers into a tracefs instance
 * (docs/markers.md). libtracefs finds the instance and its files at setup;
 * the realtime path is a stack buffer and one write(2).
 */
#include "marker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

_Static_assert(sizeof(struct app_marker_raw) == APP_MARKER_RAW_SIZE, "marker payload is 24 bytes");

void app_marker_off(struct app_marker *m)
{
	m->fd = -1;
	m->text_fd = -1;
	m->text = false;
	m->path[0] = '\0';
}

/* app_marker_open_file - open one file of the instance for writing; fd or -errno */
static int app_marker_open_file(struct tracefs_instance *inst, const char *file, char *path, size_t path_size)
{
	char *p = tracefs_instance_get_file(inst, file);
	int fd;

	if (!p)
		return -ENOMEM;
	snprintf(path, path_size, "%s", p);
	tracefs_put_tracing_file(p);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int app_marker_open(struct app_marker *m, const char *instance, bool text, char *err, size_t err_size)
{
	struct tracefs_instance *inst = NULL;
	char path[512];
	int ret;

	app_marker_off(m);
	if (!tracefs_tracing_dir()) {
		snprintf(err, err_size, "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		return -ENOENT;
	}
	if (!tracefs_instance_exists(instance)) {
		snprintf(err, err_size, "tracefs instance '%s' does not exist (the recorder creates it)", instance);
		return -ENOENT;
	}
	inst = tracefs_instance_alloc(NULL, instance);
	if (!inst) {
		snprintf(err, err_size, "tracefs instance '%s': %s", instance, strerror(errno));
		return -errno ? -errno : -ENOMEM;
	}
	ret = app_marker_open_file(inst, "trace_marker", path, sizeof(path));
	if (ret < 0)
		goto fail;
	m->text_fd = ret;
	snprintf(m->path, sizeof(m->path), "%s", path);
	if (text) {
		m->fd = m->text_fd;
	} else {
		ret = app_marker_open_file(inst, "trace_marker_raw", m->path, sizeof(m->path));
		if (ret < 0)
			goto fail;
		m->fd = ret;
	}
	m->text = text;
	tracefs_instance_free(inst);
	return 0;
fail:
	snprintf(err, err_size, "%s: %s", m->path[0] ? m->path : path, strerror(-ret));
	app_marker_close(m);
	tracefs_instance_free(inst);
	return ret;
}

void app_marker_close(struct app_marker *m)
{
	if (m->fd >= 0 && m->fd != m->text_fd)
		close(m->fd);
	if (m->text_fd >= 0)
		close(m->text_fd);
	app_marker_off(m);
}

int app_marker_declare(const struct app_marker *m, const char *line)
{
	size_t len = strlen(line);

	if (m->text_fd < 0)
		return 1;
	return write(m->text_fd, line, len) == (ssize_t)len ? 0 : -errno;
}

void app_marker_encode_raw(struct app_marker_raw *p, char kind, uint8_t task_id, uint16_t flags,
			   uint32_t seq, int64_t release_ns)
{
	p->id = APP_MARKER_ID;
	p->kind = (uint8_t)kind;
	p->task_id = task_id;
	p->flags = flags;
	p->seq = seq;
	p->pad = 0;
	p->release_ns = (uint64_t)release_ns;
}

/* app_put_u64 - append a decimal number; returns the new end */
static char *app_put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

size_t app_marker_encode_text(char *buf, char kind, uint8_t task_id, uint16_t flags,
			      uint32_t seq, int64_t release_ns)
{
	char *p = buf;

	memcpy(p, "pf1 ", 4);
	p += 4;
	*p++ = kind;
	*p++ = ' ';
	p = app_put_u64(p, task_id);
	*p++ = ' ';
	p = app_put_u64(p, seq);
	*p++ = ' ';
	p = app_put_u64(p, (uint64_t)release_ns);
	if (kind == APP_MARKER_END) {
		*p++ = ' ';
		p = app_put_u64(p, flags);
	}
	*p++ = '\n';
	*p = '\0';
	return (size_t)(p - buf);
}

/* app_put_str - append a string without its NUL; returns the new end */
static char *app_put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

size_t app_marker_encode_miss(char *buf, uint8_t task_id, uint32_t seq, int64_t release_ns,
			      int64_t response_ns)
{
	char *p = buf;

	p = app_put_str(p, APP_MARKER_MISS_TEXT ": task ");
	p = app_put_u64(p, task_id);
	p = app_put_str(p, " seq ");
	p = app_put_u64(p, seq);
	p = app_put_str(p, " release_ns ");
	p = app_put_u64(p, (uint64_t)release_ns);
	p = app_put_str(p, " response_ns ");
	p = app_put_u64(p, (uint64_t)(response_ns > 0 ? response_ns : 0));
	*p++ = '\n';
	*p = '\0';
	return (size_t)(p - buf);
}

int app_marker_miss(const struct app_marker *m, uint8_t task_id, uint32_t seq, int64_t release_ns,
		    int64_t response_ns)
{
	char text[APP_MARKER_MISS_MAX];
	size_t len;
	ssize_t n;

	if (m->text_fd < 0)
		return 1;
	len = app_marker_encode_miss(text, task_id, seq, release_ns, response_ns);
	n = write(m->text_fd, text, len);
	return n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
}

int app_marker_job(const struct app_marker *m, char kind, uint8_t task_id, uint16_t flags,
		   uint32_t seq, int64_t release_ns)
{
	struct app_marker_raw raw;
	char text[APP_MARKER_TEXT_MAX];
	const void *buf = &raw;
	size_t len = sizeof(raw);
	ssize_t n;

	if (m->fd < 0)
		return 1;
	if (m->text) {
		len = app_marker_encode_text(text, kind, task_id, flags, seq, release_ns);
		buf = text;
	} else {
		app_marker_encode_raw(&raw, kind, task_id, flags, seq, release_ns);
	}
	n = write(m->fd, buf, len);
	return n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
}
