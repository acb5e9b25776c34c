/* SPDX-License-Identifier: MIT */
/*
 * Tick-by-tick traces for the test vectors: record the switches of CPU 0
 * through the trace callback, then say which task ran in the middle of
 * each 1 ms interval ('A' + pid - 1, '.' for idle).
 */
#ifndef EEVDF_TEST_TRACE_REC_H
#define EEVDF_TEST_TRACE_REC_H

#include "eevdf/eevdf.h"

#define TRACE_REC_MAX 8192

struct rec {
	eevdf_time at[TRACE_REC_MAX];
	int pid[TRACE_REC_MAX];
	int n;
};

static inline void record(void *ud, const struct eevdf_trace_event *ev)
{
	struct rec *r = ud;

	if (ev->kind != EEVDF_TRACE_SWITCH || ev->cpu != 0 ||
	    r->n == TRACE_REC_MAX)
		return;
	r->at[r->n] = ev->time;
	r->pid[r->n] = ev->pid;
	r->n++;
}

static inline void trace_string(const struct rec *r, char *out, int nms)
{
	const eevdf_time ms = 1000000;

	for (int k = 0; k < nms; k++) {
		eevdf_time mid = k * ms + ms / 2;
		int pid = -1;

		for (int i = 0; i < r->n && r->at[i] <= mid; i++)
			pid = r->pid[i];
		out[k] = pid > 0 ? (char)('A' + pid - 1) : '.';
	}
	out[nms] = '\0';
}

#endif
