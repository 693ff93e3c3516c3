/*
 * fsw_stats_json.c - the flight software's statistics that flightapp's
 * stats_json (fsw_task.c) and 'preflight fly' (bench/sim/fly.c) write alike,
 * as JSON (docs/fsw.md). Outside the realtime path: called once at the end.
 */
#include "fsw.h"

#include <jansson.h>

/*
 * fsw_failsafe_json - the time ctl100's actuator frames said failsafe, by cause
 * (issue 32.15: "failsafe_events 0 but time in failsafe 0.301 s"): before
 * mission1's first decision (start-up), ctl100's own reflex on a stale IMU (a
 * stale event, not a failsafe event), and mission1's failsafe (its events);
 * each frame one slot. NULL when out of memory.
 */
json_t *fsw_failsafe_json(const struct fsw_stats *s)
{
	uint64_t n = s->fs_startup_frames + s->fs_imu_stale_frames + s->fs_mission_frames;

	return json_pack("{s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:f}",
			 "total_s", (double)n * s->slot_s,
			 "startup_s", (double)s->fs_startup_frames * s->slot_s,
			 "imu_stale_s", (double)s->fs_imu_stale_frames * s->slot_s,
			 "mission_s", (double)s->fs_mission_frames * s->slot_s,
			 "frames", (json_int_t)n, "startup_frames", (json_int_t)s->fs_startup_frames,
			 "imu_stale_frames", (json_int_t)s->fs_imu_stale_frames,
			 "mission_frames", (json_int_t)s->fs_mission_frames, "frame_s", s->slot_s);
}

/*
 * fsw_ekf_json - the ekf task's releases and what became of the GPS fixes
 * (issue 32.15: "ekf 32 jobs, ekf_updates 30" said nothing of the other
 * two): io releases ekf for a fix or, after ekf_wake_s without one, to
 * propagate the covariance; a release while ekf is still busy is refused.
 * A fix is used (an update), gated, not positive definite, outside the INS
 * history (no step at its epoch: older than the history or the alignment),
 * or came before the INS aligned; the rest (gps_fixes minus
 * those) were superseded by a newer fix before ekf ran, or still pending at
 * the end. NULL when out of memory.
 */
json_t *fsw_ekf_json(const struct fsw_stats *s)
{
	uint64_t seen = s->ekf_updates + s->ekf_gated + s->ekf_not_pd + s->ekf_fix_old + s->ekf_unaligned;

	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			 "released_for_fix", (json_int_t)s->ekf_fix_wakes,
			 "released_to_propagate", (json_int_t)s->ekf_prop_wakes,
			 "busy_refused", (json_int_t)s->ekf_refused,
			 "updates", (json_int_t)s->ekf_updates, "gated", (json_int_t)s->ekf_gated,
			 "not_positive_definite", (json_int_t)s->ekf_not_pd,
			 "outside_history", (json_int_t)s->ekf_fix_old,
			 "before_alignment", (json_int_t)s->ekf_unaligned,
			 "fixes_unused_other", (json_int_t)(s->gps_fixes > seen ? s->gps_fixes - seen : 0));
}
