/*
 * histdb.h - the history database behind 'preflight history': one small
 * interface over SQLite (a file, the default) and PostgreSQL (a server many
 * runners write to, --db postgresql://...). SQL is written once with '?'
 * placeholders; parameters and results are text. The schema carries a
 * version and is migrated forward when opened (docs/ci.md).
 */
#ifndef CI_HISTDB_H
#define CI_HISTDB_H

#include <stddef.h>

struct ci_db;

#define CI_DB_VERSION 4		/* the schema version this preflight writes */

/* ci_db_row - called per result row with its text columns (NULL for SQL NULL); non-zero stops */
typedef int (*ci_db_row)(void *ctx, int ncols, const char *const *cols);

/*
 * ci_db_open - open and migrate the database 'url': postgresql://... or
 * postgres://... for a server, else a SQLite file path, created when missing
 * only if 'create' (a command that adds; one that reads never leaves a new
 * file behind). 0 and *db, or an exit code after one error line.
 */
int ci_db_open(const char *url, int create, struct ci_db **db);

/*
 * ci_db_failed - the exit code of a failed statement: PF_EXIT_ENV when SQLite
 * failed for the machine's sake (disk full, I/O, permission), else PF_EXIT_USAGE
 */
int ci_db_failed(const struct ci_db *db);

/* ci_db_rollback - undo the open transaction, if one is still open (quiet when there is none) */
void ci_db_rollback(struct ci_db *db);

/* ci_db_close - close it */
void ci_db_close(struct ci_db *db);

/*
 * ci_db_discard - close it, and remove the SQLite file if ci_db_open created
 * it and it holds no run (a command that failed leaves no database behind)
 */
void ci_db_discard(struct ci_db *db);

/* ci_db_exec - run one statement with n text parameters; rows to fn (may be NULL); 0 or -1 after an error line */
int ci_db_exec(struct ci_db *db, const char *sql, int n, const char *const *params, ci_db_row fn, void *ctx);

/*
 * ci_db_begin - start a write transaction, the write lock taken at once
 * (SQLite: BEGIN IMMEDIATE, so that two writers wait for each other instead
 * of one failing on a lock it cannot upgrade); 0 or -1 after an error line
 */
int ci_db_begin(struct ci_db *db);

#endif
