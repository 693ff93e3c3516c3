/*
 * outguard.h - the one check every output path of a preflight command goes
 * through before anything is written: a command never writes over one of its
 * own inputs, nor over a file that a run's SHA256SUMS lists (the run's
 * evidence), nor over that SHA256SUMS itself (docs/ARCHITECTURE.md: a run
 * directory is evidence, written once).
 */
#ifndef PF_OUTGUARD_H
#define PF_OUTGUARD_H

#include <stddef.h>

/*
 * pf_out_guard - may 'path' be written: not one of inputs[0..ninputs) (the
 * same file by any name: a link, a symlink, another spelling; NULL entries
 * are skipped), not listed in the SHA256SUMS of its directory or of any
 * directory above it, not a SHA256SUMS that exists. NULL and "-" (stdout)
 * pass; a path lib/outfile.c would refuse (a directory) is refused here
 * already. 0, or PF_EXIT_USAGE after one line naming the path and why.
 */
int pf_out_guard(const char *path, const char *const *inputs, size_t ninputs)
	__attribute__((warn_unused_result));

/*
 * pf_out_guard_dir - may new files be written into directory 'dir': not when
 * it, or a directory above it, holds a SHA256SUMS (a run directory or one of
 * its phases: evidence, written once by 'preflight run'); a directory not
 * made yet is judged by its parent. 0, or PF_EXIT_USAGE after one line.
 */
int pf_out_guard_dir(const char *dir) __attribute__((warn_unused_result));

#endif
