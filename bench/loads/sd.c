/*
 * sd.c - the SD-card load: a bulk writer (fio, sequential writes with an
 * fsync every few blocks, rate-limited like a logger) on a directory, which
 * may be a loop-device filesystem image (ext4 or vfat) standing for the SD
 * card: created, formatted, attached and mounted at start, unmounted,
 * detached and deleted on every exit path. Reports the achieved MB/s and the
 * fsync latency (p99, max) from fio's JSON, and, given the flight app's
 * stats file, the SD logger's ring high-water mark and dropped records
 * (REQ-LOG-001).
 *
 * Names: image /var/tmp/pfsd<pid>.img, mount point /tmp/pfsd<pid>; a later
 * run removes those of a dead pid (sd_cleanup_stale).
 */
#include "load.h"
#include "common.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SD_PREFIX "pfsd"

struct sd_load {
	char dir[256];			/* where fio writes ("" = the load's work dir) */
	char image[8];			/* "none", "ext4", "vfat" */
	uint64_t image_bytes;
	uint64_t bs_bytes;		/* write size */
	uint64_t rate_bps;		/* bytes per second, 0 = unlimited */
	uint32_t fsync_every;		/* fsync after this many writes */
	uint64_t file_bytes;		/* file size written over and over */
	char app_stats[256];		/* the app's stats JSON, for the logger figures */
	/* state */
	char img_path[64], mnt_path[64], loopdev[64], fio_json[300], fio_err[300];
	bool img_created, loop_attached, mounted, mnt_created;
	struct pf_proc fio;
	json_t *fio_result;		/* jobs[0] of fio's JSON */
};

static void sd_defaults(struct load *l)
{
	struct sd_load *s = l->priv;

	strcpy(s->image, "none");
	s->image_bytes = 256ULL << 20;
	s->bs_bytes = 64 << 10;
	s->rate_bps = 4ULL << 20;
	s->fsync_every = 16;
	s->file_bytes = 64ULL << 20;
}

static int sd_set(struct load *l, const char *key, const char *value)
{
	struct sd_load *s = l->priv;

	if (!strcmp(key, "dir"))
		return load_parse_str(value, s->dir, sizeof(s->dir));
	if (!strcmp(key, "image")) {
		if (strcmp(value, "none") && strcmp(value, "ext4") && strcmp(value, "vfat"))
			return -EINVAL;
		return load_parse_str(value, s->image, sizeof(s->image));
	}
	if (!strcmp(key, "image_size"))
		return load_parse_bytes(value, &s->image_bytes) || s->image_bytes < (16 << 20) ? -EINVAL : 0;
	if (!strcmp(key, "bs"))
		return load_parse_bytes(value, &s->bs_bytes) || !s->bs_bytes ? -EINVAL : 0;
	if (!strcmp(key, "rate"))
		return load_parse_bytes(value, &s->rate_bps);
	if (!strcmp(key, "fsync"))
		return load_parse_u32(value, 0, 1000000, &s->fsync_every);
	if (!strcmp(key, "file_size"))
		return load_parse_bytes(value, &s->file_bytes) || !s->file_bytes ? -EINVAL : 0;
	if (!strcmp(key, "app_stats"))
		return load_parse_str(value, s->app_stats, sizeof(s->app_stats));
	return -ENOENT;
}

/* sd_losetup - attach the image to a free loop device, its name into s->loopdev */
static int sd_losetup(struct load *l)
{
	struct sd_load *s = l->priv;
	char out[300], *argv[] = { "losetup", "--find", "--show", s->img_path, NULL };
	struct pf_proc p;
	int ret;

	snprintf(out, sizeof(out), "%s/sd-losetup-%d.out", l->work_dir, getpid());
	ret = pf_proc_spawn(&p, argv, out, s->fio_err, 0);
	if (ret < 0)
		return load_why(l, ret, "losetup: %s", strerror(-ret));
	waitpid(p.pid, &p.status, 0);
	p.reaped = true;
	ret = pf_read_file(out, s->loopdev, sizeof(s->loopdev));
	unlink(out);
	if (pf_proc_exit_code(&p) != 0 || ret <= 0 || strncmp(s->loopdev, "/dev/loop", 9)) {
		char why[256] = "";

		if (pf_read_file(s->fio_err, why, sizeof(why)) < 0)
			why[0] = '\0';
		s->loopdev[0] = '\0';
		return load_why(l, ENODEV, "losetup %s: %s", s->img_path, why[0] ? why : "failed");
	}
	s->loop_attached = true;
	return 0;
}

/* sd_make_card - image file, filesystem, loop device, mount point, mount */
static int sd_make_card(struct load *l)
{
	struct sd_load *s = l->priv;
	const char *mkfs = !strcmp(s->image, "ext4") ? "mkfs.ext4" : "mkfs.vfat";
	char err[512];
	int fd, ret;

	snprintf(s->img_path, sizeof(s->img_path), "/var/tmp/" SD_PREFIX "%d.img", getpid());
	snprintf(s->mnt_path, sizeof(s->mnt_path), "/tmp/" SD_PREFIX "%d", getpid());
	fd = open(s->img_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return load_why(l, errno, "%s: %s", s->img_path, strerror(errno));
	s->img_created = true;
	ret = ftruncate(fd, (off_t)s->image_bytes) ? -errno : 0;
	close(fd);
	if (ret < 0)
		return load_why(l, ret, "%s: %s", s->img_path, strerror(-ret));
	ret = sd_losetup(l);
	if (ret < 0)
		return ret;
	ret = !strcmp(s->image, "ext4") ? pf_proc_runl(err, sizeof(err), mkfs, "-q", "-F", s->loopdev, NULL)
					: pf_proc_runl(err, sizeof(err), mkfs, s->loopdev, NULL);
	if (ret != 0)
		return load_why(l, EIO, "%s %s: %s", mkfs, s->loopdev, err);
	if (mkdir(s->mnt_path, 0700) < 0)
		return load_why(l, errno, "%s: %s", s->mnt_path, strerror(errno));
	s->mnt_created = true;
	if (mount(s->loopdev, s->mnt_path, s->image, 0, NULL) < 0)
		return load_why(l, errno, "mount %s on %s: %s%s%s%s", s->loopdev, s->mnt_path, strerror(errno),
				   errno == ENODEV ? " (this kernel has no " : "", errno == ENODEV ? s->image : "",
				   errno == ENODEV ? " filesystem)" : "");
	s->mounted = true;
	snprintf(s->dir, sizeof(s->dir), "%s", s->mnt_path);
	return 0;
}

static int sd_check(struct load *l)
{
	struct sd_load *s = l->priv;
	const char *mkfs = !strcmp(s->image, "ext4") ? "mkfs.ext4" : "mkfs.vfat";

	if (pf_proc_which("fio"))
		return load_why(l, ENOENT, "fio: not found in PATH (package fio)");
	if (!strcmp(s->image, "none"))
		return 0;
	if (geteuid() != 0)
		return load_why(l, EPERM, "image=%s needs root (loop device and mount)", s->image);
	if (pf_proc_which(mkfs) || pf_proc_which("losetup"))
		return load_why(l, ENOENT, "%s or losetup: not found in PATH (package %s, mount)", mkfs,
				   !strcmp(s->image, "ext4") ? "e2fsprogs" : "dosfstools");
	return 0;
}

static int sd_start(struct load *l)
{
	struct sd_load *s = l->priv;
	char a_dir[300], a_bs[48], a_size[48], a_fsync[48], a_rt[48], a_rate[48], a_out[320];
	char *argv[] = { "fio", "--name=sd", a_dir, "--rw=write", a_bs, a_size, a_fsync,
			 "--time_based", a_rt, "--ioengine=psync", "--unlink=1",
			 "--output-format=json", a_out, s->rate_bps ? a_rate : NULL, NULL };
	struct stat st;
	int ret;

	snprintf(s->fio_json, sizeof(s->fio_json), "%s/sd-fio-%d.json", l->work_dir, getpid());
	snprintf(s->fio_err, sizeof(s->fio_err), "%s/sd-fio-%d.err", l->work_dir, getpid());
	ret = sd_check(l);
	if (ret < 0)
		return ret;
	if (strcmp(s->image, "none")) {
		ret = sd_make_card(l);
		if (ret < 0)
			return ret;
	} else if (!s->dir[0]) {
		snprintf(s->dir, sizeof(s->dir), "%s", l->work_dir);
	}
	if (stat(s->dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return load_why(l, ENOTDIR, "dir '%s': not a directory", s->dir);
	snprintf(a_dir, sizeof(a_dir), "--directory=%s", s->dir);
	snprintf(a_bs, sizeof(a_bs), "--bs=%llu", (unsigned long long)s->bs_bytes);
	snprintf(a_size, sizeof(a_size), "--size=%llu", (unsigned long long)s->file_bytes);
	snprintf(a_fsync, sizeof(a_fsync), "--fsync=%u", s->fsync_every);
	snprintf(a_rt, sizeof(a_rt), "--runtime=%lld",
		 l->duration_ns ? (long long)(l->duration_ns / PF_NS_PER_SEC + 30) : 864000LL);
	snprintf(a_rate, sizeof(a_rate), "--rate=%llu", (unsigned long long)s->rate_bps);
	snprintf(a_out, sizeof(a_out), "--output=%s", s->fio_json);
	ret = pf_proc_spawn(&s->fio, argv, "/dev/null", s->fio_err, 0);
	if (ret < 0)
		return load_why(l, ret, "fio: %s", strerror(-ret));
	return 0;
}

static int sd_poll(struct load *l)
{
	struct sd_load *s = l->priv;

	if (pf_proc_alive(&s->fio))
		return 0;
	return load_tool_failed(l, "fio", &s->fio, s->fio_err);
}

static void sd_stop(struct load *l)
{
	struct sd_load *s = l->priv;
	json_t *root;

	pf_proc_stop(&s->fio, SIGINT, 10 * PF_NS_PER_SEC, false);
	root = pf_json_load_at_brace(s->fio_json);
	if (root && json_is_array(json_object_get(root, "jobs")))
		s->fio_result = json_incref(json_array_get(json_object_get(root, "jobs"), 0));
	json_decref(root);
}

/*
 * sd_logger - the SD logger's figures from the app's stats file (schema
 * preflight-flightapp-stats/1): records dropped to full rings, summed over
 * the tasks, the job-log rows written, and the rings' high-water mark when
 * the app reports one; or why they are unavailable; NULL when no app runs
 * beside the load (app_stats= not given)
 */
static json_t *sd_logger(struct sd_load *s)
{
	json_t *root, *t, *o, *hwm = NULL;
	json_int_t dropped = 0;
	size_t i;

	if (!s->app_stats[0])
		return NULL;	/* no app beside this load: nothing to say about its logger */
	root = json_load_file(s->app_stats, 0, NULL);
	if (!json_is_array(json_object_get(root, "tasks"))) {
		json_decref(root);
		return json_pack("{s:s, s:s}", "unavailable", "the app stats file is missing or has no tasks",
				 "file", s->app_stats);
	}
	json_array_foreach(json_object_get(root, "tasks"), i, t) {
		json_t *h = json_object_get(t, "ring_high_water");

		dropped += json_integer_value(json_object_get(t, "dropped"));
		if (json_is_integer(h) && (!hwm || json_integer_value(h) > json_integer_value(hwm)))
			hwm = h;
	}
	o = json_pack("{s:s, s:I, s:O, s:O}", "file", s->app_stats, "dropped", dropped,
		      "joblog_rows", json_object_get(root, "joblog_rows") ?: json_null(),
		      "ring_high_water", hwm ?: json_null());
	if (!hwm)
		json_object_set_new(o, "ring_high_water_unavailable",
				    json_string("the app's stats carry no ring high-water mark"));
	json_decref(root);
	return o;
}

/* sd_num - a number at a path of fio's job object ("sync.lat_ns.max"), or 0 */
static double sd_num(json_t *o, const char *a, const char *b, const char *c)
{
	json_t *v = json_object_get(json_object_get(o, a), b);

	if (c)
		v = json_object_get(v, c);
	return json_number_value(v);
}

/*
 * sd_pct - one of fio's percentiles: fio reports the upper edge of its own
 * log-scale bin, which may exceed the exact max; never report more than the max
 */
static json_t *sd_pct(json_t *pct, double max_ns)
{
	if (!json_is_number(pct))
		return json_null();
	return json_integer((json_int_t)(json_number_value(pct) < max_ns ? json_number_value(pct) : max_ns));
}

static json_t *sd_report(struct load *l)
{
	struct sd_load *s = l->priv;
	json_t *j = s->fio_result, *pct = json_object_get(json_object_get(json_object_get(j, "sync"),
							 "lat_ns"), "percentile");
	double elapsed_s = sd_num(j, "write", "runtime", NULL) / 1000.0;
	double max_ns = sd_num(j, "sync", "lat_ns", "max");
	json_t *p99 = json_object_get(pct, "99.000000"), *p999 = json_object_get(pct, "99.900000");

	return json_pack("{s:s, s:s, s:I, s:I, s:i, s:b, s:f, s:I, s:f, s:I, s:o, s:o, s:I, s:o*}",
			 "dir", s->dir, "image", s->image,
			 "bs_bytes", (json_int_t)s->bs_bytes, "rate_limit_bytes_per_s", (json_int_t)s->rate_bps,
			 "fsync_every", (int)s->fsync_every, "fio_result", j != NULL,
			 "write_mb_per_s", sd_num(j, "write", "bw_bytes", NULL) / 1e6,
			 "written_bytes", (json_int_t)sd_num(j, "write", "io_bytes", NULL),
			 "elapsed_s", elapsed_s,
			 "fsyncs", (json_int_t)sd_num(j, "sync", "total_ios", NULL),
			 "fsync_latency_p99_ns", sd_pct(p99, max_ns),
			 "fsync_latency_p99.9_ns", sd_pct(p999, max_ns),
			 "fsync_latency_max_ns", (json_int_t)max_ns,
			 "logger", sd_logger(s));
}

/* sd_umount - unmount, lazily if busy */
static void sd_umount(const char *path)
{
	if (umount2(path, 0) < 0 && errno == EBUSY)
		umount2(path, MNT_DETACH);
}

static void sd_cleanup(struct load *l)
{
	struct sd_load *s = l->priv;
	char err[256], fio_file[320];

	pf_proc_stop(&s->fio, SIGKILL, PF_NS_PER_SEC, false);
	if (s->dir[0]) {	/* fio's file, when fio was killed before --unlink */
		snprintf(fio_file, sizeof(fio_file), "%s/sd.0.0", s->dir);
		unlink(fio_file);
	}
	if (s->mounted)
		sd_umount(s->mnt_path);
	s->mounted = false;
	if (s->mnt_created)
		rmdir(s->mnt_path);
	s->mnt_created = false;
	if (s->loop_attached && pf_proc_runl(err, sizeof(err), "losetup", "-d", s->loopdev, NULL))
		pf_err("sd: losetup -d %s: %s", s->loopdev, err);
	s->loop_attached = false;
	if (s->img_created)
		unlink(s->img_path);
	s->img_created = false;
	if (s->fio_json[0]) {
		unlink(s->fio_json);
		unlink(s->fio_err);
	}
}

static void sd_cleanup_stale(void)
{
	char path[512], backing[512], err[256];
	struct dirent *de;
	const char *base;
	DIR *d;

	d = opendir("/sys/block");
	while (d && (de = readdir(d))) {
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", de->d_name);
		if (pf_read_file(path, backing, sizeof(backing)) <= 0 ||
		    strncmp(backing, "/var/tmp/", 9))
			continue;
		base = backing + 9;
		if (load_dead_owner(base, SD_PREFIX)) {
			snprintf(path, sizeof(path), "/tmp/%.*s", (int)strcspn(base, "."), base);
			sd_umount(path);
			rmdir(path);
			snprintf(path, sizeof(path), "/dev/%s", de->d_name);
			if (pf_proc_runl(err, sizeof(err), "losetup", "-d", path, NULL) == 0)
				unlink(backing);
		}
	}
	if (d)
		closedir(d);
	d = opendir("/var/tmp");
	while (d && (de = readdir(d))) {
		if (load_dead_owner(de->d_name, SD_PREFIX) && strstr(de->d_name, ".img")) {
			snprintf(path, sizeof(path), "/var/tmp/%s", de->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
}

/* sd_sample - bytes fio has written (its processes' wchar) against rate (NAN when unlimited) */
static int sd_sample(struct load *l, double *count, double *target_per_s)
{
	struct sd_load *s = l->priv;
	double cpu_ns, wchar;

	if (!s->fio.pid || load_tree_usage(s->fio.pid, &cpu_ns, &wchar))
		return -ENODATA;
	*count = wchar;
	*target_per_s = s->rate_bps ? (double)s->rate_bps : NAN;
	return 0;
}

const struct load_ops load_sd = {
	.name = "sd",
	.summary = "fio bulk writer with periodic fsync, optionally on a loop-device SD image",
	.params_help =
	"  dir=PATH         directory fio writes in (the load's work dir)\n"
	"  image=FS         none | ext4 | vfat: write on a fresh loop-device image (none)\n"
	"  image_size=SIZE  size of that image (256M)\n"
	"  bs=SIZE          bytes per write (64k)\n"
	"  rate=SIZE        bytes per second, 0 = unlimited (4M)\n"
	"  fsync=N          fsync after every N writes, 0 = never (16)\n"
	"  file_size=SIZE   size of the file written over and over (64M)\n"
	"  app_stats=PATH   the flight app's stats JSON, for the logger figures (none)\n",
	.priv_size = sizeof(struct sd_load),
	.defaults = sd_defaults,
	.set = sd_set,
	.check = sd_check,
	.start = sd_start,
	.poll = sd_poll,
	.stop = sd_stop,
	.sample = sd_sample,
	.sample_unit = "B/s",
	.report = sd_report,
	.cleanup = sd_cleanup,
	.cleanup_stale = sd_cleanup_stale,
};
