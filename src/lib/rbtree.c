/* SPDX-License-Identifier: MIT */
/*
 * Red-black tree insert, erase and rebalancing with augmentation (the
 * textbook algorithms with NULL leaves), and a structural checker.
 */
#include "rbtree.h"

#define parent_of eevdf__rb_parent
#define is_red eevdf__rb_is_red

static inline void set_parent(struct eevdf_rb_node *n, struct eevdf_rb_node *p)
{
	n->parent_color = (uintptr_t)p | (n->parent_color & 1);
}

static inline void set_red(struct eevdf_rb_node *n, bool red)
{
	n->parent_color = (n->parent_color & ~(uintptr_t)1) | (uintptr_t)red;
}

static void augment(struct eevdf_rb_root *t, struct eevdf_rb_node *n)
{
	if (t->augment && n)
		t->augment(n);
}

/* Recompute from node up to, not including, stop (NULL: the root). */
static void propagate_until(struct eevdf_rb_root *t, struct eevdf_rb_node *node,
			    const struct eevdf_rb_node *stop)
{
	if (!t->augment)
		return;
	for (; node != stop; node = parent_of(node))
		if (!t->augment(node))
			break;
}

void eevdf__rb_propagate(struct eevdf_rb_root *t, struct eevdf_rb_node *node)
{
	propagate_until(t, node, NULL);
}

/* Make `to` take `from`'s place under from's parent. */
static void replace_child(struct eevdf_rb_root *t, struct eevdf_rb_node *from,
			  struct eevdf_rb_node *to)
{
	struct eevdf_rb_node *p = parent_of(from);

	if (!p)
		t->root = to;
	else if (p->left == from)
		p->left = to;
	else
		p->right = to;
	if (to)
		set_parent(to, p);
}

/*
 * A rotation keeps the set of nodes below the top of the rotated subtree,
 * so only the two nodes that move need new aggregates, the lower first.
 */
static void rotate_left(struct eevdf_rb_root *t, struct eevdf_rb_node *x)
{
	struct eevdf_rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		set_parent(y->left, x);
	replace_child(t, x, y);
	y->left = x;
	set_parent(x, y);
	augment(t, x);
	augment(t, y);
}

static void rotate_right(struct eevdf_rb_root *t, struct eevdf_rb_node *x)
{
	struct eevdf_rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		set_parent(y->right, x);
	replace_child(t, x, y);
	y->right = x;
	set_parent(x, y);
	augment(t, x);
	augment(t, y);
}

static void insert_fixup(struct eevdf_rb_root *t, struct eevdf_rb_node *z)
{
	while (is_red(parent_of(z))) {
		struct eevdf_rb_node *p = parent_of(z), *g = parent_of(p), *u;

		if (p == g->left) {
			u = g->right;
			if (is_red(u)) {
				set_red(p, false);
				set_red(u, false);
				set_red(g, true);
				z = g;
				continue;
			}
			if (z == p->right) {
				z = p;
				rotate_left(t, z);
				p = parent_of(z);
			}
			set_red(p, false);
			set_red(g, true);
			rotate_right(t, g);
		} else {
			u = g->left;
			if (is_red(u)) {
				set_red(p, false);
				set_red(u, false);
				set_red(g, true);
				z = g;
				continue;
			}
			if (z == p->left) {
				z = p;
				rotate_right(t, z);
				p = parent_of(z);
			}
			set_red(p, false);
			set_red(g, true);
			rotate_left(t, g);
		}
	}
	set_red(t->root, false);
}

void eevdf__rb_insert(struct eevdf_rb_root *t, struct eevdf_rb_node *node,
		      eevdf_rb_less_fn less)
{
	struct eevdf_rb_node *parent = NULL, **link = &t->root;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	node->parent_color = (uintptr_t)parent | 1; /* red */
	node->left = node->right = NULL;
	*link = node;
	if (leftmost)
		t->leftmost = node;
	/* The new leaf's aggregate is its own (whatever it held before is
	 * stale); its ancestors' subtrees gained it. */
	augment(t, node);
	propagate_until(t, parent, NULL);
	insert_fixup(t, node);
}

static struct eevdf_rb_node *subtree_first(struct eevdf_rb_node *n)
{
	while (n->left)
		n = n->left;
	return n;
}

struct eevdf_rb_node *eevdf__rb_next(const struct eevdf_rb_node *node)
{
	const struct eevdf_rb_node *p;

	if (node->right)
		return subtree_first(node->right);
	p = parent_of(node);
	while (p && node == p->right) {
		node = p;
		p = parent_of(p);
	}
	return (struct eevdf_rb_node *)(uintptr_t)p;
}

/* x (possibly NULL) is one black short; xp is its parent. */
static void erase_fixup(struct eevdf_rb_root *t, struct eevdf_rb_node *x,
			struct eevdf_rb_node *xp)
{
	while (x != t->root && !is_red(x)) {
		struct eevdf_rb_node *w;

		if (x == xp->left) {
			w = xp->right;
			if (is_red(w)) {
				set_red(w, false);
				set_red(xp, true);
				rotate_left(t, xp);
				w = xp->right;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				set_red(w, true);
				x = xp;
				xp = parent_of(x);
				continue;
			}
			if (!is_red(w->right)) {
				set_red(w->left, false);
				set_red(w, true);
				rotate_right(t, w);
				w = xp->right;
			}
			set_red(w, is_red(xp));
			set_red(xp, false);
			set_red(w->right, false);
			rotate_left(t, xp);
		} else {
			w = xp->left;
			if (is_red(w)) {
				set_red(w, false);
				set_red(xp, true);
				rotate_right(t, xp);
				w = xp->left;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				set_red(w, true);
				x = xp;
				xp = parent_of(x);
				continue;
			}
			if (!is_red(w->left)) {
				set_red(w->right, false);
				set_red(w, true);
				rotate_left(t, w);
				w = xp->left;
			}
			set_red(w, is_red(xp));
			set_red(xp, false);
			set_red(w->left, false);
			rotate_right(t, xp);
		}
		x = t->root;
		break;
	}
	if (x)
		set_red(x, false);
}

void eevdf__rb_erase(struct eevdf_rb_root *t, struct eevdf_rb_node *z)
{
	struct eevdf_rb_node *x, *xp, *y = z;
	bool removed_red = is_red(z);

	if (t->leftmost == z)
		t->leftmost = eevdf__rb_next(z);

	if (!z->left) {
		x = z->right;
		xp = parent_of(z);
		replace_child(t, z, x);
	} else if (!z->right) {
		x = z->left;
		xp = parent_of(z);
		replace_child(t, z, x);
	} else {
		/* Splice out the successor y and put it where z was. */
		y = subtree_first(z->right);
		removed_red = is_red(y);
		x = y->right;
		if (parent_of(y) == z) {
			xp = y;
		} else {
			xp = parent_of(y);
			replace_child(t, y, x);
			y->right = z->right;
			set_parent(y->right, y);
		}
		replace_child(t, z, y);
		y->left = z->left;
		set_parent(y->left, y);
		set_red(y, is_red(z));
		/*
		 * y now stands where z stood, so its ancestors hold z's
		 * aggregate: y takes it over, the nodes from the splice point
		 * up to y lose y, and y itself loses z (the kernel's
		 * __rb_erase_augmented: copy, then propagate twice).
		 */
		if (t->augment) {
			t->copy(y, z);
			propagate_until(t, xp, y);
		}
	}
	/* Everything above lost a node: from z's parent, or from y. */
	propagate_until(t, y != z ? y : xp, NULL);
	if (!removed_red)
		erase_fixup(t, x, xp);
	z->parent_color = 0;
	z->left = z->right = NULL;
}

static int check_node(const struct eevdf_rb_node *n)
{
	int lh, rh;

	if (!n)
		return 1;
	if (n->left && parent_of(n->left) != n)
		return -1;
	if (n->right && parent_of(n->right) != n)
		return -1;
	if (is_red(n) && (is_red(n->left) || is_red(n->right)))
		return -1;
	lh = check_node(n->left);
	rh = check_node(n->right);
	if (lh < 0 || rh < 0 || lh != rh)
		return -1;
	return lh + (is_red(n) ? 0 : 1);
}

int eevdf__rb_check(const struct eevdf_rb_root *t)
{
	if (!t->root)
		return t->leftmost ? -1 : 0;
	if (t->root->parent_color)
		return -1;
	if (t->leftmost != subtree_first(t->root))
		return -1;
	return check_node(t->root);
}
