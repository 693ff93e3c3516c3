/*
 * text.c - names and bytes that come from outside (text.h): one definition of
 * a task name for the app's configuration and every reader of the app's
 * files, and one way to show or store bytes that are not UTF-8, so that no
 * reader prints "(null)" or writes a document with a key left out.
 */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool pf_task_name_valid(const char *name)
{
	size_t n = strlen(name), i;

	if (n == 0 || n > PF_TASK_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!(name[i] >= 'A' && name[i] <= 'Z') && !(name[i] >= 'a' && name[i] <= 'z') &&
		    !(name[i] >= '0' && name[i] <= '9') && name[i] != '_')
			return false;
	return true;
}

const char *pf_quote_bytes(const char *s, char *buf, size_t size)
{
	const unsigned char *p;
	size_t n = 0;

	if (!size)
		return buf;
	for (p = (const unsigned char *)s; *p && n + 5 <= size; p++) {
		if (*p >= 0x20 && *p < 0x7f)
			buf[n++] = (char)*p;
		else
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", *p);
	}
	buf[n < size ? n : size - 1] = '\0';
	return buf;
}

json_t *pf_json_bytes(const char *s, bool *quoted)
{
	size_t size = 4 * strlen(s) + 1;
	json_t *j = json_string(s);
	char *buf;

	if (quoted)
		*quoted = false;
	if (j)
		return j;
	buf = malloc(size);
	if (!buf)
		return NULL;
	j = json_string(pf_quote_bytes(s, buf, size));
	free(buf);
	if (quoted)
		*quoted = true;
	return j;
}
