/* SPDX-License-Identifier: MIT */
/* The libcheck runner: every suite of tests/suites.h, forked per test. */
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	Suite *(*const suites[])(void) = {
		eventq_suite,	  rng_suite,	   weights_suite,
		rbtree_suite,	  features_suite,  fair_suite,
		vectors_suite,	  scenario_suite,  workload_suite,
		sim_suite,	  program_suite,   expr_suite,
		dist_suite,	  hist_suite,	   report_suite,
		rtapp_suite,	  pelt_suite,	   machine_suite,
		smp_suite,	  knobs_suite,	   cfs_suite,
		provenance_suite, rq_lock_suite,   cpulist_suite,
		classes_suite,	  calibrate_suite, kcheck_suite,
		stats_suite,	  sweep_suite,	   groups_suite,
		wl_groups_suite,  state_suite,	   plot_suite,
		harden_suite,	  io_suite,	   task_pool_suite,
	};
	SRunner *sr = srunner_create(NULL);
	int failed;

	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		srunner_add_suite(sr, suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
