/*
 * jpath.c - dotted paths into a JSON document (see jpath.h).
 */
#include "jpath.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *pf_jpath_key(json_t *obj, const char *path, size_t *len)
{
	size_t n = strlen(path);
	json_t *v;

	if (!json_is_object(obj))
		return NULL;
	while (n > 0) {
		v = json_object_getn(obj, path, n);
		if (v) {
			*len = n;
			return v;
		}
		while (n > 0 && path[--n] != '.')
			;	/* the next shorter prefix ends before a dot */
	}
	return NULL;
}

/* jpath_index - one step into an array: the element of the leading decimal segment, its length in *len */
static json_t *jpath_index(json_t *arr, const char *path, size_t *len)
{
	unsigned long long i;
	const char *dot;
	json_t *e, *n;
	size_t k;
	char *end;

	if (!isdigit((unsigned char)*path)) {
		/* an element by its name: the object whose "name" (or "comm") is the segment */
		dot = strchr(path, '.');
		*len = dot ? (size_t)(dot - path) : strlen(path);
		json_array_foreach(arr, k, e) {
			n = json_object_get(e, "name");
			if (!n)
				n = json_object_get(e, "comm");
			if (json_is_string(n) && strlen(json_string_value(n)) == *len &&
			    !strncmp(json_string_value(n), path, *len))
				return e;
		}
		return NULL;
	}
	i = strtoull(path, &end, 10);
	if (*end && *end != '.')
		return NULL;
	*len = (size_t)(end - path);
	return i < json_array_size(arr) ? json_array_get(arr, (size_t)i) : NULL;
}

json_t *pf_jpath_get(json_t *root, const char *path)
{
	json_t *v = root;
	size_t len;

	while (v && *path) {
		if (json_is_object(v))
			v = pf_jpath_key(v, path, &len);
		else if (json_is_array(v))
			v = jpath_index(v, path, &len);
		else
			return NULL;
		if (!v)
			return NULL;
		path += len;
		if (*path == '.' && !*++path)
			return NULL;	/* a trailing dot names nothing */
	}
	return v;
}

json_t *pf_json_load_schema(const char *path, const char *schema, char *why, size_t why_size)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je), *s;

	if (!doc) {
		snprintf(why, why_size, "%s: %s", path, je.text);
		return NULL;
	}
	s = json_object_get(doc, "schema");
	if (!json_is_string(s) || strcmp(json_string_value(s), schema)) {
		snprintf(why, why_size, "%s: not %s", path, schema);
		json_decref(doc);
		return NULL;
	}
	return doc;
}
