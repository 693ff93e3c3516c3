/*
 * fuzz.h - what the libFuzzer harnesses of t/fuzz/ share (docs/fuzzing.md).
 *
 * Each harness fuzz_<name>.c defines LLVMFuzzerTestOneInput() for one
 * parser and is built twice: with clang -fsanitize=fuzzer (make fuzz) and
 * with the ordinary compiler against replay.c, which runs it over the
 * committed corpus t/fuzz/<name>/ in 'make check' (t/0009-fuzz-replay.t).
 * Parsers that read a file get the input as a file: fuzz_file() writes it to
 * a private temporary directory, removed at exit.
 */
#ifndef PF_FUZZ_H
#define PF_FUZZ_H

#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_dir[192];	/* short: the paths made in it fit the parsers' buffers */

/* fuzz_cleanup - remove the temporary directory (at exit) */
static inline void fuzz_cleanup(void)
{
	char cmd[sizeof(fuzz_dir) + 16];

	if (fuzz_dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fuzz_dir);
		if (system(cmd) != 0)
			fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir);
	}
}

/* fuzz_path - the path of 'name' in the harness's temporary directory (made at first use) */
static inline const char *fuzz_path(const char *name)
{
	static char path[256];

	if (!fuzz_dir[0]) {
		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/preflight-fuzz.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(fuzz_dir)) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(fuzz_cleanup);
	}
	snprintf(path, sizeof(path), "%s/%s", fuzz_dir, name);
	return path;
}

/* fuzz_file - the input as the file 'name' in the temporary directory; its path */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *name)
{
	const char *path = fuzz_path(name);
	FILE *f = fopen(path, "we");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
		perror("fuzz: writing the input");
		abort();
	}
	return path;
}

/* fuzz_string - the input as a NUL-terminated string (malloc'd; caller frees) */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* fuzz_command - run a subcommand in this process (getopt reset), its exit code */
#define fuzz_command(cmd, ...) ({						\
	char *fuzz_argv_[] = { (char *)(cmd).name, __VA_ARGS__, NULL };		\
	optind = 0;								\
	(cmd).run((int)(sizeof(fuzz_argv_) / sizeof(fuzz_argv_[0])) - 1, fuzz_argv_); })

#endif
