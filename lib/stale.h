/*
 * stale.h - the machine state a killed preflight leaves behind, as every
 * command sees it at its start: the recorder's registry of tracefs
 * instances (REC_REGISTRY_DIR in traces/rec.h is PF_RECORD_REGISTRY).
 *
 * A recorder killed by SIGKILL cannot stop its instance, which then goes on
 * recording into its ring buffer. Any preflight command stops such an
 * instance at once (pf_stale_stop: tracing off, nothing removed, so the
 * events it holds can still be recovered by 'preflight record --recover' or
 * the next 'preflight run'). An instance whose owner lives is never touched.
 */
#ifndef PF_STALE_H
#define PF_STALE_H

#include <stdbool.h>

#define PF_STATE_DIR       "/run/preflight"
#define PF_RECORD_REGISTRY PF_STATE_DIR "/record"	/* <instance>: the recorder's pid */

/*
 * pf_stale_owner_alive - whether process 'pid' lives: exists and is no
 * zombie (a killed owner stays a zombie until it is reaped)
 */
bool pf_stale_owner_alive(long pid);

/*
 * pf_stale_stop - switch tracing off in every registered instance whose
 * recorder is dead; the number stopped (0 when not root or none)
 */
int pf_stale_stop(void);

#endif
