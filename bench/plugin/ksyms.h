/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms: a kernel's text symbols from its System.map, for attributing a
 * guest instruction address to the function it lies in.
 */
#ifndef QC_KSYMS_H
#define QC_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	char *name;
	int marker;		/* a section boundary (__*_start, __*_end): sorts last */
	int local;		/* t or w: sorts after a global alias */
	size_t line;		/* then map order: the order is total */
};

struct ksyms {
	struct ksym *sym;	/* text symbols, sorted by address */
	size_t n;
	uint64_t end;		/* _etext: addresses from here on are not in the map */
};

/*
 * Load the text symbols (types t, T, w, W) of System.map at PATH.  Returns 0,
 * or -1 with a one-line reason in ERR (the file missing, unreadable, a
 * malformed line, no text symbols).
 */
int ksyms_load(struct ksyms *ks, const char *path, char *err, size_t errlen);

/*
 * The index of the symbol ADDR lies in, or -1 outside the kernel's text.
 * Of aliases (several names at one address) a function is named before a
 * section boundary (_raw_spin_trylock, not __cpuidle_text_end or
 * __lock_text_start), a global one before a local (__x64_sys_getppid, not
 * __do_sys_getppid), then the first in the map.
 */
long ksyms_find(const struct ksyms *ks, uint64_t addr);

/* The index of the text symbol named NAME, or -1 if the map has none. */
long ksyms_lookup(const struct ksyms *ks, const char *name);

void ksyms_free(struct ksyms *ks);

#endif
