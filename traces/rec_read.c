/*
 * rec_read.c - reading .dat files back with libtracecmd: the lost-event
 * counts that analysis needs (rec_read_lost_events, see rec_read.h) and the
 * summary that 'preflight record --summary FILE' prints (events per type,
 * markers, missed events, pid -> comm coverage). Works on any .dat that
 * libtracecmd opens: preflight record, trace-cmd record / extract, v6 or v7,
 * and what a file cut short holds (rec_cut.h).
 */
#define _GNU_SOURCE
#include "rec.h"
#include "rec_cut.h"
#include "rec_read.h"
#include "rec_tracecmd.h"
#include "common.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#define REC_PFM1_ID 0x50464d31u	/* "PFM1": docs/markers.md */

/* rec_stat_value - the number after "key:" on a line of stats text */
static uint64_t rec_stat_value(const char *line, const char *key, bool *found)
{
	size_t len = strlen(key);

	if (strncmp(line, key, len) || line[len] != ':')
		return 0;
	*found = true;
	return strtoull(line + len + 1, NULL, 10);
}

/* rec_parse_incomplete - the reason after REC_INCOMPLETE_TAG in the Buffer line, if any */
static void rec_parse_incomplete(const char *text, struct rec_lost *out)
{
	const char *tag = strstr(text, REC_INCOMPLETE_TAG), *end;
	size_t len;

	if (!tag)
		return;
	tag += strlen(REC_INCOMPLETE_TAG);
	end = strchr(tag, '\n');
	len = end ? (size_t)(end - tag) : strlen(tag);
	if (len && tag[len - 1] == ')')	/* the Buffer line's closing parenthesis */
		len--;
	if (len >= sizeof(out->incomplete))
		len = sizeof(out->incomplete) - 1;
	memcpy(out->incomplete, tag, len);
	out->incomplete[len] = '\0';
}

int rec_parse_cpustats(const char *text, struct rec_lost *out)
{
	struct rec_lost_cpu *c = NULL;
	const char *line = text;
	bool found;
	int i;

	memset(out, 0, sizeof(*out));
	if (!text)
		return -ENODATA;
	out->window = strstr(text, "flight-recorder window") != NULL;
	out->rt_wakeups = strstr(text, REC_RT_WAKEUPS_TEXT) != NULL;
	out->rt_switches = strstr(text, REC_RT_SWITCHES_TEXT) != NULL;
	rec_parse_incomplete(text, out);
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		found = false;
		if (!strncmp(line, "CPU:", 4)) {
			if (out->ncpus >= REC_MAX_CPUS) {
				c = NULL;
				continue;
			}
			c = &out->cpu[out->ncpus++];
			c->cpu = atoi(line + 4);
			continue;
		}
		if (!c)
			continue;
		c->entries += rec_stat_value(line, "entries", &found);
		c->overrun += rec_stat_value(line, "overrun", &found);
		c->commit_overrun += rec_stat_value(line, "commit overrun", &found);
		c->dropped += rec_stat_value(line, "dropped events", &found);
		c->read += rec_stat_value(line, "read events", &found);
	}
	for (i = 0; i < out->ncpus; i++) {
		out->lost += out->cpu[i].commit_overrun + out->cpu[i].dropped;
		if (!out->window)
			out->lost += out->cpu[i].overrun;
	}
	return out->ncpus ? 0 : -ENODATA;
}

int rec_parse_observers(const char *text, int *pids, int max)
{
	const char *line = text, *p;
	char *end;
	long v;
	int n = 0;
	bool found = false;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, "Observer pids:", 14))
			continue;
		found = true;
		for (p = line + 14; *p == ' '; ) {
			v = strtol(p + 1, &end, 10);
			if (end == p + 1 || v <= 0 || v > INT32_MAX)
				break;
			if (n < max)
				pids[n] = (int)v;
			n++;
			p = end;
		}
	}
	return found ? n : -ENODATA;
}

int rec_read_lost_events(const char *path, struct rec_lost *out)
{
	struct tracecmd_input *in;
	int ret;

	memset(out, 0, sizeof(*out));
	in = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!in)
		return errno ? -errno : -EINVAL;
	ret = rec_parse_cpustats(tracecmd_get_cpustats(in), out);
	tracecmd_close(in);
	return ret;
}

/* one event type seen by the summary */
struct rec_type_count {
	struct tep_handle *tep;		/* of the buffer it was seen in */
	int id;
	uint64_t n;
};

/* one pid seen by the summary */
struct rec_pid_seen {
	int pid;
	uint64_t n;
};

struct rec_summary {
	struct tep_handle *tep;
	struct rec_type_count *types;
	size_t ntypes;
	struct rec_pid_seen *pids;
	size_t npids, pids_cap;
	uint64_t events, missed, print, pf1, pfm1;
	int print_id, raw_id;
	int err;
};

/* rec_summary_pid - count one event of 'pid' */
static void rec_summary_pid(struct rec_summary *sum, int pid)
{
	size_t i;

	for (i = 0; i < sum->npids; i++)
		if (sum->pids[i].pid == pid) {
			sum->pids[i].n++;
			return;
		}
	if (pf_grow(&sum->pids, &sum->pids_cap, sum->npids, sizeof(*sum->pids), 256)) {
		sum->err = -ENOMEM;
		return;
	}
	sum->pids[sum->npids].pid = pid;
	sum->pids[sum->npids++].n = 1;
}

/* rec_summary_event - tracecmd_iterate_events callback: count one record */
static int rec_summary_event(struct tracecmd_input *in, struct tep_record *rec, int cpu,
			     void *data)
{
	struct rec_summary *sum = data;
	int type = tep_data_type(sum->tep, rec);
	size_t i;

	sum->events++;
	if (rec->missed_events > 0)
		sum->missed += rec->missed_events;
	for (i = 0; i < sum->ntypes && (sum->types[i].id != type || sum->types[i].tep != sum->tep); i++)
		;
	if (i == sum->ntypes) {
		struct rec_type_count *t = realloc(sum->types, (i + 1) * sizeof(*t));

		if (!t) {
			sum->err = -ENOMEM;
			return -1;
		}
		sum->types = t;
		sum->types[sum->ntypes++] = (struct rec_type_count){ sum->tep, type, 0 };
	}
	sum->types[i].n++;
	rec_summary_pid(sum, tep_data_pid(sum->tep, rec));
	if (type == sum->print_id) {
		struct tep_format_field *f = tep_find_field(tep_find_event(sum->tep, type), "buf");

		sum->print++;
		if (f && f->offset + 4 <= rec->size &&
		    !strncmp((char *)rec->data + f->offset, "pf1 ", 4))
			sum->pf1++;
	} else if (type == sum->raw_id) {
		struct tep_format_field *f = tep_find_field(tep_find_event(sum->tep, type), "id");
		unsigned long long id;

		if (f && tep_read_number_field(f, rec->data, &id) == 0 && id == REC_PFM1_ID)
			sum->pfm1++;
	}
	return sum->err ? -1 : 0;
}

/* rec_summary_id - the id of event system:name, or -1 */
static int rec_summary_id(struct tep_handle *tep, const char *sys, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);

	return ev ? ev->id : -1;
}

/*
 * rec_summary_print - 'preflight record --summary FILE': what the file
 * holds, as "key value" lines with a versioned header; an exit code
 */
int rec_summary_print(const char *path, FILE *out)
{
	struct rec_summary sum = { 0 };
	struct tracecmd_input *in;
	struct rec_cut cut;
	struct rec_lost lost;
	const char *clock;
	size_t i, ntypes;
	int b, ret, unnamed = 0;

	switch (rec_cut_open(path, TRACECMD_FL_LOAD_NO_PLUGINS, &in, &cut)) {
	case REC_OPEN_OK:
		break;
	case REC_OPEN_BAD_HEADERS:
		return pf_fail(PF_EXIT_USAGE, "'%s': not a readable trace-cmd file", path);
	case REC_OPEN_CUT_HEADERS:
		return pf_fail(PF_EXIT_USAGE, "'%s': offset %lld: %s", path, (long long)cut.have, cut.note);
	default:
		return pf_fail(PF_EXIT_USAGE, "'%s': not a readable trace-cmd file (truncated or corrupt: "
			       "the CPU data is not all there)", path);
	}
	if (cut.note[0])
		pf_err("note: INCOMPLETE: '%s': %s", path, cut.note);
	/* the top buffer, then any instance buffers (trace-cmd record -B / extract -B) */
	for (b = -1; b < tracecmd_buffer_instances(in); b++) {
		struct tracecmd_input *h = b < 0 ? in : tracecmd_buffer_instance_handle(in, b);

		if (!h)
			continue;
		sum.tep = tracecmd_get_tep(h);
		sum.print_id = rec_summary_id(sum.tep, "ftrace", "print");
		sum.raw_id = rec_summary_id(sum.tep, "ftrace", "raw_data");
		ntypes = sum.ntypes;
		ret = tracecmd_iterate_events(h, NULL, 0, rec_summary_event, &sum);
		for (i = ntypes; i < sum.ntypes; i++)
			sum.types[i].tep = sum.tep;
		if (h != in)
			tracecmd_close(h);
		if (ret < 0 || sum.err) {
			ret = pf_fail(PF_EXIT_USAGE, "'%s': reading events failed", path);
			goto out;
		}
	}
	sum.tep = tracecmd_get_tep(in);
	clock = tracecmd_get_trace_clock(in);
	fprintf(out, "# preflight-record-summary/1\n");
	fprintf(out, "file %s\n", path);
	fprintf(out, "clock %s\n", clock ? clock : "unknown");
	fprintf(out, "cpus %d\n", tracecmd_cpus(in));
	fprintf(out, "events %" PRIu64 "\n", sum.events);
	fprintf(out, "missed %" PRIu64 "\n", sum.missed);
	if (rec_parse_cpustats(tracecmd_get_cpustats(in), &lost) == 0)
		fprintf(out, "lost %" PRIu64 "\n", lost.lost);
	else
		fprintf(out, "lost unknown\n");
	if (cut.note[0] || lost.incomplete[0])
		fprintf(out, "incomplete %s%s%s\n", cut.note, cut.note[0] && lost.incomplete[0] ? "; and " : "",
			lost.incomplete);
	fprintf(out, "markers.print %" PRIu64 "\n", sum.print);
	fprintf(out, "markers.pf1 %" PRIu64 "\n", sum.pf1);
	fprintf(out, "markers.pfm1 %" PRIu64 "\n", sum.pfm1);
	for (i = 0; i < sum.ntypes; i++) {
		struct tep_event *ev = tep_find_event(sum.types[i].tep, sum.types[i].id);

		fprintf(out, "event %s:%s %" PRIu64 "\n", ev ? ev->system : "?",
			ev ? ev->name : "?", sum.types[i].n);
	}
	for (i = 0; i < sum.npids; i++) {
		const char *comm = sum.pids[i].pid ?
				   tep_data_comm_from_pid(sum.tep, sum.pids[i].pid) : "<idle>";

		if (!comm || !strcmp(comm, "<...>")) {
			comm = "<...>";
			unnamed++;
		}
		fprintf(out, "pid %d %s %" PRIu64 "\n", sum.pids[i].pid, comm, sum.pids[i].n);
	}
	fprintf(out, "pids %zu\n", sum.npids);
	fprintf(out, "pids.unnamed %d\n", unnamed);
	ret = PF_EXIT_OK;
out:
	free(sum.types);
	free(sum.pids);
	tracecmd_close(in);
	rec_cut_close(&cut);
	return ret;
}
