/*
 * histdb.c - SQLite and PostgreSQL behind one interface (histdb.h).
 *
 * Migrations are numbered SQL scripts (one, the renaming of the metrics, in
 * C) applied in order from the stored
 * version to CI_DB_VERSION, each in one transaction with its version bump:
 * SQLite keeps the version in PRAGMA user_version, PostgreSQL in the one-row
 * table preflight_schema, and takes an advisory lock first so two runners
 * opening a fresh database at once migrate it once. Writers never conflict
 * otherwise: rows are keyed by the run's UUID and inserted with
 * ON CONFLICT DO NOTHING (both engines), so adding a run twice is a no-op.
 *
 * libpq is loaded (dlopen) when a PostgreSQL history is opened, not linked:
 * what it brings (Kerberos, LDAP, GnuTLS, p11-kit) cost every command of
 * preflight 2.3 ms of start-up in their constructors, a sixth of a short
 * 'analyze'.
 */
#define _GNU_SOURCE
#include "ci/histdb.h"
#include "common.h"
#include "results_keys.h"

#include <dlfcn.h>
#include <errno.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the libpq calls used here, from libpq.so.5 (ci_pq_load) */
static struct {
	PGconn *(*connectdb)(const char *conninfo);
	ConnStatusType (*status)(const PGconn *conn);
	char *(*error_message)(const PGconn *conn);
	void (*finish)(PGconn *conn);
	PGresult *(*exec)(PGconn *conn, const char *query);
	PGresult *(*exec_params)(PGconn *conn, const char *command, int n, const Oid *types,
				 const char *const *values, const int *lengths, const int *formats, int result_format);
	ExecStatusType (*result_status)(const PGresult *res);
	char *(*result_error_message)(const PGresult *res);
	char *(*result_error_field)(const PGresult *res, int field);
	void (*clear)(PGresult *res);
	int (*ntuples)(const PGresult *res);
	int (*nfields)(const PGresult *res);
	int (*getisnull)(const PGresult *res, int row, int col);
	char *(*getvalue)(const PGresult *res, int row, int col);
} ci_pq;

/* ci_pq_load - libpq's calls into ci_pq, once; 0, or -1 with why filled in */
static int ci_pq_load(char *why, size_t size)
{
#define CI_PQ(f, name) { name, offsetof(__typeof__(ci_pq), f) }
	static const struct { const char *name; size_t at; } fns[] = {
		CI_PQ(connectdb, "PQconnectdb"), CI_PQ(status, "PQstatus"),
		CI_PQ(error_message, "PQerrorMessage"), CI_PQ(finish, "PQfinish"), CI_PQ(exec, "PQexec"),
		CI_PQ(exec_params, "PQexecParams"), CI_PQ(result_status, "PQresultStatus"),
		CI_PQ(result_error_message, "PQresultErrorMessage"),
		CI_PQ(result_error_field, "PQresultErrorField"), CI_PQ(clear, "PQclear"),
		CI_PQ(ntuples, "PQntuples"), CI_PQ(nfields, "PQnfields"), CI_PQ(getisnull, "PQgetisnull"),
		CI_PQ(getvalue, "PQgetvalue"),
	};
#undef CI_PQ
	void *lib, *f;
	size_t i;

	if (ci_pq.connectdb)
		return 0;
	lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, size, "libpq cannot be loaded (%s; Debian: apt install libpq5)", dlerror());
		return -1;
	}
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		f = dlsym(lib, fns[i].name);
		if (!f) {
			snprintf(why, size, "libpq.so.5 has no %s", fns[i].name);
			memset(&ci_pq, 0, sizeof(ci_pq));
			return -1;
		}
		memcpy((char *)&ci_pq + fns[i].at, &f, sizeof(f));
	}
	return 0;
}

/* ci_pg_line - the server's message on one line ("ERROR:  … No space left on device; HINT:  Check …") */
static const char *ci_pg_line(const char *msg, char *buf, size_t size)
{
	size_t n = 0;

	for (; msg && *msg && n + 3 < size; msg++)
		if (*msg != '\n')
			buf[n++] = *msg;
		else if (msg[1]) {
			buf[n++] = ';';
			buf[n++] = ' ';
		}
	buf[n] = '\0';
	return buf;
}

struct ci_db {
	sqlite3 *lite;		/* one of the two */
	PGconn  *pg;
	bool     env_failed;	/* a statement failed for the machine's sake (disk full, I/O), not the input's */
	char    *made;		/* the SQLite file ci_db_open created (ci_db_discard removes it), or NULL */
};

/* the migrations: ci_migrations[v] takes a database from version v to v + 1 */
static const char *const ci_migrations[CI_DB_VERSION] = {
	/* 0 -> 1: runs and their run-level metrics */
	"CREATE TABLE runs (uuid TEXT PRIMARY KEY, path TEXT, started_utc TEXT, board TEXT,"
	" kernel_release TEXT, config_hash TEXT, isolation TEXT, scenario TEXT, scenario_hash TEXT,"
	" preflight_version TEXT, exit_code INTEGER, added_utc TEXT);"
	"CREATE TABLE metrics (uuid TEXT NOT NULL REFERENCES runs(uuid), key TEXT NOT NULL,"
	" subject TEXT, metric TEXT, stat TEXT, kind TEXT, unit TEXT, value DOUBLE PRECISION,"
	" samples BIGINT, PRIMARY KEY (uuid, key));",
	/* 1 -> 2: the verdicts of 'preflight check' (SQUAD's tests) and a look-up by metric */
	"CREATE TABLE verdicts (uuid TEXT NOT NULL REFERENCES runs(uuid), name TEXT NOT NULL,"
	" result TEXT NOT NULL, PRIMARY KEY (uuid, name));"
	"CREATE INDEX metrics_by_key ON metrics (key);",
	/* 2 -> 3: every metric named by its results.json path (ci_rename_keys) */
	NULL,
	/* 3 -> 4: each verdict's value, unit and bound, as verdicts.json has them (the report's history figure) */
	"ALTER TABLE verdicts ADD COLUMN value DOUBLE PRECISION;"
	"ALTER TABLE verdicts ADD COLUMN unit TEXT;"
	"ALTER TABLE verdicts ADD COLUMN bound DOUBLE PRECISION;",
};

/* ci_key_collect - row callback: each key appended to a JSON array */
static int ci_key_collect(void *ctx, int ncols, const char *const *cols)
{
	if (ncols > 0 && cols[0])
		json_array_append_new(ctx, json_string(cols[0]));
	return 0;
}

/*
 * ci_rename_keys - the metrics stored by an earlier version under
 * subject.metric.stat renamed to their results.json path, the one name
 * (lib/results_keys.h); 0 or -1 after an error line
 */
static int ci_rename_keys(struct ci_db *db)
{
	json_t *keys = json_array(), *k;
	char path[160];
	size_t i;
	int ret = -1;

	if (!keys) {
		pf_err("out of memory");
		return -1;
	}
	if (ci_db_exec(db, "SELECT DISTINCT key FROM metrics", 0, NULL, ci_key_collect, keys))
		goto out;
	json_array_foreach(keys, i, k) {
		const char *p[] = { path, json_string_value(k) };

		if (p[1] && pf_metric_path(p[1], path, sizeof(path)) &&
		    ci_db_exec(db, "UPDATE metrics SET key = ? WHERE key = ?", 2, p, NULL, NULL))
			goto out;
	}
	ret = 0;
out:
	json_decref(keys);
	return ret;
}

/* ci_is_pg - the URL names a PostgreSQL server */
static int ci_is_pg(const char *url)
{
	return !strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11);
}

/* ci_pg_sql - '?' placeholders as $1, $2, ... (outside quotes); malloc'd or NULL */
static char *ci_pg_sql(const char *sql)
{
	char *out = malloc(strlen(sql) * 4 + 1), *o = out;
	int n = 0, quoted = 0;

	if (!out)
		return NULL;
	for (const char *s = sql; *s; s++) {
		if (*s == '\'')
			quoted = !quoted;
		if (*s == '?' && !quoted)
			o += sprintf(o, "$%d", ++n);
		else
			*o++ = *s;
	}
	*o = '\0';
	return out;
}

/*
 * ci_real_text - a double as the shortest text that reads back as itself, as
 * PostgreSQL gives a DOUBLE PRECISION (SQLite's own text has 15 digits: 0.1 +
 * 0.2 came back as 0.3, and 'history verdicts' differed between the two)
 */
static const char *ci_real_text(double v, char *buf, size_t size)
{
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, size, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

int ci_db_exec(struct ci_db *db, const char *sql, int n, const char *const *params, ci_db_row fn, void *ctx)
{
	if (db->pg) {
		char *q = ci_pg_sql(sql), line[512];
		PGresult *res;
		int ret = 0;

		if (!q)
			return -1;
		/* a script of several statements (a migration) has no parameters: PQexec runs it whole */
		res = n ? ci_pq.exec_params(db->pg, q, n, NULL, params, NULL, NULL, 0) : ci_pq.exec(db->pg, q);
		free(q);
		if (ci_pq.result_status(res) != PGRES_COMMAND_OK && ci_pq.result_status(res) != PGRES_TUPLES_OK) {
			const char *state = ci_pq.result_error_field(res, PG_DIAG_SQLSTATE);

			/*
			 * the machine's sake, as SQLite's FULL / IOERR: class 53 (insufficient
			 * resources: 53100 disk full, 53200 out of memory), 58 (system error:
			 * 58030 I/O), 08 (the connection), or no result at all
			 */
			db->env_failed |= !state || !strncmp(state, "53", 2) || !strncmp(state, "58", 2) ||
					  !strncmp(state, "08", 2);
			pf_err("postgresql: %s", ci_pg_line(ci_pq.result_error_message(res), line, sizeof(line)));
			ci_pq.clear(res);
			return -1;
		}
		for (int r = 0; fn && r < ci_pq.ntuples(res) && !ret; r++) {
			const char *cols[32];
			int nc = ci_pq.nfields(res) < 32 ? ci_pq.nfields(res) : 32;

			for (int c = 0; c < nc; c++)
				cols[c] = ci_pq.getisnull(res, r, c) ? NULL : ci_pq.getvalue(res, r, c);
			ret = fn(ctx, nc, cols);
		}
		ci_pq.clear(res);
		return 0;
	}
	{
		sqlite3_stmt *st;
		const char *tail = sql;
		int rc = SQLITE_OK;

		/* several statements (a migration) run one after the other; parameters bind to the first */
		while (tail && *tail) {
			rc = sqlite3_prepare_v2(db->lite, tail, -1, &st, &tail);
			if (rc != SQLITE_OK)
				break;
			if (!st)
				continue;
			for (int i = 0; i < n && i < sqlite3_bind_parameter_count(st); i++)
				sqlite3_bind_text(st, i + 1, params[i], -1, SQLITE_TRANSIENT);
			while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				const char *cols[32];
				char num[32][32];
				int nc = sqlite3_column_count(st) < 32 ? sqlite3_column_count(st) : 32;

				for (int c = 0; c < nc; c++)
					cols[c] = sqlite3_column_type(st, c) == SQLITE_FLOAT ?
						  ci_real_text(sqlite3_column_double(st, c), num[c], sizeof(num[c])) :
						  (const char *)sqlite3_column_text(st, c);
				if (fn && fn(ctx, nc, cols))
					break;
			}
			sqlite3_finalize(st);
			if (rc != SQLITE_DONE && rc != SQLITE_ROW)
				break;
			rc = SQLITE_OK;
		}
		if (rc != SQLITE_OK) {
			int ec = sqlite3_errcode(db->lite) & 0xff;

			db->env_failed |= ec == SQLITE_FULL || ec == SQLITE_IOERR || ec == SQLITE_CANTOPEN ||
					  ec == SQLITE_READONLY || ec == SQLITE_PERM || ec == SQLITE_NOMEM;
			pf_err("sqlite: %s", sqlite3_errmsg(db->lite));
			return -1;
		}
		return 0;
	}
}

/* ci_first_int - row callback: the first column as an int into *ctx */
static int ci_first_int(void *ctx, int ncols, const char *const *cols)
{
	*(int *)ctx = ncols > 0 && cols[0] ? atoi(cols[0]) : 0;
	return 1;
}

/* ci_migrate - bring the schema to CI_DB_VERSION; 0 or -1 after an error line */
static int ci_migrate(struct ci_db *db)
{
	char bump[64];
	int v = 0;

	if (db->pg) {
		if (ci_db_exec(db, "BEGIN", 0, NULL, NULL, NULL) ||
		    ci_db_exec(db, "SELECT pg_advisory_xact_lock(7305011)", 0, NULL, NULL, NULL) ||
		    ci_db_exec(db, "CREATE TABLE IF NOT EXISTS preflight_schema (version INTEGER NOT NULL)",
			       0, NULL, NULL, NULL) ||
		    ci_db_exec(db, "SELECT version FROM preflight_schema", 0, NULL, ci_first_int, &v))
			goto fail;
	} else {
		if (ci_db_exec(db, "BEGIN IMMEDIATE", 0, NULL, NULL, NULL) ||
		    ci_db_exec(db, "PRAGMA user_version", 0, NULL, ci_first_int, &v))
			goto fail;
	}
	if (v > CI_DB_VERSION) {
		pf_err("history database schema version %d is newer than this preflight's (%d)", v, CI_DB_VERSION);
		goto fail;
	}
	for (; v < CI_DB_VERSION; v++) {
		if (ci_migrations[v] ? ci_db_exec(db, ci_migrations[v], 0, NULL, NULL, NULL) : ci_rename_keys(db))
			goto fail;
		if (db->pg)
			snprintf(bump, sizeof(bump), v ? "UPDATE preflight_schema SET version = %d" :
				 "INSERT INTO preflight_schema VALUES (%d)", v + 1);
		else
			snprintf(bump, sizeof(bump), "PRAGMA user_version = %d", v + 1);
		if (ci_db_exec(db, bump, 0, NULL, NULL, NULL))
			goto fail;
	}
	return ci_db_exec(db, "COMMIT", 0, NULL, NULL, NULL);
fail:
	ci_db_rollback(db);
	return -1;
}

int ci_db_open(const char *url, int create, struct ci_db **out)
{
	struct ci_db *db = calloc(1, sizeof(*db));
	bool made = create && !ci_is_pg(url) && access(url, F_OK);
	int code;

	if (!db)
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	if (ci_is_pg(url)) {
		char why[512];

		if (ci_pq_load(why, sizeof(why))) {
			ci_db_close(db);
			return pf_fail(PF_EXIT_ENV, "%s: cannot connect: %s", url, why);
		}
		db->pg = ci_pq.connectdb(url);
		if (ci_pq.status(db->pg) != CONNECTION_OK) {
			snprintf(why, sizeof(why), "%s", ci_pq.error_message(db->pg));
			why[strcspn(why, "\n")] = '\0';
			ci_db_close(db);
			return pf_fail(PF_EXIT_ENV, "%s: cannot connect: %s", url, why);
		}
		/* notices (CREATE TABLE IF NOT EXISTS ... skipping) are not for the user */
		ci_db_exec(db, "SET client_min_messages = warning", 0, NULL, NULL, NULL);
	} else if (!create && access(url, F_OK)) {
		ci_db_close(db);
		return pf_fail(PF_EXIT_USAGE, "%s: no such history database (history add creates one): %s", url,
			       strerror(errno));
	} else if (sqlite3_open_v2(url, &db->lite, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0),
				   NULL) != SQLITE_OK) {
		pf_err("%s: %s", url, db->lite ? sqlite3_errmsg(db->lite) : "cannot open");
		ci_db_close(db);
		return PF_EXIT_USAGE;
	} else {
		/* concurrent writers on one file wait for each other rather than fail */
		sqlite3_busy_timeout(db->lite, 30000);
		ci_db_exec(db, "PRAGMA foreign_keys = ON", 0, NULL, NULL, NULL);
	}
	if (made && !(db->made = strdup(url))) {
		ci_db_discard(db);
		return pf_fail(PF_EXIT_INTERNAL, "out of memory");
	}
	if (ci_migrate(db)) {
		code = ci_db_failed(db);
		ci_db_discard(db);
		return code;
	}
	*out = db;
	return 0;
}

int ci_db_failed(const struct ci_db *db)
{
	return db->env_failed ? PF_EXIT_ENV : PF_EXIT_USAGE;
}

void ci_db_rollback(struct ci_db *db)
{
	if (db->lite && sqlite3_get_autocommit(db->lite))
		return;	/* SQLite rolled back already (a full disk does): nothing to undo, nothing to say */
	ci_db_exec(db, "ROLLBACK", 0, NULL, NULL, NULL);
}

void ci_db_close(struct ci_db *db)
{
	if (!db)
		return;
	if (db->lite)
		sqlite3_close(db->lite);
	if (db->pg)
		ci_pq.finish(db->pg);
	free(db->made);
	free(db);
}

/* ci_db_runs - how many runs the SQLite database holds (0 without a runs table), quietly */
static int ci_db_runs(struct ci_db *db)
{
	sqlite3_stmt *st;
	int n = 0;

	if (sqlite3_prepare_v2(db->lite, "SELECT count(*) FROM runs", -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

void ci_db_discard(struct ci_db *db)
{
	/* only while it holds no run: a second add may have stored its runs there since */
	char *made = db && db->made && db->lite && !ci_db_runs(db) ? strdup(db->made) : NULL;

	ci_db_close(db);
	if (made)
		unlink(made);
	free(made);
}

int ci_db_begin(struct ci_db *db)
{
	return ci_db_exec(db, db->pg ? "BEGIN" : "BEGIN IMMEDIATE", 0, NULL, NULL, NULL);
}
