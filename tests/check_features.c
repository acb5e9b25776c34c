/* SPDX-License-Identifier: MIT */
/* Tests of feature names, profile defaults, the list parser and profiles. */
#include <string.h>

#include "suites.h"
#include "lib/strdist.h"
#include "sched/feature.h"

/* The list as sched_features.h spells it, counted independently. */
static const char *const listed[] = {
#define EEVDF_FEAT(name, dflt) #name,
#include "sched/sched_features.h"
#undef EEVDF_FEAT
};

static u64 bit(const char *name)
{
	int i = eevdf_feature_index(name);

	ck_assert_msg(i >= 0, "no feature %s", name);
	return (u64)1 << i;
}

static u64 profile_mask(const char *kernel)
{
	uint64_t mask = 0;

	ck_assert_int_eq(eevdf_profile_features(kernel, &mask), 0);
	return mask;
}

START_TEST(features_count_matches_the_feature_list)
{
	size_t i;

	ck_assert_uint_eq(eevdf_feature_count(), ARRAY_SIZE(listed));
	ck_assert_uint_le(eevdf_feature_count(), 64);
	for (i = 0; i < ARRAY_SIZE(listed); i++)
		ck_assert_str_eq(eevdf_feature_name(i), listed[i]);
	ck_assert_ptr_null(eevdf_feature_name(eevdf_feature_count()));
	ck_assert_ptr_null(eevdf_feature_name((size_t)-1));
}
END_TEST

START_TEST(features_names_are_unique_and_in_kernel_spelling)
{
	size_t n = eevdf_feature_count(), i, j;

	for (i = 0; i < n; i++) {
		const char *name = eevdf_feature_name(i);

		ck_assert_ptr_nonnull(name);
		ck_assert_uint_gt(strlen(name), 0);
		ck_assert_msg(strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") ==
				      strlen(name),
			      "bad spelling: %s", name);
		/* A NO_ prefix would be ambiguous with negation. */
		ck_assert_msg(strncmp(name, "NO_", 3) != 0, "%s", name);
		for (j = i + 1; j < n; j++)
			ck_assert_str_ne(name, eevdf_feature_name(j));
	}
}
END_TEST

START_TEST(features_index_round_trips_with_name)
{
	size_t i;

	for (i = 0; i < eevdf_feature_count(); i++)
		ck_assert_int_eq(eevdf_feature_index(eevdf_feature_name(i)),
				 (int)i);
	ck_assert_int_eq(eevdf_feature_index("NOT_A_FEATURE"), -1);
	ck_assert_int_eq(eevdf_feature_index("place_lag"), -1);
	ck_assert_int_eq(eevdf_feature_index("NO_PLACE_LAG"), -1);
	ck_assert_int_eq(eevdf_feature_index("PLACE_LA"), -1);
	ck_assert_int_eq(eevdf_feature_index(""), -1);
	ck_assert_int_eq(eevdf_feature_index(NULL), -1);
}
END_TEST

/* kernel-model.md section 8.1, the 6.18 column (NEXT_BUDDY false). */
static const struct {
	const char *name;
	bool on;
} defaults_6_18[] = {
	{ "PLACE_LAG", true },		{ "PLACE_DEADLINE_INITIAL", true },
	{ "PLACE_REL_DEADLINE", true }, { "RUN_TO_PARITY", true },
	{ "PREEMPT_SHORT", true },	{ "NEXT_BUDDY", false },
	{ "PICK_BUDDY", true },		{ "CACHE_HOT_BUDDY", true },
	{ "DELAY_DEQUEUE", true },	{ "DELAY_ZERO", true },
	{ "WAKEUP_PREEMPTION", true },	{ "HRTICK", false },
	{ "HRTICK_DL", false },		{ "NONTASK_CAPACITY", true },
	{ "TTWU_QUEUE", true },		{ "SIS_UTIL", true },
	{ "WARN_DOUBLE_CLOCK", false }, { "RT_PUSH_IPI", true },
	{ "RT_RUNTIME_SHARE", false },	{ "LB_MIN", false },
	{ "ATTACH_AGE_LOAD", true },	{ "WA_IDLE", true },
	{ "WA_WEIGHT", true },		{ "WA_BIAS", true },
	{ "UTIL_EST", true },		{ "LATENCY_WARN", false },
};

START_TEST(features_default_profile_has_the_6_18_defaults)
{
	u64 mask = profile_mask(NULL);

	ck_assert(mask & bit("PLACE_LAG"));
	ck_assert(mask & bit("RUN_TO_PARITY"));
	ck_assert(mask & bit("DELAY_DEQUEUE"));
	ck_assert(mask & bit("DELAY_ZERO"));
	ck_assert(mask & bit("PICK_BUDDY"));
	ck_assert(mask & bit("PREEMPT_SHORT"));
	ck_assert(!(mask & bit("NEXT_BUDDY")));
	ck_assert(!(mask & bit("HRTICK")));
	ck_assert_uint_eq(profile_mask("6.18"), mask);
}
END_TEST

START_TEST(features_every_kernel_flag_exists_with_its_reference_default)
{
	const char *kernel = _i ? "6.17" : "6.18";
	u64 mask = profile_mask(kernel);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(defaults_6_18); i++) {
		int idx = eevdf_feature_index(defaults_6_18[i].name);
		u64 b = bit(defaults_6_18[i].name);

		ck_assert_msg(!!(mask & b) == defaults_6_18[i].on,
			      "%s: %s should default %s", kernel,
			      defaults_6_18[i].name,
			      defaults_6_18[i].on ? "on" : "off");
		ck_assert(eevdf_feature_in_profile(kernel, (size_t)idx));
	}
}
END_TEST

START_TEST(features_parse_sets_on_and_off_bits)
{
	uint64_t on = 0, off = 0;
	char err[64] = "";

	ck_assert_int_eq(eevdf_features_parse("NO_DELAY_DEQUEUE,RUN_TO_PARITY",
					      &on, &off, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(on, bit("RUN_TO_PARITY"));
	ck_assert_uint_eq(off, bit("DELAY_DEQUEUE"));
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(features_parse_accumulates_over_earlier_overrides)
{
	uint64_t on = bit("HRTICK"), off = bit("PLACE_LAG");

	/* A second list adds to the first and flips what it names. */
	ck_assert_int_eq(eevdf_features_parse("NO_HRTICK,NEXT_BUDDY", &on, &off,
					      NULL, 0),
			 0);
	ck_assert_uint_eq(on, bit("NEXT_BUDDY"));
	ck_assert_uint_eq(off, bit("PLACE_LAG") | bit("HRTICK"));
	ck_assert_int_eq(eevdf_features_parse("PLACE_LAG", &on, &off, NULL, 0),
			 0);
	ck_assert_uint_eq(on, bit("NEXT_BUDDY") | bit("PLACE_LAG"));
	ck_assert_uint_eq(off, bit("HRTICK"));
}
END_TEST

/*
 * NAME and NO_NAME in one list are a contradiction, refused (issue 22:
 * DELAY_DEQUEUE,NO_DELAY_DEQUEUE was taken as the last one); a later
 * list still overrides an earlier one.
 */
START_TEST(features_parse_refuses_contradictions_later_lists_override)
{
	uint64_t on = 0, off = 0;
	char err[128];

	ck_assert_int_eq(eevdf_features_parse("NO_HRTICK,HRTICK", &on, &off,
					      err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_str_eq(err, "HRTICK and NO_HRTICK are both in the list: "
			      "give one");
	ck_assert_uint_eq(on, 0);
	ck_assert_uint_eq(off, 0);
	ck_assert_int_eq(eevdf_features_parse("NO_HRTICK", &on, &off, NULL, 0),
			 0);
	ck_assert_int_eq(eevdf_features_parse("HRTICK", &on, &off, NULL, 0), 0);
	ck_assert_uint_eq(on, bit("HRTICK"));
	ck_assert_uint_eq(off, 0);
	ck_assert_int_eq(eevdf_features_parse("PLACE_LAG", &on, &off, NULL, 0),
			 0);
	ck_assert_int_eq(
		eevdf_features_parse("NO_PLACE_LAG", &on, &off, NULL, 0), 0);
	ck_assert_uint_eq(on, bit("HRTICK"));
	ck_assert_uint_eq(off, bit("PLACE_LAG"));
	/* the same item twice is no contradiction */
	ck_assert_int_eq(
		eevdf_features_parse("HRTICK,HRTICK", &on, &off, NULL, 0), 0);
}
END_TEST

START_TEST(features_parse_ignores_empty_items_and_empty_lists)
{
	uint64_t on = 0, off = 0;

	ck_assert_int_eq(eevdf_features_parse("", &on, &off, NULL, 0), 0);
	ck_assert_uint_eq(on, 0);
	ck_assert_uint_eq(off, 0);
	ck_assert_int_eq(eevdf_features_parse(",,,", &on, &off, NULL, 0), 0);
	ck_assert_uint_eq(on, 0);
	ck_assert_uint_eq(off, 0);
	ck_assert_int_eq(eevdf_features_parse(",HRTICK,,NO_DELAY_ZERO,", &on,
					      &off, NULL, 0),
			 0);
	ck_assert_uint_eq(on, bit("HRTICK"));
	ck_assert_uint_eq(off, bit("DELAY_ZERO"));
}
END_TEST

static const char *const bad_lists[] = {
	"NOT_A_FEATURE", "NO_NOT_A_FEATURE",	 "place_lag",
	"NO_",		 "HRTICK,NOT_A_FEATURE", "NO_DELAY_DEQUEUE,,Delay_Zero",
};

/* The offending item of each list above, as the message must quote it. */
static const char *const bad_items[] = {
	"NOT_A_FEATURE", "NO_NOT_A_FEATURE", "place_lag",
	"NO_",		 "NOT_A_FEATURE",    "Delay_Zero",
};

START_TEST(features_parse_rejects_unknown_names_and_changes_nothing)
{
	/* The opposite of what the valid items of the lists ask for. */
	uint64_t on = bit("DELAY_DEQUEUE"), off = bit("HRTICK");
	char err[2048];

	memset(err, 0, sizeof(err));
	ck_assert_int_eq(eevdf_features_parse(bad_lists[_i], &on, &off, err,
					      sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_uint_eq(on, bit("DELAY_DEQUEUE"));
	ck_assert_uint_eq(off, bit("HRTICK"));
	ck_assert_msg(strstr(err, bad_items[_i]) != NULL, "message: %s", err);
	/* The message lists the valid names, first to last. */
	ck_assert_msg(strstr(err, "DELAY_DEQUEUE") != NULL, "message: %s", err);
	ck_assert_msg(strstr(err, "PLACE_LAG") != NULL, "message: %s", err);
	ck_assert_msg(strstr(err, eevdf_feature_name(eevdf_feature_count() -
						     1)) != NULL,
		      "message: %s", err);
	ck_assert_uint_lt(strlen(err), sizeof(err));
}
END_TEST

START_TEST(features_parse_truncates_message_to_a_tiny_buffer)
{
	uint64_t on = 0, off = 0;
	char err[16];

	memset(err, 'x', sizeof(err));
	ck_assert_int_eq(eevdf_features_parse("NOT_A_FEATURE", &on, &off, err,
					      8),
			 EEVDF_EINVAL);
	ck_assert_uint_eq(strnlen(err, sizeof(err)), 7);
	ck_assert_int_eq(err[7], '\0');
	ck_assert_int_eq(err[8], 'x'); /* nothing past errlen */

	/* errlen 1 leaves just the NUL; errlen 0 or no buffer: nothing. */
	memset(err, 'x', sizeof(err));
	ck_assert_int_eq(eevdf_features_parse("NOPE", &on, &off, err, 1),
			 EEVDF_EINVAL);
	ck_assert_int_eq(err[0], '\0');
	ck_assert_int_eq(err[1], 'x');
	memset(err, 'x', sizeof(err));
	ck_assert_int_eq(eevdf_features_parse("NOPE", &on, &off, err, 0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(err[0], 'x');
	ck_assert_int_eq(eevdf_features_parse("NOPE", &on, &off, NULL, 8),
			 EEVDF_EINVAL);
}
END_TEST

START_TEST(features_parse_rejects_null_arguments)
{
	uint64_t on = 0, off = 0;

	ck_assert_int_eq(eevdf_features_parse(NULL, &on, &off, NULL, 0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_features_parse("HRTICK", NULL, &off, NULL, 0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_features_parse("HRTICK", &on, NULL, NULL, 0),
			 EEVDF_EINVAL);
	ck_assert_uint_eq(on, 0);
	ck_assert_uint_eq(off, 0);
}
END_TEST

/*
 * Levenshtein distances worked by hand: the fewest one-byte insertions,
 * deletions and substitutions.
 */
START_TEST(features_strdist_counts_edits)
{
	char long31[32], long32[33];

	ck_assert_uint_eq(eevdf__strdist("", ""), 0);
	/* three deletions, three insertions */
	ck_assert_uint_eq(eevdf__strdist("abc", ""), 3);
	ck_assert_uint_eq(eevdf__strdist("", "abc"), 3);
	ck_assert_uint_eq(eevdf__strdist("abc", "abc"), 0);
	/* k->s, e->i, insert g */
	ck_assert_uint_eq(eevdf__strdist("kitten", "sitting"), 3);
	/* delete f, insert n */
	ck_assert_uint_eq(eevdf__strdist("flaw", "lawn"), 2);
	/* a swap of two letters is two substitutions */
	ck_assert_uint_eq(eevdf__strdist("HRTICK", "HRTIKC"), 2);
	/* the final E */
	ck_assert_uint_eq(eevdf__strdist("DELAY_DEQUEU", "DELAY_DEQUEUE"), 1);
	/* bytes compare exactly: case counts */
	ck_assert_uint_eq(eevdf__strdist("hrtick", "HRTICK"), 6);

	/* 31 bytes are measured, 32 are not. */
	memset(long31, 'A', 31);
	long31[31] = '\0';
	memset(long32, 'A', 32);
	long32[32] = '\0';
	ck_assert_uint_eq(eevdf__strdist(long31, long31), 0);
	ck_assert_uint_eq(eevdf__strdist(long31, ""), 31);
	ck_assert_uint_eq(eevdf__strdist(long32, long32), SIZE_MAX);
	ck_assert_uint_eq(eevdf__strdist("A", long32), SIZE_MAX);
}
END_TEST

/*
 * A typo and the spelling the message suggests: the closest NAME or
 * NO_NAME at most two edits away, case ignored, the first of a tie.
 */
static const struct {
	const char *list, *want;
} typos[] = {
	/* the final E of NO_DELAY_DEQUEUE: 1 edit */
	{ "NO_DELAY_DEQUEU", "did you mean 'NO_DELAY_DEQUEUE'?" },
	/* 1 from DELAY_DEQUEUE */
	{ "DELAY_DEQUEU", "did you mean 'DELAY_DEQUEUE'?" },
	/* a missing _ : 1 from NO_DELAY_DEQUEUE, 2 from DELAY_DEQUEUE */
	{ "NODELAY_DEQUEUE", "did you mean 'NO_DELAY_DEQUEUE'?" },
	/* case ignored: 0 from PLACE_LAG once upper-cased */
	{ "place_lag", "did you mean 'PLACE_LAG'?" },
	{ "no_run_to_parity", "did you mean 'NO_RUN_TO_PARITY'?" },
	/* 1 from HRTICK_DL, 2 from HRTICK: the closer one */
	{ "HRTICK_D", "did you mean 'HRTICK_DL'?" },
	/* 2 from HRTICK (delete _X) and 2 from HRTICK_DL (X->D, add L):
	 * the tie goes to HRTICK, first in the list */
	{ "HRTICK_X", "did you mean 'HRTICK'?" },
	/* the bad item of a longer list: 1 from WA_BIAS */
	{ "HRTICK,WA_BIASS,NO_PLACE_LAG", "did you mean 'WA_BIAS'?" },
	/* an RFC knob: 1 from PLACE_BONUS */
	{ "PLACE_BONU", "did you mean 'PLACE_BONUS'?" },
};

START_TEST(features_parse_suggests_the_closest_name)
{
	uint64_t on = 0, off = 0;
	char err[2048] = "";
	const char *first;

	ck_assert_int_eq(eevdf_features_parse(typos[_i].list, &on, &off, err,
					      sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_msg(strstr(err, typos[_i].want) != NULL, "%s: %s",
		      typos[_i].list, err);
	/* only one suggestion, and the list of valid names still follows */
	first = strstr(err, "did you mean");
	ck_assert_ptr_null(strstr(first + 1, "did you mean"));
	ck_assert_msg(strstr(err, "valid names") != NULL, "%s", err);
	ck_assert_msg(strstr(err, "PLACE_LAG,") != NULL, "%s", err);
	ck_assert_uint_eq(on, 0);
	ck_assert_uint_eq(off, 0);
}
END_TEST

START_TEST(features_parse_suggests_nothing_far_off)
{
	/*
	 * NOT_A_FEATURE, NOPE, NO_ and BOGUS are three or more edits from every
	 * name; the last is 33 bytes, longer than any name can be.
	 */
	static const char *const far[] = {
		"NOT_A_FEATURE", "NOPE", "NO_", "BOGUS",
		"PLACE_DEADLINE_INITIAL_AND_MORE_X"
	};
	uint64_t on = 0, off = 0;
	char err[2048];

	for (size_t i = 0; i < ARRAY_SIZE(far); i++) {
		err[0] = '\0';
		ck_assert_int_eq(eevdf_features_parse(far[i], &on, &off, err,
						      sizeof(err)),
				 EEVDF_EINVAL);
		ck_assert_msg(strstr(err, "did you mean") == NULL, "%s: %s",
			      far[i], err);
		ck_assert_msg(strstr(err, far[i]) != NULL, "%s", err);
	}
}
END_TEST

/* The effective mask of a simulation made with cfg. */
static u64 sim_features(const struct eevdf_config *cfg)
{
	eevdf_sim *sim = NULL;
	char err[256] = "";
	u64 mask;
	int ret;

	ret = eevdf_sim_new(cfg, &sim, err, sizeof(err));
	ck_assert_msg(ret == 0, "eevdf_sim_new: %d %s", ret, err);
	mask = eevdf_sim_features(sim);
	eevdf_sim_free(sim);
	return mask;
}

static const char *const override_lists[] = {
	"",
	"NO_DELAY_DEQUEUE,RUN_TO_PARITY",
	"NEXT_BUDDY,HRTICK,NO_PLACE_LAG,NO_RUN_TO_PARITY",
	"HRTICK,NO_PICK_BUDDY",
};

START_TEST(features_sim_mask_is_profile_defaults_with_overrides_applied)
{
	static const char *const kernels[] = { NULL, "6.18", "6.17" };
	const char *list = override_lists[_i];
	size_t k;

	for (k = 0; k < ARRAY_SIZE(kernels); k++) {
		struct eevdf_config cfg;
		uint64_t on = 0, off = 0;
		u64 want;

		eevdf_config_init(&cfg);
		cfg.kernel = kernels[k];
		ck_assert_int_eq(eevdf_config_set_features(&cfg, list, NULL, 0),
				 0);
		ck_assert_int_eq(eevdf_features_parse(list, &on, &off, NULL, 0),
				 0);
		want = (profile_mask(kernels[k]) | on) & ~off;
		ck_assert_uint_eq(sim_features(&cfg), want);
	}
}
END_TEST

START_TEST(features_sim_mask_matches_hand_built_masks)
{
	struct eevdf_config cfg;
	u64 dflt = profile_mask(NULL);

	eevdf_config_init(&cfg);
	ck_assert_uint_eq(sim_features(&cfg), dflt);

	eevdf_config_init(&cfg);
	ck_assert_int_eq(eevdf_config_set_features(
				 &cfg, "NO_DELAY_DEQUEUE,NEXT_BUDDY", NULL, 0),
			 0);
	ck_assert_uint_eq(sim_features(&cfg),
			  (dflt & ~bit("DELAY_DEQUEUE")) | bit("NEXT_BUDDY"));

	/* Two calls accumulate; the later one wins for HRTICK. */
	ck_assert_int_eq(eevdf_config_set_features(&cfg, "HRTICK", NULL, 0), 0);
	ck_assert_int_eq(eevdf_config_set_features(
				 &cfg, "NO_HRTICK,DELAY_DEQUEUE", NULL, 0),
			 0);
	ck_assert_uint_eq(sim_features(&cfg), dflt | bit("NEXT_BUDDY"));
}
END_TEST

START_TEST(features_feat_off_wins_over_feat_on_in_a_config)
{
	struct eevdf_config cfg;

	eevdf_config_init(&cfg);
	cfg.feat_on = bit("HRTICK") | bit("NEXT_BUDDY");
	cfg.feat_off = bit("HRTICK") | bit("PLACE_LAG");
	ck_assert_uint_eq(sim_features(&cfg),
			  (profile_mask(NULL) | bit("NEXT_BUDDY")) &
				  ~bit("PLACE_LAG"));
}
END_TEST

START_TEST(features_config_set_features_rejects_bad_lists)
{
	struct eevdf_config cfg;
	char err[1024] = "";

	eevdf_config_init(&cfg);
	ck_assert_int_eq(eevdf_config_set_features(&cfg, "NO_HRTICK", NULL, 0),
			 0);
	ck_assert_int_eq(eevdf_config_set_features(&cfg, "HRTICK,BOGUS", err,
						   sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_msg(strstr(err, "BOGUS") != NULL, "message: %s", err);
	ck_assert_uint_eq(cfg.feat_on, 0);
	ck_assert_uint_eq(cfg.feat_off, bit("HRTICK"));
	ck_assert_int_eq(eevdf_config_set_features(NULL, "HRTICK", NULL, 0),
			 EEVDF_EINVAL);
}
END_TEST

START_TEST(features_profile_features_rejects_unknown_profile)
{
	uint64_t mask = 0x1234;

	ck_assert_int_eq(eevdf_profile_features("6.99", &mask), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_profile_features("", &mask), EEVDF_EINVAL);
	ck_assert_uint_eq(mask, 0x1234);
	ck_assert_int_eq(eevdf_profile_features(NULL, NULL), EEVDF_EINVAL);
	ck_assert(!eevdf_feature_in_profile("6.99", 0));
	ck_assert(!eevdf_feature_in_profile(NULL, eevdf_feature_count()));
}
END_TEST

START_TEST(features_profiles_include_6_18_as_default_and_6_17)
{
	size_t i, n = eevdf_profile_count();
	bool seen_17 = false, seen_18 = false;

	ck_assert_uint_ge(n, 2);
	ck_assert_str_eq(eevdf_profile_default(), "6.18");
	for (i = 0; i < n; i++) {
		ck_assert_ptr_nonnull(eevdf_profile_name(i));
		ck_assert_ptr_nonnull(eevdf_profile_description(i));
		seen_17 |= strcmp(eevdf_profile_name(i), "6.17") == 0;
		seen_18 |= strcmp(eevdf_profile_name(i), "6.18") == 0;
	}
	ck_assert(seen_17 && seen_18);
	ck_assert_ptr_null(eevdf_profile_name(n));
	ck_assert_ptr_null(eevdf_profile_description(n));
}
END_TEST

/* Create a sim for `kernel` and return its profile name (copied). */
static void sim_kernel(const char *kernel, char *out, size_t outlen)
{
	struct eevdf_config cfg;
	eevdf_sim *sim = NULL;
	char err[256] = "";
	int ret;

	eevdf_config_init(&cfg);
	cfg.kernel = kernel;
	ret = eevdf_sim_new(&cfg, &sim, err, sizeof(err));
	ck_assert_msg(ret == 0, "eevdf_sim_new(%s): %d %s",
		      kernel ? kernel : "NULL", ret, err);
	snprintf(out, outlen, "%s", eevdf_sim_kernel(sim));
	eevdf_sim_free(sim);
}

START_TEST(features_sim_accepts_profile_names_and_the_6_18_0_alias)
{
	char name[32];

	sim_kernel(NULL, name, sizeof(name));
	ck_assert_str_eq(name, "6.18");
	sim_kernel("6.18", name, sizeof(name));
	ck_assert_str_eq(name, "6.18");
	sim_kernel("6.17", name, sizeof(name));
	ck_assert_str_eq(name, "6.17");
	/* 6.18.0 is the 6.17 model (section 0.2: the release had 6.17's). */
	sim_kernel("6.18.0", name, sizeof(name));
	ck_assert_str_eq(name, "6.17");
}
END_TEST

START_TEST(features_sim_rejects_unknown_kernel_and_lists_profiles)
{
	static const char *const bad[] = { "6.99", "", "6.18 ", "v6.18" };
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[256];
	size_t i, p;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		eevdf_config_init(&cfg);
		cfg.kernel = bad[i];
		sim = (eevdf_sim *)&cfg; /* must be overwritten with NULL */
		err[0] = '\0';
		ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)),
				 EEVDF_EINVAL);
		ck_assert_ptr_null(sim);
		for (p = 0; p < eevdf_profile_count(); p++)
			ck_assert_msg(strstr(err, eevdf_profile_name(p)) !=
					      NULL,
				      "'%s': message lacks %s: %s", bad[i],
				      eevdf_profile_name(p), err);
	}
	/* The profiles by their literal names, not only by the API's. */
	ck_assert_msg(strstr(err, "6.17") && strstr(err, "6.18"), "%s", err);
}
END_TEST

Suite *features_suite(void)
{
	Suite *s = suite_create("features");
	TCase *names = tcase_create("names");
	TCase *parse = tcase_create("parse");
	TCase *profiles = tcase_create("profiles");

	tcase_add_test(names, features_count_matches_the_feature_list);
	tcase_add_test(names, features_names_are_unique_and_in_kernel_spelling);
	tcase_add_test(names, features_index_round_trips_with_name);
	tcase_add_test(names, features_default_profile_has_the_6_18_defaults);
	tcase_add_loop_test(
		names,
		features_every_kernel_flag_exists_with_its_reference_default, 0,
		2);
	suite_add_tcase(s, names);

	tcase_add_test(parse, features_parse_sets_on_and_off_bits);
	tcase_add_test(parse,
		       features_parse_accumulates_over_earlier_overrides);
	tcase_add_test(
		parse,
		features_parse_refuses_contradictions_later_lists_override);
	tcase_add_test(parse,
		       features_parse_ignores_empty_items_and_empty_lists);
	tcase_add_loop_test(
		parse, features_parse_rejects_unknown_names_and_changes_nothing,
		0, (int)ARRAY_SIZE(bad_lists));
	tcase_add_test(parse,
		       features_parse_truncates_message_to_a_tiny_buffer);
	tcase_add_test(parse, features_parse_rejects_null_arguments);
	tcase_add_test(parse, features_strdist_counts_edits);
	tcase_add_loop_test(parse, features_parse_suggests_the_closest_name, 0,
			    (int)ARRAY_SIZE(typos));
	tcase_add_test(parse, features_parse_suggests_nothing_far_off);
	tcase_add_test(parse, features_config_set_features_rejects_bad_lists);
	suite_add_tcase(s, parse);

	tcase_add_loop_test(
		profiles,
		features_sim_mask_is_profile_defaults_with_overrides_applied, 0,
		(int)ARRAY_SIZE(override_lists));
	tcase_add_test(profiles, features_sim_mask_matches_hand_built_masks);
	tcase_add_test(profiles,
		       features_feat_off_wins_over_feat_on_in_a_config);
	tcase_add_test(profiles,
		       features_profile_features_rejects_unknown_profile);
	tcase_add_test(profiles,
		       features_profiles_include_6_18_as_default_and_6_17);
	tcase_add_test(profiles,
		       features_sim_accepts_profile_names_and_the_6_18_0_alias);
	tcase_add_test(profiles,
		       features_sim_rejects_unknown_kernel_and_lists_profiles);
	suite_add_tcase(s, profiles);
	return s;
}
