/* SPDX-License-Identifier: MIT */
/* Feature-flag enum and the sched_feat() query, expanded from features.h. */
#ifndef EEVDF_FEATURE_H
#define EEVDF_FEATURE_H

#include "lib/internal.h"

enum eevdf_feat {
#define EEVDF_FEAT(name, dflt) EEVDF_FEAT_##name,
#include "sched_features.h"
#undef EEVDF_FEAT
	EEVDF_FEAT_NR
};

_Static_assert(EEVDF_FEAT_NR <= 64, "feature mask is 64 bits");

#define FEAT_BIT(name) ((u64)1 << EEVDF_FEAT_##name)

/* The RFC knobs: settable on every profile, listed by none. */
#define RFC_FEATURES                                                           \
	(FEAT_BIT(WAKEUP_DEADLINE) | FEAT_BIT(PLACE_FUDGE) |                   \
	 FEAT_BIT(PLACE_BONUS) | FEAT_BIT(TTWU_QUEUE_DELAYED) |                \
	 FEAT_BIT(TTWU_QUEUE_DEFAULT) | FEAT_BIT(TTWU_DEQUEUE) |               \
	 FEAT_BIT(DEQUEUE_DELAYED))

/* The only way model code asks for a flag, so it reads like fair.c. */
#define sched_feat(mask, name) (((mask) >> EEVDF_FEAT_##name) & 1u)

/* The features.h defaults (Linux 6.18). */
u64 eevdf__feat_defaults(void);

#endif
