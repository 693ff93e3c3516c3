/*
 * plugin_preflight.c - a libtraceevent plugin that prints the flight app's
 * binary job markers (docs/markers.md: event ftrace:raw_data, id "PFM1") the
 * way a person reads them, in trace-cmd report and KernelShark:
 *
 *   raw_data: job_start ctl100 #1794 release=1342.559346125
 *   raw_data: job_end ctl100 #1794 release=1342.559346125 flags=0x2 (deadline miss)
 *
 * instead of '# 50464d31 53 01 ...'. The task is named by the thread that
 * wrote the marker (each task's thread carries its name); raw_data events of
 * other writers are printed as hex as before. Built by the Makefile as
 * build/plugins/plugin_preflight.so and installed into libtraceevent's plugin
 * directory; TRACEEVENT_PLUGIN_DIR=build/plugins loads it from the tree.
 *
 * It runs inside trace-cmd or KernelShark: no preflight library, only
 * libtraceevent's own interface.
 */
#include <stdint.h>
#include <stdio.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#define PLG_MAGIC       0x50464d31u	/* "PFM1": a preflight marker, format v1 */
#define PLG_PAYLOAD_LEN 20		/* after the id: kind, task, flags, seq, pad, release_ns */

/* plg_hex - the payload as hex bytes, as trace-cmd shows a raw_data event it does not know */
static void plg_hex(struct trace_seq *s, unsigned long long id, const unsigned char *p, int len)
{
	int i;

	trace_seq_printf(s, "# %08llx", id);
	for (i = 0; i < len; i++)
		trace_seq_printf(s, " %02x", p[i]);
}

/* plg_flags - the job-log flags of an end marker in words (docs/joblog.md) */
static void plg_flags(struct trace_seq *s, unsigned int flags)
{
	static const char *const names[] = { "overrun", "deadline miss", "no-rt" };
	const char *sep = " (";
	unsigned int i;

	trace_seq_printf(s, " flags=0x%x", flags);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & (1u << i)) {
			trace_seq_printf(s, "%s%s", sep, names[i]);
			sep = ", ";
		}
	if (sep[0] == ',')
		trace_seq_puts(s, ")");
}

/* plg_raw_data - the handler of ftrace:raw_data: a preflight job marker decoded, anything else as hex */
static int plg_raw_data(struct trace_seq *s, struct tep_record *record, struct tep_event *event, void *context)
{
	struct tep_handle *tep = event->tep;
	struct tep_format_field *field = tep_find_field(event, "buf");
	unsigned long long id, seq, release_ns;
	const unsigned char *p;
	const char *comm;
	int len, pid;

	(void)context;
	if (tep_get_field_val(NULL, event, "id", record, &id, 0) || !field || field->offset > record->size)
		return trace_seq_puts(s, "(bad raw_data event)");
	p = (const unsigned char *)record->data + field->offset;
	len = record->size - field->offset;
	if (id != PLG_MAGIC || len < PLG_PAYLOAD_LEN || (p[0] != 'S' && p[0] != 'E')) {
		plg_hex(s, id, p, len);
		return 0;
	}
	seq = tep_read_number(tep, p + 4, 4);
	release_ns = tep_read_number(tep, p + 12, 8);
	pid = tep_data_pid(tep, record);
	comm = tep_data_comm_from_pid(tep, pid);
	trace_seq_printf(s, "%s ", p[0] == 'S' ? "job_start" : "job_end");
	if (comm && comm[0] && comm[0] != '<')	/* "<...>": the pid's name is not in the file */
		trace_seq_printf(s, "%s", comm);
	else
		trace_seq_printf(s, "task%u", p[1]);
	trace_seq_printf(s, " #%llu release=%llu.%09llu", seq, release_ns / 1000000000ull, release_ns % 1000000000ull);
	if (p[0] == 'E')
		plg_flags(s, (unsigned int)tep_read_number(tep, p + 2, 2));
	return 0;
}

/* the plugin's entry points, called by libtraceevent when it loads and unloads the plugin */
int TEP_PLUGIN_LOADER(struct tep_handle *tep);
int TEP_PLUGIN_UNLOADER(struct tep_handle *tep);

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	return tep_register_event_handler(tep, -1, "ftrace", "raw_data", plg_raw_data, NULL);
}

int TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	return tep_unregister_event_handler(tep, -1, "ftrace", "raw_data", plg_raw_data, NULL);
}
