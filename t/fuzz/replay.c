/*
 * replay.c - the main() of a harness built without libFuzzer: runs
 * LLVMFuzzerTestOneInput once over each file named, or each file of each
 * directory named (the committed corpus and crash inputs, t/fuzz/<name>/),
 * and prints one TAP line per directory or file. A crash is a crash of the
 * replay; what the parser prints is discarded (it refuses bad input loudly).
 *
 * usage: replay [-v] PATH...
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_verbose;

/* replay_one - run the harness on one file; 0, or -1 when the file cannot be read */
static int replay_one(const char *path)
{
	int fd, out = -1, err = -1, null;
	uint8_t *buf = NULL;
	struct stat st;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !(buf = malloc(st.st_size + 1)))
		goto fail;
	n = st.st_size ? read(fd, buf, st.st_size) : 0;
	if (n != st.st_size)
		goto fail;
	close(fd);
	fflush(NULL);
	if (!replay_verbose && (null = open("/dev/null", O_WRONLY | O_CLOEXEC)) >= 0) {
		out = dup(1);
		err = dup(2);
		dup2(null, 1);
		dup2(null, 2);
		close(null);
	}
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	fflush(NULL);
	if (out >= 0) {
		dup2(out, 1);
		close(out);
	}
	if (err >= 0) {
		dup2(err, 2);
		close(err);
	}
	free(buf);
	return 0;
fail:
	fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(buf);
	return -1;
}

/* replay_cmp - directory entries in name order, so a run is repeatable */
static int replay_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* replay_dir - every regular file of a directory; the count, or -1 */
static int replay_dir(const char *dir)
{
	char path[4096], **names = NULL;
	struct dirent *e;
	size_t n = 0, i;
	int count = 0;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || !(names[n] = strdup(e->d_name)))
			abort();
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), replay_cmp);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!stat(path, &st) && S_ISREG(st.st_mode)) {
			if (replay_one(path) < 0)
				count = -1;
			else if (count >= 0)
				count++;
		}
		free(names[i]);
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	struct stat st;
	int i, n, failed = 0, first = 1;

	if (argc > 1 && !strcmp(argv[1], "-v")) {
		replay_verbose = 1;
		first = 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	printf("1..%d\n", argc - first);
	for (i = first; i < argc; i++) {
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
			n = replay_dir(argv[i]);
		else
			n = replay_one(argv[i]) ? -1 : 1;
		printf("%s %d - %s: %d input(s) replayed\n", n > 0 ? "ok" : "not ok", i - first + 1, argv[i], n);
		failed |= n <= 0;
	}
	return failed;
}
