/*
 * datafile.h - where preflight's programs find their data files (budgets,
 * flightapp profiles, bench scenarios) and themselves. One resolver serves
 * every program, from the source tree and once installed (docs/ARCHITECTURE.md).
 *
 * A data file is named as it is installed: "budgets/seed.ini",
 * "profiles/omap3-60.ini", "scenarios/quick.ini". It is looked for, in
 * order, in
 *   1. $PREFLIGHT_DATA, a directory laid out like the installed one;
 *   2. the build tree the program runs from: the source tree is the
 *      program's directory's parent (build/..), where profiles live in
 *      app/profiles/ and scenarios in bench/scenarios/;
 *   3. share/preflight beside the program's directory (PREFIX/bin ->
 *      PREFIX/share/preflight): an installation staged with DESTDIR or
 *      moved to another prefix, without a rebuild;
 *   4. the installed data directory, $(DATADIR) of the Makefile, compiled
 *      in as PF_DATADIR (make install puts budgets/, profiles/ and
 *      scenarios/ there).
 */
#ifndef PF_DATAFILE_H
#define PF_DATAFILE_H

#include <stddef.h>

/* pf_self_exe - the running program's own path (/proc/self/exe); 0 or -errno */
int pf_self_exe(char *path, size_t size) __attribute__((warn_unused_result));

/* pf_self_dir - the directory of the running program; 0 or -errno */
int pf_self_dir(char *dir, size_t size) __attribute__((warn_unused_result));

/*
 * pf_datafile - find data file 'name' ("scenarios/quick.ini") in the four
 * places above. 0 with its path in 'path'; -ENOENT with, in 'path', the one
 * line that says where it looked ("searched $PREFLIGHT_DATA/..., ...").
 */
int pf_datafile(const char *name, char *path, size_t size) __attribute__((warn_unused_result));

#endif
