/*
 * rec_tracecmd.h - the part of libtracecmd's API that writes .dat files,
 * and the few reading functions it exports without declaring them: every
 * private declaration preflight makes, in one place, so that the build's
 * version check (REC_TRACECMD_VERSIONS, traces/traces.mk) covers them all.
 *
 * libtracecmd 3.1 exports its output functions (tracecmd_output_create,
 * tracecmd_append_cpu_data, ...) from the shared library, and trace-cmd record
 * itself is built on them, but Debian's libtracecmd-dev installs only the
 * reading half of the header. These declarations match trace-cmd 3.1.x's
 * lib/trace-cmd/include/private/trace-cmd-private.h; the build links against
 * the exported symbols. Only what the recorder uses is declared.
 */
#ifndef REC_TRACECMD_H
#define REC_TRACECMD_H

#include <stddef.h>
#include <sys/types.h>
#include <trace-cmd/trace-cmd.h>

struct tracecmd_output;

/* Option ids of the .dat format (trace-cmd.dat.v6 "options" section). */
enum rec_tracecmd_option {
	REC_TCMD_OPTION_DATE       = 1,
	REC_TCMD_OPTION_CPUSTAT    = 2,
	REC_TCMD_OPTION_BUFFER     = 3,
	REC_TCMD_OPTION_TRACECLOCK = 4,
	REC_TCMD_OPTION_UNAME      = 5,
	REC_TCMD_OPTION_HOOK       = 6,
	REC_TCMD_OPTION_OFFSET     = 7,
	REC_TCMD_OPTION_CPUCOUNT   = 8,
	REC_TCMD_OPTION_VERSION    = 9,
};

struct tracecmd_event_list {
	struct tracecmd_event_list *next;
	const char *glob;			/* "system/event" or "system/\*" */
};

struct tracecmd_output *tracecmd_output_create(const char *output_file);
int tracecmd_output_set_version(struct tracecmd_output *handle, int file_version);
int tracecmd_output_set_compression(struct tracecmd_output *handle, const char *compression);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle, const char *tracing_dir);
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle, const char *kallsyms);
int tracecmd_output_write_headers(struct tracecmd_output *handle,
				  struct tracecmd_event_list *list);
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle,
					    unsigned short id, int size, const void *data);
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
int tracecmd_append_cpu_data(struct tracecmd_output *handle,
			     int cpus, char * const *cpu_data_files);
void tracecmd_output_close(struct tracecmd_output *handle);

/* a compressed chunk of a v7 file's CPU data (trace-cmd.dat.v7(5)) */
struct tracecmd_compress_chunk {
	unsigned int size;			/* bytes uncompressed */
	unsigned int zsize;			/* bytes compressed */
	off_t zoffset;				/* of its header (two u32 sizes) in the file */
	off_t offset;				/* of its uncompressed bytes in the CPU's data */
};
struct tracecmd_compression;
struct tracecmd_msg_handle;

/* reading side, exported but not in the installed header */
struct tracecmd_compression *tracecmd_compress_alloc(const char *name, const char *version, int fd,
						     struct tep_handle *tep, struct tracecmd_msg_handle *msg_handle);
void tracecmd_compress_destroy(struct tracecmd_compression *handle);
int tracecmd_uncompress_block(struct tracecmd_compression *handle);
int tracecmd_compress_buffer_read(struct tracecmd_compression *handle, char *dst, int len);
int tracecmd_uncompress_chunk(struct tracecmd_compression *handle, struct tracecmd_compress_chunk *chunk,
			      char *data);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
size_t tracecmd_get_options_offset(struct tracecmd_input *handle);
off_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);

#endif
