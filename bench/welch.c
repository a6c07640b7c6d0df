// SPDX-License-Identifier: GPL-2.0
/*
 * welch - compare two sets of benchmark samples with Welch's t-test, the
 * test mmtests' compare-kernels uses to mark a difference significant.
 *
 *   welch [--json] [--alpha=P] [--mmtests] A.txt B.txt
 *
 * A is the baseline, B the variant; one number per line, blank lines and
 * '#' comments ignored, '-' reads stdin.  Welch's test, not Student's:
 * two kernels need not have the same run-to-run variance.
 *
 * The critical t comes from the Student t distribution itself (regularized
 * incomplete beta function), not a table, because Welch's degrees of
 * freedom are fractional and small sample sets make them small, where a
 * normal approximation (1.96) is badly wrong: t_crit(df=2) is 4.30.
 */
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qc-util.h"

struct sample {
	const char *name;
	double *v;
	size_t n, cap;
	double mean, var;
};

static void read_sample(struct sample *s, const char *name)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	char line[256];
	unsigned int lineno = 0;

	s->name = name;
	if (!f)
		qc_die(2, "%s: %s", name, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		double x;

		lineno++;
		p += strspn(p, " \t\r\n");
		if (!*p || *p == '#')
			continue;
		p[strcspn(p, "\r\n")] = '\0';
		errno = 0;
		x = strtod(p, &end);
		end += strspn(end, " \t");
		/* isfinite: strtod happily accepts "nan" and "inf". */
		if (end == p || *end || errno || !isfinite(x))
			qc_die(2, "%s:%u: '%s' is not a number", name, lineno, p);
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 64;
			s->v = realloc(s->v, s->cap * sizeof(*s->v));
			if (!s->v)
				qc_die(2, "out of memory");
		}
		s->v[s->n++] = x;
	}
	if (ferror(f))
		qc_die(2, "%s: read error", name);
	if (f != stdin)
		fclose(f);
	if (s->n < 2)
		qc_die(2, "%s has %zu sample%s: a t-test needs at least 2 per set",
		    name, s->n, s->n == 1 ? "" : "s");
}

/* Two passes: the one-pass sum-of-squares formula cancels badly for
 * large, close values such as faults/s. */
static void describe(struct sample *s)
{
	double sum = 0, ss = 0;
	size_t i;

	for (i = 0; i < s->n; i++)
		sum += s->v[i];
	s->mean = sum / s->n;
	for (i = 0; i < s->n; i++)
		ss += (s->v[i] - s->mean) * (s->v[i] - s->mean);
	s->var = ss / (s->n - 1);
}

/* Continued fraction for I_x(a,b), modified Lentz (Numerical Recipes 6.4). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= 1000; m++) {
		double m2 = 2 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a,b). */
static double betai(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
		 a * log(x) + b * log1p(-x));
	/* The fraction converges fast only on this side; use symmetry. */
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* Two-sided p-value of Student's t with df degrees of freedom (any real
 * df > 0): P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2). */
static double t_p2(double t, double df)
{
	return betai(df / 2, 0.5, df / (df + t * t));
}

/* Critical value: the t > 0 with t_p2(t, df) == alpha, by bisection
 * (t_p2 falls monotonically in t). */
static double t_crit(double alpha, double df)
{
	double lo = 0, hi = 1;
	int i;

	while (t_p2(hi, df) > alpha && hi < 1e300)
		hi *= 2;
	for (i = 0; i < 2000 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (t_p2(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* JSON has no NaN: undefined quantities are null. */
static void json_num(const char *key, double x)
{
	printf(",\"%s\":", key);
	if (isfinite(x))
		printf("%.10g", x);
	else
		printf("null");
}

static void json_sample(const char *key, const struct sample *s)
{
	printf("\"%s\":{\"file\":", key);
	qc_json_str(stdout, s->name);
	printf(",\"n\":%zu", s->n);
	json_num("mean", s->mean);
	json_num("sd", sqrt(s->var));
	putchar('}');
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: welch [--json] [--alpha=P] [--mmtests] A.txt B.txt\n"
"Welch's t-test of sample set B (variant) against A (baseline): one number\n"
"per line, '#' comments and blank lines ignored, '-' is stdin.\n"
"Prints n, mean and standard deviation of each set, the difference of B\n"
"to A in percent, t, the Welch-Satterthwaite degrees of freedom, the\n"
"two-sided p-value and critical t, and whether the difference is\n"
"significant.\n"
"\n"
"  -j, --json       one JSON object instead of text\n"
"  -a, --alpha=P    two-sided significance level (default 0.05: 95 %%)\n"
"      --mmtests    round df down to an integer first, as mmtests'\n"
"                   calc_welch_test does (slightly more conservative)\n"
"  -h, --help       this text\n"
"Exit status: 0 when the test ran (significant or not), 2 on bad input.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json",    no_argument,       NULL, 'j' },
		{ "alpha",   required_argument, NULL, 'a' },
		{ "mmtests", no_argument,       NULL, 'M' },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sample a = { 0 }, b = { 0 };
	double alpha = 0.05, sea, seb, se, t, df, p, crit, diff;
	int json = 0, floor_df = 0, c, sig;
	const char *why;
	char *end;

	qc_prog = "welch";
	while ((c = getopt_long(argc, argv, "ja:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'M': floor_df = 1; break;
		case 'a':
			alpha = strtod(optarg, &end);
			if (*end || end == optarg || !(alpha > 0 && alpha < 1))
				qc_die(2, "--alpha '%s' is not a level between 0 and 1 (e.g. 0.05)",
				    optarg);
			break;
		case 'h': usage(stdout); return 0;
		default: qc_die(2, "bad option (see --help)");
		}
	}
	if (argc - optind != 2)
		qc_die(2, "need two sample files, baseline then variant (see --help)");
	read_sample(&a, argv[optind]);
	read_sample(&b, argv[optind + 1]);
	describe(&a);
	describe(&b);

	diff = a.mean != 0 ? (b.mean - a.mean) / fabs(a.mean) * 100 : NAN;
	sea = a.var / a.n;
	seb = b.var / b.n;
	se = sqrt(sea + seb);
	if (se > 0) {
		t = (b.mean - a.mean) / se;
		/* Welch-Satterthwaite; it lies in [min(n)-1, nA+nB-2]. */
		df = (sea + seb) * (sea + seb) /
		     (sea * sea / (a.n - 1) + seb * seb / (b.n - 1));
		if (floor_df)
			df = floor(df);
		p = t_p2(t, df);
		crit = t_crit(alpha, df);
		sig = p < alpha;
		why = sig ? "|t| > t_crit" : "|t| <= t_crit";
	} else {
		/*
		 * No spread in either set (e.g. runs under QEMU -icount, which
		 * are deterministic): t is 0/0 or x/0 and no test applies.
		 */
		t = df = p = crit = NAN;
		sig = -1;
		why = a.mean == b.mean ?
			"both sets have zero variance and equal means: t is undefined" :
			"both sets have zero variance but different means: t is undefined; "
			"deterministic runs differ exactly, compare the means";
	}

	if (json) {
		putchar('{');
		json_sample("a", &a);
		putchar(',');
		json_sample("b", &b);
		json_num("diff_pct", diff);
		json_num("t", t);
		json_num("df", df);
		json_num("p", p);
		json_num("alpha", alpha);
		json_num("t_crit", crit);
		printf(",\"significant\":%s,\"reason\":",
		       sig < 0 ? "null" : sig ? "true" : "false");
		qc_json_str(stdout, why);
		printf("}\n");
		return 0;
	}
	printf("%-3s %6s %16s %16s  %s\n", "", "n", "mean", "stddev", "file");
	printf("%-3s %6zu %16.8g %16.8g  %s\n", "A", a.n, a.mean, sqrt(a.var), a.name);
	printf("%-3s %6zu %16.8g %16.8g  %s\n", "B", b.n, b.mean, sqrt(b.var), b.name);
	if (isfinite(diff))
		printf("B vs A: %+.2f %%\n", diff);
	else
		printf("B vs A: n/a (mean of A is 0)\n");
	if (sig < 0) {
		printf("verdict: undefined: %s\n", why);
		return 0;
	}
	printf("Welch: t = %.4f  df = %.4f  p = %.4g\n", t, df, p);
	printf("critical t (%g %% two-sided, df %.4f) = %.4f\n",
	       100 * (1 - alpha), df, crit);
	printf("verdict: %s at %g %% (two-sided): %s\n",
	       sig ? "significant" : "not significant", 100 * (1 - alpha), why);
	return 0;
}
