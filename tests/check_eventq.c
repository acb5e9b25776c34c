/* SPDX-License-Identifier: MIT */
/* Tests of the event queue: ordering, cancel, growth and a model check. */
#include "suites.h"
#include "lib/eventq.h"

/*
 * A fixed 64-bit LCG (Knuth's MMIX constants) rather than rand(): the test
 * must draw the same operations on every libc.  The high bits are used
 * because the low bits of a power-of-two LCG have short periods.
 */
static u64 lcg_next(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state >> 33;
}

static void ev_set(struct eevdf_event *ev, eevdf_time time, u32 class)
{
	eevdf__event_init(ev, 0, class);
	ev->time = time;
}

/* A set-up two tests share: a, b, c at 10, 20, 30 (class 0), pushed in
 * that order (seq 0, 1, 2) onto a new queue. */
static void queue_abc(struct eevdf_eventq *q, struct eevdf_event *a,
		      struct eevdf_event *b, struct eevdf_event *c)
{
	eevdf__eventq_init(q);
	ev_set(a, 10, 0);
	ev_set(b, 20, 0);
	ev_set(c, 30, 0);
	ck_assert_int_eq(eevdf__eventq_push(q, a), 0);
	ck_assert_int_eq(eevdf__eventq_push(q, b), 0);
	ck_assert_int_eq(eevdf__eventq_push(q, c), 0);
}

/*
 * Every slot points back at itself, carries its event's key, and no child
 * sorts before its parent (4 children a slot).
 */
static void check_heap(const struct eevdf_eventq *q)
{
	size_t i;

	ck_assert_uint_le(q->nr, q->cap);
	/* beyond nr, at least three slots and every one a sentinel: a node
	 * with a first child reads all four children unbounded */
	if (q->cap) {
		ck_assert_uint_ge(q->cap, q->nr + 3);
		for (i = q->nr; i < q->cap; i++)
			if (q->heap[i].ev || q->heap[i].time != INT64_MAX ||
			    q->heap[i].key != UINT64_MAX)
				ck_abort_msg("heap[%zu] past nr %zu is not a "
					     "sentinel",
					     i, q->nr);
	}
	/* a dead root (a pop's hole, eventq.h) holds no queued event and
	 * orders nothing below it */
	for (i = q->root_dead ? 1 : 0; i < q->nr; i++) {
		const struct eevdf_event *ev = q->heap[i].ev;

		if (!ev || ev->heap_index != i)
			ck_abort_msg("heap[%zu]: missing or wrong heap_index",
				     i);
		if (q->heap[i].time != ev->time ||
		    q->heap[i].key != ((u64)ev->class << 48 | ev->seq))
			ck_abort_msg("heap[%zu]: key is not its event's", i);
		if (i > 0 && !(q->root_dead && i <= 4) &&
		    eevdf__event_before(ev, q->heap[(i - 1) / 4].ev))
			ck_abort_msg("heap[%zu] is before its parent", i);
	}
}

/*
 * The lanes' winner tree: every occupied leaf names its event, which
 * names it back (heap_index EEVDF_EV_IN_LANE | lane) and carries its key;
 * the count agrees; and, unless a pop left a leaf dead with its copies
 * still up the tree, every node holds the earlier of its two children.
 */
static void check_lanes(const struct eevdf_eventq *q)
{
	u32 in = 0, n = q->lane_leaves;

	if (!q->lane) {
		ck_assert_uint_eq(q->nr_in_lanes, 0);
		return;
	}
	for (u32 k = 0; k < n; k++) {
		const struct eevdf_eq_slot *l = &q->lane[n + k];

		if (q->lane_dead == n + k) {
			/* the popped event is no longer in this lane */
			ck_assert(!l->ev ||
				  l->ev->heap_index != (EEVDF_EV_IN_LANE | k));
			continue;
		}
		if (!l->ev) {
			ck_assert(l->time == INT64_MAX && l->key == UINT64_MAX);
			continue;
		}
		ck_assert_uint_lt(k, q->nr_lanes);
		if (l->ev->heap_index != (EEVDF_EV_IN_LANE | k) ||
		    l->time != l->ev->time ||
		    l->key != ((u64)l->ev->class << 48 | l->ev->seq))
			ck_abort_msg("lane %u: event or key is not its own", k);
		in++;
	}
	ck_assert_uint_eq(in, q->nr_in_lanes);
	if (q->lane_dead)
		return;
	for (u32 node = 1; node < n; node++) {
		const struct eevdf_eq_slot *a = &q->lane[2 * node], *b = a + 1;
		const struct eevdf_eq_slot *w = (b->time < a->time ||
						 (b->time == a->time &&
						  b->key < a->key)) ?
							b :
							a;

		if (q->lane[node].ev != w->ev || q->lane[node].key != w->key ||
		    q->lane[node].time != w->time)
			ck_abort_msg("lane node %u is not the earlier of its "
				     "children",
				     node);
	}
}

/*
 * Lanes beside the heap, by hand.  a 10 and b 30 go to the heap (seq 0,
 * 1); x 20 to lane 0, y 5 to lane 2, z 30 to lane 1 (seq 2, 3, 4); w 25
 * asks for lane 2, which y holds, so it waits in the heap (seq 5), and v
 * 50 asks for lane 3 of three, so the heap too (seq 6).  y pops first and
 * leaves its leaf dead; y queued again in lane 2 at 12 takes it (seq 7).
 * x re-queued at 40 without a lane moves to the heap (seq 8) and z is
 * cancelled: a 10, y 12, w 25, b 30, x 40, v 50.
 */
START_TEST(eventq_lanes_pop_in_key_order_with_the_heap)
{
	struct eevdf_eventq q;
	struct eevdf_event a, b, x, y, z, w, v;

	eevdf__eventq_init(&q);
	ck_assert_int_eq(eevdf__eventq_set_lanes(&q, 3), 0);
	ck_assert_uint_eq(q.lane_leaves, 4);
	ev_set(&a, 10, 0);
	ev_set(&b, 30, 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &a), 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &b), 0);
	ev_set(&x, 0, 0);
	ev_set(&y, 0, 0);
	ev_set(&z, 0, 0);
	ev_set(&w, 0, 0);
	ev_set(&v, 0, 0);
	ck_assert_int_eq(eevdf__eventq_requeue_lane(&q, &x, 20, 0), 0);
	ck_assert_int_eq(eevdf__eventq_requeue_lane(&q, &y, 5, 2), 0);
	ck_assert_int_eq(eevdf__eventq_requeue_lane(&q, &z, 30, 1), 0);
	ck_assert_int_eq(eevdf__eventq_requeue_lane(&q, &w, 25, 2), 0);
	ck_assert_int_eq(eevdf__eventq_requeue_lane(&q, &v, 50, 3), 0);
	ck_assert_uint_eq(x.heap_index, EEVDF_EV_IN_LANE | 0);
	ck_assert_uint_eq(y.heap_index, EEVDF_EV_IN_LANE | 2);
	ck_assert_uint_eq(z.heap_index, EEVDF_EV_IN_LANE | 1);
	ck_assert_uint_lt(w.heap_index, q.nr);
	ck_assert_uint_lt(v.heap_index, q.nr);
	ck_assert_uint_eq(z.seq, 4);
	ck_assert_uint_eq(w.seq, 5);
	ck_assert_uint_eq(q.nr_in_lanes, 3);
	ck_assert_uint_eq(eevdf__eventq_size(&q), 7);
	check_heap(&q);
	check_lanes(&q);

	ck_assert_ptr_eq(eevdf__eventq_peek(&q), &y);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &y);
	ck_assert(!eevdf__event_queued(&y));
	ck_assert_uint_eq(q.lane_dead, 4 + 2);
	ck_assert_uint_eq(eevdf__eventq_size(&q), 6);
	check_lanes(&q);
	ck_assert_int_eq(eevdf__eventq_requeue_lane(&q, &y, 12, 2), 0);
	ck_assert_uint_eq(q.lane_dead, 0);
	ck_assert_uint_eq(y.seq, 7);
	ck_assert_uint_eq(y.heap_index, EEVDF_EV_IN_LANE | 2);
	check_lanes(&q);

	ck_assert_int_eq(eevdf__eventq_requeue(&q, &x, 40), 0);
	ck_assert_uint_eq(x.seq, 8);
	ck_assert_uint_lt(x.heap_index, q.nr);
	eevdf__eventq_cancel(&q, &z);
	ck_assert(!eevdf__event_queued(&z));
	ck_assert_uint_eq(q.nr_in_lanes, 1);
	ck_assert_uint_eq(eevdf__eventq_size(&q), 6);
	check_heap(&q);
	check_lanes(&q);

	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &a);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &y);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &w);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &b);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &x);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &v);
	ck_assert_ptr_null(eevdf__eventq_pop(&q));
	ck_assert_uint_eq(eevdf__eventq_size(&q), 0);
	check_lanes(&q);
	eevdf__eventq_destroy(&q);
}
END_TEST

/*
 * A pop leaves the root slot dead and the next push takes it.  By hand:
 * a, b, c at 10, 20, 30.  pop gives a and leaves 2 queued; d at 15 is
 * before both children (20, 30): it takes the root slot and stays, and
 * pops next.  Then e at 25 after that pop: it takes the root slot and
 * sifts below b (20), into b's slot 1, so b is at the root: b, e, c.
 * A pop, then a cancel: the cancel first fills the hole, so c is found
 * where the fill put it.
 */
START_TEST(eventq_a_push_after_a_pop_takes_the_root_slot)
{
	struct eevdf_eventq q;
	struct eevdf_event a, b, c, d, e;

	queue_abc(&q, &a, &b, &c);
	ev_set(&d, 15, 0);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &a);
	ck_assert(q.root_dead);
	ck_assert(!eevdf__event_queued(&a));
	ck_assert_uint_eq(eevdf__eventq_size(&q), 2);
	check_heap(&q);
	ck_assert_int_eq(eevdf__eventq_push(&q, &d), 0);
	ck_assert(!q.root_dead);
	ck_assert_uint_eq(q.nr, 3); /* the slot was reused, not added */
	ck_assert_uint_eq(d.heap_index, 0);
	check_heap(&q);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &d);
	ev_set(&e, 25, 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &e), 0);
	ck_assert(!q.root_dead);
	ck_assert_uint_eq(b.heap_index, 0);
	ck_assert_uint_eq(e.heap_index, 1);
	ck_assert_uint_eq(eevdf__eventq_size(&q), 3);
	check_heap(&q);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &b);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &e);
	eevdf__eventq_cancel(&q, &c);
	ck_assert(!q.root_dead);
	ck_assert(!eevdf__event_queued(&c));
	check_heap(&q);
	ck_assert_ptr_null(eevdf__eventq_peek(&q));
	ck_assert_ptr_null(eevdf__eventq_pop(&q));
	ck_assert_uint_eq(eevdf__eventq_size(&q), 0);
	eevdf__eventq_destroy(&q);
}
END_TEST

/*
 * The next-event hint names what the next pop returns when no push comes
 * between.  By hand: a 10, b 20 (class 1), c 20 (class 0), d 40.  After
 * a pops, c and b tie on time and c's class is lower: c.  After c, b.
 * After b only d is left: d.  After d nothing is queued: NULL.  With a
 * live root (no pop yet) there is no hint.
 */
START_TEST(eventq_next_hint_names_the_next_pop)
{
	struct eevdf_eventq q;
	struct eevdf_event a, b, c, d;

	eevdf__eventq_init(&q);
	ev_set(&a, 10, 0);
	ev_set(&b, 20, 1);
	ev_set(&c, 20, 0);
	ev_set(&d, 40, 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &a), 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &b), 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &c), 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &d), 0);
	ck_assert_ptr_null(eevdf__eventq_next_hint(&q));
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &a);
	ck_assert_ptr_eq(eevdf__eventq_next_hint(&q), &c);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &c);
	ck_assert_ptr_eq(eevdf__eventq_next_hint(&q), &b);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &b);
	ck_assert_ptr_eq(eevdf__eventq_next_hint(&q), &d);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &d);
	ck_assert_ptr_null(eevdf__eventq_next_hint(&q));
	check_heap(&q);
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_starts_empty_and_pops_null)
{
	struct eevdf_eventq q;

	eevdf__eventq_init(&q);
	ck_assert_uint_eq(eevdf__eventq_size(&q), 0);
	ck_assert_ptr_null(eevdf__eventq_peek(&q));
	ck_assert_ptr_null(eevdf__eventq_pop(&q));
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_pops_equal_times_in_push_order)
{
	struct eevdf_eventq q;
	struct eevdf_event ev[8];
	size_t i;

	eevdf__eventq_init(&q);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		ev_set(&ev[i], 100, 2);
		ck_assert_int_eq(eevdf__eventq_push(&q, &ev[i]), 0);
		ck_assert_uint_eq(ev[i].seq, i);
		check_heap(&q);
	}
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		ck_assert_ptr_eq(eevdf__eventq_pop(&q), &ev[i]);
		ck_assert(!eevdf__event_queued(&ev[i]));
		check_heap(&q);
	}
	ck_assert_ptr_null(eevdf__eventq_pop(&q));
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_orders_same_time_events_by_class)
{
	/* Pushed as classes 3, 1, 2, 1, 0: pops as 0, 1 (first), 1, 2, 3. */
	static const u32 classes[] = { 3, 1, 2, 1, 0 };
	static const size_t expect[] = { 4, 1, 3, 2, 0 };
	struct eevdf_eventq q;
	struct eevdf_event ev[ARRAY_SIZE(classes)];
	size_t i;

	eevdf__eventq_init(&q);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		ev_set(&ev[i], 50, classes[i]);
		ck_assert_int_eq(eevdf__eventq_push(&q, &ev[i]), 0);
	}
	for (i = 0; i < ARRAY_SIZE(expect); i++)
		ck_assert_ptr_eq(eevdf__eventq_pop(&q), &ev[expect[i]]);
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_orders_by_time_before_class)
{
	/* A later time loses even with a lower class; negatives sort first. */
	struct eevdf_eventq q;
	struct eevdf_event late_low, early_high, negative;

	eevdf__eventq_init(&q);
	ev_set(&late_low, 20, 0);
	ev_set(&early_high, 10, 9);
	ev_set(&negative, -5, 9);
	ck_assert_int_eq(eevdf__eventq_push(&q, &late_low), 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &early_high), 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &negative), 0);
	ck_assert_ptr_eq(eevdf__eventq_peek(&q), &negative);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &negative);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &early_high);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &late_low);
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_peek_does_not_remove)
{
	struct eevdf_eventq q;
	struct eevdf_event a, b;

	eevdf__eventq_init(&q);
	ev_set(&a, 7, 0);
	ev_set(&b, 3, 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &a), 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &b), 0);
	ck_assert_ptr_eq(eevdf__eventq_peek(&q), &b);
	ck_assert_ptr_eq(eevdf__eventq_peek(&q), &b);
	ck_assert_uint_eq(eevdf__eventq_size(&q), 2);
	ck_assert(eevdf__event_queued(&b));
	eevdf__eventq_destroy(&q);
}
END_TEST

/* Push times 10, 20, ..., 70 so the heap is a full three-level tree. */
static void push_seven(struct eevdf_eventq *q, struct eevdf_event ev[7])
{
	size_t i;

	eevdf__eventq_init(q);
	for (i = 0; i < 7; i++) {
		ev_set(&ev[i], (eevdf_time)(10 * (i + 1)), 0);
		ck_assert_int_eq(eevdf__eventq_push(q, &ev[i]), 0);
	}
	/* Ascending pushes never sift, so event i sits in slot i. */
	for (i = 0; i < 7; i++)
		ck_assert_uint_eq(ev[i].heap_index, i);
}

/* Pop everything and check the order is exactly want[0..n). */
static void expect_pops(struct eevdf_eventq *q, struct eevdf_event ev[],
			const size_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		ck_assert_ptr_eq(eevdf__eventq_pop(q), &ev[want[i]]);
		check_heap(q);
	}
	ck_assert_ptr_null(eevdf__eventq_pop(q));
}

START_TEST(eventq_cancel_of_root_promotes_next_earliest)
{
	static const size_t want[] = { 1, 2, 3, 4, 5, 6 };
	struct eevdf_eventq q;
	struct eevdf_event ev[7];

	push_seven(&q, ev);
	eevdf__eventq_cancel(&q, &ev[0]);
	ck_assert(!eevdf__event_queued(&ev[0]));
	ck_assert_uint_eq(eevdf__eventq_size(&q), 6);
	check_heap(&q);
	ck_assert_ptr_eq(eevdf__eventq_peek(&q), &ev[1]);
	expect_pops(&q, ev, want, ARRAY_SIZE(want));
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_cancel_of_middle_element_keeps_order)
{
	static const size_t want[] = { 0, 2, 3, 4, 5, 6 };
	struct eevdf_eventq q;
	struct eevdf_event ev[7];

	push_seven(&q, ev);
	/* Slot 1 has children 3 and 4; the last event (70) must sink. */
	eevdf__eventq_cancel(&q, &ev[1]);
	ck_assert(!eevdf__event_queued(&ev[1]));
	ck_assert_uint_eq(eevdf__eventq_size(&q), 6);
	check_heap(&q);
	expect_pops(&q, ev, want, ARRAY_SIZE(want));
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_cancel_moves_last_element_up_when_needed)
{
	/*
	 * 4-ary slots: 0:10; its children 1:100, 2:20, 3:25, 4:27; slot 1's
	 * children 5:110, 6:120, 7:130, 8:140; slot 2's first child 9:40.
	 * Cancelling slot 6 moves 40 under 100, where it must rise: the case
	 * a sift-down alone would get wrong.
	 */
	static const eevdf_time times[] = { 10,	 100, 20,  25,	27,
					    110, 120, 130, 140, 40 };
	static const size_t want[] = { 0, 2, 3, 4, 9, 1, 5, 7, 8 };
	struct eevdf_eventq q;
	struct eevdf_event ev[ARRAY_SIZE(times)];
	size_t i;

	eevdf__eventq_init(&q);
	for (i = 0; i < ARRAY_SIZE(times); i++) {
		ev_set(&ev[i], times[i], 0);
		ck_assert_int_eq(eevdf__eventq_push(&q, &ev[i]), 0);
	}
	for (i = 0; i < ARRAY_SIZE(times); i++)
		ck_assert_uint_eq(ev[i].heap_index, i);
	eevdf__eventq_cancel(&q, &ev[6]);
	check_heap(&q);
	ck_assert_uint_eq(ev[9].heap_index, 1);
	ck_assert_uint_eq(ev[1].heap_index, 6);
	expect_pops(&q, ev, want, ARRAY_SIZE(want));
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_cancel_of_last_element_shrinks_queue)
{
	static const size_t want[] = { 0, 1, 2, 3, 4, 5 };
	struct eevdf_eventq q;
	struct eevdf_event ev[7];

	push_seven(&q, ev);
	eevdf__eventq_cancel(&q, &ev[6]);
	ck_assert(!eevdf__event_queued(&ev[6]));
	ck_assert_uint_eq(eevdf__eventq_size(&q), 6);
	check_heap(&q);
	expect_pops(&q, ev, want, ARRAY_SIZE(want));
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_cancel_of_unqueued_event_is_a_noop)
{
	static const size_t want[] = { 0, 1, 2, 3, 4, 5, 6 };
	struct eevdf_eventq q;
	struct eevdf_event ev[7], stranger;
	size_t i;

	push_seven(&q, ev);
	ev_set(&stranger, 1, 0);
	eevdf__eventq_cancel(&q, &stranger);
	ck_assert(!eevdf__event_queued(&stranger));
	ck_assert_uint_eq(eevdf__eventq_size(&q), 7);
	for (i = 0; i < 7; i++)
		ck_assert_uint_eq(ev[i].heap_index, i);

	/* A second cancel of an already cancelled event is a no-op too. */
	eevdf__eventq_cancel(&q, &ev[3]);
	eevdf__eventq_cancel(&q, &ev[3]);
	ck_assert_uint_eq(eevdf__eventq_size(&q), 6);
	check_heap(&q);
	ck_assert_int_eq(eevdf__eventq_push(&q, &ev[3]), 0);
	expect_pops(&q, ev, want, ARRAY_SIZE(want));
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_repush_after_pop_gets_a_new_seq)
{
	/* A re-armed timer queues behind events pushed since its first push. */
	struct eevdf_eventq q;
	struct eevdf_event a, b;

	eevdf__eventq_init(&q);
	ev_set(&a, 5, 0);
	ev_set(&b, 5, 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &a), 0);
	ck_assert_int_eq(eevdf__eventq_push(&q, &b), 0);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &a);
	ck_assert_int_eq(eevdf__eventq_push(&q, &a), 0);
	ck_assert_uint_eq(a.seq, 2);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &b);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &a);
	eevdf__eventq_destroy(&q);
}
END_TEST

/*
 * Three events at 10, 20, 30.  Re-keying the one at 30 to 5 must pop it
 * first; re-keying the one at 10 to 20 puts it after the other event at
 * 20, which was pushed before it (seq 1 < seq 4: the re-key takes the
 * next seq, as a cancel and a push would).  An unqueued event re-keyed
 * is simply pushed.  Pop order: c(5) b(20) a(20) d(25).
 */
START_TEST(eventq_requeue_moves_an_event_as_cancel_and_push_would)
{
	struct eevdf_eventq q;
	struct eevdf_event a, b, c, d;

	queue_abc(&q, &a, &b, &c);
	ev_set(&d, 0, 0);
	ck_assert_int_eq(eevdf__eventq_requeue(&q, &c, 5), 0);
	ck_assert_uint_eq(c.seq, 3);
	check_heap(&q);
	ck_assert_int_eq(eevdf__eventq_requeue(&q, &a, 20), 0);
	ck_assert_uint_eq(a.seq, 4);
	check_heap(&q);
	ck_assert_int_eq(eevdf__eventq_requeue(&q, &d, 25), 0);
	ck_assert_uint_eq(d.seq, 5);
	ck_assert_uint_eq(eevdf__eventq_size(&q), 4);
	check_heap(&q);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &c);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &b);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &a);
	ck_assert_ptr_eq(eevdf__eventq_pop(&q), &d);
	ck_assert_ptr_null(eevdf__eventq_pop(&q));
	eevdf__eventq_destroy(&q);
}
END_TEST

START_TEST(eventq_destroy_leaves_events_untouched)
{
	struct eevdf_eventq q;
	struct eevdf_event a;

	eevdf__eventq_init(&q);
	ev_set(&a, 5, 1);
	ck_assert_int_eq(eevdf__eventq_push(&q, &a), 0);
	eevdf__eventq_destroy(&q);
	ck_assert_int_eq(a.time, 5);
	ck_assert_uint_eq(a.class, 1);
	ck_assert_uint_eq(a.heap_index, 0);
}
END_TEST

#define MANY 10000

START_TEST(eventq_pops_ten_thousand_events_sorted)
{
	struct eevdf_eventq q;
	struct eevdf_event *ev, *prev = NULL, *cur;
	u64 lcg = 12345;
	size_t i;

	ev = calloc(MANY, sizeof(*ev));
	ck_assert_ptr_nonnull(ev);
	eevdf__eventq_init(&q);
	for (i = 0; i < MANY; i++) {
		/* Narrow ranges so ties on time and on class are common. */
		ev_set(&ev[i], (eevdf_time)(lcg_next(&lcg) % 500),
		       (u32)(lcg_next(&lcg) % 3));
		ck_assert_int_eq(eevdf__eventq_push(&q, &ev[i]), 0);
	}
	ck_assert_uint_eq(eevdf__eventq_size(&q), MANY);
	check_heap(&q);

	for (i = 0; i < MANY; i++) {
		cur = eevdf__eventq_pop(&q);
		ck_assert_ptr_nonnull(cur);
		ck_assert(!eevdf__event_queued(cur));
		if (prev) {
			ck_assert(eevdf__event_before(prev, cur));
			ck_assert_int_le(prev->time, cur->time);
		}
		prev = cur;
	}
	ck_assert_ptr_null(eevdf__eventq_pop(&q));
	for (i = 0; i < MANY; i++)
		ck_assert(!eevdf__event_queued(&ev[i]));
	eevdf__eventq_destroy(&q);
	free(ev);
}
END_TEST

/*
 * Model check.  The reference is an array kept sorted by (time, class) with
 * every insert placed after all entries of equal key, which yields push
 * order among ties without looking at seq: so it checks the queue's
 * seq-based tie-break rather than repeating it.
 */
#define POOL 256
#define OPS 4000

struct model {
	struct eevdf_event *sorted[POOL];
	size_t nr;
};

static bool model_key_le(const struct eevdf_event *a,
			 const struct eevdf_event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->class <= b->class;
}

static void model_insert(struct model *m, struct eevdf_event *ev)
{
	size_t pos = m->nr;

	while (pos > 0 && !model_key_le(m->sorted[pos - 1], ev)) {
		m->sorted[pos] = m->sorted[pos - 1];
		pos--;
	}
	m->sorted[pos] = ev;
	m->nr++;
}

static void model_remove(struct model *m, const struct eevdf_event *ev)
{
	size_t i;

	for (i = 0; i < m->nr && m->sorted[i] != ev; i++)
		;
	ck_assert_uint_lt(i, m->nr);
	for (; i + 1 < m->nr; i++)
		m->sorted[i] = m->sorted[i + 1];
	m->nr--;
}

static bool model_has(const struct model *m, const struct eevdf_event *ev)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		if (m->sorted[i] == ev)
			return true;
	return false;
}

/*
 * With peek, also once peek has filled the hole a pop leaves; without, the
 * hole stays for the next operation to meet (a push takes the root slot,
 * a cancel or a requeue fills it first).
 */
static void check_against_model(struct eevdf_eventq *q, const struct model *m,
				const struct eevdf_event *pool, bool peek)
{
	size_t i;

	check_heap(q);
	ck_assert_uint_eq(eevdf__eventq_size(q), m->nr);
	if (peek) {
		if (m->nr)
			ck_assert_ptr_eq(eevdf__eventq_peek(q), m->sorted[0]);
		else
			ck_assert_ptr_null(eevdf__eventq_peek(q));
		ck_assert(!q->root_dead);
		check_heap(q);
		ck_assert_uint_eq(eevdf__eventq_size(q), m->nr);
	}
	/*
	 * One assertion for the whole pool: every libcheck assertion writes
	 * to the runner's pipe, and a million of them dominate the suite.
	 */
	check_lanes(q);
	if (peek)
		ck_assert_uint_eq(q->lane_dead, 0);
	for (i = 0; i < POOL; i++) {
		size_t at = pool[i].heap_index;
		bool ok;

		if (model_has(m, &pool[i]) && at != EEVDF_EV_NOT_QUEUED &&
		    (at & EEVDF_EV_IN_LANE))
			ok = q->lane[q->lane_leaves + (at & ~EEVDF_EV_IN_LANE)]
				     .ev == &pool[i];
		else if (model_has(m, &pool[i]))
			ok = eevdf__event_queued(&pool[i]) &&
			     q->heap[at].ev == &pool[i];
		else
			ok = !eevdf__event_queued(&pool[i]);
		if (!ok)
			ck_abort_msg("event %zu: queued state or heap_index "
				     "disagrees with the model",
				     i);
	}
}

START_TEST(eventq_matches_sorted_array_model_under_random_ops)
{
	struct eevdf_eventq q;
	static struct eevdf_event pool[POOL];
	static struct model m;
	struct eevdf_event *ev, *got;
	u64 lcg = 0x5eed0000u + (u64)_i;
	u64 next_seq = 0;
	size_t i, op, pushes = 0, pops = 0, cancels = 0, requeues = 0;
	size_t dead_roots = 0; /* holes left for the next operation */
	/* runs 4..7 give the queue five lanes (eight leaves, three past
	 * the last lane) and queue into them too */
	bool lanes = _i >= 4;
	unsigned int faces = lanes ? 12 : 10;
	size_t in_lane = 0, lane_taken = 0, dead_reused = 0;

	for (i = 0; i < POOL; i++)
		eevdf__event_init(&pool[i], 0, 0);
	m.nr = 0;
	eevdf__eventq_init(&q);
	if (lanes)
		ck_assert_int_eq(eevdf__eventq_set_lanes(&q, 5), 0);

	for (op = 0; op < OPS; op++) {
		u64 dice = lcg_next(&lcg) % faces;

		ev = &pool[lcg_next(&lcg) % POOL];
		if (dice >= 10) {
			/*
			 * Re-key into a random lane, one past the last
			 * included: the heap takes it when the lane is
			 * taken or missing.  Fewer events make the lanes
			 * matter: each lane holds one.
			 */
			u32 lane = (u32)(lcg_next(&lcg) % 6);
			const struct eevdf_eq_slot *leaf =
				lane < 5 ? &q.lane[q.lane_leaves + lane] : NULL;

			/* half the time the lane's own event: a re-key in
			 * place (random events mostly find the lane taken) */
			if (leaf && leaf->ev &&
			    q.lane_dead != q.lane_leaves + lane &&
			    (lcg_next(&lcg) & 1))
				ev = leaf->ev;
			if (model_has(&m, ev))
				model_remove(&m, ev);
			ev->class = (u32)(lcg_next(&lcg) % 4);
			ck_assert_int_eq(
				eevdf__eventq_requeue_lane(
					&q, ev,
					(eevdf_time)(lcg_next(&lcg) % 64),
					lane),
				0);
			ck_assert_uint_eq(ev->seq, next_seq);
			next_seq++;
			model_insert(&m, ev);
			if (ev->heap_index & EEVDF_EV_IN_LANE)
				in_lane++;
			else
				lane_taken++;
		} else if (dice < 5) {
			/* Push a random idle event; narrow keys force ties. */
			if (model_has(&m, ev))
				continue;
			ev->time = (eevdf_time)(lcg_next(&lcg) % 64);
			ev->class = (u32)(lcg_next(&lcg) % 4);
			ck_assert_int_eq(eevdf__eventq_push(&q, ev), 0);
			ck_assert_uint_eq(ev->seq, next_seq);
			next_seq++;
			model_insert(&m, ev);
			pushes++;
		} else if (dice < 6) {
			/*
			 * Re-key a random event, queued or not: the model
			 * treats it as a cancel and a push at the new time.
			 */
			if (model_has(&m, ev))
				model_remove(&m, ev);
			ev->class = (u32)(lcg_next(&lcg) % 4);
			ck_assert_int_eq(
				eevdf__eventq_requeue(
					&q, ev,
					(eevdf_time)(lcg_next(&lcg) % 64)),
				0);
			ck_assert_uint_eq(ev->seq, next_seq);
			next_seq++;
			model_insert(&m, ev);
			requeues++;
		} else if (dice < 8) {
			/* Cancel a random event, queued or not. */
			if (model_has(&m, ev))
				model_remove(&m, ev);
			eevdf__eventq_cancel(&q, ev);
			cancels++;
		} else {
			/* a pop, or what the event loop does: peek, then
			 * take the event peek returned */
			if (lcg_next(&lcg) & 1) {
				got = eevdf__eventq_peek(&q);
				if (got)
					ck_assert_ptr_eq(
						eevdf__eventq_take(&q, got),
						got);
			} else {
				got = eevdf__eventq_pop(&q);
			}
			if (m.nr == 0) {
				ck_assert_ptr_null(got);
			} else {
				ck_assert_ptr_eq(got, m.sorted[0]);
				model_remove(&m, got);
				pops++;
			}
			/*
			 * Half the time a lane's popped event goes straight
			 * back to its lane, as a task's next burst does,
			 * into the leaf the pop left dead.
			 */
			if (q.lane_dead && (lcg_next(&lcg) & 1)) {
				u32 lane = q.lane_dead - q.lane_leaves;

				ck_assert_int_eq(
					eevdf__eventq_requeue_lane(
						&q, got,
						(eevdf_time)(lcg_next(&lcg) %
							     64),
						lane),
					0);
				ck_assert_uint_eq(q.lane_dead, 0);
				ck_assert_uint_eq(got->heap_index,
						  EEVDF_EV_IN_LANE | lane);
				ck_assert_uint_eq(got->seq, next_seq);
				next_seq++;
				model_insert(&m, got);
				dead_reused++;
			}
		}
		if (q.root_dead && !(op & 1))
			dead_roots++;
		check_against_model(&q, &m, pool, op & 1);
	}
	/* Guard against a degenerate run that never exercised a path. */
	ck_assert_uint_gt(dead_roots, OPS / 40);
	ck_assert_uint_gt(requeues, OPS / 20);
	if (!lanes) {
		ck_assert_uint_gt(pushes, OPS / 4);
		ck_assert_uint_gt(pops, OPS / 10);
		ck_assert_uint_gt(cancels, OPS / 10);
	} else {
		/*
		 * Two more faces of the die go to the lanes, and a push
		 * skips an event queued already, which the lanes' re-keys
		 * leave more of: every operation more than OPS / 20 times.
		 */
		ck_assert_uint_gt(pushes, OPS / 20);
		ck_assert_uint_gt(pops, OPS / 20);
		ck_assert_uint_gt(cancels, OPS / 20);
		/* in a lane, or in the heap for a lane taken or missing */
		ck_assert_uint_gt(in_lane, OPS / 40);
		ck_assert_uint_gt(lane_taken, OPS / 40);
		ck_assert_uint_gt(dead_reused, OPS / 200);
	}

	/* Drain: whatever is left comes out in model order. */
	while (m.nr) {
		got = eevdf__eventq_pop(&q);
		ck_assert_ptr_eq(got, m.sorted[0]);
		model_remove(&m, got);
	}
	ck_assert_ptr_null(eevdf__eventq_pop(&q));
	eevdf__eventq_destroy(&q);
}
END_TEST

Suite *eventq_suite(void)
{
	Suite *s = suite_create("eventq");
	TCase *tc = tcase_create("core");
	TCase *model = tcase_create("model");

	tcase_add_test(tc, eventq_starts_empty_and_pops_null);
	tcase_add_test(tc, eventq_a_push_after_a_pop_takes_the_root_slot);
	tcase_add_test(tc, eventq_next_hint_names_the_next_pop);
	tcase_add_test(tc, eventq_pops_equal_times_in_push_order);
	tcase_add_test(tc, eventq_orders_same_time_events_by_class);
	tcase_add_test(tc, eventq_orders_by_time_before_class);
	tcase_add_test(tc, eventq_peek_does_not_remove);
	tcase_add_test(tc, eventq_cancel_of_root_promotes_next_earliest);
	tcase_add_test(tc, eventq_cancel_of_middle_element_keeps_order);
	tcase_add_test(tc, eventq_cancel_moves_last_element_up_when_needed);
	tcase_add_test(tc, eventq_cancel_of_last_element_shrinks_queue);
	tcase_add_test(tc, eventq_cancel_of_unqueued_event_is_a_noop);
	tcase_add_test(tc, eventq_repush_after_pop_gets_a_new_seq);
	tcase_add_test(tc,
		       eventq_requeue_moves_an_event_as_cancel_and_push_would);
	tcase_add_test(tc, eventq_destroy_leaves_events_untouched);
	tcase_add_test(tc, eventq_pops_ten_thousand_events_sorted);
	tcase_add_test(tc, eventq_lanes_pop_in_key_order_with_the_heap);
	suite_add_tcase(s, tc);

	tcase_add_loop_test(model,
			    eventq_matches_sorted_array_model_under_random_ops,
			    0, 8);
	suite_add_tcase(s, model);
	return s;
}
