/* SPDX-License-Identifier: MIT */
/* Feature names, defaults and the NAME / NO_NAME list parser. */
#include <string.h>

#include "feature.h"
#include "lib/strdist.h"
#include "profile.h"

static const char *const feat_names[] = {
#define EEVDF_FEAT(name, dflt) #name,
#include "sched_features.h"
#undef EEVDF_FEAT
};

u64 eevdf__feat_defaults(void)
{
	return 0
#define EEVDF_FEAT(name, dflt) | ((u64)(dflt) << EEVDF_FEAT_##name)
#include "sched_features.h"
#undef EEVDF_FEAT
		;
}

size_t eevdf_feature_count(void)
{
	return EEVDF_FEAT_NR;
}

const char *eevdf_feature_name(size_t i)
{
	return i < EEVDF_FEAT_NR ? feat_names[i] : NULL;
}

int eevdf_feature_index(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < EEVDF_FEAT_NR; i++)
		if (strcmp(feat_names[i], name) == 0)
			return (int)i;
	return -1;
}

/* Index of the feature spelled by s[0..len), or -1. */
static int feature_index_n(const char *s, size_t len)
{
	for (size_t i = 0; i < EEVDF_FEAT_NR; i++)
		if (strlen(feat_names[i]) == len &&
		    memcmp(feat_names[i], s, len) == 0)
			return (int)i;
	return -1;
}

/*
 * The spelling closest to item[0..len) among every NAME and NO_NAME, for
 * "did you mean": at most two edits away, case ignored (the kernel's
 * names are upper case, so "place_lag" means PLACE_LAG); ties go to the
 * first feature of the list, NAME before NO_NAME.  Writes it into out
 * (EEVDF_STRDIST_MAX + 1 bytes) and returns true, or returns false.
 */
static bool closest_feature(const char *item, size_t len, char *out)
{
	char upper[EEVDF_STRDIST_MAX + 1], cand[EEVDF_STRDIST_MAX + 1];
	size_t best = 3;
	bool found = false;

	if (len > EEVDF_STRDIST_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = item[i];

		upper[i] = c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
	}
	upper[len] = '\0';
	for (size_t i = 0; i < EEVDF_FEAT_NR; i++) {
		for (int neg = 0; neg < 2; neg++) {
			static const char no[] = "NO_";
			size_t pl = neg ? sizeof(no) - 1 : 0,
			       nl = strlen(feat_names[i]);
			size_t d;

			/*
			 * memcpy, not snprintf: the length test is what
			 * bounds it, and gcc's -Wformat-truncation cannot
			 * see that under -fprofile-generate.
			 */
			if (pl + nl > EEVDF_STRDIST_MAX)
				continue;
			memcpy(cand, no, pl);
			memcpy(cand + pl, feat_names[i], nl + 1);
			d = eevdf__strdist(upper, cand);
			if (d < best) {
				best = d;
				memcpy(out, cand, sizeof(cand));
				found = true;
			}
		}
	}
	return found;
}

/*
 * "unknown feature", with the closest spelling when it looks like a typo,
 * then every valid name.
 */
static void unknown_feature(const char *item, size_t len, char *err,
			    size_t errlen)
{
	char near[EEVDF_STRDIST_MAX + 1], hint[EEVDF_STRDIST_MAX + 24] = "";
	size_t n;

	if (!err || !errlen)
		return;
	if (closest_feature(item, len, near))
		snprintf(hint, sizeof(hint), ": did you mean '%s'?", near);
	n = (size_t)snprintf(err, errlen,
			     "unknown feature '%.*s'%s%svalid names (each may "
			     "take a NO_ prefix):",
			     (int)len, item, hint, hint[0] ? " " : "; ");
	for (size_t i = 0; i < EEVDF_FEAT_NR && n < errlen; i++)
		n += (size_t)snprintf(err + n, errlen - n, "%s %s",
				      i ? "," : "", feat_names[i]);
}

/*
 * Mirrors the kernel's sched_feat_set(): "NAME" turns a flag on, "NO_NAME"
 * turns it off.  The whole list is checked before anything is applied, so
 * a typo never leaves half a list in force.
 */
int eevdf_features_parse(const char *list, u64 *on, u64 *off, char *err,
			 size_t errlen)
{
	u64 set_on = 0, set_off = 0;
	const char *p = list;

	if (!list || !on || !off)
		return EEVDF_EINVAL;
	while (*p) {
		const char *item = p;
		size_t len = strcspn(p, ",");
		bool neg = false;
		const char *name = item;
		size_t nlen = len;
		int idx;

		p += len;
		if (*p == ',')
			p++;
		if (len == 0)
			continue;
		idx = feature_index_n(name, nlen);
		if (idx < 0 && nlen > 3 && memcmp(name, "NO_", 3) == 0) {
			neg = true;
			name += 3;
			nlen -= 3;
			idx = feature_index_n(name, nlen);
		}
		if (idx < 0) {
			unknown_feature(item, len, err, errlen);
			return EEVDF_EINVAL;
		}
		/* NAME and NO_NAME in one list: which was meant? */
		if ((neg ? set_on : set_off) & ((u64)1 << idx)) {
			eevdf__set_err(err, errlen,
				       "%s and NO_%s are both in the list: "
				       "give one",
				       eevdf_feature_name((size_t)idx),
				       eevdf_feature_name((size_t)idx));
			return EEVDF_EINVAL;
		}
		if (neg) {
			set_off |= (u64)1 << idx;
			set_on &= ~((u64)1 << idx);
		} else {
			set_on |= (u64)1 << idx;
			set_off &= ~((u64)1 << idx);
		}
	}
	*on = (*on & ~set_off) | set_on;
	*off = (*off & ~set_on) | set_off;
	return 0;
}
