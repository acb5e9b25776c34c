/* SPDX-License-Identifier: MIT */
/*
 * Histograms of non-negative int64 samples, their percentiles, and
 * schbench's percentile report.
 *
 * Three quantizers:
 *
 * EXACT	every distinct value with its count.  Percentiles are
 *		exact.  add() may allocate (amortised O(log n)).
 *
 * FIO_PLAT8	fio's and schbench's "plat" histogram, bucket for bucket:
 *		PLAT_BITS 8, 19 groups, 19 * 256 = 4864 buckets.  Values
 *		below 512 have a bucket each; above, each power of two
 *		[2^m, 2^(m+1)) is cut into 256 buckets of 2^(m-8), and a
 *		bucket reports its midpoint (relative error <= 1/512).
 *		Values from 2^26 up all land in the last bucket, which
 *		reports 67043328, exactly as in schbench.
 *
 * HDR3		HdrHistogram's layout for 3 significant decimal digits
 *		and a unit of 1 (sub_bucket_count 2048): values below 2048
 *		have a bucket each; above, each [2^m, 2^(m+1)) (m >= 11) is
 *		cut into 1024 buckets of 2^(m-10).  Index of v >= 2048:
 *		b = msb(v) - 10, idx = b * 1024 + (v >> b); 55296 buckets
 *		cover all of int64.  A bucket reports its highest value
 *		(HdrHistogram's highest_equivalent_value, so "p% of samples
 *		are <= the answer"), lowered to the exact max when that is
 *		smaller; the relative error is below 1/1024 < 0.1%.
 *
 * min, max, count and sum are exact for every kind.  FIO_PLAT8 and HDR3
 * allocate their bucket arrays at init and never again.
 *
 * Percentile p is given in per mille (999 is 99.9) and answered with
 * schbench's rule: the value of the first bucket, in increasing order,
 * whose cumulative count c satisfies c * 1000 >= p * N.  Integer
 * arithmetic, where schbench compares against the double p / 100.0 * N;
 * over schbench's list the two agree except at 99.9 when N is a multiple
 * of 1000, where the double's rounding asks for one sample more (hist.c).
 */
#ifndef EEVDF_HIST_H
#define EEVDF_HIST_H

#include "internal.h"

enum eevdf_hist_kind {
	EEVDF_HIST_EXACT,
	EEVDF_HIST_FIO_PLAT8,
	EEVDF_HIST_HDR3,
};

/* fio's FIO_IO_U_PLAT_* with schbench's 19 groups. */
#define EEVDF_PLAT_BITS 8
#define EEVDF_PLAT_VAL (1u << EEVDF_PLAT_BITS)
#define EEVDF_PLAT_GROUP_NR 19
#define EEVDF_PLAT_NR (EEVDF_PLAT_GROUP_NR * EEVDF_PLAT_VAL)

/* HdrHistogram, 3 digits: 2048 sub-buckets, the upper 1024 per bucket. */
#define EEVDF_HDR3_SUB_BITS 11
#define EEVDF_HDR3_HALF (1u << (EEVDF_HDR3_SUB_BITS - 1))
#define EEVDF_HDR3_NR ((63 - EEVDF_HDR3_SUB_BITS + 2) * EEVDF_HDR3_HALF)

struct eevdf_hist_entry {
	s64 value;
	u64 count;
};

struct eevdf_hist {
	enum eevdf_hist_kind kind;
	u64 count;
	u128 sum;     /* cannot overflow: values < 2^63, count < 2^64 */
	s64 min, max; /* 0 when empty */
	/* FIO_PLAT8, HDR3: nbuckets counters. */
	u64 *buckets;
	size_t nbuckets;
	/*
	 * EXACT: sorted[] holds distinct values in increasing order; a value
	 * not in it is appended to tail[], unsorted and maybe repeated, and
	 * the tail is sorted and merged in when it fills up or a percentile
	 * is asked for.  sorted_cap >= nsorted + tail_cap always, so that
	 * merge never allocates and so never fails.
	 */
	struct eevdf_hist_entry *sorted, *tail;
	size_t nsorted, sorted_cap;
	size_t ntail, tail_cap;
};

/* 0, EEVDF_EINVAL for an unknown kind, or EEVDF_ENOMEM.  On error *h is
 * still safe to pass to eevdf__hist_free(). */
int eevdf__hist_init(struct eevdf_hist *h, enum eevdf_hist_kind kind);

/* h may be NULL or zero-filled; freeing twice is harmless. */
void eevdf__hist_free(struct eevdf_hist *h);

/*
 * Record count samples of value.  count 0 does nothing.
 * EEVDF_ERANGE: value < 0, or the total count would pass 2^64 - 1.
 * EEVDF_ENOMEM: EXACT only.  On error the histogram is unchanged.
 */
int eevdf__hist_add(struct eevdf_hist *h, s64 value, u64 count);

/* Forget every sample; keeps the memory. */
void eevdf__hist_reset(struct eevdf_hist *h);

/*
 * Fold src's samples into dst (src == dst doubles every count).
 * EEVDF_EINVAL: different kinds.  EEVDF_ERANGE: the total count would
 * overflow.  EEVDF_ENOMEM (EXACT).  On error dst is unchanged.
 */
int eevdf__hist_merge(struct eevdf_hist *dst, const struct eevdf_hist *src);

static inline u64 eevdf__hist_count(const struct eevdf_hist *h)
{
	return h->count;
}

static inline s64 eevdf__hist_min(const struct eevdf_hist *h)
{
	return h->min;
}

static inline s64 eevdf__hist_max(const struct eevdf_hist *h)
{
	return h->max;
}

/* The sum of the samples, saturated at INT64_MAX. */
s64 eevdf__hist_sum(const struct eevdf_hist *h);

/* floor(sum / count) from the exact sum; 0 when empty. */
s64 eevdf__hist_mean(const struct eevdf_hist *h);

/*
 * The value at permille p (values above 1000 are taken as 1000); 0 when
 * empty.  p = 0 answers the first bucket: 0 for FIO_PLAT8, as in
 * schbench, and min's bucket otherwise.  Not const: EXACT first merges
 * its tail (which never allocates).
 */
s64 eevdf__hist_percentile(struct eevdf_hist *h, unsigned int permille);

/* schbench's PLAT_LIST_MAX. */
#define EEVDF_HIST_PLIST_MAX 20

struct eevdf_hist_pct {
	unsigned int permille;
	s64 value;
	u64 cum;     /* samples in value's bucket and below */
	u64 samples; /* schbench's "(N samples)": cum minus the
			 * previous entry's cum; the first's own cum */
};

/*
 * The percentiles of plist[0..n) in one walk, as schbench's
 * calc_percentiles().  plist must be non-decreasing, each <= 1000, and
 * 1 <= n <= EEVDF_HIST_PLIST_MAX; otherwise EEVDF_EINVAL.
 */
int eevdf__hist_percentiles(struct eevdf_hist *h, const unsigned int *plist,
			    size_t n, struct eevdf_hist_pct *out);

/* schbench's plist, and its masks and stars over it (bit i = plist[i]). */
#define EEVDF_HIST_SCHBENCH_PLIST                                              \
	{                                                                      \
		200, 500, 900, 990, 999                                        \
	}
#define EEVDF_HIST_SCHBENCH_NPLIST 5
#define EEVDF_HIST_SCHBENCH_MASK_LAT 0x1eul /* 50, 90, 99, 99.9 */
#define EEVDF_HIST_SCHBENCH_STAR_LAT 3	    /* * 99.0th */
#define EEVDF_HIST_SCHBENCH_MASK_RPS 0x07ul /* 20, 50, 90 */
#define EEVDF_HIST_SCHBENCH_STAR_RPS 1	    /* * 50.0th */

/* What schbench's show_latencies() takes besides the histogram. */
struct eevdf_hist_report {
	const char *label;	    /* "Wakeup Latencies", "RPS" */
	const char *units;	    /* "usec", "requests" */
	unsigned long long runtime; /* seconds, as printed */
	const unsigned int *plist;  /* NULL: EEVDF_HIST_SCHBENCH_PLIST */
	size_t nplist;
	unsigned long mask; /* bit i prints plist[i] */
	int star;	    /* plist index of the "* " line; -1: none */
};

/*
 * Print schbench's block for h:
 *	"%s percentiles (%s) runtime %llu (s) (%lu total samples)\n"
 *	"\t%s%2.1fth: %-10u (%lu samples)\n"	(each masked percentile)
 *	"\t  min=%u, max=%u\n"
 * The "(N samples)" column is computed over the whole plist, masked or
 * not, as schbench does (so the latency block's 50.0th line counts the
 * samples above the unprinted 20.0th).  Returns 0, EEVDF_EINVAL (a bad
 * plist or star) or EEVDF_EIO (a write failed).
 */
int eevdf__hist_schbench_fprint(FILE *f, struct eevdf_hist *h,
				const struct eevdf_hist_report *rep);

/*
 * The same text into buf as snprintf would (buf may be NULL when len is
 * 0): returns the full length without the NUL, or EEVDF_EINVAL.
 */
int eevdf__hist_schbench_snprint(char *buf, size_t len, struct eevdf_hist *h,
				 const struct eevdf_hist_report *rep);

/*
 * What a schbench block shows of a histogram, without the histogram: its
 * count, min, max and the percentiles of a plist of at most
 * EEVDF_HIST_SUMMARY_MAX entries.  A few hundred bytes where a FIO_PLAT8
 * histogram takes 38 KiB, so that a run can keep one per interval report.
 */
#define EEVDF_HIST_SUMMARY_MAX 8

struct eevdf_hist_summary {
	u64 count;
	s64 min, max;
	size_t n;
	struct eevdf_hist_pct pct[EEVDF_HIST_SUMMARY_MAX];
};

/*
 * h summarised over plist[0..n) (NULL: EEVDF_HIST_SCHBENCH_PLIST); h NULL
 * is an empty histogram, whose percentiles are all 0.
 * EEVDF_EINVAL for a plist eevdf__hist_percentiles() refuses or longer
 * than EEVDF_HIST_SUMMARY_MAX.
 */
int eevdf__hist_summarize(struct eevdf_hist *h, const unsigned int *plist,
			  size_t n, struct eevdf_hist_summary *out);

/*
 * The block eevdf__hist_schbench_snprint() prints for the histogram that s
 * summarises, byte for byte.  rep->plist must be NULL: the summary's own
 * plist is printed, and mask and star index it.
 */
int eevdf__hist_schbench_snprint_summary(char *buf, size_t len,
					 const struct eevdf_hist_summary *s,
					 const struct eevdf_hist_report *rep);

/* The quantizers' index and value maps, for tests and documentation. */
unsigned int eevdf__plat_val_to_idx(u64 val);
u64 eevdf__plat_idx_to_val(unsigned int idx); /* the bucket midpoint */
unsigned int eevdf__hdr3_val_to_idx(u64 val);
u64 eevdf__hdr3_idx_lowest(unsigned int idx);
u64 eevdf__hdr3_idx_highest(unsigned int idx);

#endif
