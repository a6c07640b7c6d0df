// SPDX-License-Identifier: GPL-2.0
/* plugin-util: what quietcore's TCG plugins share (plugin-util.h). */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "plugin-util.h"

static atomic_int failed;

void plugin_fail(const char *fmt, ...)
{
	va_list ap;

	if (atomic_exchange(&failed, 1))
		return;
	fprintf(stderr, "quietcore: error: %s: ", plugin_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool plugin_failed(void)
{
	return atomic_load(&failed);
}

const char *plugin_arg(const char *arg, const char *key)
{
	size_t len = strlen(key);

	if (strncmp(arg, key, len) || arg[len] != '=' || !arg[len + 1])
		return NULL;
	return arg + len + 1;
}
