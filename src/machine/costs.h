/* SPDX-License-Identifier: MIT */
/*
 * The CPU cost of the operations tasks perform, charged as CPU work to the
 * task that performs them (and a context switch to the task switched in),
 * so that switch and syscall time is never dropped from vruntime
 * accounting (shared/reference/simulator-notes.md section 1).
 *
 * Defaults: shared/reference/workloads.md section 10, a split [est] of
 * measured anchors: a pipe round trip of 2 x (write + read + wakeup +
 * switch) = 2.8 us on one CPU, a starve cycle of about 2.6 us; the SMP
 * entries are documented in docs/machine-format.md.  A simulation that
 * runs a workload layers the table: the defaults, then the overrides of
 * its machine, then the workload's own "costs".  The library API without
 * a workload starts from all zeros, so hand-computed scheduler examples
 * stay exact.
 */
#ifndef EEVDF_COSTS_H
#define EEVDF_COSTS_H

#include "lib/internal.h"

/* COST(name, default in ns) */
#define EEVDF_COST_MAP(COST)                                                   \
	COST(syscall, 100)                                                     \
	COST(pipe_write, 250)                                                  \
	COST(pipe_read, 300)                                                   \
	COST(unix_write, 800)                                                  \
	COST(unix_read, 600)                                                   \
	COST(tcp_send, 1800)                                                   \
	COST(tcp_recv, 600)                                                    \
	COST(futex_wake, 150)                                                  \
	COST(futex_wait, 250)                                                  \
	COST(ttwu_local, 300)                                                  \
	COST(ctxsw_thread, 400)                                                \
	COST(ctxsw_process, 550)                                               \
	COST(signal_send, 350)                                                 \
	COST(signal_deliver, 600)                                              \
	COST(timer_arm, 250)                                                   \
	COST(fork, 35000)                                                      \
	COST(exit, 25000)                                                      \
	COST(wait_reap, 5000)                                                  \
	COST(gettimeofday, 20)                                                 \
	COST(ttwu_remote, 500)                                                 \
	COST(ipi, 1500)                                                        \
	COST(idle_exit, 2000)                                                  \
	COST(migrate_llc, 2000)                                                \
	COST(migrate_cross_llc, 10000)                                         \
	COST(migrate_cross_pkg, 25000)                                         \
	COST(balance_per_cpu, 100)                                             \
	COST(rq_remote_llc, 400)                                               \
	COST(rq_remote_cross_llc, 1000)                                        \
	COST(rq_remote_cross_pkg, 1200)                                        \
	COST(sis_probe, 100)                                                   \
	COST(ipi_recv, 1000)                                                   \
	COST(fair_server_start, 250)                                           \
	COST(fair_server_stop, 250)                                            \
	COST(smt_speed_pct, 62)                                                \
	COST(work_item, 500)                                                   \
	COST(irq_entry, 1000)                                                  \
	COST(blk_submit, 1500)                                                 \
	COST(blk_dispatch, 1000)                                               \
	COST(blk_complete, 1500)                                               \
	COST(fs_open, 1500)                                                    \
	COST(fs_close, 400)                                                    \
	COST(fs_create, 6000)                                                  \
	COST(fs_read_call, 250)                                                \
	COST(fs_write_call, 400)                                               \
	COST(fs_copy_page, 300)                                                \
	COST(fs_write_page, 900)                                               \
	COST(fs_rename, 5000)                                                  \
	COST(fs_unlink, 4000)                                                  \
	COST(fs_mkdir, 8000)                                                   \
	COST(fs_stat, 700)                                                     \
	COST(fs_readdir_entry, 250)                                            \
	COST(fs_fsync, 2000)                                                   \
	COST(fs_dirty_inode, 300)                                              \
	COST(wb_inode, 3000)                                                   \
	COST(wb_page, 300)                                                     \
	COST(end_io, 3000)                                                     \
	COST(jbd2_lock, 10000)                                                 \
	COST(jbd2_block, 600)                                                  \
	COST(jbd2_commit, 15000)

struct cost_table {
#define COST(name, dflt) u64 name;
	EEVDF_COST_MAP(COST)
#undef COST
};

/* The documented defaults. */
void eevdf__costs_default(struct cost_table *c);

/* Set the entry called name; false if there is none. */
bool eevdf__costs_set(struct cost_table *c, const char *name, u64 ns);

/*
 * The entries by position i in EEVDF_COST_MAP (the bit numbers of a set of
 * overridden entries, enum cost_index in machine.h).  Machines and
 * workloads each keep their overrides as a table plus such a set, so that
 * they can be layered: defaults, then the machine's, then the workload's.
 */
/* one per entry: the X-macro sums them */
#define COST_ONE(name, dflt) +1 /* NOLINT(bugprone-macro-parentheses) */
enum {
	COST_NR_ENTRIES = 0 EEVDF_COST_MAP(COST_ONE)
};
#undef COST_ONE
/* An entry in ns is at most 10^15 ns, as any duration of a workload. */
#define COST_MAX_NS ((u64)1000000000000000)

/* Position of the entry called name, or -1. */
int eevdf__costs_index(const char *name);
const char *eevdf__costs_name(int i);
/* Entry i of c. */
u64 *eevdf__costs_at(struct cost_table *c, int i);
/* Whether entry i is a percentage (its name ends in "_pct": 1..100). */
bool eevdf__costs_is_pct(int i);
/* Copy onto dst the entries of src whose bit is set in set. */
void eevdf__costs_apply(struct cost_table *dst, const struct cost_table *src,
			u64 set);
/* "syscall, pipe_write, ...": every name, for messages. */
const char *eevdf__costs_list(void);

#endif
