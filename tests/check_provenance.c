/* SPDX-License-Identifier: MIT */
/*
 * Provenance and completion: SHA-256 against the published vectors, the
 * digests results carry, --duration through the workload's own length
 * param, and when a benchmark counts as completed.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "eevdf/eevdf.h"
#include "lib/sha256.h"

#define MS 1000000LL

/* FIPS 180-2 appendix B (one block, two blocks, a million 'a'). */
START_TEST(sha256_matches_the_fips_vectors)
{
	static const char *const two_blocks =
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[65], *a = malloc(1000000);
	struct eevdf_sha256 s;

	eevdf_sha256_hex("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb924"
			      "27ae41e4649b934ca495991b7852b855");
	eevdf_sha256_hex("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223"
			      "b00361a396177a9cb410ff61f20015ad");
	eevdf_sha256_hex(two_blocks, strlen(two_blocks), hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039"
			      "a33ce45964ff2167f6ecedd419db06c1");
	ck_assert_ptr_nonnull(a);
	memset(a, 'a', 1000000);
	/* in uneven pieces: the buffer carries across updates */
	eevdf__sha256_init(&s);
	eevdf__sha256_update(&s, a, 1);
	eevdf__sha256_update(&s, a, 63);
	eevdf__sha256_update(&s, a, 999000);
	eevdf__sha256_update(&s, a, 936);
	eevdf__sha256_final(&s, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
			      "f1809a48a497200e046d39ccc7112cd0");
	free(a);
}
END_TEST

/*
 * The padding edges: 55 bytes leave room for the length in one block, 56
 * do not (values of Python's hashlib, an independent implementation).
 */
START_TEST(sha256_pads_at_the_block_edges)
{
	char buf[64], hex[65];

	memset(buf, 'a', sizeof(buf));
	eevdf_sha256_hex(buf, 55, hex);
	ck_assert_str_eq(hex, "9f4390f8d30c2dd92ec9f095b65e2b9a"
			      "e9b0a925a5258e241c9f1e910f734318");
	eevdf_sha256_hex(buf, 56, hex);
	ck_assert_str_eq(hex, "b35439a4ac6f0948b6d6f9e3c6af0f5f"
			      "590ce20f1bde7090ef7970686ec6738a");
	eevdf_sha256_hex(buf, 64, hex);
	ck_assert_str_eq(hex, "ffe054fe7ae0cb6dc65c3af9b61d5209"
			      "f439851db43d0ba5997337df154668eb");
}
END_TEST

/* A machine's digest is of what it is, not of its name's bytes alone. */
START_TEST(machine_digest_changes_with_the_machine_only)
{
	eevdf_machine *a, *b;
	char ha[65], hb[65];

	ck_assert_int_eq(eevdf_machine_new_flat(4, &a, NULL, 0), 0);
	ck_assert_int_eq(eevdf_machine_new_flat(4, &b, NULL, 0), 0);
	ck_assert_int_eq(eevdf_machine_digest(a, ha), 0);
	ck_assert_int_eq(eevdf_machine_digest(b, hb), 0);
	ck_assert_str_eq(ha, hb);
	ck_assert_int_eq(eevdf_machine_set_hz(b, 250), 0);
	ck_assert_int_eq(eevdf_machine_digest(b, hb), 0);
	ck_assert_str_ne(ha, hb);
	ck_assert_int_eq(eevdf_machine_set_hz(b, 1000), 0);
	ck_assert_int_eq(eevdf_machine_set_cost(b, "ipi", 2000), 0);
	ck_assert_int_eq(eevdf_machine_digest(b, hb), 0);
	ck_assert_str_ne(ha, hb);
	ck_assert_int_eq(eevdf_machine_digest(NULL, hb), EEVDF_EINVAL);
	eevdf_machine_free(a);
	eevdf_machine_free(b);
}
END_TEST

/* A schbench-like workload: its length is the param runtime. */
static const char by_param[] =
	"{\"format\": \"eevdf-sim-workload/1\", \"params\": {\"runtime\": "
	"\"30s\", \"warmup\": \"${runtime / 10}\"}, \"duration\": "
	"\"${runtime}\", \"warmup\": \"${warmup}\", \"stop\": {\"after\": "
	"\"${ runtime }\", \"mode\": \"flag\"}, \"tasks\": [{\"name\": \"a\", "
	"\"program\": [{\"loop\": {\"body\": [{\"run\": \"1ms\"}]}}]}]}";

static eevdf_workload *load(const char *text, eevdf_time duration,
			    const char *const *params, size_t nr,
			    struct eevdf_diag *d)
{
	struct eevdf_load_opts o;
	eevdf_workload *wl = NULL;

	memset(&o, 0, sizeof(o));
	o.duration = duration;
	o.params = params;
	o.nr_params = nr;
	eevdf_workload_parse_opts(text, strlen(text), "w.json", &o, &wl, d);
	return wl;
}

/*
 * --duration 5s sets runtime = 5 s, and what derives from it follows:
 * the warmup 5 s / 10 = 0.5 s and the stop time.  The workload's
 * SHA-256 is that of its bytes.
 */
START_TEST(duration_sets_the_length_param)
{
	struct eevdf_diag d;
	eevdf_workload *wl = load(by_param, 5000 * MS, NULL, 0, &d);
	char buf[32], hex[65];

	ck_assert_msg(wl != NULL, "%s", d.msg);
	ck_assert_str_eq(eevdf_workload_duration_param(wl), "runtime");
	ck_assert_int_eq(eevdf_workload_duration(wl), 5000 * MS);
	ck_assert_uint_eq(eevdf_workload_nr_params(wl), 2);
	ck_assert_str_eq(eevdf_workload_param_name(wl, 0), "runtime");
	ck_assert_str_eq(eevdf_workload_param_value(wl, 0, buf, sizeof(buf)),
			 "5000000000");
	ck_assert_str_eq(eevdf_workload_param_value(wl, 1, buf, sizeof(buf)),
			 "500000000");
	ck_assert_ptr_null(eevdf_workload_param_value(wl, 2, buf, sizeof(buf)));
	eevdf_sha256_hex(by_param, strlen(by_param), hex);
	ck_assert_str_eq(eevdf_workload_sha256(wl), hex);
	eevdf_workload_free(wl);
}
END_TEST

/* An explicit --param for the same param must agree with --duration. */
START_TEST(duration_and_its_param_must_agree)
{
	static const char *const same[] = { "runtime=5s" };
	static const char *const other[] = { "runtime=7s" };
	struct eevdf_diag d;
	eevdf_workload *wl = load(by_param, 5000 * MS, same, 1, &d);

	ck_assert_ptr_nonnull(wl);
	eevdf_workload_free(wl);
	wl = load(by_param, 5000 * MS, other, 1, &d);
	ck_assert_ptr_null(wl);
	ck_assert_msg(strstr(d.msg, "--duration 5000000000 ns and --param "
				    "runtime=7s disagree"),
		      "%s", d.msg);
}
END_TEST

/* Without such a param, --duration is the run's length (its cap). */
START_TEST(duration_without_a_length_param_is_the_cap)
{
	static const char text[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"600s\","
		" \"stop\": {\"when\": \"all_exited\"}, \"tasks\": [{\"name\": "
		"\"a\", \"program\": [{\"run\": \"10ms\"}]}]}";
	struct eevdf_diag d;
	eevdf_workload *wl = load(text, 5 * MS, NULL, 0, &d);

	ck_assert_ptr_nonnull(wl);
	ck_assert_ptr_null(eevdf_workload_duration_param(wl));
	ck_assert_int_eq(eevdf_workload_duration(wl), 5 * MS);
	eevdf_workload_free(wl);
}
END_TEST

static eevdf_sim *run(const eevdf_workload *wl, eevdf_time until);

/*
 * A fixed end ("stop": {"after": "2s"}, as rt-app's "duration" becomes)
 * is the workload's length too: --duration 500ms moves it, so a run of
 * 500 ms completed.
 */
START_TEST(duration_moves_a_fixed_end)
{
	static const char text[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"stop\": {\"after\": "
		"\"2s\", \"mode\": \"kill\"}, \"tasks\": [{\"name\": \"a\", "
		"\"program\": [{\"loop\": {\"body\": [{\"run\": \"1ms\"}]}}]}]}";
	struct eevdf_diag d;
	eevdf_workload *wl = load(text, 500 * MS, NULL, 0, &d);
	eevdf_sim *sim;
	char why[256];

	ck_assert_ptr_nonnull(wl);
	ck_assert_int_eq(eevdf_workload_duration(wl), 500 * MS);
	sim = run(wl, 500 * MS);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_workload_completed(wl, sim, why, sizeof(why)),
			 1);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

static eevdf_sim *run(const eevdf_workload *wl, eevdf_time until)
{
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, until), 0);
	return sim;
}

/*
 * A 10 ms task in a workload that ends when its tasks exit: cut at 5 ms
 * it did not finish; given 20 ms it did (it exits near 10.55 ms, after
 * its 550 ns switch-in).
 */
START_TEST(completed_when_the_tasks_exited)
{
	static const char text[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"stop\": {\"when\": "
		"\"all_exited\"}, \"tasks\": [{\"name\": \"a\", \"program\": "
		"[{\"run\": \"10ms\"}]}]}";
	struct eevdf_diag d;
	eevdf_workload *wl = load(text, 0, NULL, 0, &d);
	eevdf_sim *sim = run(wl, 5 * MS);
	char why[256];

	ck_assert_int_eq(eevdf_workload_completed(wl, sim, why, sizeof(why)),
			 0);
	ck_assert_str_eq(why, "it did not finish: 1 of its 1 tasks were still "
			      "there when the run ended at 0.005 s");
	eevdf_sim_free(sim);
	sim = run(wl, 20 * MS);
	ck_assert_int_eq(eevdf_workload_completed(wl, sim, why, sizeof(why)),
			 1);
	ck_assert_str_eq(why, "");
	ck_assert_int_eq(eevdf_workload_completed(NULL, sim, why, sizeof(why)),
			 -1);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * runtime 30 s, warmup 3 s: a run of 2 s ends inside the warmup, one of
 * 10 s before the stop at 30 s; only a run to 30 s completed.
 */
START_TEST(completed_at_its_own_end_after_its_warmup)
{
	struct eevdf_diag d;
	eevdf_workload *wl = load(by_param, 0, NULL, 0, &d);
	eevdf_sim *sim = run(wl, 2000 * MS);
	char why[256];

	ck_assert_int_eq(eevdf_workload_completed(wl, sim, why, sizeof(why)),
			 0);
	ck_assert_str_eq(why, "the run ended at 2.000 s, before the "
			      "benchmark's own end at 30.000 s");
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	wl = load(by_param, 2000 * MS, NULL, 0, &d);
	/* --duration 2s moves the end: runtime 2 s, warmup 0.2 s */
	sim = run(wl, 2000 * MS);
	ck_assert_int_eq(eevdf_workload_completed(wl, sim, why, sizeof(why)),
			 1);
	eevdf_sim_free(sim);
	sim = run(wl, 100 * MS);
	ck_assert_int_eq(eevdf_workload_completed(wl, sim, why, sizeof(why)),
			 0);
	ck_assert_str_eq(why, "the run ended at 0.100 s, before the "
			      "benchmark's own end at 2.000 s");
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

Suite *provenance_suite(void)
{
	Suite *s = suite_create("provenance");
	TCase *tc = tcase_create("provenance");

	tcase_add_test(tc, sha256_matches_the_fips_vectors);
	tcase_add_test(tc, sha256_pads_at_the_block_edges);
	tcase_add_test(tc, machine_digest_changes_with_the_machine_only);
	tcase_add_test(tc, duration_sets_the_length_param);
	tcase_add_test(tc, duration_and_its_param_must_agree);
	tcase_add_test(tc, duration_without_a_length_param_is_the_cap);
	tcase_add_test(tc, duration_moves_a_fixed_end);
	tcase_add_test(tc, completed_when_the_tasks_exited);
	tcase_add_test(tc, completed_at_its_own_end_after_its_warmup);
	suite_add_tcase(s, tc);
	return s;
}
