/* SPDX-License-Identifier: MIT */
/*
 * Histograms with exact, fio "plat" and HdrHistogram-like quantizers, and
 * schbench's percentile report.  See hist.h for the bucket schemes.
 *
 * What was read to match fio and schbench (the code here is our own):
 *  - axboe/fio stat.c @ 00084f957dd35d18ceb8e6bb1cd825c73cae2a10:
 *    plat_val_to_idx(), plat_idx_to_val(), calc_clat_percentiles().
 *  - masoncl/schbench stats.c and stats.h
 *    @ 513e18bbb8f09571dd215bbddebec1f8081f81a1, and schbench.h /
 *    schbench.c @ 026d17205535db75511900f0910b02220ff41e70: PLAT_BITS 8,
 *    PLAT_GROUP_NR 19, plist {20, 50, 90, 99, 99.9}, calc_percentiles(),
 *    show_latencies() and its callers (PLIST_FOR_LAT with the star on
 *    PLIST_99, PLIST_FOR_RPS with the star on PLIST_50).
 *
 * One deliberate difference: schbench tests "sum >= plist[j] / 100.0 *
 * nr" in double, we test "cum * 1000 >= permille * N" in exact integers.
 * 99.9 / 100.0 rounds to 0.9990000000000001, so for 99.9 and N a multiple
 * of 1000 schbench wants one sample more than 99.9% (N = 1000: 1000
 * samples, not 999; for N = 1000, 2000, ..., 200000, 197 of the 200 cases
 * differ).  The other default percentiles (20, 50, 90, 99) agree with the
 * integer rule for every N up to 200000 (checked by enumeration).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "hist.h"

/* The EXACT tail's smallest size, so that tiny histograms do not merge
 * after every add. */
#define EXACT_TAIL_MIN 64

/* Index of the highest set bit of v != 0 (fio's msb). */
static unsigned int fls64(u64 v)
{
	unsigned int r = 0;

	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

/*
 * fio's plat_val_to_idx(): the msb picks the group, the PLAT_BITS bits
 * below it the bucket.  A value whose msb is at most PLAT_BITS (< 512) is
 * its own index: group 0 and group 1 both have unit buckets.
 */
unsigned int eevdf__plat_val_to_idx(u64 val)
{
	unsigned int msb, error_bits, base, offset, idx;

	msb = val ? fls64(val) : 0;
	if (msb <= EEVDF_PLAT_BITS)
		return (unsigned int)val;
	error_bits = msb - EEVDF_PLAT_BITS;
	base = (error_bits + 1) << EEVDF_PLAT_BITS;
	offset = (unsigned int)((EEVDF_PLAT_VAL - 1) & (val >> error_bits));
	idx = base + offset;
	return idx < EEVDF_PLAT_NR - 1 ? idx : EEVDF_PLAT_NR - 1;
}

/*
 * fio's plat_idx_to_val(): base + (k + 0.5) * 2^error_bits, computed
 * there in double.  error_bits >= 1 above the unit buckets, so the half
 * bucket 2^(error_bits - 1) is an integer and the integer form below is
 * the same number (fio's double is exact: everything is below 2^53).
 */
u64 eevdf__plat_idx_to_val(unsigned int idx)
{
	unsigned int error_bits;
	u64 base, k;

	EEVDF_ASSERT(idx < EEVDF_PLAT_NR);
	if (idx < (EEVDF_PLAT_VAL << 1))
		return idx;
	error_bits = (idx >> EEVDF_PLAT_BITS) - 1;
	base = (u64)1 << (error_bits + EEVDF_PLAT_BITS);
	k = idx % EEVDF_PLAT_VAL;
	return base + (k << error_bits) + ((u64)1 << (error_bits - 1));
}

/*
 * HdrHistogram's counts_index() with sub_bucket_count 2048 and unit 1:
 * bucket b holds [1024 * 2^b, 2048 * 2^b) in steps of 2^b, bucket 0 all
 * of [0, 2048) in steps of 1, and b * 1024 + (v >> b) lays them end to end.
 */
unsigned int eevdf__hdr3_val_to_idx(u64 val)
{
	unsigned int b;

	if (val < (u64)2 * EEVDF_HDR3_HALF)
		return (unsigned int)val;
	b = fls64(val) - (EEVDF_HDR3_SUB_BITS - 1);
	return b * EEVDF_HDR3_HALF + (unsigned int)(val >> b);
}

u64 eevdf__hdr3_idx_lowest(unsigned int idx)
{
	unsigned int b;

	EEVDF_ASSERT(idx < EEVDF_HDR3_NR);
	if (idx < 2 * EEVDF_HDR3_HALF)
		return idx;
	b = idx / EEVDF_HDR3_HALF - 1;
	return (u64)(idx - b * EEVDF_HDR3_HALF) << b;
}

u64 eevdf__hdr3_idx_highest(unsigned int idx)
{
	unsigned int b;

	if (idx < 2 * EEVDF_HDR3_HALF)
		return eevdf__hdr3_idx_lowest(idx);
	b = idx / EEVDF_HDR3_HALF - 1;
	return eevdf__hdr3_idx_lowest(idx) + ((u64)1 << b) - 1;
}

/* Bucket index of a value, for the two fixed kinds. */
static unsigned int bucket_of(const struct eevdf_hist *h, s64 v)
{
	if (h->kind == EEVDF_HIST_FIO_PLAT8)
		return eevdf__plat_val_to_idx((u64)v);
	return eevdf__hdr3_val_to_idx((u64)v);
}

int eevdf__hist_init(struct eevdf_hist *h, enum eevdf_hist_kind kind)
{
	memset(h, 0, sizeof(*h));
	h->kind = kind;
	switch (kind) {
	case EEVDF_HIST_EXACT:
		return 0;
	case EEVDF_HIST_FIO_PLAT8:
		h->nbuckets = EEVDF_PLAT_NR;
		break;
	case EEVDF_HIST_HDR3:
		/* 432 KiB, but calloc'd: pages no sample touched stay
		 * unbacked, and reset only clears the used range. */
		h->nbuckets = EEVDF_HDR3_NR;
		break;
	default:
		h->kind = EEVDF_HIST_EXACT;
		return EEVDF_EINVAL;
	}
	h->buckets = calloc(h->nbuckets, sizeof(*h->buckets));
	if (!h->buckets) {
		h->nbuckets = 0;
		h->kind = EEVDF_HIST_EXACT;
		return EEVDF_ENOMEM;
	}
	return 0;
}

void eevdf__hist_free(struct eevdf_hist *h)
{
	if (!h)
		return;
	free(h->buckets);
	free(h->sorted);
	free(h->tail);
	memset(h, 0, sizeof(*h));
}

/* Index in sorted[] of value, or of where it would go; *found says. */
static size_t exact_find(const struct eevdf_hist *h, s64 value, bool *found)
{
	size_t lo = 0, hi = h->nsorted;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->sorted[mid].value < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < h->nsorted && h->sorted[lo].value == value;
	return lo;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct eevdf_hist_entry *a = pa, *b = pb;

	return (a->value > b->value) - (a->value < b->value);
}

/*
 * Sort the tail, fold its repeats, and merge it into sorted[] from the
 * back, in place: no tail value is in sorted[] (add() only appends values
 * it did not find there), and sorted_cap >= nsorted + tail_cap leaves
 * room.  qsort's order among equal values is unspecified, but they are
 * summed, so the result is the same whatever it does.
 */
static void exact_compact(struct eevdf_hist *h)
{
	struct eevdf_hist_entry *s = h->sorted, *t = h->tail;
	size_t nt, i, j, k;

	if (!h->ntail)
		return;
	qsort(t, h->ntail, sizeof(*t), cmp_entry);
	nt = 0;
	for (i = 1; i < h->ntail; i++) {
		if (t[i].value == t[nt].value)
			t[nt].count += t[i].count;
		else
			t[++nt] = t[i];
	}
	nt++;
	EEVDF_ASSERT(h->nsorted + nt <= h->sorted_cap);
	i = h->nsorted;
	j = nt;
	k = h->nsorted + nt;
	while (j > 0) {
		if (i > 0 && s[i - 1].value > t[j - 1].value)
			s[--k] = s[--i];
		else
			s[--k] = t[--j];
	}
	h->nsorted += nt;
	h->ntail = 0;
}

/*
 * Make room for a tail of at least want entries, keeping sorted_cap >=
 * nsorted + tail_cap.  sorted[] grows first, so that a failure leaves
 * the invariant true.
 */
static int exact_reserve(struct eevdf_hist *h, size_t want)
{
	size_t tail_cap = h->tail_cap, need, cap;
	void *p;

	if (want > tail_cap)
		tail_cap = want;
	if (tail_cap > SIZE_MAX / sizeof(*h->tail) - h->nsorted)
		return EEVDF_ENOMEM;
	need = h->nsorted + tail_cap;
	if (need > h->sorted_cap) {
		cap = h->sorted_cap <= SIZE_MAX / sizeof(*h->sorted) / 2 ?
			      h->sorted_cap * 2 :
			      need;
		if (cap < need)
			cap = need;
		p = realloc(h->sorted, cap * sizeof(*h->sorted));
		if (!p)
			return EEVDF_ENOMEM;
		h->sorted = p;
		h->sorted_cap = cap;
	}
	if (tail_cap > h->tail_cap) {
		p = realloc(h->tail, tail_cap * sizeof(*h->tail));
		if (!p)
			return EEVDF_ENOMEM;
		h->tail = p;
		h->tail_cap = tail_cap;
	}
	return 0;
}

/* Count one (value, count) into EXACT, with tail room already made. */
static void exact_put(struct eevdf_hist *h, s64 value, u64 count)
{
	bool found;
	size_t i = exact_find(h, value, &found);

	if (found) {
		h->sorted[i].count += count;
		return;
	}
	EEVDF_ASSERT(h->ntail < h->tail_cap);
	h->tail[h->ntail].value = value;
	h->tail[h->ntail].count = count;
	h->ntail++;
}

static int exact_add(struct eevdf_hist *h, s64 value, u64 count)
{
	bool found;
	size_t i = exact_find(h, value, &found);
	size_t want;
	int ret;

	if (found) {
		h->sorted[i].count += count;
		return 0;
	}
	if (h->ntail == h->tail_cap) {
		/*
		 * A tail of at least half the sorted part makes each merge,
		 * O(nsorted + tail log tail), cost O(log n) per value added.
		 */
		exact_compact(h);
		want = max_u64(EXACT_TAIL_MIN, h->nsorted / 2);
		ret = exact_reserve(h, want);
		if (ret)
			return ret;
	}
	exact_put(h, value, count);
	return 0;
}

/* The summary fields shared by every kind. */
static void note_samples(struct eevdf_hist *h, s64 lo, s64 hi, u64 count,
			 u128 sum)
{
	if (!h->count || lo < h->min)
		h->min = lo;
	if (!h->count || hi > h->max)
		h->max = hi;
	h->count += count;
	h->sum += sum;
}

int eevdf__hist_add(struct eevdf_hist *h, s64 value, u64 count)
{
	int ret;

	if (value < 0 || count > UINT64_MAX - h->count)
		return EEVDF_ERANGE;
	if (!count)
		return 0;
	if (h->kind == EEVDF_HIST_EXACT) {
		ret = exact_add(h, value, count);
		if (ret)
			return ret;
	} else {
		h->buckets[bucket_of(h, value)] += count;
	}
	note_samples(h, value, value, count, (u128)(u64)value * count);
	return 0;
}

void eevdf__hist_reset(struct eevdf_hist *h)
{
	unsigned int lo, hi;

	/* Samples only ever touch the buckets from min's to max's. */
	if (h->kind != EEVDF_HIST_EXACT && h->count) {
		lo = bucket_of(h, h->min);
		hi = bucket_of(h, h->max);
		memset(h->buckets + lo, 0, (hi - lo + 1) * sizeof(*h->buckets));
	}
	h->nsorted = 0;
	h->ntail = 0;
	h->count = 0;
	h->sum = 0;
	h->min = 0;
	h->max = 0;
}

int eevdf__hist_merge(struct eevdf_hist *dst, const struct eevdf_hist *src)
{
	size_t i, ns, nt;
	unsigned int lo, hi, b;
	int ret;

	if (dst->kind != src->kind)
		return EEVDF_EINVAL;
	if (src->count > UINT64_MAX - dst->count)
		return EEVDF_ERANGE;
	if (!src->count)
		return 0;
	if (dst->kind == EEVDF_HIST_EXACT) {
		/* Sizes first: dst may be src, whose arrays may move. */
		ns = src->nsorted;
		nt = src->ntail;
		if (ns + nt > SIZE_MAX - dst->ntail)
			return EEVDF_ENOMEM;
		ret = exact_reserve(dst, dst->ntail + ns + nt);
		if (ret)
			return ret;
		for (i = 0; i < ns; i++)
			exact_put(dst, src->sorted[i].value,
				  src->sorted[i].count);
		for (i = 0; i < nt; i++)
			exact_put(dst, src->tail[i].value, src->tail[i].count);
	} else {
		lo = bucket_of(src, src->min);
		hi = bucket_of(src, src->max);
		for (b = lo; b <= hi; b++)
			dst->buckets[b] += src->buckets[b];
	}
	note_samples(dst, src->min, src->max, src->count, src->sum);
	return 0;
}

s64 eevdf__hist_sum(const struct eevdf_hist *h)
{
	return h->sum > (u128)INT64_MAX ? INT64_MAX : (s64)h->sum;
}

s64 eevdf__hist_mean(const struct eevdf_hist *h)
{
	/* The mean lies between min and max, so it fits. */
	return h->count ? (s64)(h->sum / h->count) : 0;
}

/*
 * A walk over the buckets in increasing order of value, as (reported
 * value, count) pairs.  FIO_PLAT8 walks all 4864 buckets from 0, empty
 * ones included, exactly as schbench's loop (it matters only for p = 0,
 * which stops at bucket 0).  HDR3 walks from min's bucket to max's; EXACT
 * its sorted values, after merging the tail.
 */
struct walk {
	const struct eevdf_hist *h;
	size_t i, end;
};

static void walk_start(struct walk *w, struct eevdf_hist *h)
{
	w->h = h;
	if (h->kind == EEVDF_HIST_EXACT) {
		exact_compact(h);
		w->i = 0;
		w->end = h->nsorted;
	} else if (h->kind == EEVDF_HIST_FIO_PLAT8) {
		w->i = 0;
		w->end = EEVDF_PLAT_NR;
	} else {
		w->i = bucket_of(h, h->min);
		w->end = (size_t)bucket_of(h, h->max) + 1;
	}
}

static bool walk_next(struct walk *w, s64 *value, u64 *count)
{
	const struct eevdf_hist *h = w->h;
	u64 v;

	if (w->i >= w->end)
		return false;
	if (h->kind == EEVDF_HIST_EXACT) {
		*value = h->sorted[w->i].value;
		*count = h->sorted[w->i].count;
	} else if (h->kind == EEVDF_HIST_FIO_PLAT8) {
		*value = (s64)eevdf__plat_idx_to_val((unsigned int)w->i);
		*count = h->buckets[w->i];
	} else {
		v = eevdf__hdr3_idx_highest((unsigned int)w->i);
		*value = v < (u64)h->max ? (s64)v : h->max;
		*count = h->buckets[w->i];
	}
	w->i++;
	return true;
}

/* The walk behind both percentile calls; plist already validated. */
static void percentiles(struct eevdf_hist *h, const unsigned int *plist,
			size_t n, struct eevdf_hist_pct *out)
{
	struct walk w;
	u64 cum = 0, c;
	size_t j = 0;
	s64 v;

	for (j = 0; j < n; j++) {
		out[j].permille = plist[j];
		out[j].value = 0;
		out[j].cum = 0;
		out[j].samples = 0;
	}
	if (!h->count)
		return;
	j = 0;
	walk_start(&w, h);
	while (j < n && walk_next(&w, &v, &c)) {
		cum += c;
		/* u128: cum * 1000 passes 2^64 from 1.8e16 samples on. */
		while (j < n && (u128)cum * 1000 >= (u128)plist[j] * h->count) {
			out[j].value = v;
			out[j].cum = cum;
			j++;
		}
	}
	/* The last bucket brings cum to count, which meets any p <= 1000. */
	EEVDF_ASSERT(j == n);
	out[0].samples = out[0].cum;
	for (j = 1; j < n; j++)
		out[j].samples = out[j].cum - out[j - 1].cum;
}

s64 eevdf__hist_percentile(struct eevdf_hist *h, unsigned int permille)
{
	struct eevdf_hist_pct out;

	if (permille > 1000)
		permille = 1000;
	percentiles(h, &permille, 1, &out);
	return out.value;
}

static bool plist_ok(const unsigned int *plist, size_t n)
{
	size_t i;

	if (!plist || n == 0 || n > EEVDF_HIST_PLIST_MAX)
		return false;
	for (i = 0; i < n; i++) {
		if (plist[i] > 1000 || (i && plist[i] < plist[i - 1]))
			return false;
	}
	return true;
}

int eevdf__hist_percentiles(struct eevdf_hist *h, const unsigned int *plist,
			    size_t n, struct eevdf_hist_pct *out)
{
	if (!plist_ok(plist, n))
		return EEVDF_EINVAL;
	percentiles(h, plist, n, out);
	return 0;
}

/* Formatted output to a FILE or, snprintf-style, to a buffer. */
struct sink {
	FILE *f;
	char *buf;
	size_t len, pos;
	bool failed;
};

static void sink_printf(struct sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sink_printf(struct sink *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (s->f) {
		n = vfprintf(s->f, fmt, ap);
	} else {
		/* Past the end, only measure: buf + pos would be out of
		 * bounds, and the text already written is terminated. */
		bool room = s->buf && s->pos < s->len;

		n = vsnprintf(room ? s->buf + s->pos : NULL,
			      room ? s->len - s->pos : 0, fmt, ap);
	}
	va_end(ap);
	if (n < 0)
		s->failed = true;
	else
		s->pos += (size_t)n;
}

/*
 * schbench's show_latencies(), with its printf formats.  Two are spelled
 * differently for the same bytes: the label "%2.1f" of plist[i] is
 * "%u.%u" of the per-mille value (one decimal, and never narrower than
 * the width 2), and the %u / %lu values are PRIu64 (the same digits for
 * every value schbench's unsigned int could hold).  From the percentiles
 * already computed, so that a histogram and its summary print alike.
 */
static int schbench_print_pct(struct sink *s, u64 count, s64 min, s64 max,
			      const struct eevdf_hist_pct *out, size_t n,
			      const struct eevdf_hist_report *rep)
{
	size_t i;

	if (rep->star < -1 || rep->star >= (int)n)
		return EEVDF_EINVAL;
	sink_printf(s,
		    "%s percentiles (%s) runtime %llu (s) (%" PRIu64
		    " total samples)\n",
		    rep->label, rep->units, rep->runtime, count);
	for (i = 0; i < n; i++) {
		if (!(rep->mask & (1ul << i)))
			continue;
		sink_printf(s,
			    "\t%s%u.%uth: %-10" PRIu64 " (%" PRIu64
			    " samples)\n",
			    (int)i == rep->star ? "* " : "  ",
			    out[i].permille / 10, out[i].permille % 10,
			    (u64)out[i].value, out[i].samples);
	}
	sink_printf(s, "\t  min=%" PRIu64 ", max=%" PRIu64 "\n", (u64)min,
		    (u64)max);
	return 0;
}

static int schbench_print(struct sink *s, struct eevdf_hist *h,
			  const struct eevdf_hist_report *rep)
{
	static const unsigned int def[] = EEVDF_HIST_SCHBENCH_PLIST;
	struct eevdf_hist_pct out[EEVDF_HIST_PLIST_MAX];
	const unsigned int *plist = rep->plist ? rep->plist : def;
	size_t n = rep->plist ? rep->nplist : ARRAY_SIZE(def);

	if (!plist_ok(plist, n))
		return EEVDF_EINVAL;
	percentiles(h, plist, n, out);
	return schbench_print_pct(s, h->count, h->min, h->max, out, n, rep);
}

int eevdf__hist_schbench_fprint(FILE *f, struct eevdf_hist *h,
				const struct eevdf_hist_report *rep)
{
	struct sink s = { .f = f };
	int ret = schbench_print(&s, h, rep);

	if (ret)
		return ret;
	return s.failed ? EEVDF_EIO : 0;
}

int eevdf__hist_schbench_snprint(char *buf, size_t len, struct eevdf_hist *h,
				 const struct eevdf_hist_report *rep)
{
	struct sink s = { .buf = buf, .len = len };
	int ret = schbench_print(&s, h, rep);

	if (ret)
		return ret;
	if (s.failed || s.pos > INT32_MAX)
		return EEVDF_EINVAL;
	return (int)s.pos;
}

int eevdf__hist_summarize(struct eevdf_hist *h, const unsigned int *plist,
			  size_t n, struct eevdf_hist_summary *out)
{
	static const unsigned int def[] = EEVDF_HIST_SCHBENCH_PLIST;

	if (!plist) {
		plist = def;
		n = ARRAY_SIZE(def);
	}
	if (!plist_ok(plist, n) || n > EEVDF_HIST_SUMMARY_MAX)
		return EEVDF_EINVAL;
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!h) {
		/* what percentiles() gives an empty histogram */
		for (size_t i = 0; i < n; i++)
			out->pct[i].permille = plist[i];
		return 0;
	}
	out->count = h->count;
	out->min = h->min;
	out->max = h->max;
	percentiles(h, plist, n, out->pct);
	return 0;
}

int eevdf__hist_schbench_snprint_summary(char *buf, size_t len,
					 const struct eevdf_hist_summary *sum,
					 const struct eevdf_hist_report *rep)
{
	struct sink s = { .buf = buf, .len = len };
	int ret;

	if (rep->plist || !sum->n || sum->n > EEVDF_HIST_SUMMARY_MAX)
		return EEVDF_EINVAL;
	ret = schbench_print_pct(&s, sum->count, sum->min, sum->max, sum->pct,
				 sum->n, rep);
	if (ret)
		return ret;
	if (s.failed || s.pos > INT32_MAX)
		return EEVDF_EINVAL;
	return (int)s.pos;
}
