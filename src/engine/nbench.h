/* SPDX-License-Identifier: MIT */
/*
 * An NBENCH load file (dbench's client.txt) read into lines, and the
 * program op that replays it against the file system model as dbench's
 * fileio backend does (fileio.c of dbench 4): the workload loader parses
 * (src/workload/nbench_load.c), the engine runs (nbench.c).
 */
#ifndef EEVDF_NBENCH_H
#define EEVDF_NBENCH_H

#include "lib/internal.h"

struct eevdf_sim;
struct rq;
struct task;
struct pop;

enum nb_op {
	NB_NTCREATEX = 0,
	NB_CLOSE,
	NB_READX,
	NB_WRITEX,
	NB_QPATHINFO, /* QUERY_PATH_INFORMATION */
	NB_QFILEINFO, /* QUERY_FILE_INFORMATION */
	NB_QFSINFO,   /* QUERY_FS_INFORMATION */
	NB_SFILEINFO, /* SET_FILE_INFORMATION */
	NB_FINDFIRST, /* FIND_FIRST */
	NB_UNLINK,
	NB_RENAME,
	NB_MKDIR,
	NB_RMDIR,
	NB_DELTREE,
	NB_FLUSH,
	NB_LOCKX,
	NB_UNLOCKX,
	NB_SLEEP, /* SLEEP us */
	NB_NR_OPS
};

/* The op names as dbench prints them, by enum nb_op. */
extern const char *const eevdf__nb_op_names[NB_NR_OPS];

#define NB_PARAMS 4

/* One line; a "*..." or "+..." parameter keeps its text in the pool. */
struct nb_line {
	uint8_t op;
	bool expect_fail; /* its status is not NT_STATUS_OK */
	uint8_t special;  /* bit i: p[i] is an offset into the pool */
	u32 repeat;	  /* REPEAT n before it, else 1 */
	u32 path, path2;  /* offsets into the pool, 0: none */
	s64 p[NB_PARAMS];
	double t; /* its timestamp, 0 for none */
};

struct nb_load {
	int refs;
	char *name; /* as given: "builtin" or the file's path */
	struct nb_line *lines;
	size_t nr, cap;
	char *pool; /* NUL-separated strings; offset 0 is "" */
	size_t pool_len, pool_cap;
	u64 nr_by_op[NB_NR_OPS]; /* lines of each op, repeats counted */
};

void eevdf__nb_load_unref(struct nb_load *l);

/* Add a load to the simulation: its index, or < 0. */
int eevdf__sim_add_nb_load(struct eevdf_sim *sim, struct nb_load *l);

/*
 * P_NBENCH: a.c is the load's index; b: the client number (paths say
 * "client1", replaced by "client<b+1>" as dbench does); slot: a hidden
 * variable for the fd and field_slot[0] for the status of a call;
 * field_slot[1..3]: metric indices for op latency (keyed hist), bytes
 * (counter), lines (counter), NO_SLOT for none; c: a keyed per-second
 * latency hist's metric index as PV_CONST, or PV_NONE.
 */
int eevdf__nbench_exec(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		       const struct pop *op);

#endif
