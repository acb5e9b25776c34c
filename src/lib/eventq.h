/* SPDX-License-Identifier: MIT */
/*
 * The event queue: an intrusive 4-ary min-heap of events ordered by
 * (time, class, seq).  Each slot carries its event's key, so sifting
 * compares within the heap array and touches an event only to update its
 * index: with thousands of events spread through memory, comparisons
 * that dereferenced them were a fifth of a busy simulation's time.
 *
 * Events are embedded in their owners (a task's timer, a CPU's tick) and
 * found back with container_of().  seq is assigned from a per-queue counter
 * at every push, so two events with equal time and class pop in the order
 * they were pushed: the order never depends on pointers, builds or runs.
 * Each event stores its heap index, which makes cancel O(log n) with no
 * search.  Beside the heap, each CPU's running burst end waits in a lane
 * of a winner tree (struct eevdf_eventq below), with the same key.
 *
 * Tried and measured, not kept: sorted lanes for far-future events
 * (schbench -1 % instructions, tbench +0.6 %), and a calendar queue's
 * near-future buckets in front of the heap (-3 to -9 % instructions, but
 * the buckets' slots sweep through the cache once per window, about 37
 * bytes an event: tbench-64 ran 12 % slower in CPU time).  Also tried:
 * slots naming a handle whose position sits in a dense side array, so
 * that a sift stores no index into the events it moves (perf put a
 * quarter of eventq_sift_down()'s samples on that store).  cachegrind
 * counted as many L1 misses as before, now at the pop, which touches its
 * event anyway, 2 % more instructions, and tbench-64 ran 7 % slower.  And
 * parking an idle CPU's tick in the heap, dead, for the next switch-in to
 * revive in place rather than a cancel and a push (44 695 of 44 817
 * parked ticks of a 30 ms schbench were revived; a re-key that sinks no
 * longer filled a dead root first): -0.4 % instructions on schbench,
 * none on tbench-64, +0.4 % on 1 000 massive_intr tasks on 128 CPUs,
 * where the revived tick sifts past the other CPUs' ticks of the same
 * instant and every pop and peek tests the root for a parked event.
 * And the CPUs' ticks in a FIFO ring beside the heap (every CPU ticks on
 * one grid, so a tick queued again sorts after every queued tick), with
 * one proxy in the heap keyed as the ring's first: 7.6 % fewer
 * instructions and 6.4 % fewer L1 misses on 100 000 tasks on 1 024 CPUs
 * (no fewer last-level misses, which bound that run), none fewer on 8
 * hogs (the proxy's re-key sifts about as far as the tick did), and
 * 0.4 % more on schbench and tbench-64, where CPUs going idle and busy
 * empty and refill the ring and every peek tests for the proxy (0.25 %
 * more with only the periodic re-arm in the ring).
 *
 * Invariants: heap[i].ev->heap_index == i for i < nr (but for a dead root,
 * see below), and heap[i]'s key is its event's (time, class, seq); every
 * parent is <= its children; an event in lane k has heap_index
 * EEVDF_EV_IN_LANE | k; an event not queued has heap_index ==
 * EEVDF_EV_NOT_QUEUED.  Once allocated, the array has at least three
 * slots beyond nr, and every slot from nr on is a sentinel that sorts
 * after any event, so a sift reads four children with no bound check.
 */
#ifndef EEVDF_EVENTQ_H
#define EEVDF_EVENTQ_H

#include "internal.h"

#define EEVDF_EV_NOT_QUEUED SIZE_MAX
/* heap_index of an event in a lane: this bit, or the lane's number */
#define EEVDF_EV_IN_LANE ((size_t)1 << (sizeof(size_t) * 8 - 2))

struct eevdf_event {
	eevdf_time time;
	u32 class; /* same-time order: lower runs first */
	u32 type;  /* for the dispatcher; the queue ignores it */
	u64 seq;   /* push order, assigned by eevdf__eventq_push */
	size_t heap_index;
};

/* A heap slot: the event's order key, copied in at push. */
struct eevdf_eq_slot {
	eevdf_time time;
	u64 key; /* class << 48 | seq: seq stays below 2^48 */
	struct eevdf_event *ev;
};

/*
 * A pop leaves the root's slot in place, dead (root_dead): half the pops
 * of a busy run are followed at once by a push (the popped event's owner
 * re-arms it, a task's next burst), and that push takes the root slot
 * and sifts down, often not at all, instead of a pop that sinks the hole
 * to a leaf and a push that climbs back up.  Any other
 * operation first fills the hole as a pop would have.  The order events
 * pop in is that of their keys alone, so it is the same either way.
 */
/*
 * Lanes: beside the heap, nr_lanes slots of one event each (a CPU's
 * running task's burst end, eevdf__eventq_requeue_lane()), kept in a
 * winner tree: node 1 is the root, node k's children are 2k and 2k + 1,
 * and the lane_leaves leaves (nr_lanes rounded up to a power of two)
 * follow from node lane_leaves on.  Each node holds a copy of the
 * earliest slot below it, a sentinel when there is none.  A burst end is
 * most of a busy run's events and lands among the other CPUs' burst
 * ends, near the top of the heap's order but not at it: in the heap it
 * sank through most levels (tbench-64: 300 instructions a push, 12 % of
 * the run).  In the tree a re-key replays one leaf's path, log2 of the
 * CPUs, one compare a level on a small array.  A pop takes whichever of
 * the tree's root and the heap's earliest sorts first: every event keeps
 * the key a push would give it, so the order events pop in is the same.
 */
struct eevdf_eventq {
	struct eevdf_eq_slot *heap;
	size_t nr; /* slots in use, the dead root included */
	size_t cap;
	u64 next_seq;
	bool root_dead;
	struct eevdf_eq_slot *lane; /* 2 * lane_leaves nodes, or NULL */
	u32 nr_lanes, lane_leaves;
	u32 nr_in_lanes; /* lanes holding an event */
	u32 lane_dead;	 /* a popped leaf's node, still in the tree, or 0 */
};

/* Mark an event as not queued (call once before first use). */
static inline void eevdf__event_init(struct eevdf_event *ev, u32 type,
				     u32 class)
{
	ev->time = 0;
	ev->class = class;
	ev->type = type;
	ev->seq = 0;
	ev->heap_index = EEVDF_EV_NOT_QUEUED;
}

static inline bool eevdf__event_queued(const struct eevdf_event *ev)
{
	return ev->heap_index != EEVDF_EV_NOT_QUEUED;
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

void eevdf__eventq_init(struct eevdf_eventq *q);
void eevdf__eventq_destroy(struct eevdf_eventq *q);

/*
 * Queue ev at ev->time; the caller sets time and may set class first.  ev
 * must not be queued already.  Returns 0 or EEVDF_ENOMEM (ev not queued).
 */
int eevdf__eventq_push(struct eevdf_eventq *q, struct eevdf_event *ev);

/*
 * Queue ev at when, whether or not it is queued already: the same as
 * eevdf__eventq_cancel() then a push at when (ev gets the next seq), so the
 * order events pop in is the same, but a queued event moves from its slot
 * in one sift instead of a removal and an insertion.  Returns 0, or
 * EEVDF_ENOMEM or EEVDF_ERANGE as a push does (ev is then not queued).
 */
int eevdf__eventq_requeue(struct eevdf_eventq *q, struct eevdf_event *ev,
			  eevdf_time when);

/*
 * Give q n lanes (see struct eevdf_eventq); before any is used, once.
 * Returns 0 or EEVDF_ENOMEM (q keeps none).
 */
int eevdf__eventq_set_lanes(struct eevdf_eventq *q, u32 n);

/*
 * eevdf__eventq_requeue() into lane: the same key, the same order, but ev
 * waits in the lane's slot, and in the heap when the lane has none (lane
 * >= nr_lanes) or its slot holds another event.  EEVDF_ERANGE (past the
 * keys' limits) leaves ev where it was.
 */
int eevdf__eventq_requeue_lane(struct eevdf_eventq *q, struct eevdf_event *ev,
			       eevdf_time when, u32 lane);

/*
 * For the invariant checker: NULL when lane k's leaf and its path to the
 * root are sound (an occupied leaf names its event, which names the lane
 * back and carries the leaf's key; every node on the path holds the
 * earlier of its children), else what is wrong.  O(log lanes).
 */
const char *eevdf__eventq_check_lane(const struct eevdf_eventq *q, u32 k);

/* Fill the hole a pop left at the root, if any (then heap[0..nr) are
 * exactly the queued events). */
void eevdf__eventq_flush(struct eevdf_eventq *q);

/* The earliest event, or NULL when empty. */
struct eevdf_event *eevdf__eventq_peek(struct eevdf_eventq *q);

/*
 * After a pop, the event that will pop next unless a push comes first:
 * the earliest of the dead root's children.  NULL when there is none.
 * For prefetching only: nothing may depend on it being right.
 */
const struct eevdf_event *eevdf__eventq_next_hint(const struct eevdf_eventq *q);

/* Remove and return the earliest event (marked not queued), or NULL. */
struct eevdf_event *eevdf__eventq_pop(struct eevdf_eventq *q);

/*
 * Remove and return ev, which eevdf__eventq_peek() has just returned with
 * nothing queued, re-keyed, cancelled or popped since: what a pop would
 * return, without comparing the lanes with the heap again (an event loop
 * peeks at the time of the next event, then runs it).
 */
struct eevdf_event *eevdf__eventq_take(struct eevdf_eventq *q,
				       struct eevdf_event *ev);

/* Remove ev if queued; a no-op otherwise. */
void eevdf__eventq_cancel(struct eevdf_eventq *q, struct eevdf_event *ev);

/* Number of queued events. */
static inline size_t eevdf__eventq_size(const struct eevdf_eventq *q)
{
	return q->nr - (size_t)q->root_dead + q->nr_in_lanes;
}

#endif
