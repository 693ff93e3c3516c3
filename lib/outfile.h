/*
 * outfile.h - the one way a preflight command writes an output or evidence
 * file. The target is looked at before anything is written:
 *
 *   a regular file or a new name  written to NAME.tmp beside it (created
 *                                 exclusively), flushed, fsync'ed, renamed
 *                                 over the target, the directory fsync'ed:
 *                                 a reader sees the old file or the new, never
 *                                 a part, and a NAME.tmp is never the output
 *   a character device or a FIFO  written in place, never renamed over
 *   "-", /dev/stdout              standard output
 *   anything else                 (a directory, a block device, a socket)
 *                                 refused: one line, PF_EXIT_USAGE
 *
 * A failed write, flush, fsync, close or rename is one line ("PATH: cannot
 * write: why") and PF_EXIT_ENV; a name in a directory that does not exist
 * is PF_EXIT_USAGE. SIGINT, SIGTERM and SIGHUP remove a pending
 * temporary file (when the program has no handler of its own; one that has
 * calls pf_outfile_on_signal). PREFLIGHT_TEST_OUTFILE_KILL (tests only): "1",
 * or a target's base name, raises SIGKILL just before that rename.
 */
#ifndef PF_OUTFILE_H
#define PF_OUTFILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * pf_outfile_check - may 'path' be written at all: its kind, and with
 * need_dir the directory a file goes in exists (without: it may be made
 * later, as analyze --csv DIR is); 0, or PF_EXIT_USAGE after one line
 */
int pf_outfile_check(const char *path, bool need_dir) __attribute__((warn_unused_result));

/*
 * pf_outfile_open - a stream that writes 'path' by its kind (see above);
 * 0 and *f, or an exit code after one line. End it with pf_outfile_commit
 * or pf_outfile_abort, never fclose.
 */
int pf_outfile_open(const char *path, FILE **f) __attribute__((warn_unused_result));

/* pf_outfile_commit - check every write, flush, fsync, close, rename; 0, or PF_EXIT_ENV after one line */
int pf_outfile_commit(FILE *f) __attribute__((warn_unused_result));

/* pf_outfile_abort - close f and remove its temporary file: the target is left as it was */
void pf_outfile_abort(FILE *f);

/*
 * pf_outfile_begin - for a writer that opens the file itself by name
 * (libtracecmd): *name is where to write (the temporary, or 'path' itself
 * when it is written in place); 0, or an exit code after one line. Stdout
 * is refused. End it with pf_outfile_end.
 */
int pf_outfile_begin(const char *path, const char **name) __attribute__((warn_unused_result));

/* pf_outfile_end - ok: fsync and rename (0, or PF_EXIT_ENV after one line); !ok: remove the temporary (0) */
int pf_outfile_end(const char *path, bool ok) __attribute__((warn_unused_result));

/* pf_outfile_json - write a JSON document (json_dumpf's flags; on stdout a final newline too); 0 or an exit code */
int pf_outfile_json(const char *path, const json_t *doc, size_t flags) __attribute__((warn_unused_result));

/* pf_outfile_data - write len bytes of buf; 0 or an exit code */
int pf_outfile_data(const char *path, const void *buf, size_t len) __attribute__((warn_unused_result));

/* pf_outfile_copy - write a copy of the file src; 0 or an exit code (reading src is PF_EXIT_ENV too) */
int pf_outfile_copy(const char *src, const char *path) __attribute__((warn_unused_result));

/* pf_outfile_fail - the one line of a write to path that failed with err (0: EIO; stdout named so); PF_EXIT_ENV */
int pf_outfile_fail(const char *path, int err);

/* pf_outfile_on_signal - async-signal-safe: remove every pending temporary file (for a program's own handler) */
void pf_outfile_on_signal(void);

/* pf_stdout_close - flush and close stdout at exit; 0, or PF_EXIT_ENV after one line */
int pf_stdout_close(void) __attribute__((warn_unused_result));

#endif
