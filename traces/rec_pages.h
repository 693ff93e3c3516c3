/*
 * rec_pages.h - the events of a trace-cmd .dat file (version 6, or 7
 * compressed or not) read straight from its ring-buffer pages, every CPU of every buffer instance merged in
 * time order: the records tracecmd_iterate_events_multi hands, in its order
 * (the earliest first, a tie to the lower buffer, then the lower CPU), with
 * the same time stamps, sizes, file offsets and missed-event counts, but no
 * record allocated per event. 'preflight analyze' reads through it unless
 * told --decoder=libtracecmd (docs/ARCHITECTURE.md, traces/rec_pages.c).
 *
 * libtracecmd has opened the file (headers, event formats, options); this
 * reads the CPU data. A file it does not know in every detail (another
 * byte order, an option that moves time stamps, a compression libtracecmd
 * does not know, a page that breaks the ring buffer's rules) is refused with
 * the reason before any record is handed, so the caller can read it through
 * libtracecmd instead.
 */
#ifndef REC_PAGES_H
#define REC_PAGES_H

#include <stddef.h>

#include "rec_tracecmd.h"	/* libtracecmd, with the reading functions it does not declare */

struct rec_pages;

/* the callback of tracecmd_iterate_events_multi; the handle given is NULL */
typedef int (*rec_pages_fn)(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data);

/*
 * rec_pages_open - read the CPU data of the file open on 'fd' (which
 * libtracecmd opened as hs[0], the top buffer; hs[k] for k > 0 the buffer
 * instance tracecmd_buffer_instance_handle(hs[0], bufidx[k]) made) and check
 * every page: 0 and *out, -EOPNOTSUPP with 'why' when the direct reading
 * cannot give what libtracecmd gives, -ENOMEM. fd may be closed after.
 */
int rec_pages_open(struct rec_pages **out, int fd, struct tracecmd_input **hs, const int *bufidx, int nh,
		   char *why, size_t whylen) __attribute__((warn_unused_result));

/*
 * rec_pages_iterate - every record to fn(NULL, record, merged CPU index,
 * data) in time order, each CPU's record reused (nothing allocated); stops
 * when fn returns < 0 and returns that, -EIO when a page can no longer be
 * read as rec_pages_open read it (the file changed), else 0
 */
int rec_pages_iterate(struct rec_pages *pg, rec_pages_fn fn, void *data);

/* rec_pages_close - unmap and free */
void rec_pages_close(struct rec_pages *pg);

#endif
