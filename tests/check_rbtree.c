/* SPDX-License-Identifier: MIT */
/* Tests of the augmented red-black tree: order, FIFO ties, balance, erase. */
#include <string.h>

#include "suites.h"
#include "lib/rbtree.h"

/*
 * A test entry: ordered by key, ties broken by nothing but the tree's own
 * rule (equal keys go right), so the insertion id tells whether equal keys
 * stay in FIFO order.  The augmentation is the min and the max of `value`
 * over the subtree, the shape of EEVDF's min_vruntime / max_slice.
 */
struct tnode {
	struct eevdf_rb_node rb;
	s64 key;
	u64 id;	       /* insertion id, from a counter of the test */
	s64 value;     /* what the aggregates summarise */
	s64 min_value; /* min of value over the subtree */
	s64 max_value; /* max of value over the subtree */
	bool queued;
};

static struct tnode *tn(const struct eevdf_rb_node *n)
{
	return container_of(n, struct tnode, rb);
}

static bool tnode_less(const struct eevdf_rb_node *a,
		       const struct eevdf_rb_node *b)
{
	return tn(a)->key < tn(b)->key;
}

/* How many times the tree called tnode_augment() (one test reads it). */
static unsigned int augment_calls;

static bool tnode_augment(struct eevdf_rb_node *n)
{
	struct tnode *t = tn(n);
	s64 mn = t->value, mx = t->value;
	bool changed;

	if (n->left) {
		mn = min_s64(mn, tn(n->left)->min_value);
		mx = max_s64(mx, tn(n->left)->max_value);
	}
	if (n->right) {
		mn = min_s64(mn, tn(n->right)->min_value);
		mx = max_s64(mx, tn(n->right)->max_value);
	}
	augment_calls++;
	changed = mn != t->min_value || mx != t->max_value;
	t->min_value = mn;
	t->max_value = mx;
	return changed;
}

static void tnode_copy(struct eevdf_rb_node *to,
		       const struct eevdf_rb_node *from)
{
	tn(to)->min_value = tn(from)->min_value;
	tn(to)->max_value = tn(from)->max_value;
}

/*
 * The tree under test and a naive model of it: ref[] holds the queued
 * entries sorted by (key, insertion id), which is exactly the in-order
 * sequence the tree must have.
 */
#define POOL 256

struct model {
	struct eevdf_rb_root tree;
	struct tnode pool[POOL];
	struct tnode *ref[POOL];
	size_t nr;
	u64 next_id;
	char why[160]; /* the first problem verify() found */
};

static void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	eevdf__rb_init(&m->tree, tnode_augment, tnode_copy);
}

static void model_insert(struct model *m, struct tnode *t)
{
	size_t pos = m->nr;

	t->id = m->next_id++;
	t->queued = true;
	eevdf__rb_insert(&m->tree, &t->rb, tnode_less);
	/* The newest id goes after every equal key: an upper bound. */
	while (pos > 0 && m->ref[pos - 1]->key > t->key)
		pos--;
	memmove(&m->ref[pos + 1], &m->ref[pos],
		(m->nr - pos) * sizeof(m->ref[0]));
	m->ref[pos] = t;
	m->nr++;
}

static void model_erase(struct model *m, struct tnode *t)
{
	size_t pos = 0;

	while (pos < m->nr && m->ref[pos] != t)
		pos++;
	ck_assert_uint_lt(pos, m->nr);
	eevdf__rb_erase(&m->tree, &t->rb);
	t->queued = false;
	memmove(&m->ref[pos], &m->ref[pos + 1],
		(m->nr - pos - 1) * sizeof(m->ref[0]));
	m->nr--;
}

/* Insert a fresh pool entry with the given key and value. */
static struct tnode *model_add(struct model *m, size_t slot, s64 key, s64 value)
{
	struct tnode *t = &m->pool[slot];

	t->key = key;
	t->value = value;
	model_insert(m, t);
	return t;
}

/*
 * Recompute the aggregates of n's subtree from scratch, comparing with the
 * stored ones; also counts the nodes and measures the height (nodes on the
 * longest path down).  Returns false at the first mismatch.
 */
static bool verify_subtree(struct model *m, const struct eevdf_rb_node *n,
			   s64 *mn, s64 *mx, size_t *count, int *height)
{
	s64 lmn, lmx, rmn, rmx;
	size_t lc = 0, rc = 0;
	int lh = 0, rh = 0;
	const struct tnode *t = tn(n);

	*mn = t->value;
	*mx = t->value;
	if (n->left) {
		if (!verify_subtree(m, n->left, &lmn, &lmx, &lc, &lh))
			return false;
		*mn = min_s64(*mn, lmn);
		*mx = max_s64(*mx, lmx);
	}
	if (n->right) {
		if (!verify_subtree(m, n->right, &rmn, &rmx, &rc, &rh))
			return false;
		*mn = min_s64(*mn, rmn);
		*mx = max_s64(*mx, rmx);
	}
	*count = lc + rc + 1;
	*height = 1 + (lh > rh ? lh : rh);
	if (t->min_value != *mn || t->max_value != *mx) {
		snprintf(m->why, sizeof(m->why),
			 "node key %lld id %llu: aggregate [%lld, %lld], "
			 "recomputed [%lld, %lld]",
			 (long long)t->key, (unsigned long long)t->id,
			 (long long)t->min_value, (long long)t->max_value,
			 (long long)*mn, (long long)*mx);
		return false;
	}
	return true;
}

/*
 * Everything the tree promises, checked against the model: the red-black
 * invariants (eevdf__rb_check), the in-order sequence (by first/next) equal
 * to ref[], the leftmost cache, the aggregates, and the height bound of a
 * red-black tree, height <= 2 * log2(n + 1), i.e. 2^height <= (n + 1)^2.
 * Plain ifs rather than ck_assert: this runs after every random operation.
 */
static bool verify(struct model *m)
{
	const struct eevdf_rb_node *n;
	int bh = eevdf__rb_check(&m->tree), height = 0;
	size_t i = 0, count = 0;
	s64 mn, mx;

	m->why[0] = '\0';
	if (bh < 0) {
		snprintf(m->why, sizeof(m->why), "eevdf__rb_check() = %d", bh);
		return false;
	}
	if (eevdf__rb_first(&m->tree) != (m->nr ? &m->ref[0]->rb : NULL)) {
		snprintf(m->why, sizeof(m->why), "leftmost cache is wrong");
		return false;
	}
	for (n = eevdf__rb_first(&m->tree); n; n = eevdf__rb_next(n), i++) {
		if (i >= m->nr || tn(n) != m->ref[i]) {
			snprintf(m->why, sizeof(m->why),
				 "in-order position %zu differs from the "
				 "model",
				 i);
			return false;
		}
	}
	if (i != m->nr) {
		snprintf(m->why, sizeof(m->why),
			 "tree has %zu nodes, model %zu", i, m->nr);
		return false;
	}
	if (!m->tree.root) {
		snprintf(m->why, sizeof(m->why),
			 "empty tree has black height %d", bh);
		return bh == 0;
	}
	if (!verify_subtree(m, m->tree.root, &mn, &mx, &count, &height))
		return false;
	/* bh counts the NULL leaves: bh - 1 black nodes on every path. */
	if ((u64)1 << (bh - 1) > count + 1 || height > 2 * (bh - 1) ||
	    ((u64)1 << height) > (u64)(count + 1) * (count + 1)) {
		snprintf(m->why, sizeof(m->why),
			 "%zu nodes, height %d, black height %d", count, height,
			 bh - 1);
		return false;
	}
	return true;
}

/* step is evaluated exactly once: ck_assert_msg() evaluates its message
 * arguments only on failure. */
#define ck_verify(m, step)                                                     \
	do {                                                                   \
		int step_ = (int)(step);                                       \
                                                                               \
		ck_assert_msg(verify(m), "after step %d: %s", step_,           \
			      (m)->why);                                       \
	} while (0)

/* Deterministic stream for the randomized tests (64-bit LCG, Knuth's MMIX
 * constants); only the high half is used. */
static u32 lcg_next(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(*state >> 32);
}

static u32 lcg_below(u64 *state, u32 bound)
{
	return lcg_next(state) % bound;
}

START_TEST(rbtree_empty_tree_has_no_first_node_and_checks_clean)
{
	static struct model m;

	model_init(&m);
	ck_assert_ptr_null(eevdf__rb_first(&m.tree));
	ck_assert_int_eq(eevdf__rb_check(&m.tree), 0);
	ck_verify(&m, 0);
}
END_TEST

START_TEST(rbtree_single_node_is_a_black_root_and_the_leftmost)
{
	static struct model m;
	struct tnode *t;

	model_init(&m);
	t = model_add(&m, 0, 5, 42);
	ck_assert_ptr_eq(m.tree.root, &t->rb);
	ck_assert(!eevdf__rb_is_red(&t->rb));
	ck_assert_ptr_eq(eevdf__rb_first(&m.tree), &t->rb);
	ck_assert_ptr_null(eevdf__rb_next(&t->rb));
	/* One black node plus the NULL leaf. */
	ck_assert_int_eq(eevdf__rb_check(&m.tree), 2);
	ck_assert_int_eq(t->min_value, 42);
	ck_assert_int_eq(t->max_value, 42);
	model_erase(&m, t);
	ck_assert_ptr_null(m.tree.root);
	ck_verify(&m, 1);
}
END_TEST

START_TEST(rbtree_ascending_inserts_stay_sorted_and_balanced)
{
	static struct model m;
	int i;

	model_init(&m);
	for (i = 0; i < POOL; i++) {
		model_add(&m, (size_t)i, i, (i * 37) % 101);
		ck_verify(&m, i);
	}
	ck_assert_ptr_eq(eevdf__rb_first(&m.tree), &m.pool[0].rb);
}
END_TEST

START_TEST(rbtree_descending_inserts_stay_sorted_and_move_leftmost)
{
	static struct model m;
	int i;

	model_init(&m);
	for (i = 0; i < POOL; i++) {
		model_add(&m, (size_t)i, POOL - i, (i * 53) % 97 - 48);
		/* Every insert is a new minimum. */
		ck_assert_ptr_eq(eevdf__rb_first(&m.tree), &m.pool[i].rb);
		ck_verify(&m, i);
	}
}
END_TEST

START_TEST(rbtree_keeps_equal_keys_in_insertion_order)
{
	static struct model m;
	const struct eevdf_rb_node *n;
	int i;

	model_init(&m);
	for (i = 0; i < POOL; i++) {
		model_add(&m, (size_t)i, 7, i);
		ck_verify(&m, i);
	}
	/* FIFO: the first inserted stays leftmost, the rest follow in order. */
	i = 0;
	for (n = eevdf__rb_first(&m.tree); n; n = eevdf__rb_next(n))
		ck_assert_ptr_eq(tn(n), &m.pool[i++]);
	ck_assert_int_eq(i, POOL);
}
END_TEST

START_TEST(rbtree_interleaves_equal_keys_fifo_among_other_keys)
{
	static const s64 keys[] = { 3, 1, 3, 2, 1, 3, 0, 2 };
	/* By hand: sort by key, ties in order of insertion (pool slot). */
	static const size_t want[] = { 6, 1, 4, 3, 7, 0, 2, 5 };
	static struct model m;
	const struct eevdf_rb_node *n;
	size_t i;

	model_init(&m);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		model_add(&m, i, keys[i], 0);
		ck_verify(&m, i);
	}
	i = 0;
	for (n = eevdf__rb_first(&m.tree); n; n = eevdf__rb_next(n))
		ck_assert_ptr_eq(tn(n), &m.pool[want[i++]]);
	ck_assert_uint_eq(i, ARRAY_SIZE(want));
}
END_TEST

START_TEST(rbtree_reinserted_node_goes_behind_its_equal_keys)
{
	static struct model m;
	int i;

	model_init(&m);
	for (i = 0; i < 5; i++)
		model_add(&m, (size_t)i, 10, i);
	model_erase(&m, &m.pool[0]);
	ck_assert_ptr_eq(eevdf__rb_first(&m.tree), &m.pool[1].rb);
	model_insert(&m, &m.pool[0]);
	ck_verify(&m, 0);
	/* The model put it last among the equal keys; so must the tree. */
	ck_assert_ptr_eq(m.ref[4], &m.pool[0]);
	ck_assert_ptr_eq(eevdf__rb_first(&m.tree), &m.pool[1].rb);
}
END_TEST

/* A 63-node tree with keys in a scrambled order (i * 29 mod 64 visits
 * every residue once). */
static void build_scrambled(struct model *m, int nr)
{
	int i;

	model_init(m);
	for (i = 0; i < nr; i++)
		model_add(m, (size_t)i, (i * 29) % 64, (i * 41) % 67 - 33);
	ck_verify(m, -1);
}

START_TEST(rbtree_erase_of_leftmost_advances_the_cache)
{
	static struct model m;
	struct tnode *next;
	int step = 0;

	build_scrambled(&m, 63);
	while (m.nr) {
		next = m.nr > 1 ? m.ref[1] : NULL;
		ck_assert_ptr_eq(eevdf__rb_first(&m.tree), &m.ref[0]->rb);
		model_erase(&m, m.ref[0]);
		ck_assert_ptr_eq(eevdf__rb_first(&m.tree),
				 next ? &next->rb : NULL);
		ck_verify(&m, step++);
	}
	ck_assert_int_eq(eevdf__rb_check(&m.tree), 0);
}
END_TEST

START_TEST(rbtree_erase_of_root_keeps_tree_valid)
{
	static struct model m;
	int step = 0;

	build_scrambled(&m, 63);
	while (m.tree.root) {
		model_erase(&m, tn(m.tree.root));
		ck_verify(&m, step++);
	}
	ck_assert_uint_eq(m.nr, 0);
	ck_assert_ptr_null(eevdf__rb_first(&m.tree));
}
END_TEST

/* The last node in order that satisfies the shape test, or NULL. */
static struct tnode *find_node(struct model *m,
			       bool (*shape)(const struct eevdf_rb_node *))
{
	size_t i;

	for (i = m->nr; i-- > 0;)
		if (shape(&m->ref[i]->rb))
			return m->ref[i];
	return NULL;
}

static bool is_leaf(const struct eevdf_rb_node *n)
{
	return !n->left && !n->right && eevdf__rb_parent(n);
}

static bool has_two_children(const struct eevdf_rb_node *n)
{
	return n->left && n->right && eevdf__rb_parent(n);
}

static bool has_one_child(const struct eevdf_rb_node *n)
{
	return !n->left != !n->right;
}

START_TEST(rbtree_erase_of_a_leaf_keeps_tree_valid)
{
	static struct model m;
	struct tnode *t;
	int step = 0;

	build_scrambled(&m, 63);
	while ((t = find_node(&m, is_leaf)) != NULL) {
		model_erase(&m, t);
		ck_verify(&m, step++);
	}
	/* Only a lone root is left without a non-root leaf. */
	ck_assert_uint_eq(m.nr, 1);
}
END_TEST

START_TEST(rbtree_erase_of_a_node_with_two_children_keeps_tree_valid)
{
	static struct model m;
	struct tnode *t;
	int step = 0;

	build_scrambled(&m, 63);
	while ((t = find_node(&m, has_two_children)) != NULL) {
		model_erase(&m, t);
		ck_verify(&m, step++);
	}
	ck_assert_int_gt(step, 0);
}
END_TEST

START_TEST(rbtree_erase_of_a_node_with_one_child_keeps_tree_valid)
{
	static struct model m;
	struct tnode *t;
	int step = 0;

	build_scrambled(&m, 40);
	while ((t = find_node(&m, has_one_child)) != NULL) {
		model_erase(&m, t);
		ck_verify(&m, step++);
	}
	ck_assert_int_gt(step, 0);
}
END_TEST

/* Naive min and max of value over every queued entry. */
static s64 model_min(const struct model *m)
{
	s64 v = m->ref[0]->value;

	for (size_t i = 1; i < m->nr; i++)
		v = min_s64(v, m->ref[i]->value);
	return v;
}

static s64 model_max(const struct model *m)
{
	s64 v = m->ref[0]->value;

	for (size_t i = 1; i < m->nr; i++)
		v = max_s64(v, m->ref[i]->value);
	return v;
}

START_TEST(rbtree_propagate_updates_aggregates_after_a_value_change)
{
	static struct model m;
	struct tnode *leaf, *root;
	int step = 0;
	size_t i;

	build_scrambled(&m, 63);
	/* Values lie in -33..33; move a leaf's value outside that range. */
	leaf = find_node(&m, is_leaf);
	ck_assert_ptr_nonnull(leaf);
	leaf->value = -1000;
	eevdf__rb_propagate(&m.tree, &leaf->rb);
	ck_verify(&m, step++);
	ck_assert_int_eq(tn(m.tree.root)->min_value, -1000);
	leaf->value = 1000;
	eevdf__rb_propagate(&m.tree, &leaf->rb);
	ck_verify(&m, step++);
	ck_assert_int_eq(tn(m.tree.root)->max_value, 1000);
	ck_assert_int_eq(tn(m.tree.root)->min_value, model_min(&m));
	ck_assert_int_ge(tn(m.tree.root)->min_value, -33);

	/* A change at the root itself. */
	root = tn(m.tree.root);
	root->value = -2000;
	eevdf__rb_propagate(&m.tree, &root->rb);
	ck_verify(&m, step++);
	ck_assert_int_eq(root->min_value, -2000);
	ck_assert_int_eq(root->max_value, 1000);

	/* Every node in turn, to a value in -15..15 that depends on its
	 * position: once all are rewritten the extremes are exactly that. */
	for (i = 0; i < m.nr; i++) {
		m.ref[i]->value = (s64)((i * 13) % 31) - 15;
		eevdf__rb_propagate(&m.tree, &m.ref[i]->rb);
		ck_verify(&m, step++);
		ck_assert_int_eq(tn(m.tree.root)->min_value, model_min(&m));
		ck_assert_int_eq(tn(m.tree.root)->max_value, model_max(&m));
	}
	ck_assert_int_eq(tn(m.tree.root)->min_value, -15);
	ck_assert_int_eq(tn(m.tree.root)->max_value, 15);
}
END_TEST

START_TEST(rbtree_height_stays_within_twice_log2_of_size)
{
	static struct model m;
	int i;

	/*
	 * Sorted and all-equal inputs are the worst case of an unbalanced
	 * tree; verify() checks 2^height <= (n + 1)^2 after every insert.
	 */
	model_init(&m);
	for (i = 0; i < POOL; i++) {
		model_add(&m, (size_t)i, i < POOL / 2 ? i : POOL / 2, 0);
		ck_verify(&m, i);
	}
	/* 256 nodes: height at most 2 * log2(257), i.e. at most 16. */
	for (i = 0; i < POOL; i += 2) {
		model_erase(&m, &m.pool[i]);
		ck_verify(&m, i);
	}
}
END_TEST

/*
 * Random inserts, erases and value changes against the model, with many
 * duplicate keys (24 distinct keys for up to 256 nodes).  The insert bias
 * moves from growing to draining so that the tree passes through every
 * size; every operation is followed by a full verify().
 */
START_TEST(rbtree_random_operations_match_a_sorted_reference_model)
{
	static struct model m;
	u64 seed = 0x9E3779B97F4A7C15ULL * (u64)(_i + 1);
	const int steps = 4000;
	int step, inserts = 0, erases = 0, updates = 0;

	model_init(&m);
	for (step = 0; step < steps; step++) {
		u32 grow = step < steps / 3	? 65 :
			   step < 2 * steps / 3 ? 50 :
						  30;
		u32 r = lcg_below(&seed, 100);

		if (m.nr < POOL && (m.nr == 0 || r < grow)) {
			size_t slot;

			do
				slot = lcg_below(&seed, POOL);
			while (m.pool[slot].queued);
			model_add(&m, slot, (s64)lcg_below(&seed, 24),
				  (s64)lcg_below(&seed, 2001) - 1000);
			inserts++;
		} else if (r < 90 || m.nr == POOL) {
			model_erase(&m, m.ref[lcg_below(&seed, (u32)m.nr)]);
			erases++;
		} else {
			struct tnode *t = m.ref[lcg_below(&seed, (u32)m.nr)];

			t->value = (s64)lcg_below(&seed, 2001) - 1000;
			eevdf__rb_propagate(&m.tree, &t->rb);
			updates++;
		}
		ck_verify(&m, step);
	}
	/* Drain in random order. */
	while (m.nr) {
		model_erase(&m, m.ref[lcg_below(&seed, (u32)m.nr)]);
		ck_verify(&m, step++);
	}
	ck_assert_ptr_null(m.tree.root);
	ck_assert_int_gt(inserts, steps / 3);
	ck_assert_int_gt(erases, steps / 4);
	ck_assert_int_gt(updates, 0);
}
END_TEST

/*
 * Propagation stops at the first ancestor whose aggregate is unchanged.
 * Worked by hand: inserting 2, 1, 3 (all value 0) makes 2 the black root
 * with two red children, no rotation.  Inserting 4 (value 0) links it
 * right of 3: the tree computes 4's own aggregate (call 1), then 3's,
 * which stays [0, 0] (call 2), and stops: the root is not visited.  The
 * fix-up only recolours (red uncle 1).  Inserting 5 with value -7 below
 * 4 changes every aggregate on the way up: 5, 4, 3 and the root 2 (4
 * calls); 4 is red with no uncle, so the fix-up rotates left at 3, which
 * recomputes 3 and then 4 (2 calls): 6 in all, and the root's minimum is
 * -7.
 */
START_TEST(rbtree_propagation_stops_where_the_aggregate_is_unchanged)
{
	static struct model m;

	model_init(&m);
	model_add(&m, 0, 2, 0);
	model_add(&m, 1, 1, 0);
	model_add(&m, 2, 3, 0);
	augment_calls = 0;
	model_add(&m, 3, 4, 0);
	ck_assert_uint_eq(augment_calls, 2);
	ck_verify(&m, 0);
	augment_calls = 0;
	model_add(&m, 4, 5, -7);
	ck_assert_uint_eq(augment_calls, 6);
	ck_assert_int_eq(tn(m.tree.root)->min_value, -7);
	ck_assert_int_eq(tn(m.tree.root)->max_value, 0);
	ck_verify(&m, 1);
}
END_TEST

Suite *rbtree_suite(void)
{
	Suite *s = suite_create("rbtree");
	TCase *order = tcase_create("order");
	TCase *erase = tcase_create("erase");
	TCase *augment = tcase_create("augment");
	TCase *randomized = tcase_create("random");

	tcase_add_test(order,
		       rbtree_empty_tree_has_no_first_node_and_checks_clean);
	tcase_add_test(order,
		       rbtree_single_node_is_a_black_root_and_the_leftmost);
	tcase_add_test(order,
		       rbtree_ascending_inserts_stay_sorted_and_balanced);
	tcase_add_test(order,
		       rbtree_descending_inserts_stay_sorted_and_move_leftmost);
	tcase_add_test(order, rbtree_keeps_equal_keys_in_insertion_order);
	tcase_add_test(order,
		       rbtree_interleaves_equal_keys_fifo_among_other_keys);
	tcase_add_test(order,
		       rbtree_reinserted_node_goes_behind_its_equal_keys);
	tcase_add_test(order, rbtree_height_stays_within_twice_log2_of_size);
	suite_add_tcase(s, order);

	tcase_add_test(erase, rbtree_erase_of_leftmost_advances_the_cache);
	tcase_add_test(erase, rbtree_erase_of_root_keeps_tree_valid);
	tcase_add_test(erase, rbtree_erase_of_a_leaf_keeps_tree_valid);
	tcase_add_test(
		erase,
		rbtree_erase_of_a_node_with_two_children_keeps_tree_valid);
	tcase_add_test(erase,
		       rbtree_erase_of_a_node_with_one_child_keeps_tree_valid);
	suite_add_tcase(s, erase);

	tcase_add_test(
		augment,
		rbtree_propagate_updates_aggregates_after_a_value_change);
	tcase_add_test(
		augment,
		rbtree_propagation_stops_where_the_aggregate_is_unchanged);
	suite_add_tcase(s, augment);

	tcase_add_loop_test(
		randomized,
		rbtree_random_operations_match_a_sorted_reference_model, 0, 8);
	suite_add_tcase(s, randomized);
	return s;
}
