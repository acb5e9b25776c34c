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
 * Invariants: the root is black; no red node has a red child; every path
 * from a node to a leaf has the same number of black nodes; in-order
 * traversal is sorted by "less" (ties in insertion order); leftmost is
 * the first node in order (NULL when empty).
 */
#ifndef EEVDF_RBTREE_H
#define EEVDF_RBTREE_H

#include "internal.h"

struct eevdf_rb_node {
	struct eevdf_rb_node *parent;
	struct eevdf_rb_node *left;
	struct eevdf_rb_node *right;
	bool red;
};

typedef void (*eevdf_rb_augment_fn)(struct eevdf_rb_node *node);
typedef bool (*eevdf_rb_less_fn)(const struct eevdf_rb_node *a,
				 const struct eevdf_rb_node *b);

struct eevdf_rb_root {
	struct eevdf_rb_node *root;
	struct eevdf_rb_node *leftmost;
	eevdf_rb_augment_fn augment; /* may be NULL */
};

static inline void eevdf__rb_init(struct eevdf_rb_root *t,
				  eevdf_rb_augment_fn augment)
{
	t->root = NULL;
	t->leftmost = NULL;
	t->augment = augment;
}

void eevdf__rb_insert(struct eevdf_rb_root *t, struct eevdf_rb_node *node,
		      eevdf_rb_less_fn less);
void eevdf__rb_erase(struct eevdf_rb_root *t, struct eevdf_rb_node *node);

/* Recompute the aggregates from node up to the root, after the caller
 * changed a value node's aggregate depends on (not its key). */
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
