/* SPDX-License-Identifier: MIT */
/*
 * Who ran when on one CPU, as the tasks of an experiment see it: each
 * task's segments of uninterrupted running, measured with the vDSO clock
 * alone (a thread reads the clock in a loop; a jump longer than a gap
 * threshold means it was off the CPU), or taken from the simulator's
 * switch trace.  The same analysis reads both: CPU time in a window, the
 * runs of a task between switches to another task of the experiment,
 * and the time no task of the experiment ran (other processes, the
 * hypervisor, interrupts).
 */
#ifndef CAL_TIMELINE_H
#define CAL_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tl_seg {
	int64_t start, end; /* ns, end >= start */
};

struct tl_task {
	struct tl_seg *seg; /* in time order, disjoint */
	size_t n, cap;
	bool overflow; /* a push failed: the record is incomplete */
};

/* Preallocate room for n segments (the hot loop must not allocate);
 * false when out of memory. */
bool tl_reserve(struct tl_task *t, size_t n);

/* Append a segment; false (and t->overflow) when it has no room left and
 * cannot get more. */
bool tl_push(struct tl_task *t, int64_t start, int64_t end);

void tl_free(struct tl_task *t);

/* The time task t ran inside [from, to). */
int64_t tl_cpu(const struct tl_task *t, int64_t from, int64_t to);

/*
 * The runs of task i among the nr tasks: maximal sequences of its
 * segments with no segment of another task between them, from the first
 * segment's start to the last one's end.  Runs that begin before from or
 * end after to are left out (they were cut by the window).  Up to max
 * lengths into out (NULL to count); returns how many runs there are.
 */
size_t tl_runs(const struct tl_task *tasks, size_t nr, size_t i, int64_t from,
	       int64_t to, int64_t *out, size_t max);

/*
 * The time inside [from, to) in gaps of at least min_gap during which no
 * task ran: the CPU went to someone else (another process, a kernel
 * thread, the hypervisor).  Shorter gaps are switches and interrupts.
 */
int64_t tl_foreign(const struct tl_task *tasks, size_t nr, int64_t from,
		   int64_t to, int64_t min_gap);

#endif
