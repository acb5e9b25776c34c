/* SPDX-License-Identifier: MIT */
/*
 * The event queue: an intrusive binary min-heap of event pointers ordered
 * by eevdf__event_before() (time, class, seq).  See eventq.h.
 */
#include "eventq.h"

/*
 * The first allocation holds this many events; a small simulation never
 * reallocates, and doubling keeps pushes amortised O(1) beyond that.
 */
#define EVENTQ_INITIAL_CAP 64

void eevdf__eventq_init(struct eevdf_eventq *q)
{
	q->heap = NULL;
	q->nr = 0;
	q->cap = 0;
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

/* Put ev at slot i and keep its back-pointer in step. */
static void eventq_place(struct eevdf_eventq *q, size_t i,
			 struct eevdf_event *ev)
{
	q->heap[i] = ev;
	ev->heap_index = i;
}

/*
 * Move the event at slot i towards the root while it sorts before its
 * parent.  Parents slide down into the hole so that each level costs one
 * store instead of a swap.
 */
static void eventq_sift_up(struct eevdf_eventq *q, size_t i)
{
	struct eevdf_event *ev = q->heap[i];

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!eevdf__event_before(ev, q->heap[parent]))
			break;
		eventq_place(q, i, q->heap[parent]);
		i = parent;
	}
	eventq_place(q, i, ev);
}

/* Move the event at slot i towards the leaves while a child sorts first. */
static void eventq_sift_down(struct eevdf_eventq *q, size_t i)
{
	struct eevdf_event *ev = q->heap[i];
	size_t nr = q->nr;

	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= nr)
			break;
		if (child + 1 < nr &&
		    eevdf__event_before(q->heap[child + 1], q->heap[child]))
			child++;
		if (!eevdf__event_before(q->heap[child], ev))
			break;
		eventq_place(q, i, q->heap[child]);
		i = child;
	}
	eventq_place(q, i, ev);
}

/* Make room for one more event; the queue is unchanged on failure. */
static int eventq_grow(struct eevdf_eventq *q)
{
	struct eevdf_event **heap;
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

int eevdf__eventq_push(struct eevdf_eventq *q, struct eevdf_event *ev)
{
	int err;

	/* A double push would leave two slots pointing at one event. */
	EEVDF_ASSERT(!eevdf__event_queued(ev));

	err = eventq_grow(q);
	if (err)
		return err;

	/*
	 * seq is taken only once the push cannot fail, so a failed push
	 * leaves no gap and the numbering stays identical to a run that
	 * never hit the failure.
	 */
	ev->seq = q->next_seq++;
	eventq_place(q, q->nr, ev);
	q->nr++;
	eventq_sift_up(q, q->nr - 1);
	return 0;
}

/*
 * Remove the event at slot i: the last event fills the hole and then moves
 * whichever way restores the heap.  It can only need to go up when the
 * hole was not on its root path, which is why both directions are tried.
 */
static void eventq_remove_at(struct eevdf_eventq *q, size_t i)
{
	struct eevdf_event *ev = q->heap[i];
	struct eevdf_event *last;

	q->nr--;
	if (i != q->nr) {
		last = q->heap[q->nr];
		eventq_place(q, i, last);
		if (i > 0 && eevdf__event_before(last, q->heap[(i - 1) / 2]))
			eventq_sift_up(q, i);
		else
			eventq_sift_down(q, i);
	}
	q->heap[q->nr] = NULL;
	ev->heap_index = EEVDF_EV_NOT_QUEUED;
}

struct eevdf_event *eevdf__eventq_pop(struct eevdf_eventq *q)
{
	struct eevdf_event *ev;

	if (q->nr == 0)
		return NULL;
	ev = q->heap[0];
	eventq_remove_at(q, 0);
	return ev;
}

void eevdf__eventq_cancel(struct eevdf_eventq *q, struct eevdf_event *ev)
{
	size_t i = ev->heap_index;

	if (i == EEVDF_EV_NOT_QUEUED)
		return;
	/* Queued, but not here: the event belongs to another queue. */
	EEVDF_ASSERT(i < q->nr && q->heap[i] == ev);
	eventq_remove_at(q, i);
}
