// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms-test MAP ADDR...: print, one a line, the function qc-cost would
 * attribute each hex ADDR to ("-" outside the map's text), or the load
 * error as "ksyms-test: error: ..." and exit 1.  For tests/test-plugin.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ksyms.h"

int main(int argc, char **argv)
{
	struct ksyms ks;
	char err[512];
	int i;

	if (argc < 2) {
		fputs("ksyms-test: error: usage: ksyms-test MAP ADDR...\n", stderr);
		return 2;
	}
	if (ksyms_load(&ks, argv[1], err, sizeof(err))) {
		fprintf(stderr, "ksyms-test: error: %s\n", err);
		return 1;
	}
	for (i = 2; i < argc; i++) {
		long k = ksyms_find(&ks, strtoull(argv[i], NULL, 16));

		puts(k < 0 ? "-" : ks.sym[k].name);
	}
	ksyms_free(&ks);
	return 0;
}
