/* SPDX-License-Identifier: MIT */
/*
 * An intrusive, augmented red-black tree with a cached leftmost node.
 *
 * The node carries no key: insertion takes a "less" callback, and equal
 * keys go to the right, so among equal keys the earlier-inserted node is
 * further left (the FIFO order EEVDF relies on for equal deadlines).
 * Augmentation is a per-tree callback that recomputes one node's aggregate
 * from the node and its two children; the tree calls it bottom-up for
 * every node whose subtree changed, so each aggregate always covers exactly
 * the node's subtree.
 *
 * Tried and not kept: a cached rightmost node, so that an insert that
 * sorts after every node (a task that used up its slice) attaches below
 * it without the walk, with the tree the same shape.  It took 17 % of
 * the comparisons and 0.5 % of the last-level misses out of a steady
 * run of 100 000 tasks on 1 024 CPUs, where most inserts are wakeups
 * that land inside the tree, and cost schbench 0.24 % more instructions
 * and 3 % more L1 misses: its trees are one or two nodes deep, and the
 * rightmost is one more line to read.
 *
 * Invariants: the root is black; no red node has a red child; every path
 * from a node to a leaf has the same number of black nodes; in-order
 * traversal is sorted by "less" (ties in insertion order); leftmost is
 * the first node in order (NULL when empty).
 */
#ifndef EEVDF_RBTREE_H
#define EEVDF_RBTREE_H

#include "internal.h"

/*
 * The colour lives in the parent pointer's low bit (nodes are at least
 * pointer-aligned), as in the kernel's __rb_parent_color: a node is three
 * words, so an entity's links, its key and the aggregates a walk reads
 * fit one cache line.
 */
struct eevdf_rb_node {
	uintptr_t parent_color; /* parent | 1 when red */
	struct eevdf_rb_node *left;
	struct eevdf_rb_node *right;
};

static inline struct eevdf_rb_node *
eevdf__rb_parent(const struct eevdf_rb_node *n)
{
	return (struct eevdf_rb_node *)(n->parent_color & ~(uintptr_t)1);
}

static inline bool eevdf__rb_is_red(const struct eevdf_rb_node *n)
{
	return n && (n->parent_color & 1);
}

/*
 * Recompute node's aggregate from the node and its two children; return
 * true when it changed.  Propagation stops at the first ancestor whose
 * aggregate did not change, as the kernel's RB_DECLARE_CALLBACKS
 * propagate does: the aggregate is a function of the subtree alone, so
 * nothing above it can have changed either.
 */
typedef bool (*eevdf_rb_augment_fn)(struct eevdf_rb_node *node);
/* Give `to` the aggregate of `from` (erase moves a successor into the
 * erased node's place, whose aggregate it then corrects). */
typedef void (*eevdf_rb_copy_fn)(struct eevdf_rb_node *to,
				 const struct eevdf_rb_node *from);
typedef bool (*eevdf_rb_less_fn)(const struct eevdf_rb_node *a,
				 const struct eevdf_rb_node *b);

struct eevdf_rb_root {
	struct eevdf_rb_node *root;
	struct eevdf_rb_node *leftmost;
	eevdf_rb_augment_fn augment; /* may be NULL */
	eevdf_rb_copy_fn copy;	     /* non-NULL when augment is */
};

static inline void eevdf__rb_init(struct eevdf_rb_root *t,
				  eevdf_rb_augment_fn augment,
				  eevdf_rb_copy_fn copy)
{
	t->root = NULL;
	t->leftmost = NULL;
	t->augment = augment;
	t->copy = copy;
}

void eevdf__rb_insert(struct eevdf_rb_root *t, struct eevdf_rb_node *node,
		      eevdf_rb_less_fn less);
void eevdf__rb_erase(struct eevdf_rb_root *t, struct eevdf_rb_node *node);

/* Recompute the aggregates from node up towards the root, after the
 * caller changed a value node's aggregate depends on (not its key);
 * stops at the first ancestor that did not change. */
void eevdf__rb_propagate(struct eevdf_rb_root *t, struct eevdf_rb_node *node);

struct eevdf_rb_node *eevdf__rb_next(const struct eevdf_rb_node *node);

static inline struct eevdf_rb_node *
eevdf__rb_first(const struct eevdf_rb_root *t)
{
	return t->leftmost;
}

/*
 * Check the red-black invariants and the leftmost cache; returns the black
 * height, or -1 when broken.  For tests and the invariant checker.
 */
int eevdf__rb_check(const struct eevdf_rb_root *t);

#endif
