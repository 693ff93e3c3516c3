/*
 * jpath_test.c - unit tests of lib/jpath.c: dotted paths through objects and
 * arrays, keys that hold dots ("p99.99") taken whole, and every way a path
 * can miss.
 */
#include "jpath.h"
#include "tap.h"

#include <jansson.h>

static const char doc[] =
	"{ \"tasks\": [ { \"name\": \"io\", \"lat_ns\": { \"max\": 7, \"p99\": 5, \"p99.99\": 6,"
	"                                                 \"p99.999\": 7 } },"
	"               { \"name\": \"ctl100\", \"lat_ns\": { \"max\": 9 } } ],"
	"  \"a.b\": { \"c\": 1 }, \"a\": { \"b\": { \"c\": 2 }, \"x\": 3 },"
	"  \"p99\": { \"99\": 4 }, \"p99.99\": 5, \"n\": null, \"\": 8 }";

/* jp_int - the integer at a path, -1 when the path misses or is no integer */
static long long jp_int(json_t *root, const char *path)
{
	json_t *v = pf_jpath_get(root, path);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* test_walk - jpath-1.x: objects, array indices, keys holding dots */
static void test_walk(json_t *root)
{
	size_t len = 0;

	check(pf_jpath_get(root, "") == root, "jpath-1.1 the empty path is the root");
	check_str(json_string_value(pf_jpath_get(root, "tasks.1.name")), "ctl100",
		  "jpath-1.2 array element by index, then a member");
	check_int(jp_int(root, "tasks.0.lat_ns.max"), ==, 7, "jpath-1.3 a nested number");
	check_int(jp_int(root, "tasks.0.lat_ns.p99.99"), ==, 6, "jpath-1.4 'p99.99' is one key");
	check_int(jp_int(root, "tasks.0.lat_ns.p99.999"), ==, 7, "jpath-1.5 'p99.999' is one key");
	check_int(jp_int(root, "tasks.0.lat_ns.p99"), ==, 5, "jpath-1.6 'p99' beside them");
	check_int(jp_int(root, "p99.99"), ==, 5, "jpath-1.7 the whole key before its pieces");
	check_int(jp_int(root, "a.b.c"), ==, 1, "jpath-1.8 the longest key first ('a.b', then 'c')");
	check_int(jp_int(root, "a.x"), ==, 3, "jpath-1.9 a shorter key when the longer is absent");
	check(json_is_null(pf_jpath_get(root, "n")), "jpath-1.10 a JSON null is found, not missing");
	check(pf_jpath_key(json_object_get(root, "tasks"), "0", &len) == NULL,
	      "jpath-1.11 pf_jpath_key steps into objects only");
	check(pf_jpath_key(root, "a.b.c", &len) == json_object_get(root, "a.b") && len == 3,
	      "jpath-1.12 pf_jpath_key takes 'a.b' (3 characters) of 'a.b.c'");
}

/* test_miss - jpath-2.x: every way a path can name nothing */
static void test_miss(json_t *root)
{
	check(pf_jpath_get(NULL, "a") == NULL, "jpath-2.1 no document");
	check(pf_jpath_get(root, "nope") == NULL, "jpath-2.2 a missing key");
	check(pf_jpath_get(root, "tasks.2.name") == NULL, "jpath-2.3 an index past the end");
	check(pf_jpath_get(root, "tasks.io.name") == json_object_get(json_array_get(json_object_get(root, "tasks"), 0), "name"),
	      "jpath-2.4 an element by its name: tasks.io is the task named io");
	check(pf_jpath_get(root, "tasks.nosuch.name") == NULL, "jpath-2.4a no element of that name");
	check(pf_jpath_get(root, "tasks.1x") == NULL, "jpath-2.5 an index with junk after it");
	check(pf_jpath_get(root, "tasks.-1") == NULL, "jpath-2.6 a negative index");
	check(pf_jpath_get(root, "tasks.99999999999999999999999") == NULL, "jpath-2.7 a huge index");
	check(pf_jpath_get(root, "a.x.y") == NULL, "jpath-2.8 no step into a number");
	check(pf_jpath_get(root, "n.x") == NULL, "jpath-2.9 no step into a null");
	check(pf_jpath_get(root, "a.") == NULL, "jpath-2.10 a trailing dot");
	check(pf_jpath_get(root, "a..x") == NULL, "jpath-2.11 an empty segment");
	check(pf_jpath_get(root, ".a") == NULL, "jpath-2.12 a leading dot (the empty key is not a step)");
}

int main(void)
{
	json_error_t err;
	json_t *root;

	tap_plan(25);
	root = json_loads(doc, 0, &err);
	if (!root) {
		tap_diag("test document: line %d: %s", err.line, err.text);
		return 1;
	}
	test_walk(root);
	test_miss(root);
	json_decref(root);
	return tap_done();
}
