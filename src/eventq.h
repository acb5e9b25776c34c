/* SPDX-License-Identifier: MIT */
/*
 * The event queue: a 4-ary min-heap of slots ordered by (time, class,
 * seq), with lazy cancellation.
 *
 * Events are embedded in their owners (a task's timer, a CPU's tick) and
 * found back with container_of().  seq is assigned from a per-queue counter
 * at every push, so two events with equal time and class pop in the order
 * they were pushed: the order never depends on pointers, builds or runs.
 *
 * Each slot carries its event's key, so sifting works inside the heap
 * array alone and never touches an event: with hundreds of thousands of
 * events spread through task structs, every event touched while sifting
 * was a cache miss.  Cancelling only marks the event: its slot stays in
 * the heap, stale, and is dropped when it reaches the top (a slot is live
 * while its event is queued with the slot's seq, and each push takes a
 * new seq).  When stale slots outnumber live ones the heap is rebuilt from
 * the live slots, so it holds at most about twice the queued events.
 *
 * Invariants: every parent slot is <= its children; each queued event has
 * exactly one live slot; nr_live is the number of queued events.
 */
#ifndef EEVDF_EVENTQ_H
#define EEVDF_EVENTQ_H

#include "internal.h"

struct eevdf_event {
	eevdf_time time;
	u32 class;       /* same-time order: lower runs first */
	u32 type;        /* for the dispatcher; the queue ignores it */
	u64 seq;         /* push order, assigned by eevdf__eventq_push */
	bool queued;
};

/* A heap slot: the event's order key, copied in at push. */
struct eevdf_eq_slot {
	eevdf_time time;
	u64 key;          /* class << 48 | seq: seq stays below 2^48 */
	struct eevdf_event *ev;
};

#define EQ_SEQ_BITS 48
#define EQ_SEQ_MASK (((u64)1 << EQ_SEQ_BITS) - 1)

struct eevdf_eventq {
	struct eevdf_eq_slot *heap;
	size_t nr;       /* slots, live and stale */
	size_t cap;
	size_t nr_live;  /* queued events */
	u64 next_seq;
};

/* Mark an event as not queued (call once before first use). */
static inline void eevdf__event_init(struct eevdf_event *ev, u32 type,
				     u32 class)
{
	ev->time = 0;
	ev->class = class;
	ev->type = type;
	ev->seq = 0;
	ev->queued = false;
}

static inline bool eevdf__event_queued(const struct eevdf_event *ev)
{
	return ev->queued;
}

/* Strict total order: time, then class, then seq. */
static inline bool eevdf__event_before(const struct eevdf_event *a,
				       const struct eevdf_event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->class != b->class)
		return a->class < b->class;
	return a->seq < b->seq;
}

/* Is the slot its event's current one? */
static inline bool eevdf__eq_slot_live(const struct eevdf_eq_slot *s)
{
	return s->ev->queued && s->ev->seq == (s->key & EQ_SEQ_MASK);
}

void eevdf__eventq_init(struct eevdf_eventq *q);
void eevdf__eventq_destroy(struct eevdf_eventq *q);

/*
 * Queue ev at ev->time (the caller sets time and may set class first).  ev
 * must not be queued already.  Returns 0 or EEVDF_ENOMEM (ev not queued).
 */
int eevdf__eventq_push(struct eevdf_eventq *q, struct eevdf_event *ev);

/* The earliest event, or NULL when empty (stale slots on top are
 * dropped on the way, hence the non-const queue). */
struct eevdf_event *eevdf__eventq_peek(struct eevdf_eventq *q);

/* Remove and return the earliest event (marked not queued), or NULL. */
struct eevdf_event *eevdf__eventq_pop(struct eevdf_eventq *q);

/* Remove ev if queued; a no-op otherwise. */
void eevdf__eventq_cancel(struct eevdf_eventq *q, struct eevdf_event *ev);

/* Number of queued events. */
static inline size_t eevdf__eventq_size(const struct eevdf_eventq *q)
{
	return q->nr_live;
}

#endif
