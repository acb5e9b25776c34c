/* SPDX-License-Identifier: MIT */
/*
 * Red-black tree insert, erase and rebalancing with augmentation (the
 * textbook algorithms with NULL leaves), and a structural checker.
 */
#include "rbtree.h"

static void augment(struct eevdf_rb_root *t, struct eevdf_rb_node *n)
{
	if (t->augment && n)
		t->augment(n);
}

void eevdf__rb_propagate(struct eevdf_rb_root *t, struct eevdf_rb_node *node)
{
	for (; node; node = node->parent)
		augment(t, node);
}

/* Make `to` take `from`'s place under from's parent. */
static void replace_child(struct eevdf_rb_root *t, struct eevdf_rb_node *from,
			  struct eevdf_rb_node *to)
{
	struct eevdf_rb_node *p = from->parent;

	if (!p)
		t->root = to;
	else if (p->left == from)
		p->left = to;
	else
		p->right = to;
	if (to)
		to->parent = p;
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
		y->left->parent = x;
	replace_child(t, x, y);
	y->left = x;
	x->parent = y;
	augment(t, x);
	augment(t, y);
}

static void rotate_right(struct eevdf_rb_root *t, struct eevdf_rb_node *x)
{
	struct eevdf_rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	replace_child(t, x, y);
	y->right = x;
	x->parent = y;
	augment(t, x);
	augment(t, y);
}

static bool is_red(const struct eevdf_rb_node *n)
{
	return n && n->red;
}

static void insert_fixup(struct eevdf_rb_root *t, struct eevdf_rb_node *z)
{
	while (is_red(z->parent)) {
		struct eevdf_rb_node *p = z->parent, *g = p->parent, *u;

		if (p == g->left) {
			u = g->right;
			if (is_red(u)) {
				p->red = false;
				u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->right) {
				z = p;
				rotate_left(t, z);
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			rotate_right(t, g);
		} else {
			u = g->left;
			if (is_red(u)) {
				p->red = false;
				u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->left) {
				z = p;
				rotate_right(t, z);
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			rotate_left(t, g);
		}
	}
	t->root->red = false;
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
	node->parent = parent;
	node->left = node->right = NULL;
	node->red = true;
	*link = node;
	if (leftmost)
		t->leftmost = node;
	/* Every ancestor's subtree gained the node. */
	eevdf__rb_propagate(t, node);
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
	p = node->parent;
	while (p && node == p->right) {
		node = p;
		p = p->parent;
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
				w->red = false;
				xp->red = true;
				rotate_left(t, xp);
				w = xp->right;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = true;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!is_red(w->right)) {
				w->left->red = false;
				w->red = true;
				rotate_right(t, w);
				w = xp->right;
			}
			w->red = xp->red;
			xp->red = false;
			w->right->red = false;
			rotate_left(t, xp);
		} else {
			w = xp->left;
			if (is_red(w)) {
				w->red = false;
				xp->red = true;
				rotate_right(t, xp);
				w = xp->left;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = true;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!is_red(w->left)) {
				w->right->red = false;
				w->red = true;
				rotate_left(t, w);
				w = xp->left;
			}
			w->red = xp->red;
			xp->red = false;
			w->left->red = false;
			rotate_right(t, xp);
		}
		x = t->root;
		break;
	}
	if (x)
		x->red = false;
}

void eevdf__rb_erase(struct eevdf_rb_root *t, struct eevdf_rb_node *z)
{
	struct eevdf_rb_node *x, *xp, *y = z;
	bool removed_red = z->red;

	if (t->leftmost == z)
		t->leftmost = eevdf__rb_next(z);

	if (!z->left) {
		x = z->right;
		xp = z->parent;
		replace_child(t, z, x);
	} else if (!z->right) {
		x = z->left;
		xp = z->parent;
		replace_child(t, z, x);
	} else {
		/* Splice out the successor y and put it where z was. */
		y = subtree_first(z->right);
		removed_red = y->red;
		x = y->right;
		if (y->parent == z) {
			xp = y;
		} else {
			xp = y->parent;
			replace_child(t, y, x);
			y->right = z->right;
			y->right->parent = y;
		}
		replace_child(t, z, y);
		y->left = z->left;
		y->left->parent = y;
		y->red = z->red;
	}
	/* Everything from the splice point up lost a node. */
	eevdf__rb_propagate(t, xp);
	if (!removed_red)
		erase_fixup(t, x, xp);
	z->parent = z->left = z->right = NULL;
}

static int check_node(const struct eevdf_rb_node *n)
{
	int lh, rh;

	if (!n)
		return 1;
	if (n->left && n->left->parent != n)
		return -1;
	if (n->right && n->right->parent != n)
		return -1;
	if (n->red && (is_red(n->left) || is_red(n->right)))
		return -1;
	lh = check_node(n->left);
	rh = check_node(n->right);
	if (lh < 0 || rh < 0 || lh != rh)
		return -1;
	return lh + (n->red ? 0 : 1);
}

int eevdf__rb_check(const struct eevdf_rb_root *t)
{
	if (!t->root)
		return t->leftmost ? -1 : 0;
	if (t->root->red || t->root->parent)
		return -1;
	if (t->leftmost != subtree_first(t->root))
		return -1;
	return check_node(t->root);
}
