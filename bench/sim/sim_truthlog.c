/*
 * sim_truthlog.c - the truth log CSV of sensorsim (see sim_truthlog.h),
 * written through libcsv so any field that would need quoting gets it.
 */
#include "sim_truthlog.h"

#include <csv.h>
#include <errno.h>
#include <string.h>

#define SIM_TRUTHLOG_STALE_S 1.0	/* an estimate older than this is not logged */

static const char *const sim_truth_cols[] = {
	"t_s", "north_m", "east_m", "alt_m", "vn_mps", "ve_mps", "vd_mps", "roll_deg", "pitch_deg", "yaw_deg",
	"p_radps", "q_radps", "r_radps", "airspeed_mps", "alpha_deg", "beta_deg", "wind_n_mps", "wind_e_mps",
	"aileron_rad", "elevator_rad", "rudder_rad", "throttle", "app_mode",
	"est_north_m", "est_east_m", "est_alt_m", "pos_err_m", "track_err_m", "alt_err_m",
};

/* put_field - one CSV field (comma before all but the first); libcsv quotes it when it must be */
static void put_field(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (strpbrk(s, ",\"\r\n"))
		csv_fwrite(f, s, strlen(s));
	else
		fputs(s, f);
}

int sim_truthlog_open(struct sim_truthlog *l, const char *path, uint64_t seed, const fsw_vec3 *wp, int n_wp)
{
	size_t i;
	int k;

	memset(l, 0, sizeof(*l));
	l->f = fopen(path, "w");
	if (!l->f)
		return -errno;
	fprintf(l->f, "# preflight-truthlog/1\n# model=aerosonde (Beard & McLain 2012) seed=%llu circuit_m=",
		(unsigned long long)seed);
	for (k = 0; k < n_wp; k++)	/* north:east:altitude of each waypoint */
		fprintf(l->f, "%s%.6g:%.6g:%.6g", k ? "," : "", wp[k].x, wp[k].y, -wp[k].z);
	fputc('\n', l->f);
	for (i = 0; i < sizeof(sim_truth_cols) / sizeof(sim_truth_cols[0]); i++)
		put_field(l->f, sim_truth_cols[i], i == 0);
	fputc('\n', l->f);
	return 0;
}

void sim_truthlog_row(struct sim_truthlog *l, const struct sim_daq *d, double track_err_m, double alt_err_m)
{
	const struct sim_state *s = &d->model.st;
	const struct sim_controls *c = &d->model.ctl;
	double r, p, y, k = 180 / FSW_PI;
	double v[] = {
		s->t_s, s->pos_m.x, s->pos_m.y, -s->pos_m.z, s->vel_mps.x, s->vel_mps.y, s->vel_mps.z, 0, 0, 0,
		s->omega_radps.x, s->omega_radps.y, s->omega_radps.z, s->airspeed_mps, s->alpha_rad * k,
		s->beta_rad * k, s->wind_mps.x, s->wind_mps.y, c->aileron_rad, c->elevator_rad, c->rudder_rad,
		c->throttle, d->app_mode, d->nav_pos_m.x, d->nav_pos_m.y, -d->nav_pos_m.z, d->nav_err_m,
		track_err_m, alt_err_m,
	};
	char buf[32];
	size_t i;

	if (!l->f)
		return;
	fsw_q_to_euler(s->q, &r, &p, &y);
	v[7] = r * k;
	v[8] = p * k;
	v[9] = y * k;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (i >= 23 && i <= 26 && (!d->nav_n || s->t_s - d->nav_rx_t_s > SIM_TRUTHLOG_STALE_S))
			buf[0] = '\0';	/* no estimate yet, or none for a second (the app silent): empty */
		else
			snprintf(buf, sizeof(buf), "%.6g", v[i]);
		put_field(l->f, buf, i == 0);
	}
	fputc('\n', l->f);
	l->rows++;
}

int sim_truthlog_close(struct sim_truthlog *l)
{
	int rc = 0;

	if (!l->f)
		return 0;
	if (ferror(l->f))
		rc = -EIO;
	if (fclose(l->f))
		rc = -errno;
	l->f = NULL;
	return rc;
}
