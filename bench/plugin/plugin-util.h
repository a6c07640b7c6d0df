/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plugin-util: what quietcore's TCG plugins (qc-cost, qc-entry) share:
 * their one-line errors and their "key=value" arguments.
 */
#ifndef QC_PLUGIN_UTIL_H
#define QC_PLUGIN_UTIL_H

#include <stdbool.h>

/* The plugin's name in its errors ("qc-cost"): each plugin defines it. */
extern const char *const plugin_name;

/*
 * "quietcore: error: NAME: MESSAGE" on one line of stderr; the first
 * error wins, and the plugin then makes QEMU exit non-zero.
 */
void __attribute__((format(printf, 1, 2))) plugin_fail(const char *fmt, ...);
/* Has plugin_fail() been called? */
bool plugin_failed(void);
/* @arg's value when it is "@key=value" with a non-empty value, else NULL. */
const char *plugin_arg(const char *arg, const char *key);

#endif
