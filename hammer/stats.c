// SPDX-License-Identifier: GPL-2.0
/*
 * Per-call latency records of the hammer and the "stats" debugfs file.
 *
 * Every completed call adds to the counters and the log2 histogram; the
 * first max_samples calls also keep their exact latency, from which p50
 * and p99 are computed (nearest rank) when "stats" is opened. A call still
 * in flight is not a sample: it appears as in_flight_us, and counts in
 * stalls and max_us once it has lasted the stall threshold.
 */
#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "qc_hammer.h"

/* Caller holds r->lock; samples and max_samples are set by the caller. */
void qc_stats_reset(struct qc_run *r)
{
	r->start_ns = 0;
	r->end_ns = 0;
	r->stop_ns = 0;
	r->finish_ns = 0;
	r->in_flight_ns = 0;
	r->calls = 0;
	r->skipped = 0;
	r->stalls = 0;
	r->sum_ns = 0;
	r->max_ns = 0;
	r->lag_max_ns = 0;
	r->nsamples = 0;
	memset(r->hist, 0, sizeof(r->hist));
}

void qc_stats_begin(struct qc_run *r, u64 t0, u64 lag_ns)
{
	spin_lock(&r->lock);
	r->in_flight_ns = t0;
	r->lag_max_ns = max(r->lag_max_ns, lag_ns);
	spin_unlock(&r->lock);
}

static unsigned int qc_hist_bucket(u64 ns)
{
	u64 us = DIV_ROUND_UP_ULL(ns, NSEC_PER_USEC);

	if (us <= 1)
		return 0;
	return min_t(unsigned int, fls64(us - 1), QC_HIST_BUCKETS - 1);
}

void qc_stats_end(struct qc_run *r, u64 t0, u64 t1)
{
	u64 ns = t1 - t0;

	spin_lock(&r->lock);
	r->in_flight_ns = 0;
	r->calls++;
	r->sum_ns += ns;
	r->max_ns = max(r->max_ns, ns);
	if (ns >= r->stall_ns)
		r->stalls++;
	r->hist[qc_hist_bucket(ns)]++;
	if (r->nsamples < r->max_samples)
		r->samples[r->nsamples++] = ns;
	spin_unlock(&r->lock);
}

/* See README.md: "done" also covers a run whose last call is a stall. */
enum qc_run_state qc_state_locked(struct qc_run *r, u64 now)
{
	u64 ended = r->end_ns;

	if (!r->start_ns)
		return QC_IDLE;
	if (r->finish_ns)
		return QC_DONE;
	if (r->stop_ns)
		ended = min(ended, r->stop_ns);
	if (now < ended)
		return QC_RUNNING;
	if (r->in_flight_ns && now - r->in_flight_ns >= r->stall_ns)
		return QC_DONE;
	return QC_RUNNING;
}

const char *qc_state_name(enum qc_run_state state)
{
	switch (state) {
	case QC_RUNNING:
		return "running";
	case QC_DONE:
		return "done";
	default:
		return "idle";
	}
}

u64 qc_in_flight_ns_locked(struct qc_run *r, u64 now)
{
	return r->in_flight_ns && now > r->in_flight_ns ?
	       now - r->in_flight_ns : 0;
}

/* A consistent copy of a run, taken when "stats" is opened. */
struct qc_snapshot {
	enum qc_run_state state;
	unsigned int rate_hz, duration_s, cpu, stall_threshold_ms;
	u64 elapsed_ns, in_flight_ns, calls, skipped, stalls, sum_ns, max_ns;
	u64 lag_max_ns;
	u64 hist[QC_HIST_BUCKETS];
	u64 nsamples;
	u64 *samples;		/* in call order */
	u64 *sorted;		/* the same, ascending */
};

struct qc_text {
	size_t len;
	char buf[];
};

static int qc_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int qc_snapshot_take(struct qc_snapshot *s)
{
	struct qc_run *r = &qc_run;
	u64 now;

	mutex_lock(&qc_ctl_lock);
	spin_lock(&r->lock);
	now = ktime_get_ns();
	s->state = qc_state_locked(r, now);
	s->rate_hz = r->start_ns ? r->rate_hz : READ_ONCE(qc_rate_hz);
	s->duration_s = r->start_ns ? r->duration_s : 0;
	s->cpu = r->start_ns ? r->cpu : READ_ONCE(qc_cpu);
	s->stall_threshold_ms = r->start_ns ? r->stall_threshold_ms :
			       READ_ONCE(qc_stall_threshold_ms);
	s->elapsed_ns = !r->start_ns ? 0 :
			(r->finish_ns ? r->finish_ns : now) - r->start_ns;
	s->in_flight_ns = qc_in_flight_ns_locked(r, now);
	s->calls = r->calls;
	s->skipped = r->skipped;
	s->stalls = r->stalls;
	s->sum_ns = r->sum_ns;
	s->max_ns = r->max_ns;
	s->lag_max_ns = r->lag_max_ns;
	memcpy(s->hist, r->hist, sizeof(s->hist));
	s->nsamples = r->nsamples;
	spin_unlock(&r->lock);

	if (r->start_ns && s->in_flight_ns >= r->stall_ns) {
		s->stalls++;
		s->max_ns = max(s->max_ns, s->in_flight_ns);
	}

	s->samples = NULL;
	if (s->nsamples) {
		s->samples = kvmalloc_array(s->nsamples, 2 * sizeof(u64),
					    GFP_KERNEL);
		if (!s->samples) {
			mutex_unlock(&qc_ctl_lock);
			return -ENOMEM;
		}
		memcpy(s->samples, r->samples, s->nsamples * sizeof(u64));
	}
	mutex_unlock(&qc_ctl_lock);

	if (s->nsamples) {
		s->sorted = s->samples + s->nsamples;
		memcpy(s->sorted, s->samples, s->nsamples * sizeof(u64));
		sort(s->sorted, s->nsamples, sizeof(u64), qc_cmp_u64, NULL);
	}
	return 0;
}

/* Nearest-rank percentile of the kept samples, 0 when there are none. */
static u64 qc_percentile(const struct qc_snapshot *s, unsigned int pct)
{
	u64 rank;

	if (!s->nsamples)
		return 0;
	rank = DIV_ROUND_UP_ULL(s->nsamples * pct, 100);
	return s->sorted[max_t(u64, rank, 1) - 1];
}

/* @prefix, then microseconds with three decimals (exact nanoseconds). */
static void qc_put_us(struct seq_buf *sb, const char *prefix, u64 ns)
{
	u32 rem;
	u64 us = div_u64_rem(ns, NSEC_PER_USEC, &rem);

	seq_buf_printf(sb, "%s%llu.%03u", prefix, us, rem);
}

static void qc_format(struct seq_buf *sb, const struct qc_snapshot *s)
{
	int last = -1;
	u64 i;
	int b;

	seq_buf_printf(sb, "{\"state\":\"%s\",\"cpu\":%u,\"rate_hz\":%u",
		       qc_state_name(s->state), s->cpu, s->rate_hz);
	seq_buf_printf(sb, ",\"duration_s\":%u,\"stall_threshold_ms\":%u",
		       s->duration_s, s->stall_threshold_ms);
	seq_buf_printf(sb, ",\"elapsed_ms\":%llu,\"calls\":%llu,\"skipped\":%llu,\"stalls\":%llu",
		       div_u64(s->elapsed_ns, NSEC_PER_MSEC), s->calls,
		       s->skipped, s->stalls);
	qc_put_us(sb, ",\"in_flight_us\":", s->in_flight_ns);
	qc_put_us(sb, ",\"p50_us\":", qc_percentile(s, 50));
	qc_put_us(sb, ",\"p99_us\":", qc_percentile(s, 99));
	qc_put_us(sb, ",\"max_us\":", s->max_ns);
	qc_put_us(sb, ",\"mean_us\":", s->calls ? div64_u64(s->sum_ns, s->calls) : 0);
	qc_put_us(sb, ",\"lag_max_us\":", s->lag_max_ns);
	seq_buf_printf(sb, ",\"samples_kept\":%llu,\"samples_dropped\":%llu",
		       s->nsamples, s->calls - s->nsamples);

	for (b = 0; b < QC_HIST_BUCKETS; b++)
		if (s->hist[b])
			last = b;
	seq_buf_printf(sb, ",\"hist\":[");
	for (b = 0; b <= last; b++)
		seq_buf_printf(sb, "%s{\"le_us\":%llu,\"n\":%llu}",
			       b ? "," : "", 1ULL << b, s->hist[b]);
	seq_buf_printf(sb, "],\"samples_us\":[");
	for (i = 0; i < s->nsamples; i++)
		qc_put_us(sb, i ? "," : "", s->samples[i]);
	seq_buf_printf(sb, "]}\n");
}

static int qc_stats_open(struct inode *inode, struct file *file)
{
	struct qc_snapshot *s;
	struct qc_text *t = NULL;
	struct seq_buf sb;
	size_t size;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	ret = qc_snapshot_take(s);
	if (ret)
		goto out;

	/* Fixed part, the histogram, then at most 32 bytes a sample. */
	size = 1024 + QC_HIST_BUCKETS * 64 + s->nsamples * 32;
	t = kvmalloc(struct_size(t, buf, size), GFP_KERNEL);
	if (!t) {
		ret = -ENOMEM;
		goto out;
	}
	seq_buf_init(&sb, t->buf, size);
	qc_format(&sb, s);
	if (seq_buf_has_overflowed(&sb)) {
		kvfree(t);
		ret = -EOVERFLOW;
		goto out;
	}
	t->len = sb.len;
	file->private_data = t;
out:
	kvfree(s->samples);
	kfree(s);
	return ret;
}

static ssize_t qc_stats_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct qc_text *t = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, t->buf, t->len);
}

static int qc_stats_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static const struct file_operations qc_stats_fops = {
	.owner = THIS_MODULE,
	.open = qc_stats_open,
	.read = qc_stats_read,
	.release = qc_stats_release,
	.llseek = default_llseek,
};

int qc_stats_init(struct dentry *dir)
{
	debugfs_create_file("stats", 0444, dir, NULL, &qc_stats_fops);
	return 0;
}
