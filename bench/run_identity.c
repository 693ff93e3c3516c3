/*
 * run_identity.c - what produced a run, for run.json's "preflight" object
 * (docs/scenarios.md): this program's version and git commit (and whether
 * its tree had uncommitted changes), the SHA-256 of each program of the build
 * a run executes, the compiler
 * and the trace libraries it was built with (fixed at build time by
 * bench/bench.mk; "unknown" when built outside git), the versions of the
 * external tools the run used (gnuplot, cyclictest), and the running
 * kernel's configuration, copied whole into the run directory as
 * kernel.config with its SHA-256, so that the report can be rebuilt and
 * checked from the directory alone.
 */
#define _GNU_SOURCE
#include "run.h"
#include "common.h"
#include "outfile.h"
#include "proc.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "identity.h"	/* build/identity.h (bench/bench.mk): PF_GIT_COMMIT, PF_LIB_VERSIONS ("libtracefs=1.6.4 ...") */

#if defined(__clang__)
#define RUN_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define RUN_COMPILER "gcc " __VERSION__
#else
#define RUN_COMPILER "unknown"
#endif

/* run_id_capture - the first line of a command's stdout (and stderr), "" when it did not run */
static void run_id_capture(char *const argv[], char *buf, size_t size)
{
	char path[] = "/tmp/preflight-id.XXXXXX";
	struct pf_proc p;
	int fd = mkstemp(path);

	buf[0] = '\0';
	if (fd < 0)
		return;
	close(fd);
	if (pf_proc_spawn(&p, argv, path, path, 0) == 0 && pf_proc_wait(&p) >= 0 &&
	    pf_read_file(path, buf, size) >= 0)
		buf[strcspn(buf, "\n")] = '\0';
	else
		buf[0] = '\0';
	unlink(path);
}

/* run_id_tools - versions of the external tools a run and its report use */
static json_t *run_id_tools(void)
{
	char *gp[] = { "gnuplot", "--version", NULL }, *ct[] = { "cyclictest", "--help", NULL };
	char line[256];
	json_t *o = json_object();

	run_id_capture(gp, line, sizeof(line));
	json_object_set_new(o, "gnuplot", line[0] ? json_string(line) : json_null());
	run_id_capture(ct, line, sizeof(line));	/* "cyclictest V 2.50" */
	json_object_set_new(o, "cyclictest", !strncmp(line, "cyclictest", 10) ? json_string(line) : json_null());
	return o;
}

/* run_id_libs - PF_LIB_VERSIONS ("name=version ...") as an object */
static json_t *run_id_libs(void)
{
	char buf[256], *save = NULL, *tok, *eq;
	json_t *o = json_object();

	snprintf(buf, sizeof(buf), "%s", PF_LIB_VERSIONS);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if ((eq = strchr(tok, '='))) {
			*eq = '\0';
			json_object_set_new(o, tok, json_string(eq + 1));
		}
	return o;
}

/* run_id_sha256 - a file's SHA-256 as a JSON string, null when sha256sum could not read it */
static json_t *run_id_sha256(const char *path)
{
	char *sum[] = { "sha256sum", (char *)path, NULL };
	char line[PATH_MAX + 80];

	run_id_capture(sum, line, sizeof(line));
	line[strcspn(line, " ")] = '\0';
	return strlen(line) == 64 && strspn(line, "0123456789abcdef") == 64 ? json_string(line) : json_null();
}

/*
 * run_id_kernel_config - copy /proc/config.gz (else /boot/config-<release>)
 * uncompressed to DIR/kernel.config; its source and SHA-256, or why not
 */
static json_t *run_id_kernel_config(const char *dir)
{
	char src[300], dst[PATH_MAX], buf[8192], why[PATH_MAX + 400] = "";
	struct utsname u;
	gzFile gz = NULL;
	FILE *out = NULL;
	json_t *o = json_object();
	int n, tried;

	for (tried = 0; tried < 2 && !gz; tried++) {
		if (tried == 0)
			snprintf(src, sizeof(src), "/proc/config.gz");
		else if (!uname(&u))
			snprintf(src, sizeof(src), "/boot/config-%s", u.release);
		gz = gzopen(src, "rb");
	}
	if (!gz) {
		snprintf(why, sizeof(why), "neither /proc/config.gz nor /boot/config-<release> is readable");
		goto out;
	}
	snprintf(dst, sizeof(dst), "%s/kernel.config", dir);
	if (pf_outfile_open(dst, &out)) {
		snprintf(why, sizeof(why), "%s: cannot write", dst);
		goto out;
	}
	while ((n = gzread(gz, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, out);
	if (n < 0) {
		snprintf(why, sizeof(why), "%s: cannot read", src);
		goto out;
	}
	n = pf_outfile_commit(out);
	out = NULL;
	if (n) {
		snprintf(why, sizeof(why), "%s: cannot write", dst);
		goto out;
	}
	json_object_set_new(o, "source", json_string(src));
	json_object_set_new(o, "file", json_string("kernel.config"));
	json_object_set_new(o, "sha256", run_id_sha256(dst));
out:
	if (gz)
		gzclose(gz);
	if (out)
		pf_outfile_abort(out);
	if (why[0])
		json_object_set_new(o, "error", json_string(why));
	return o;
}

/*
 * run_id_binaries - the programs of this build a run executes (this one, and the
 * flight app, simulator and injector beside it), each with its path and SHA-256:
 * what was tested, named by its bytes (issue 32.12)
 */
static json_t *run_id_binaries(void)
{
	static const char *const names[] = { "flightapp", "sensorsim", "selftest-inject", "flightapp-perf" };
	char self[PATH_MAX], path[PATH_MAX + 32], *slash;
	json_t *a = json_array(), *b;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t i;

	if (n <= 0)
		return a;
	self[n] = '\0';
	b = json_pack("{s:s, s:s, s:o}", "name", "preflight", "path", self, "sha256", run_id_sha256(self));
	json_array_append_new(a, b);
	if (!(slash = strrchr(self, '/')))
		return a;
	*slash = '\0';
	for (i = 0; i < PF_ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", self, names[i]);
		if (access(path, X_OK))
			continue;
		b = json_pack("{s:s, s:s, s:o}", "name", names[i], "path", path, "sha256", run_id_sha256(path));
		json_array_append_new(a, b);
	}
	return a;
}

/* run_id_tree - the build tree by its commit's suffix: "clean", "uncommitted changes", or "unknown" outside git */
static const char *run_id_tree(const char *commit)
{
	size_t n = strlen(commit);

	if (!strcmp(commit, "unknown"))
		return "unknown (not built in a git checkout)";
	return n > 6 && !strcmp(commit + n - 6, "-dirty") ? "uncommitted changes (git diff HEAD not empty)" : "clean";
}

json_t *run_identity(const char *dir)
{
	json_t *o = json_object();

	json_object_set_new(o, "version", json_string(PF_VERSION));
	json_object_set_new(o, "commit", json_string(PF_GIT_COMMIT));
	json_object_set_new(o, "build_tree", json_string(run_id_tree(PF_GIT_COMMIT)));
	json_object_set_new(o, "binaries", run_id_binaries());
	json_object_set_new(o, "compiler", json_string(RUN_COMPILER));
	json_object_set_new(o, "libraries", run_id_libs());
	json_object_set_new(o, "tools", run_id_tools());
	json_object_set_new(o, "kernel_config", run_id_kernel_config(dir));
	return o;
}
