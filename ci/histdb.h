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

#define CI_DB_VERSION 2		/* the schema version this preflight writes */

/* ci_db_row - called per result row with its text columns (NULL for SQL NULL); non-zero stops */
typedef int (*ci_db_row)(void *ctx, int ncols, const char *const *cols);

/*
 * ci_db_open - open (creating when needed) and migrate the database 'url':
 * postgresql://... or postgres://... for a server, else a SQLite file path.
 * 0 and *db, or an exit code after one error line.
 */
int ci_db_open(const char *url, struct ci_db **db);

/* ci_db_close - close it */
void ci_db_close(struct ci_db *db);

/* ci_db_exec - run one statement with n text parameters; rows to fn (may be NULL); 0 or -1 after an error line */
int ci_db_exec(struct ci_db *db, const char *sql, int n, const char *const *params, ci_db_row fn, void *ctx);


#endif
