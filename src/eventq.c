/* SPDX-License-Identifier: MIT */
/*
 * The event queue: a 4-ary min-heap of slots carrying their events' keys,
 * ordered by (time, class, seq), with lazy cancellation.  See eventq.h.
 */
#include "eventq.h"

/*
 * The first allocation holds this many slots; a small simulation never
 * reallocates, and doubling keeps pushes amortised O(1) beyond that.
 */
#define EVENTQ_INITIAL_CAP 64

/* Children of slot i are 4i+1 .. 4i+4: half the depth of a binary heap. */
#define EQ_ARITY 4

/* Rebuild once stale slots outnumber live ones (and are this many). */
#define EQ_COMPACT_MIN 256

void eevdf__eventq_init(struct eevdf_eventq *q)
{
	q->heap = NULL;
	q->nr = 0;
	q->cap = 0;
	q->nr_live = 0;
	q->next_seq = 0;
}

void eevdf__eventq_destroy(struct eevdf_eventq *q)
{
	/*
	 * Events belong to their owners, so they are left alone; leaving the
	 * queue empty rather than dangling makes a second destroy harmless.
	 */
	free(q->heap);
	eevdf__eventq_init(q);
}

static inline bool slot_before(const struct eevdf_eq_slot *a,
			       const struct eevdf_eq_slot *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->key < b->key;
}

/*
 * Move the slot at i towards the root while it sorts before its parent.
 * Parents slide down into the hole so that each level costs one store
 * instead of a swap.
 */
static void eventq_sift_up(struct eevdf_eventq *q, size_t i)
{
	struct eevdf_eq_slot s = q->heap[i];

	while (i > 0) {
		size_t parent = (i - 1) / EQ_ARITY;

		if (!slot_before(&s, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = s;
}

/* Move the slot at i towards the leaves while a child sorts first. */
static void eventq_sift_down(struct eevdf_eventq *q, size_t i)
{
	struct eevdf_eq_slot s = q->heap[i];
	size_t nr = q->nr;

	for (;;) {
		size_t first = EQ_ARITY * i + 1, best, end;

		if (first >= nr)
			break;
		end = first + EQ_ARITY < nr ? first + EQ_ARITY : nr;
		best = first;
		for (size_t c = first + 1; c < end; c++)
			if (slot_before(&q->heap[c], &q->heap[best]))
				best = c;
		if (!slot_before(&q->heap[best], &s))
			break;
		q->heap[i] = q->heap[best];
		i = best;
	}
	q->heap[i] = s;
}

/* Make room for one more slot; the queue is unchanged on failure. */
static int eventq_grow(struct eevdf_eventq *q)
{
	struct eevdf_eq_slot *heap;
	size_t cap;

	if (q->nr < q->cap)
		return 0;
	if (q->cap == 0) {
		cap = EVENTQ_INITIAL_CAP;
	} else {
		/* Refuse rather than wrap the byte count. */
		if (q->cap > SIZE_MAX / 2 / sizeof(*heap))
			return EEVDF_ENOMEM;
		cap = q->cap * 2;
	}
	heap = realloc(q->heap, cap * sizeof(*heap));
	if (!heap)
		return EEVDF_ENOMEM;
	q->heap = heap;
	q->cap = cap;
	return 0;
}

/* Drop the top slot. */
static void eventq_drop_top(struct eevdf_eventq *q)
{
	if (--q->nr) {
		q->heap[0] = q->heap[q->nr];
		eventq_sift_down(q, 0);
	}
}

/*
 * Keep the live slots, in array order, and heapify them bottom-up: the
 * result depends only on the slots, so it is the same on every run.
 */
static void eventq_compact(struct eevdf_eventq *q)
{
	size_t n = 0;

	for (size_t i = 0; i < q->nr; i++)
		if (eevdf__eq_slot_live(&q->heap[i]))
			q->heap[n++] = q->heap[i];
	q->nr = n;
	if (n > 1)
		for (size_t i = (n - 2) / EQ_ARITY + 1; i-- > 0;)
			eventq_sift_down(q, i);
}

int eevdf__eventq_push(struct eevdf_eventq *q, struct eevdf_event *ev)
{
	struct eevdf_eq_slot s;
	int err;

	/* A double push would leave two live slots for one event. */
	EEVDF_ASSERT(!ev->queued);

	err = eventq_grow(q);
	if (err)
		return err;

	/*
	 * seq is taken only once the push cannot fail, so a failed push
	 * leaves no gap and the numbering stays identical to a run that
	 * never hit the failure.
	 */
	ev->seq = q->next_seq++;
	EEVDF_ASSERT(ev->seq <= EQ_SEQ_MASK && ev->class < (1u << 16));
	ev->queued = true;
	s.time = ev->time;
	s.key = (u64)ev->class << EQ_SEQ_BITS | ev->seq;
	s.ev = ev;
	q->heap[q->nr] = s;
	q->nr++;
	q->nr_live++;
	eventq_sift_up(q, q->nr - 1);
	return 0;
}

struct eevdf_event *eevdf__eventq_peek(struct eevdf_eventq *q)
{
	while (q->nr && !eevdf__eq_slot_live(&q->heap[0]))
		eventq_drop_top(q);
	return q->nr ? q->heap[0].ev : NULL;
}

struct eevdf_event *eevdf__eventq_pop(struct eevdf_eventq *q)
{
	struct eevdf_event *ev = eevdf__eventq_peek(q);

	if (!ev)
		return NULL;
	eventq_drop_top(q);
	ev->queued = false;
	q->nr_live--;
	return ev;
}

void eevdf__eventq_cancel(struct eevdf_eventq *q, struct eevdf_event *ev)
{
	if (!ev->queued)
		return;
	ev->queued = false;
	q->nr_live--;
	if (q->nr - q->nr_live > q->nr_live &&
	    q->nr - q->nr_live >= EQ_COMPACT_MIN)
		eventq_compact(q);
}
