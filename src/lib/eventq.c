/* SPDX-License-Identifier: MIT */
/*
 * The event queue: an intrusive 4-ary min-heap of slots carrying their
 * events' keys, ordered by (time, class, seq).  See eventq.h.
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
	q->root_dead = false;
	q->lane = NULL;
	q->nr_lanes = 0;
	q->lane_leaves = 0;
	q->nr_in_lanes = 0;
	q->lane_dead = 0;
}

void eevdf__eventq_destroy(struct eevdf_eventq *q)
{
	/*
	 * Events belong to their owners, so they are left alone; leaving the
	 * queue empty rather than dangling makes a second destroy harmless.
	 */
	free(q->heap);
	free(q->lane);
	eevdf__eventq_init(q);
}

/* Children of slot i are 4i+1 .. 4i+4: half the depth of a binary heap. */
#define EQ_ARITY 4

/*
 * (time, key) as one 128-bit number, time's sign bit flipped so that
 * signed order is unsigned order: a compare without a data-dependent
 * branch, which the choice among four children turns into conditional
 * moves.  A mispredicted branch per level was most of a sift's cost.
 */
static inline u128 slot_rank(const struct eevdf_eq_slot *s)
{
	return (u128)((u64)s->time ^ ((u64)1 << 63)) << 64 | s->key;
}

static inline bool slot_before(const struct eevdf_eq_slot *a,
			       const struct eevdf_eq_slot *b)
{
	return slot_rank(a) < slot_rank(b);
}

/*
 * (time, class, seq) packs class and seq into 64 bits: 2^48 events in one
 * run are more than a run can hold.  Whether ev's next key would not fit.
 */
static inline bool key_out_of_range(const struct eevdf_eventq *q,
				    const struct eevdf_event *ev)
{
	return q->next_seq >= ((u64)1 << 48) || ev->class >= (1u << 16);
}

/* ev's slot: its time and its packed key (class, seq). */
static inline struct eevdf_eq_slot slot_of(struct eevdf_event *ev)
{
	return (struct eevdf_eq_slot){ ev->time, (u64)ev->class << 48 | ev->seq,
				       ev };
}

/*
 * Every slot from nr on holds SENTINEL, a rank no event reaches (time
 * INT64_MAX, past EEVDF_TIME_MAX where simulated time ends), and the
 * array always has EQ_ARITY - 1 slots beyond nr.  A node with a first
 * child therefore always has all four, real or sentinel, and the scan
 * below needs no bound: three compares, no loop.  On a tie a real child
 * would win, being at the lower index.  Measured on tbench-64, sifting
 * was 13 % of the instructions.
 */
static const struct eevdf_eq_slot SENTINEL = { INT64_MAX, UINT64_MAX, NULL };

/* The earliest of the four children from first on, and its rank. */
static inline size_t best_child(const struct eevdf_eventq *q, size_t first,
				u128 *rank)
{
	const struct eevdf_eq_slot *c = &q->heap[first];
	u128 r1 = slot_rank(&c[1]), r2 = slot_rank(&c[2]);
	u128 r3 = slot_rank(&c[3]), br = slot_rank(&c[0]);
	size_t off = 0, m;

	/*
	 * Which child wins is data, not a pattern a branch could learn.
	 * The rank's select compiles to conditional moves; the index's is
	 * written with masks, because for it (a ?: of constants) gcc 12
	 * emits a branch.
	 */
	m = -(size_t)(r1 < br);
	off = (off & ~m) | (1 & m);
	br = r1 < br ? r1 : br;
	m = -(size_t)(r2 < br);
	off = (off & ~m) | (2 & m);
	br = r2 < br ? r2 : br;
	m = -(size_t)(r3 < br);
	off = (off & ~m) | (3 & m);
	br = r3 < br ? r3 : br;
	*rank = br;
	return first + off;
}

/* Lanes (struct eevdf_eventq) ----------------------------------------- */

static inline bool in_lane(size_t heap_index)
{
	return heap_index != EEVDF_EV_NOT_QUEUED &&
	       (heap_index & EEVDF_EV_IN_LANE);
}

int eevdf__eventq_set_lanes(struct eevdf_eventq *q, u32 n)
{
	u32 leaves = 1;

	if (q->lane || !n)
		return 0;
	while (leaves < n)
		leaves *= 2;
	q->lane = malloc(2 * (size_t)leaves * sizeof(*q->lane));
	if (!q->lane)
		return EEVDF_ENOMEM;
	for (size_t i = 0; i < 2 * (size_t)leaves; i++)
		q->lane[i] = SENTINEL;
	q->nr_lanes = n;
	q->lane_leaves = leaves;
	return 0;
}

/* The earlier of node's two children. */
static inline const struct eevdf_eq_slot *
lane_winner(const struct eevdf_eq_slot *t, size_t node)
{
	const struct eevdf_eq_slot *a = &t[2 * node];

	/* an index, not a ?: of pointers, which gcc 12 makes a branch:
	 * which child wins is data */
	return a + slot_before(a + 1, a);
}

/*
 * Leaf node changed: each node above takes the earlier of its two children
 * again, up to the root.  Every level, always: stopping where a node's copy
 * was already the winner cost more than it saved.  The stop came at a
 * different level each time, and the compare at each level cost more than
 * the levels it skipped (a 10 ms tbench-64, cachegrind: 925.0 M
 * instructions and 8.86 M mispredicts in its branch model with the stop,
 * 920.8 M and 8.46 M without).  It also makes the stale copies a dead leaf
 * leaves (lane_dead) plainly harmless: the next replay on that path
 * rewrites them all.  Carrying the winner up in registers, reading only the
 * sibling, measured 1 % more instructions: selecting a 24-byte slot costs
 * more than the second load.  Nodes that name their winning leaf (a
 * 4-byte store a level instead of a 24-byte copy) measured 0.5 % more on
 * tbench-64: the 24-byte stride costs an address computation for each of
 * the two leaves a level reads, and every peek follows the root's name.
 */
static void lane_replay(struct eevdf_eventq *q, size_t node)
{
	struct eevdf_eq_slot *t = q->lane;

	for (node /= 2; node; node /= 2)
		t[node] = *lane_winner(t, node);
}

/*
 * A pop from a lane leaves the leaf and its copies up the tree in place,
 * dead (lane_dead), as the heap leaves its root: the popped event's owner
 * most often queues it again in the same lane before the queue is read
 * (a task's next burst), and that then replays the path once, not twice.
 * Anything else that reads or changes the lanes first clears the leaf.
 */
static void lane_flush(struct eevdf_eventq *q)
{
	size_t node = q->lane_dead;

	if (!node)
		return;
	q->lane_dead = 0;
	q->lane[node] = SENTINEL;
	lane_replay(q, node);
}

const char *eevdf__eventq_check_lane(const struct eevdf_eventq *q, u32 k)
{
	size_t node;
	const struct eevdf_eq_slot *l;

	if (k >= q->nr_lanes)
		return NULL;
	node = q->lane_leaves + (size_t)k;
	l = &q->lane[node];
	/* a popped leaf stays in the tree, dead, its event gone */
	if (l->ev && q->lane_dead != node &&
	    (l->ev->heap_index != (EEVDF_EV_IN_LANE | k) ||
	     l->time != slot_of(l->ev).time || l->key != slot_of(l->ev).key))
		return "a lane's event does not name its lane or key";
	for (node /= 2; node; node /= 2) {
		const struct eevdf_eq_slot *w = lane_winner(q->lane, node);

		if (q->lane[node].ev != w->ev ||
		    q->lane[node].time != w->time ||
		    q->lane[node].key != w->key)
			return "a lane's node is not the earlier of its children";
	}
	return NULL;
}

/* Take ev, which waits in a lane, out of it. */
static void lane_remove(struct eevdf_eventq *q, struct eevdf_event *ev)
{
	size_t node = q->lane_leaves + (ev->heap_index & ~EEVDF_EV_IN_LANE);

	lane_flush(q);
	EEVDF_ASSERT(node < 2 * (size_t)q->lane_leaves &&
		     q->lane[node].ev == ev);
	q->lane[node] = SENTINEL;
	lane_replay(q, node);
	q->nr_in_lanes--;
	ev->heap_index = EEVDF_EV_NOT_QUEUED;
}

/* The heap's earliest slot, a sentinel when it holds none; with a dead
 * root, the earliest of its children (slots past nr are sentinels). */
static const struct eevdf_eq_slot *heap_first(const struct eevdf_eventq *q)
{
	u128 rank;

	if (q->root_dead)
		return &q->heap[best_child(q, 1, &rank)];
	return q->nr ? &q->heap[0] : &SENTINEL;
}

/* Whether the next pop comes from the lanes (their dead leaf cleared). */
static inline bool lanes_first(struct eevdf_eventq *q)
{
	lane_flush(q);
	return q->nr_in_lanes && slot_before(&q->lane[1], heap_first(q));
}

/* Put s at slot i and keep its event's back-pointer in step. */
static inline void eventq_place(struct eevdf_eventq *q, size_t i,
				const struct eevdf_eq_slot *s)
{
	q->heap[i] = *s;
	s->ev->heap_index = i;
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
		eventq_place(q, i, &q->heap[parent]);
		i = parent;
	}
	eventq_place(q, i, &s);
}

/* Move the slot at i towards the leaves while a child sorts first. */
static void eventq_sift_down(struct eevdf_eventq *q, size_t i)
{
	struct eevdf_eq_slot s = q->heap[i];
	size_t nr = q->nr;
	u128 sr = slot_rank(&s);

	for (;;) {
		size_t first = EQ_ARITY * i + 1, best;
		u128 br;

		if (first >= nr)
			break;
		best = best_child(q, first, &br);
		if (!(br < sr))
			break;
		eventq_place(q, i, &q->heap[best]);
		i = best;
	}
	eventq_place(q, i, &s);
}

/* Make room for one more event; the queue is unchanged on failure. */
static int eventq_grow(struct eevdf_eventq *q)
{
	struct eevdf_eq_slot *heap;
	size_t cap;

	/* room for the new slot and, beyond it, EQ_ARITY - 1 sentinels */
	if (q->nr + EQ_ARITY <= q->cap)
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
	for (size_t i = q->cap; i < cap; i++)
		heap[i] = SENTINEL;
	q->heap = heap;
	q->cap = cap;
	return 0;
}

int eevdf__eventq_push(struct eevdf_eventq *q, struct eevdf_event *ev)
{
	int err;

	/* A double push would leave two slots pointing at one event. */
	if (eevdf__event_queued(ev))
		return EEVDF_EINTERNAL;
	if (key_out_of_range(q, ev))
		return EEVDF_ERANGE;

	if (q->root_dead) {
		/*
		 * The popped root's slot: the new event sifts down from it,
		 * and stops at once when it is the earliest (a task's next
		 * short burst).  Measured on schbench, this costs 7 % fewer
		 * instructions than filling the hole and climbing from the
		 * bottom, even for the events that belong further down.
		 */
		ev->seq = q->next_seq++;
		q->heap[0] = slot_of(ev);
		q->root_dead = false;
		eventq_sift_down(q, 0);
		return 0;
	}
	err = eventq_grow(q);
	if (err)
		return err;

	/*
	 * seq is taken only once the push cannot fail, so a failed push
	 * leaves no gap and the numbering stays identical to a run that
	 * never hit the failure.
	 */
	ev->seq = q->next_seq++;
	{
		struct eevdf_eq_slot s = slot_of(ev);

		eventq_place(q, q->nr, &s);
	}
	q->nr++;
	eventq_sift_up(q, q->nr - 1);
	return 0;
}

int eevdf__eventq_requeue(struct eevdf_eventq *q, struct eevdf_event *ev,
			  eevdf_time when)
{
	size_t i = ev->heap_index;
	struct eevdf_eq_slot s;
	bool up;

	if (in_lane(i)) {
		lane_remove(q, ev);
		i = EEVDF_EV_NOT_QUEUED;
	}
	ev->time = when;
	if (i == EEVDF_EV_NOT_QUEUED)
		return eevdf__eventq_push(q, ev);
	eevdf__eventq_flush(q);
	i = ev->heap_index;
	EEVDF_ASSERT(i < q->nr && q->heap[i].ev == ev);
	/* The seq a push right after a cancel would have given it. */
	ev->seq = q->next_seq++;
	EEVDF_ASSERT(ev->seq < ((u64)1 << 48) && ev->class < (1u << 16));
	s = slot_of(ev);
	up = slot_before(&s, &q->heap[i]);
	q->heap[i] = s;
	if (up)
		eventq_sift_up(q, i);
	else
		eventq_sift_down(q, i);
	return 0;
}

int eevdf__eventq_requeue_lane(struct eevdf_eventq *q, struct eevdf_event *ev,
			       eevdf_time when, u32 lane)
{
	size_t node;

	if (lane >= q->nr_lanes)
		return eevdf__eventq_requeue(q, ev, when);
	if (key_out_of_range(q, ev))
		return EEVDF_ERANGE;
	node = q->lane_leaves + (size_t)lane;
	if (q->lane_dead == node && !eevdf__event_queued(ev)) {
		/* the lane's own dead leaf is free: the replay below
		 * replaces every stale copy on its path */
		q->lane_dead = 0;
		q->nr_in_lanes++;
	} else {
		lane_flush(q);
		if (q->lane[node].ev && q->lane[node].ev != ev)
			return eevdf__eventq_requeue(q, ev, when);
		if (q->lane[node].ev != ev) {
			/* from the heap, another lane or nowhere */
			eevdf__eventq_cancel(q, ev);
			q->nr_in_lanes++;
		}
	}
	ev->time = when;
	ev->seq = q->next_seq++;
	ev->heap_index = EEVDF_EV_IN_LANE | lane;
	q->lane[node] = slot_of(ev);
	lane_replay(q, node);
	return 0;
}

/*
 * Remove the event at slot i: the last event fills the hole and then moves
 * whichever way restores the heap.  It can only need to go up when the
 * hole was not on its root path, which is why both directions are tried.
 */
static void eventq_remove_at(struct eevdf_eventq *q, size_t i)
{
	struct eevdf_event *ev = q->heap[i].ev;
	struct eevdf_eq_slot last = q->heap[--q->nr];

	/* the sentinel goes in before a sift can read that slot */
	q->heap[q->nr] = SENTINEL;
	if (i != q->nr) {
		eventq_place(q, i, &last);
		if (i > 0 &&
		    slot_before(&q->heap[i], &q->heap[(i - 1) / EQ_ARITY]))
			eventq_sift_up(q, i);
		else
			eventq_sift_down(q, i);
	}
	ev->heap_index = EEVDF_EV_NOT_QUEUED;
}

/*
 * The root's hole sinks along the earliest children to a leaf, without
 * comparing them with the slot that will fill it, and the last slot then
 * fills it and rises as far as it must.  The last slot almost always
 * belongs near the leaves, so this saves the comparison a level that a
 * plain sift-down spends on it; the order is the same (keys are unique).
 */
void eevdf__eventq_flush(struct eevdf_eventq *q)
{
	size_t i = 0, nr;

	if (!q->root_dead)
		return;
	q->root_dead = false;
	nr = --q->nr;
	if (nr) {
		/*
		 * The last slot is the hole's filler.  best_child() reads
		 * past nr, where the filler would still stand and could be
		 * chosen: it becomes a sentinel first.
		 */
		struct eevdf_eq_slot last = q->heap[nr];

		q->heap[nr] = SENTINEL;
		for (;;) {
			size_t first = EQ_ARITY * i + 1, best;
			u128 br;

			if (first >= nr)
				break;
			best = best_child(q, first, &br);
			eventq_place(q, i, &q->heap[best]);
			i = best;
		}
		eventq_place(q, i, &last);
		eventq_sift_up(q, i);
	} else {
		q->heap[0] = SENTINEL;
	}
}

const struct eevdf_event *eevdf__eventq_next_hint(const struct eevdf_eventq *q)
{
	/* with a dead root the array holds slots 1..4, sentinels past nr
	 * (whose ev is NULL); a dead lane leaf leaves the lanes unread */
	if (!q->lane_dead && q->nr_in_lanes &&
	    slot_before(&q->lane[1], heap_first(q)))
		return q->lane[1].ev;
	if (!q->root_dead)
		return NULL;
	return heap_first(q)->ev;
}

struct eevdf_event *eevdf__eventq_peek(struct eevdf_eventq *q)
{
	eevdf__eventq_flush(q);
	if (lanes_first(q))
		return q->lane[1].ev;
	return q->nr ? q->heap[0].ev : NULL;
}

/* The lanes' earliest event, ev, leaves its leaf dead (lane_dead). */
static struct eevdf_event *lane_pop(struct eevdf_eventq *q,
				    struct eevdf_event *ev)
{
	EEVDF_ASSERT(!q->lane_dead && q->lane[1].ev == ev);
	q->lane_dead = q->lane_leaves +
		       (u32)(ev->heap_index & ~EEVDF_EV_IN_LANE);
	q->nr_in_lanes--;
	ev->heap_index = EEVDF_EV_NOT_QUEUED;
	return ev;
}

struct eevdf_event *eevdf__eventq_take(struct eevdf_eventq *q,
				       struct eevdf_event *ev)
{
	if (in_lane(ev->heap_index))
		return lane_pop(q, ev);
	EEVDF_ASSERT(ev->heap_index == 0 && !q->root_dead &&
		     q->heap[0].ev == ev);
	ev->heap_index = EEVDF_EV_NOT_QUEUED;
	q->root_dead = true;
	return ev;
}

/* The root leaves its slot dead: see root_dead in eventq.h. */
struct eevdf_event *eevdf__eventq_pop(struct eevdf_eventq *q)
{
	struct eevdf_event *ev;

	if (lanes_first(q))
		return lane_pop(q, q->lane[1].ev);
	eevdf__eventq_flush(q);
	if (q->nr == 0)
		return NULL;
	ev = q->heap[0].ev;
	ev->heap_index = EEVDF_EV_NOT_QUEUED;
	q->root_dead = true;
	return ev;
}

void eevdf__eventq_cancel(struct eevdf_eventq *q, struct eevdf_event *ev)
{
	size_t i = ev->heap_index;

	if (i == EEVDF_EV_NOT_QUEUED)
		return;
	if (in_lane(i)) {
		lane_remove(q, ev);
		return;
	}
	eevdf__eventq_flush(q);
	i = ev->heap_index;
	/* Queued, but not here: the event belongs to another queue. */
	EEVDF_ASSERT(i < q->nr && q->heap[i].ev == ev);
	eventq_remove_at(q, i);
}
