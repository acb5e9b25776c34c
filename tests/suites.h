/* SPDX-License-Identifier: MIT */
/* Every libcheck suite; tests/check_main.c runs them all. */
#ifndef EEVDF_TEST_SUITES_H
#define EEVDF_TEST_SUITES_H

#include <check.h>

Suite *eventq_suite(void);
Suite *rng_suite(void);
Suite *weights_suite(void);
Suite *rbtree_suite(void);
Suite *task_pool_suite(void);
Suite *features_suite(void);
Suite *fair_suite(void);
Suite *vectors_suite(void);
Suite *scenario_suite(void);
Suite *workload_suite(void);
Suite *sim_suite(void);
Suite *program_suite(void);
Suite *report_suite(void);
Suite *dist_suite(void);
Suite *hist_suite(void);
Suite *expr_suite(void);
Suite *rtapp_suite(void);
Suite *machine_suite(void);
Suite *pelt_suite(void);
Suite *smp_suite(void);
Suite *knobs_suite(void);
Suite *cfs_suite(void);
Suite *provenance_suite(void);
Suite *rq_lock_suite(void);
Suite *cpulist_suite(void);
Suite *harden_suite(void);
Suite *classes_suite(void);
Suite *state_suite(void);
Suite *plot_suite(void);
Suite *groups_suite(void);
Suite *calibrate_suite(void);
Suite *kcheck_suite(void);
Suite *stats_suite(void);
Suite *sweep_suite(void);
Suite *wl_groups_suite(void);
Suite *io_suite(void);

#endif
