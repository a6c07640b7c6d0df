/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qc-util: what every quietcore C program agrees on, in one place (as
 * rtla keeps its utils.c): the CPU-list syntax, JSON string escaping and
 * the one-line error. Compiled into each program (the guest-init and
 * bench programs, tracing/qc-analyze); the kernel module (hammer/) is kernel
 * code and has its own.
 */
#ifndef QC_UTIL_H
#define QC_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* The program's name in "NAME: error: ..." lines; set it first thing. */
extern const char *qc_prog;

/*
 * qc_cpulist_parse("1-3,5", set, max): set[c] = 1 for every listed CPU,
 * 0 for the others (set has max entries). Returns the number of distinct
 * CPUs, or -1 when the list is empty, malformed ("1-", "3-1", "1,",
 * "a") or names a CPU >= max: the syntax of the kernel's cpulist files.
 */
int qc_cpulist_parse(const char *list, unsigned char *set, int max);

/* Write S as a JSON string, quotes included. */
void qc_json_str(FILE *f, const char *s);

/* "PROG: error: MESSAGE" on one line of stderr (no exit). */
void qc_verror(const char *fmt, va_list ap);
/* The one-line error, then exit(code). */
void __attribute__((noreturn, format(printf, 2, 3))) qc_die(int code, const char *fmt, ...);

/* realloc() or, out of memory, the one-line error and exit(2). */
void *qc_realloc(void *p, size_t size);
/*
 * An array @v of @n elements of @size bytes, room for @alloc: grown (its
 * room doubled, 64 at first) when full, so that element n can be stored.
 */
void *qc_grow(void *v, long n, long *alloc, size_t size);

/* Trace time @ns as trace-cmd prints it, "S.UUUUUU" (seconds, microseconds). */
struct qc_ts { char s[32]; };
struct qc_ts qc_ts(unsigned long long ns);

#endif
