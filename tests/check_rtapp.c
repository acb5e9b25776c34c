/* SPDX-License-Identifier: MIT */
/*
 * Tests of the rt-app importer (src/workload/rtapp.c): the lenient reading
 * (comments, trailing commas, duplicate keys), the mapping of
 * docs/rtapp-import.md checked on the generated native text, errors with
 * their rt-app paths, allocation failures, and small rt-app files run end
 * to end through the native loader and the simulation.
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eevdf/eevdf.h"
#include "machine/costs.h"
#include "suites.h"
#include "workload/rtapp.h"

#define US 1000LL
#define MS 1000000LL

/*
 * rt-app text is written with ' for " so that it stays readable in C; none
 * of the inputs needs a real apostrophe.  Returns a malloc'ed copy.
 */
static char *dq(const char *s)
{
	size_t n = strlen(s), i;
	char *d = malloc(n + 1);

	ck_assert_ptr_nonnull(d);
	for (i = 0; i <= n; i++)
		d[i] = s[i] == '\'' ? '"' : s[i];
	return d;
}

static int translate(const char *s, char **out, struct eevdf_diag *d)
{
	char *j = dq(s);
	int r = eevdf__rtapp_translate(j, strlen(j), "dir/w.json", out, d);

	free(j);
	return r;
}

/* The native text of s; fails the test on an error. */
static char *translate_ok(const char *s)
{
	struct eevdf_diag d;
	char *out = NULL, buf[512];
	int r = translate(s, &out, &d);

	ck_assert_msg(r == 0, "translate failed (%d): %s", r,
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(out);
	return out;
}

/* The native document of s, parsed back with cJSON. */
static cJSON *native(const char *s)
{
	char *out = translate_ok(s);
	cJSON *j = cJSON_Parse(out);

	ck_assert_msg(j != NULL, "not JSON: %s", out);
	free(out);
	return j;
}

/* A value by path: "tasks[0].program[0].loop.body[1]". */
static const cJSON *at(const cJSON *j, const char *path)
{
	char key[128];

	while (j && *path) {
		size_t n = strcspn(path, ".[");

		if (n) {
			ck_assert_uint_lt(n, sizeof(key));
			memcpy(key, path, n);
			key[n] = '\0';
			j = cJSON_GetObjectItemCaseSensitive(j, key);
			path += n;
		} else if (*path == '[') {
			j = cJSON_GetArrayItem(j, atoi(path + 1));
			path = strchr(path, ']') + 1;
		}
		if (*path == '.')
			path++;
	}
	return j;
}

static const char *str_at(const cJSON *j, const char *path)
{
	const cJSON *v = at(j, path);

	ck_assert_msg(cJSON_IsString(v), "no string at %s", path);
	return v->valuestring;
}

static int int_at(const cJSON *j, const char *path)
{
	const cJSON *v = at(j, path);

	ck_assert_msg(cJSON_IsNumber(v), "no number at %s", path);
	return v->valueint;
}

#define STR_AT(j, path, want) ck_assert_str_eq(str_at(j, path), want)
#define INT_AT(j, path, want) ck_assert_int_eq(int_at(j, path), want)

/* Translate s, expect EPARSE at path with sub in the message. */
static void expect_error(const char *s, const char *path, const char *sub)
{
	struct eevdf_diag d;
	char *out = (char *)&d, buf[512];
	int r = translate(s, &out, &d);

	eevdf_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(r == EEVDF_EPARSE, "got %d, want EPARSE: %s", r, buf);
	ck_assert_ptr_null(out);
	ck_assert_str_eq(d.file, "dir/w.json");
	ck_assert_msg(strcmp(d.path, path) == 0, "path '%s', want '%s': %s",
		      d.path, path, buf);
	ck_assert_msg(strstr(d.msg, sub) != NULL, "msg lacks '%s': %s", sub,
		      buf);
}

/* The 13.3 example of reference/workloads.md (rt-app's tutorial). */
#define EXAMPLE3                                                               \
	"{'tasks': {'thread0': {'instance': 12, 'loop': 1, 'phases': {"        \
	"  'light': {'loop': 10, 'run': 3000, "                                \
	"            'timer': {'ref': 'unique', 'period': 30000}},"            \
	"  'heavy': {'loop': 10, 'run': 27000, "                               \
	"            'timer': {'ref': 'unique', 'period': 30000}}}}}}"

/* ---- lenient reading --------------------------------------------------- */

START_TEST(strip_blanks_comments_and_trailing_commas)
{
	static const char in[] =
		"{\"a\": \"x // y /* z */ ,]\", // c\n"
		" \"b\": [1, 2, ], /* d\n e */ \"c\": \"\\\"/*\",\n"
		" \"d\": {\"e\": 1 , }, }";
	static const char want[] =
		"{\"a\": \"x // y /* z */ ,]\",     \n"
		" \"b\": [1, 2  ],     \n      \"c\": \"\\\"/*\",\n"
		" \"d\": {\"e\": 1   }  }";
	char buf[sizeof(in)];
	size_t bad = 0;
	cJSON *j;

	memcpy(buf, in, sizeof(in));
	ck_assert_int_eq(eevdf__rtapp_strip(buf, sizeof(in) - 1, &bad), 0);
	ck_assert_str_eq(buf, want);
	j = cJSON_Parse(buf);
	ck_assert_ptr_nonnull(j);
	STR_AT(j, "a", "x // y /* z */ ,]");
	STR_AT(j, "c", "\"/*");
	INT_AT(j, "b[1]", 2);
	cJSON_Delete(j);

	memcpy(buf, "{} /* open", 11);
	ck_assert_int_eq(eevdf__rtapp_strip(buf, 10, &bad), -1);
	ck_assert_uint_eq(bad, 3);
}
END_TEST

START_TEST(commented_file_translates_and_keeps_line_numbers)
{
	static const char ok[] =
		"/* rt-app workload */\n"
		"{\n"
		"\t\"global\": { \"duration\": 2, }, // seconds\n"
		"\t\"tasks\": { \"t\": { \"run\": 10, \"sleep\": 10, }, },\n"
		"}\n";
	static const char bad[] = "/* line 1\n"
				  "   line 2 */ {\"tasks\": {\n"
				  "  \"t\": {\"run\": 10,, }}}\n";
	struct eevdf_diag d;
	char *out = NULL;
	cJSON *j;

	ck_assert_int_eq(
		eevdf__rtapp_translate(ok, strlen(ok), "a.json", &out, &d), 0);
	j = cJSON_Parse(out);
	ck_assert_ptr_nonnull(j);
	STR_AT(j, "tasks[0].program[0].loop.body[1].sleep", "10us");
	cJSON_Delete(j);
	free(out);

	ck_assert_int_eq(eevdf__rtapp_translate(bad, strlen(bad), "b.json",
						&out, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(d.line, 3);
	ck_assert_str_eq(d.path, "");
	ck_assert_msg(strstr(d.msg, "JSON syntax error"), "%s", d.msg);

	ck_assert_int_eq(eevdf__rtapp_translate("{}\n/* x", 7, NULL, &out, &d),
			 EEVDF_EPARSE);
	ck_assert_int_eq(d.line, 2);
	ck_assert_str_eq(d.file, "<memory>");
	ck_assert_msg(strstr(d.msg, "unterminated comment"), "%s", d.msg);
}
END_TEST

START_TEST(detect_tells_rtapp_from_native_text)
{
	static const char *const yes[] = {
		"{\"tasks\": {\"t\": {\"run\": 1}}}",
		("// c\n/* {\"format\": 1} */ {\"global\": "
		 "{\"x\": [\"tasks\"]}, \"tasks\" : { } }"),
		"\xef\xbb\xbf{\"tasks\": {}}",
	};
	static const char *const no[] = {
		"{\"format\": \"eevdf-sim-workload/1\", \"tasks\": []}",
		"{\"tasks\": {}, \"format\": \"x\"}",
		"{\"tasks\": [ {\"name\": \"a\"} ]}",
		"{\"global\": {\"tasks\": {}}}",
		"[{\"tasks\": {}}]",
		"",
		"{\"tasks\": ",
	};

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		ck_assert_msg(eevdf__rtapp_detect(yes[i], strlen(yes[i])) == 1,
			      "not detected: %s", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ck_assert_msg(eevdf__rtapp_detect(no[i], strlen(no[i])) == 0,
			      "detected: %s", no[i]);
	ck_assert_int_eq(eevdf__rtapp_detect(NULL, 0), 0);
}
END_TEST

START_TEST(duplicate_keys_run_in_file_order)
{
	cJSON *j = native("{'tasks': {'t': {'loop': 1, 'run': 1000, "
			  "'sleep': 500, 'run': 2000, 'sleep': 700}}}");

	STR_AT(j, "tasks[0].program[0].loop.body[0].run", "1000us");
	STR_AT(j, "tasks[0].program[0].loop.body[1].sleep", "500us");
	STR_AT(j, "tasks[0].program[0].loop.body[2].run", "2000us");
	STR_AT(j, "tasks[0].program[0].loop.body[3].sleep", "700us");
	ck_assert_int_eq(cJSON_GetArraySize(at(j, "tasks[0].program[0].loop."
						  "body")),
			 4);
	cJSON_Delete(j);
}
END_TEST

START_TEST(events_match_by_prefix)
{
	cJSON *j = native("{'tasks': {'t': {'loop': 2, 'run1': 10, "
			  "'sleep_a': 20, 'runtime2': 30, 'lockA': 'm', "
			  "'unlockA': 'm', 'timer0': {'ref': 'x', "
			  "'period': 40}, 'yield_now': '', 'sem_post1': 's',"
			  " 'sem_wait1': 's'}}}");
	const cJSON *b = at(j, "tasks[0].program[0].loop.body");

	INT_AT(j, "tasks[0].program[0].loop.count", 2);
	STR_AT(b, "[0].run", "10us");
	STR_AT(b, "[1].sleep", "20us");
	STR_AT(b, "[2].spin", "30us");
	STR_AT(b, "[3].lock.mutex", "mutex:m");
	STR_AT(b, "[4].unlock.mutex", "mutex:m");
	STR_AT(b, "[5].timer_wait.timer", "timer:x");
	ck_assert_ptr_nonnull(at(b, "[6].yield"));
	STR_AT(b, "[7].post.sem", "sem:s");
	STR_AT(b, "[8].wait.sem", "sem:s");
	cJSON_Delete(j);
}
END_TEST

/* ---- the mapping ------------------------------------------------------- */

START_TEST(section13_example_translates_to_nested_loops)
{
	cJSON *j = native(EXAMPLE3);
	const cJSON *task = at(j, "tasks[0]"), *outer, *light, *heavy;

	STR_AT(j, "format", "eevdf-sim-workload/1");
	STR_AT(j, "name", "w");
	STR_AT(j, "stop.when", "all_exited");
	/* 12 x (10 x 33 ms + 10 x 57 ms) = 10.8 s, doubled, plus 1 s */
	STR_AT(j, "duration", "23s");
	STR_AT(j, "objects[0].type", "timer");
	STR_AT(j, "objects[0].name", "timer:unique");
	ck_assert(cJSON_IsTrue(at(j, "objects[0].unique")));
	ck_assert_int_eq(cJSON_GetArraySize(at(j, "objects")), 1);
	ck_assert_int_eq(cJSON_GetArraySize(at(j, "tasks")), 1);
	ck_assert_ptr_null(at(j, "templates"));

	STR_AT(task, "name", "thread0");
	INT_AT(task, "count", 12);
	STR_AT(task, "kind", "thread");
	ck_assert_int_eq(cJSON_GetArraySize(at(task, "program")), 1);
	outer = at(task, "program[0].loop");
	INT_AT(outer, "count", 1);
	ck_assert_int_eq(cJSON_GetArraySize(at(outer, "body")), 2);
	light = at(outer, "body[0].loop");
	heavy = at(outer, "body[1].loop");
	INT_AT(light, "count", 10);
	INT_AT(heavy, "count", 10);
	STR_AT(light, "body[0].run", "3000us");
	STR_AT(heavy, "body[0].run", "27000us");
	STR_AT(light, "body[1].timer_wait.timer", "timer:unique");
	STR_AT(light, "body[1].timer_wait.period", "30000us");
	STR_AT(light, "body[1].timer_wait.mode", "relative");
	STR_AT(heavy, "body[1].timer_wait.timer", "timer:unique");
	cJSON_Delete(j);
}
END_TEST

START_TEST(priority_becomes_nice_and_is_checked)
{
	cJSON *j = native("{'tasks': {'a': {'priority': -5, 'run': 1}, "
			  "'b': {'policy': 'SCHED_BATCH', 'priority': 19, "
			  "'run': 1}, 'c': {'policy': 'SCHED_IDLE', "
			  "'run': 1}, 'd': {'run': 1}}}");

	INT_AT(j, "tasks[0].nice", -5);
	ck_assert_ptr_null(at(j, "tasks[0].policy"));
	INT_AT(j, "tasks[1].nice", 19);
	STR_AT(j, "tasks[1].policy", "batch");
	STR_AT(j, "tasks[2].policy", "idle");
	ck_assert_ptr_null(at(j, "tasks[2].nice"));
	ck_assert_ptr_null(at(j, "tasks[3].nice"));
	cJSON_Delete(j);

	j = native("{'global': {'default_policy': 'SCHED_IDLE'}, "
		   "'tasks': {'a': {'run': 1}, "
		   "'b': {'policy': 'SCHED_OTHER', 'run': 1}}}");
	STR_AT(j, "tasks[0].policy", "idle");
	ck_assert_ptr_null(at(j, "tasks[1].policy"));
	cJSON_Delete(j);

	expect_error("{'tasks': {'a': {'priority': 20, 'run': 1}}}",
		     "tasks.a.priority", "nice value");
	expect_error("{'tasks': {'a': {'priority': -21, 'run': 1}}}",
		     "tasks.a.priority", "-20 to 19");
	expect_error("{'tasks': {'a': {'priority': '5', 'run': 1}}}",
		     "tasks.a.priority", "integer");
}
END_TEST

START_TEST(dl_runtime_becomes_a_clamped_slice)
{
	cJSON *j = native("{'tasks': {'a': {'dl-runtime': 3000, 'run': 1}, "
			  "'b': {'dl-runtime': 50, 'run': 1}, "
			  "'c': {'dl-runtime': 200000, 'run': 1}, "
			  "'d': {'dl-runtime': 0, 'run': 1}, "
			  "'e': {'runtime': 700, 'phases': {'p': "
			  "{'run': 1}}}}}");

	STR_AT(j, "tasks[0].slice", "3000us");
	STR_AT(j, "tasks[1].slice", "100us");
	STR_AT(j, "tasks[2].slice", "100000us");
	ck_assert_ptr_null(at(j, "tasks[3].slice"));
	/* the legacy thread-level "runtime" next to "phases" */
	STR_AT(j, "tasks[4].slice", "700us");
	ck_assert_msg(strstr(str_at(j, "description"),
			     "tasks.b.dl-runtime: 50 us clamped to 100 us"),
		      "%s", str_at(j, "description"));
	cJSON_Delete(j);
}
END_TEST

START_TEST(instance_becomes_count)
{
	cJSON *j = native("{'tasks': {'one': {'instance': 1, 'run': 1}, "
			  "'many': {'instance': 7, 'run': 1}, "
			  "'dflt': {'run': 1}}}");

	STR_AT(j, "tasks[0].name", "one");
	ck_assert_ptr_null(at(j, "tasks[0].count"));
	STR_AT(j, "tasks[1].name", "many");
	INT_AT(j, "tasks[1].count", 7);
	ck_assert_ptr_null(at(j, "tasks[2].count"));
	cJSON_Delete(j);
	expect_error("{'tasks': {'a': {'instance': -1, 'run': 1}}}",
		     "tasks.a.instance", "from 0 to 100000");
}
END_TEST

START_TEST(delay_becomes_start)
{
	cJSON *j = native("{'tasks': {'a': {'delay': 1500, 'run': 1}, "
			  "'b': {'delay': 0, 'run': 1}}}");

	STR_AT(j, "tasks[0].start", "1500us");
	ck_assert_ptr_null(at(j, "tasks[1].start"));
	cJSON_Delete(j);
}
END_TEST

START_TEST(global_duration_becomes_stop)
{
	cJSON *j = native("{'global': {'duration': 5}, 'tasks': {'a': "
			  "{'run': 1000}}}");

	STR_AT(j, "stop.after", "5s");
	STR_AT(j, "stop.mode", "kill");
	STR_AT(j, "duration", "5s");
	cJSON_Delete(j);

	/* -1: until the threads end; a generous duration: 2 x 3 ms + 1 s */
	j = native("{'global': {'duration': -1}, 'tasks': {'a': "
		   "{'loop': 3, 'run': 1000}}}");
	STR_AT(j, "stop.when", "all_exited");
	STR_AT(j, "duration", "2s");
	cJSON_Delete(j);

	/* a thread loops for ever (no "loop"): only the duration ends it */
	j = native("{'tasks': {'a': {'run': 1000, 'sleep': 1000}}}");
	STR_AT(j, "tasks[0].program[0].loop.count", "forever");
	STR_AT(j, "stop.when", "all_exited");
	STR_AT(j, "duration", "10s");
	ck_assert_ptr_nonnull(
		strstr(str_at(j, "description"), "loops for ever"));
	cJSON_Delete(j);
}
END_TEST

START_TEST(ignored_keys_are_listed_in_the_description)
{
	cJSON *j = native("{'global': {'calibration': 'CPU0', 'logdir': "
			  "'/tmp', 'ftrace': 'main', 'gnuplot': false},"
			  " 'resources': {},"
			  " 'tasks': {'a': {'taskgroup': '/g', 'util_min': 10,"
			  " 'phases': {'p': {'util_max': 512, 'run': 1,"
			  " 'nodes_membind': [0]}}}}}");
	const char *desc = str_at(j, "description");

	ck_assert_msg(strstr(desc, "Imported from the rt-app file "
				   "'dir/w.json'.") == desc,
		      "%s", desc);
	ck_assert_msg(strstr(desc,
			     " Ignored: resources, global.calibration, "
			     "global.logdir, global.ftrace, global.gnuplot, "
			     "tasks.a.util_min,"
			     " tasks.a.phases.p.util_max, "
			     "tasks.a.phases.p.nodes_membind."),
		      "%s", desc);
	cJSON_Delete(j);
}
END_TEST

/* The notes of s: *nr of them (free() the array); fails on an error. */
static struct eevdf_diag *notes_of(const char *s, size_t *nr)
{
	struct eevdf_diag d, *notes = (struct eevdf_diag *)&d;
	char *j = dq(s), *out = NULL, buf[512];
	int r = eevdf__rtapp_translate_notes(j, strlen(j), "dir/w.json", &out,
					     &notes, nr, &d);

	ck_assert_msg(r == 0, "translate failed (%d): %s", r,
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	free(j);
	free(out);
	return notes;
}

#define CK_NOTE(n, want_path, want_msg)                                        \
	do {                                                                   \
		ck_assert_str_eq((n).file, "dir/w.json");                      \
		ck_assert_str_eq((n).path, want_path);                         \
		ck_assert_int_eq((n).line, 0);                                 \
		ck_assert_str_eq((n).msg, want_msg);                           \
	} while (0)

START_TEST(ignored_and_approximate_keys_are_notes_with_their_paths)
{
	size_t nr = 99;
	struct eevdf_diag *n = notes_of(
		"{'global': {'calibration': 'CPU0', 'pi_enabled': true,"
		" 'log_size': 'file'},"
		" 'resources': {},"
		" 'tasks': {'a': {'loop': 1, 'taskgroup': '/g',"
		" 'dl-period': 10000, 'dl-runtime': 200000,"
		" 'phases': {'p': {'util_max': 512, 'run': 1,"
		" 'mem': 1001, 'iorun': 20}}}}}",
		&nr);

	/*
	 * In the order met: the top level, "global", then the thread (whose
	 * taskgroup is a cgroup, no note).  mem: 1001 bytes at 1 ns per 10
	 * bytes, rounded up, 101 ns; iorun 20 bytes, 2 ns.
	 */
	ck_assert_uint_eq(nr, 9);
	CK_NOTE(n[0], "resources",
		"ignored: resources are created by name where the events use "
		"them, as rt-app does");
	CK_NOTE(n[1], "global.calibration",
		"ignored: 'run' is work at the nominal capacity of the "
		"simulated CPU, which needs no calibration");
	CK_NOTE(n[2], "global.pi_enabled",
		"ignored: mutexes have no priority inheritance in the model "
		"(they go to their waiters in arrival order)");
	CK_NOTE(n[3], "global.log_size",
		"ignored: rt-app's per-thread logs are not written (run "
		"--format json gives per-task results)");
	CK_NOTE(n[4], "tasks.a.dl-period",
		"ignored: only SCHED_DEADLINE uses it");
	CK_NOTE(n[5], "tasks.a.dl-runtime",
		"200000 us is clamped to 100000 us, as sched_setattr() clamps "
		"a custom slice to 0.1..100 ms");
	CK_NOTE(n[6], "tasks.a.phases.p.util_max",
		"ignored: uclamp is not modelled");
	CK_NOTE(n[7], "tasks.a.phases.p.mem",
		"approximated: 1001 bytes are 101 ns of CPU work (1 ns per 10 "
		"bytes; caches and memory bandwidth are not modelled)");
	CK_NOTE(n[8], "tasks.a.phases.p.iorun",
		"approximated: 20 bytes written to io_device are 2 ns of CPU "
		"work (1 ns per 10 bytes; no I/O is modelled)");
	free(n);

	/* memrun: 1000 x 3 = 3000 bytes, 300 ns */
	n = notes_of("{'tasks': {'a': {'loop': 1, 'memrun': {'type': 'chase',"
		     " 'size': 1000, 'count': 3, 'stride': 128}}}}",
		     &nr);
	ck_assert_uint_eq(nr, 1);
	CK_NOTE(n[0], "tasks.a.memrun",
		"approximated: size x count = 3000 bytes are 300 ns of CPU "
		"work (1 ns per 10 bytes, whatever the type, stride and "
		"pattern)");
	free(n);

	/* a thread nobody starts; a thread that never ends */
	n = notes_of("{'tasks': {'a': {'run': 1000, 'sleep': 1000},"
		     " 'z': {'instance': 0, 'loop': 1, 'run': 1}}}",
		     &nr);
	ck_assert_uint_eq(nr, 2);
	CK_NOTE(n[0], "tasks.z.instance",
		"0 and no fork starts the thread: it never runs");
	CK_NOTE(n[1], "tasks.a",
		"loops for ever and no global.duration ends the run: it stops "
		"at the workload's duration, 10s (run --duration sets "
		"another)");
	free(n);

	/* a forked thread that also starts on its own: its notes once */
	n = notes_of("{'tasks': {'a': {'loop': 1, 'fork': 'b', 'run': 1},"
		     " 'b': {'loop': 1, 'util_min': 1, 'run': 1}}}",
		     &nr);
	ck_assert_uint_eq(nr, 1);
	CK_NOTE(n[0], "tasks.b.util_min", "ignored: uclamp is not modelled");
	free(n);

	/* nothing ignored: no notes, no array */
	n = notes_of("{'tasks': {'a': {'loop': 1, 'run': 1}}}", &nr);
	ck_assert_uint_eq(nr, 0);
	ck_assert_ptr_null(n);
}
END_TEST

START_TEST(notes_are_empty_on_error_and_need_their_count)
{
	static const char bad[] = "{\"tasks\": {\"t\": {\"util_min\": 1, "
				  "\"run\": -1}}}";
	static const char ok[] =
		"{\"global\": {\"gnuplot\": true}, "
		"\"tasks\": {\"t\": {\"loop\": 1, \"run\": 1}}}";
	struct eevdf_diag d, *notes = (struct eevdf_diag *)&d;
	size_t nr = 7;
	char *out = NULL;

	ck_assert_int_eq(eevdf__rtapp_translate_notes(bad, strlen(bad),
						      "b.json", &out, &notes,
						      &nr, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_null(out);
	ck_assert_ptr_null(notes);
	ck_assert_uint_eq(nr, 0);
	ck_assert_str_eq(d.path, "tasks.t.run");
	/* notes without their count, or the other way round */
	ck_assert_int_eq(eevdf__rtapp_translate_notes(ok, strlen(ok), "o.json",
						      &out, &notes, NULL, &d),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf__rtapp_translate_notes(ok, strlen(ok), "o.json",
						      &out, NULL, &nr, &d),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(out);
	/* without a file name the notes say <memory> */
	ck_assert_int_eq(eevdf__rtapp_translate_notes(ok, strlen(ok), NULL,
						      &out, &notes, &nr, &d),
			 0);
	ck_assert_uint_eq(nr, 1);
	ck_assert_str_eq(notes[0].file, "<memory>");
	ck_assert_str_eq(notes[0].path, "global.gnuplot");
	free(notes);
	free(out);
}
END_TEST

START_TEST(phase_settings_become_setattr_at_phase_entry)
{
	cJSON *j = native("{'tasks': {'t': {'cpus': [1, 3, 1], 'loop': 2, "
			  "'phases': {'a': {'cpus': [2], 'priority': 3, "
			  "'run': 1}, 'b': {'policy': 'SCHED_IDLE', "
			  "'dl-runtime': 500, 'run': 1}}}}}");
	const cJSON *b = at(j, "tasks[0].program[0].loop.body");

	INT_AT(j, "tasks[0].cpus[0]", 1);
	INT_AT(j, "tasks[0].cpus[1]", 3);
	ck_assert_int_eq(cJSON_GetArraySize(at(j, "tasks[0].cpus")), 2);
	INT_AT(b, "[0].setattr.nice", 3);
	INT_AT(b, "[0].setattr.cpus[0]", 2);
	INT_AT(b, "[1].loop.count", 1);
	STR_AT(b, "[2].setattr.policy", "idle");
	STR_AT(b, "[2].setattr.slice", "500us");
	/* a phase without cpus returns to the thread's */
	INT_AT(b, "[2].setattr.cpus[1]", 3);
	ck_assert_int_eq(cJSON_GetArraySize(b), 4);
	cJSON_Delete(j);
}
END_TEST

START_TEST(rt_policies_take_their_rt_priority)
{
	size_t nr = 0;
	struct eevdf_diag *n;
	cJSON *j = native("{'tasks': {'a': {'policy': 'SCHED_FIFO', 'run': 1}, "
			  "'b': {'policy': 'SCHED_RR', 'priority': 99, "
			  "'run': 1}, 'c': {'policy': 'SCHED_FIFO', "
			  "'priority': 1, 'dl-runtime': 5000, 'run': 1}}}");

	/* without "priority", rt-app's DEFAULT_THREAD_PRIORITY, 10 */
	STR_AT(j, "tasks[0].policy", "fifo");
	INT_AT(j, "tasks[0].priority", 10);
	ck_assert_ptr_null(at(j, "tasks[0].nice"));
	STR_AT(j, "tasks[1].policy", "rr");
	INT_AT(j, "tasks[1].priority", 99);
	STR_AT(j, "tasks[2].policy", "fifo");
	INT_AT(j, "tasks[2].priority", 1);
	/* dl-runtime is no slice of an RT task */
	ck_assert_ptr_null(at(j, "tasks[2].slice"));
	cJSON_Delete(j);

	/* global.default_policy gives the policy, "priority" its meaning */
	j = native("{'global': {'default_policy': 'SCHED_RR'}, 'tasks': "
		   "{'a': {'priority': 42, 'run': 1}, 'b': {'policy': "
		   "'SCHED_OTHER', 'priority': 3, 'run': 1}}}");
	STR_AT(j, "tasks[0].policy", "rr");
	INT_AT(j, "tasks[0].priority", 42);
	ck_assert_ptr_null(at(j, "tasks[1].policy"));
	INT_AT(j, "tasks[1].nice", 3);
	ck_assert_ptr_null(at(j, "tasks[1].priority"));
	cJSON_Delete(j);

	n = notes_of("{'tasks': {'c': {'loop': 1, 'policy': 'SCHED_FIFO', "
		     "'dl-runtime': 5000, 'dl-period': 9000, 'runtime': 4, "
		     "'phases': {'p': {'run': 1}}}}}",
		     &nr);
	ck_assert_uint_eq(nr, 3);
	CK_NOTE(n[0], "tasks.c.dl-runtime",
		"ignored: SCHED_FIFO and SCHED_RR have no runtime "
		"(dl-runtime is the reservation of SCHED_DEADLINE and the "
		"custom slice of the fair policies)");
	CK_NOTE(n[1], "tasks.c.dl-period",
		"ignored: only SCHED_DEADLINE uses it");
	CK_NOTE(n[2], "tasks.c.runtime",
		"ignored: the legacy spelling of dl-runtime, which SCHED_FIFO "
		"and SCHED_RR do not use");
	free(n);
}
END_TEST

START_TEST(deadline_reservation_takes_rtapp_defaults)
{
	size_t nr = 0;
	struct eevdf_diag *n;
	cJSON *j = native(
		"{'tasks': {"
		" 'a': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 10000,"
		"  'dl-period': 100000, 'run': 1},"
		" 'b': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 3000,"
		"  'priority': 5, 'run': 1},"
		" 'c': {'policy': 'SCHED_DEADLINE', 'runtime': 1000,"
		"  'period': 8000, 'deadline': 6000, 'phases': {'p':"
		"  {'run': 1}}},"
		" 'd': {'policy': 'SCHED_DEADLINE', 'runtime': 4000,"
		"  'dl-period': 20000, 'timer': {'ref': 'unique', 'period':"
		"  20000}},"
		" 'e': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 1000,"
		"  'dl-period': 10000, 'deadline': 5000, 'phases': {'p':"
		"  {'run': 1}}}}}");

	/* dl-deadline defaults to the period */
	STR_AT(j, "tasks[0].policy", "deadline");
	STR_AT(j, "tasks[0].runtime", "10000us");
	STR_AT(j, "tasks[0].deadline", "100000us");
	STR_AT(j, "tasks[0].period", "100000us");
	ck_assert_ptr_null(at(j, "tasks[0].priority"));
	/* dl-period defaults to the runtime: a 100 % reservation */
	STR_AT(j, "tasks[1].runtime", "3000us");
	STR_AT(j, "tasks[1].deadline", "3000us");
	STR_AT(j, "tasks[1].period", "3000us");
	/* the legacy thread keys, next to "phases" */
	STR_AT(j, "tasks[2].runtime", "1000us");
	STR_AT(j, "tasks[2].deadline", "6000us");
	STR_AT(j, "tasks[2].period", "8000us");
	/* without phases the "runtime" event is the legacy runtime too */
	STR_AT(j, "tasks[3].runtime", "4000us");
	STR_AT(j, "tasks[3].deadline", "20000us");
	STR_AT(j, "tasks[3].program[0].loop.body[0].spin", "4000us");
	/*
	 * rt-app reads a legacy key only when the dl-* value it stands for
	 * is 0: here the deadline is the period, 10 ms, already
	 */
	STR_AT(j, "tasks[4].deadline", "10000us");
	cJSON_Delete(j);

	n = notes_of("{'tasks': {'b': {'loop': 1, 'policy': 'SCHED_DEADLINE',"
		     " 'dl-runtime': 3000, 'dl-period': 30000, 'priority': 5,"
		     " 'runtime': 7, 'period': 9, 'phases': {'p': {'run': 1,"
		     " 'priority': 2, 'dl-runtime': 2000, 'dl-period': "
		     "30000}}}}}",
		     &nr);
	ck_assert_uint_eq(nr, 4);
	CK_NOTE(n[0], "tasks.b.priority",
		"ignored: SCHED_DEADLINE has no priority (rt-app passes "
		"sched_priority 0, which sched_setattr() requires of it)");
	CK_NOTE(n[1], "tasks.b.runtime",
		"ignored: the legacy spelling of dl-runtime, which rt-app "
		"reads only when dl-runtime is absent or 0");
	CK_NOTE(n[2], "tasks.b.period",
		"ignored: the legacy spelling of dl-period, which rt-app reads "
		"only when dl-period is 0 (absent, it is the runtime)");
	CK_NOTE(n[3], "tasks.b.phases.p.priority",
		"ignored: SCHED_DEADLINE has no priority (rt-app passes "
		"sched_priority 0, which sched_setattr() requires of it)");
	free(n);
}
END_TEST

START_TEST(phase_policies_resolve_in_file_order)
{
	cJSON *j = native(
		"{'global': {'default_policy': 'SCHED_FIFO'}, 'tasks': {"
		" 't': {'loop': 2, 'priority': 50, 'phases': {"
		"  'a': {'run': 1},"
		"  'b': {'policy': 'SCHED_OTHER', 'priority': 3, 'run': 1},"
		"  'c': {'priority': 4, 'run': 1},"
		"  'd': {'policy': 'SCHED_RR', 'run': 1},"
		"  'e': {'priority': 60, 'dl-runtime': 500, 'run': 1},"
		"  'f': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 1000,"
		"        'dl-deadline': 5000, 'dl-period': 10000, 'run': 1},"
		"  'g': {'dl-runtime': 2000, 'dl-period': 20000, 'run': 1}"
		"}}}}");
	const cJSON *b = at(j, "tasks[0].program[0].loop.body");

	STR_AT(j, "tasks[0].policy", "fifo");
	INT_AT(j, "tasks[0].priority", 50);
	/* a: nothing set, nothing applied */
	ck_assert_ptr_nonnull(at(b, "[0].loop"));
	/* b: back to the fair class with nice 3 */
	STR_AT(b, "[1].setattr.policy", "normal");
	INT_AT(b, "[1].setattr.nice", 3);
	/*
	 * c keeps SCHED_OTHER: its priority is a nice value, and since
	 * other phases change the policy it says which policy it is
	 */
	STR_AT(b, "[3].setattr.policy", "normal");
	INT_AT(b, "[3].setattr.nice", 4);
	/* d: SCHED_RR at the default priority */
	STR_AT(b, "[5].setattr.policy", "rr");
	INT_AT(b, "[5].setattr.priority", 10);
	/* e keeps SCHED_RR: its priority is an rt_priority, no slice */
	STR_AT(b, "[7].setattr.policy", "rr");
	INT_AT(b, "[7].setattr.priority", 60);
	ck_assert_ptr_null(at(b, "[7].setattr.slice"));
	/* f: a reservation */
	STR_AT(b, "[9].setattr.policy", "deadline");
	STR_AT(b, "[9].setattr.runtime", "1000us");
	STR_AT(b, "[9].setattr.deadline", "5000us");
	STR_AT(b, "[9].setattr.period", "10000us");
	/* g keeps SCHED_DEADLINE with its own keys and rt-app's defaults */
	STR_AT(b, "[11].setattr.policy", "deadline");
	STR_AT(b, "[11].setattr.runtime", "2000us");
	STR_AT(b, "[11].setattr.deadline", "20000us");
	STR_AT(b, "[11].setattr.period", "20000us");
	/* 6 setattr and 7 loops */
	ck_assert_int_eq(cJSON_GetArraySize(b), 13);
	cJSON_Delete(j);
	/*
	 * A phase that sets only a clamp: rt-app applies it with the
	 * deadline keys of that phase, none, which the kernel refuses.
	 */
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 1000, 'dl-period': 10000, 'phases': {"
		     "'a': {'run': 1}, 'h': {'util_min': 100, 'run': 1}}}}}",
		     "tasks.t.phases.h", "the deadline must not be 0");
}
END_TEST

START_TEST(synchronisation_events_translate)
{
	cJSON *j = native(
		"{'tasks': {"
		" 'a': {'loop': 1, 'lock': 'm', "
		"       'wait': {'ref': 'c', 'mutex': 'm'}, 'unlock': 'm'},"
		" 'b': {'loop': 1, 'lock': 'm', "
		"       'sync': {'ref': 'c', 'mutex': 'm'}, 'signal': 'c', "
		"       'broad': 'c', 'unlock': 'm', 'barrier': 'x', "
		"       'sem_post': 's', 'sem_wait': 's'},"
		" 'c': {'instance': 3, 'loop': 1, 'barrier': 'x', "
		"       'barrier1': 'x'}}}");
	const cJSON *a = at(j, "tasks[0].program[0].loop.body");
	const cJSON *b = at(j, "tasks[1].program[0].loop.body");

	STR_AT(a, "[1].block.event", "cond:c");
	STR_AT(a, "[1].block.release", "mutex:m");
	STR_AT(b, "[1].wake_and_block.wake.event", "cond:c");
	INT_AT(b, "[1].wake_and_block.wake.n", 1);
	STR_AT(b, "[1].wake_and_block.block.event", "cond:c");
	STR_AT(b, "[1].wake_and_block.block.release", "mutex:m");
	INT_AT(b, "[2].wake.n", 1);
	STR_AT(b, "[3].wake.n", "all");
	STR_AT(b, "[5].barrier", "barrier:x");
	/* objects in order of first use; barrier parties count instances */
	STR_AT(j, "objects[0].name", "barrier:x");
	INT_AT(j, "objects[0].parties", 4);
	STR_AT(j, "objects[1].name", "mutex:m");
	STR_AT(j, "objects[1].type", "mutex");
	STR_AT(j, "objects[2].name", "cond:c");
	STR_AT(j, "objects[2].type", "event");
	STR_AT(j, "objects[3].name", "sem:s");
	INT_AT(j, "objects[3].initial", 0);
	ck_assert_int_eq(cJSON_GetArraySize(at(j, "objects")), 4);
	cJSON_Delete(j);
}
END_TEST

START_TEST(timers_forks_and_suspends_translate)
{
	cJSON *j = native(
		"{'tasks': {"
		" 'w': {'instance': 0, 'delay': 5, 'loop': 1, 'run': 10,"
		"       'timer': {'ref': 'p', 'period': 1000}},"
		" 'm': {'loop': 2, 'fork': 'w', 'fork1': 'x', "
		"       'timer': {'ref': 'p', 'period': 1000, "
		"                 'mode': 'absolute'},"
		"       'timer1': {'ref': 'unique2', 'period': 500},"
		"       'resume': 'x', 'resume1': 'x[1]'},"
		" 'x': {'instance': 2, 'loop': 2, 'suspend': '', "
		"       'run': 5}}}");
	const cJSON *m = at(j, "tasks[0].program[0].loop.body");

	/* instance 0: a template only, started by fork (as "spawn") */
	STR_AT(j, "templates.w.kind", "thread");
	STR_AT(j, "templates.w.program[0].sleep", "5us");
	STR_AT(j, "templates.w.program[1].loop.body[1].timer_wait.mode",
	       "absolute");
	/* x runs from the start and fork makes more: "x-fork" */
	STR_AT(j, "templates.x-fork.program[0].loop.body[0].block.event",
	       "cond:x");
	STR_AT(m, "[0].spawn.template", "w");
	STR_AT(m, "[1].spawn.template", "x-fork");
	/* one absolute use makes the shared timer absolute everywhere */
	STR_AT(m, "[2].timer_wait.mode", "absolute");
	STR_AT(m, "[3].timer_wait.timer", "timer:unique2");
	STR_AT(m, "[3].timer_wait.mode", "relative");
	/* resume x wakes each instance, and the fork copies */
	STR_AT(m, "[4].wake.event", "cond:x[0]");
	STR_AT(m, "[5].wake.event", "cond:x[1]");
	STR_AT(m, "[6].wake.event", "cond:x");
	STR_AT(m, "[6].wake.n", "all");
	STR_AT(m, "[7].wake.event", "cond:x[1]");
	/* per-instance suspend: x[${i}] blocks on cond:x[${i}] */
	STR_AT(j, "tasks[1].name", "x[${i}]");
	INT_AT(j, "tasks[1].for.i[1]", 2);
	STR_AT(j, "tasks[1].program[0].loop.body[0].block.event",
	       "cond:x[${i}]");
	cJSON_Delete(j);
}
END_TEST

START_TEST(mem_iorun_memrun_are_approximate_work)
{
	cJSON *j = native("{'tasks': {'a': {'loop': 1, 'mem': 1001, "
			  "'iorun': 20, 'memrun': {'type': 'read', "
			  "'size': 1000, 'count': 3, 'stride': 64}}}}");

	STR_AT(j, "tasks[0].program[0].loop.body[0].run", "101ns");
	STR_AT(j, "tasks[0].program[0].loop.body[1].run", "2ns");
	STR_AT(j, "tasks[0].program[0].loop.body[2].run", "300ns");
	ck_assert_ptr_nonnull(strstr(str_at(j, "description"),
				     "Approximate: mem, iorun and memrun"));
	cJSON_Delete(j);
}
END_TEST

/* ---- errors -------------------------------------------------------------- */

START_TEST(fragments_are_named_as_such)
{
	static const char *const yes[] = {
		"{\"global\": {\"duration\": 5}}",
		"{\"resources\": {\"m\": {\"type\": \"mutex\"}}}",
		"/* c */ {\"global\": {}, // d\n \"resources\": {}, }",
		"\xef\xbb\xbf{\"global\": 1}",
		"{\"global\": {}, \"global\": {}}",
	};
	static const char *const no[] = {
		"{}",
		"{\"tasks\": {}}",
		"{\"global\": {}, \"tasks\": {}}",
		"{\"global\": {}, \"tasks\": []}",
		"{\"global\": {}, \"name\": \"x\"}",
		"{\"format\": \"eevdf-sim-workload/1\", \"global\": {}}",
		"{\"x\": {\"global\": {}}}",
		"[{\"global\": {}}]",
		"",
	};
	static const char *const cases[][2] = {
		{ "{\"global\": {\"duration\": 5}}", "only \"global\", no" },
		{ "{\"resources\": {}}", "only \"resources\", no" },
		{ "{\"resources\": {}, \"global\": {}}",
		  "only \"global\" and \"resources\", no" },
	};
	struct eevdf_load_opts o = { .input = EEVDF_INPUT_AUTO };
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	char *out = NULL;

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		ck_assert_msg(eevdf__rtapp_fragment(yes[i], strlen(yes[i])) ==
				      1,
			      "not a fragment: %s", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ck_assert_msg(eevdf__rtapp_fragment(no[i], strlen(no[i])) == 0,
			      "a fragment: %s", no[i]);
	ck_assert_int_eq(eevdf__rtapp_fragment(NULL, 0), 0);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i][0];

		/* read by detection, told rt-app, or translated directly */
		for (int k = 0; k < 3; k++) {
			int r;

			o.input = k == 1 ? EEVDF_INPUT_RTAPP : EEVDF_INPUT_AUTO;
			r = k == 2 ?
				    eevdf__rtapp_translate(s, strlen(s),
							   "f.json", &out, &d) :
				    eevdf_workload_parse_opts(s, strlen(s),
							      "f.json", &o, &wl,
							      &d);
			ck_assert_int_eq(r, EEVDF_EPARSE);
			ck_assert_ptr_null(wl);
			ck_assert_ptr_null(out);
			ck_assert_str_eq(d.file, "f.json");
			ck_assert_str_eq(d.path, "");
			ck_assert_msg(strstr(d.msg, "an rt-app fragment (") ==
					      d.msg,
				      "%s", d.msg);
			ck_assert_msg(strstr(d.msg, cases[i][1]), "%s", d.msg);
			ck_assert_msg(strstr(d.msg, "merge it with the files "
						    "that define the threads"),
				      "%s", d.msg);
		}
	}
	/* not fragments: the native loader's messages, as before */
	o.input = EEVDF_INPUT_AUTO;
	ck_assert_int_eq(eevdf_workload_parse_opts("{}", 2, "e.json", &o, &wl,
						   &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_nonnull(strstr(d.msg, "missing key 'format'"));
	ck_assert_int_eq(eevdf__rtapp_translate("{}", 2, "e.json", &out, &d),
			 EEVDF_EPARSE);
	ck_assert_str_eq(d.msg, "missing key 'tasks'");
	/* a syntax error in a fragment is a syntax error, with its line */
	ck_assert_int_eq(eevdf_workload_parse_opts("{\"global\":\n {]}", 15,
						   "s.json", &o, &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_int_eq(d.line, 2);
	ck_assert_ptr_nonnull(strstr(d.msg, "JSON syntax error"));
}
END_TEST

START_TEST(rt_and_deadline_errors_name_their_path)
{
	expect_error("{'tasks': {'t': {'policy': 'SCHED_FOO', 'run': 1}}}",
		     "tasks.t.policy", "unknown policy 'SCHED_FOO'");
	expect_error("{'global': {'default_policy': 'sched_fifo'}, 'tasks': "
		     "{'t': {'run': 1}}}",
		     "global.default_policy", "unknown policy 'sched_fifo'");
	/* pthread_setschedparam() takes 1..99 */
	expect_error("{'tasks': {'t': {'policy': 'SCHED_FIFO', 'priority': 0, "
		     "'run': 1}}}",
		     "tasks.t.priority",
		     "is the rt_priority for SCHED_FIFO: an integer from 1 to "
		     "99");
	expect_error("{'global': {'default_policy': 'SCHED_RR'}, 'tasks': "
		     "{'t': {'priority': 100, 'run': 1}}}",
		     "tasks.t.priority", "rt_priority for SCHED_RR");
	expect_error("{'tasks': {'t': {'policy': 'SCHED_FIFO', 'priority': "
		     "'5', 'run': 1}}}",
		     "tasks.t.priority", "an integer from 1 to 99");
	/* a phase's priority under the policy it keeps */
	expect_error("{'tasks': {'t': {'policy': 'SCHED_RR', 'phases': {'a': "
		     "{'run': 1}, 'b': {'priority': -3, 'run': 1}}}}}",
		     "tasks.t.phases.b.priority", "rt_priority for SCHED_RR");
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 1000, 'dl-period': 10000, 'priority': 1.5,"
		     " 'run': 1}}}",
		     "tasks.t.priority", "must be an integer");
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 'x', 'run': 1}}}",
		     "tasks.t.dl-runtime", "microseconds");

	/*
	 * __checkparam_dl() on rt-app's defaults: nothing given is a
	 * deadline of 0; dl-period defaults to the runtime, so a deadline
	 * beyond it breaks runtime <= deadline <= period.
	 */
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', 'run': 1}}}",
		     "tasks.t",
		     "SCHED_DEADLINE runtime 0 us (absent), deadline 0 us "
		     "(absent: the period), period 0 us (absent: the "
		     "runtime): sched_setattr() would refuse it (EINVAL): the "
		     "deadline must not be 0");
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 10000, 'dl-deadline': 100000, 'run': 1}}}",
		     "tasks.t",
		     "runtime 10000 us, deadline 100000 us, period 10000 us "
		     "(absent: the runtime): sched_setattr() would refuse it "
		     "(EINVAL): runtime <= deadline <= period must hold");
	/* 1 us is 1000 ns, below 1 << DL_SCALE */
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 1, 'dl-period': 1000, 'run': 1}}}",
		     "tasks.t", "at least 1024 ns");
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 50, 'dl-period': 99, 'run': 1}}}",
		     "tasks.t", "sched_deadline_period_min_us (100 us)");
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 1000, 'dl-period': 4200000, 'run': 1}}}",
		     "tasks.t", "sched_deadline_period_max_us");
	/* a phase that sets a priority re-applies its own (zero) ones */
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 1000, 'dl-period': 10000, 'phases': {'a':"
		     " {'run': 1}, 'b': {'priority': 3, 'run': 1}}}}}",
		     "tasks.t.phases.b", "the deadline must not be 0");
	expect_error("{'tasks': {'t': {'phases': {'a': {'policy': "
		     "'SCHED_DEADLINE', 'dl-runtime': 3000, 'dl-deadline': "
		     "2000, 'dl-period': 5000, 'run': 1}}}}}",
		     "tasks.t.phases.a", "runtime <= deadline <= period");

	/* a deadline task covers its root domain: no affinity */
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 1000, 'dl-period': 10000, 'cpus': [0], "
		     "'run': 1}}}",
		     "tasks.t.cpus",
		     "a SCHED_DEADLINE thread may not be pinned");
	expect_error("{'tasks': {'t': {'cpus': [1], 'phases': {'a': {'run': "
		     "1}, 'b': {'policy': 'SCHED_DEADLINE', 'dl-runtime': "
		     "1000, 'dl-period': 10000, 'run': 1}}}}}",
		     "tasks.t.cpus", "may not be pinned");
	expect_error("{'tasks': {'t': {'phases': {'a': {'policy': "
		     "'SCHED_DEADLINE', 'dl-runtime': 1000, 'dl-period': "
		     "10000, 'cpus': [0], 'run': 1}}}}}",
		     "tasks.t.phases.a.cpus", "may not be pinned");
}
END_TEST

START_TEST(taskgroups_need_a_fair_policy_as_in_rtapp)
{
	char *out;

	/* check_taskgroup_policy_dep(): the thread is its own phase */
	expect_error("{'tasks': {'t': {'policy': 'SCHED_FIFO', 'taskgroup': "
		     "'/g', 'run': 1}}}",
		     "tasks.t.taskgroup",
		     "rt-app refuses a taskgroup with SCHED_FIFO (\"No "
		     "taskgroup support for policy SCHED_FIFO\")");
	/* the thread's pair, met at its first phase */
	expect_error("{'tasks': {'t': {'policy': 'SCHED_DEADLINE', "
		     "'dl-runtime': 1000, 'dl-period': 10000, 'taskgroup': "
		     "'/g', 'phases': {'a': {'run': 1}}}}}",
		     "tasks.t.taskgroup", "with SCHED_DEADLINE");
	/* a phase's policy against the thread's group, and the reverse */
	expect_error("{'tasks': {'t': {'taskgroup': '/g', 'phases': {'a': "
		     "{'run': 1}, 'b': {'policy': 'SCHED_RR', 'run': 1}}}}}",
		     "tasks.t.phases.b.policy", "with SCHED_RR");
	expect_error("{'tasks': {'t': {'policy': 'SCHED_FIFO', 'phases': {'a':"
		     " {'run': 1}, 'b': {'taskgroup': '/g', 'run': 1}}}}}",
		     "tasks.t.phases.b.taskgroup", "with SCHED_FIFO");
	/*
	 * rt-app checks the phases in file order after each one's own
	 * policy: a first phase back to SCHED_OTHER is fine, and "" is no
	 * group at all.
	 */
	out = translate_ok("{'tasks': {'t': {'policy': 'SCHED_FIFO', "
			   "'taskgroup': '/g', 'phases': {'a': {'policy': "
			   "'SCHED_OTHER', 'run': 1}}},"
			   " 'u': {'policy': 'SCHED_FIFO', 'taskgroup': '',"
			   " 'run': 1}}}");
	free(out);
}
END_TEST

START_TEST(taskgroups_become_groups_and_cgroups)
{
	/*
	 * Thread and template keys become "cgroup", a phase's a setattr at
	 * its entry; every taskgroup but the root is a group of "groups"
	 * with the defaults (rt-app writes no weight), sorted by path, and
	 * repeated or trailing slashes name the same directory.
	 */
	cJSON *j = native("{'tasks': {"
			  " 't': {'taskgroup': '/tg1//tg11/', 'loop': 1,"
			  "  'phases': {'a': {'run': 1},"
			  "   'b': {'taskgroup': '/', 'run': 2},"
			  "   'c': {'taskgroup': '/tg2', 'priority': 3,"
			  "    'run': 3}}},"
			  " 'u': {'taskgroup': '', 'loop': 1, 'run': 1,"
			  "  'fork': 'k'},"
			  " 'k': {'instance': 0, 'taskgroup': '/tg1/tg11',"
			  "  'run': 1}}}");
	const cJSON *g = at(j, "groups");

	ck_assert_int_eq(cJSON_GetArraySize(g), 2);
	ck_assert_str_eq(g->child->string, "/tg1/tg11");
	ck_assert_int_eq(cJSON_GetArraySize(g->child), 0);
	ck_assert_str_eq(g->child->next->string, "/tg2");
	STR_AT(j, "tasks[0].name", "t");
	STR_AT(j, "tasks[0].cgroup", "/tg1/tg11");
	/* phase a sets nothing: its loop comes first */
	ck_assert_ptr_nonnull(at(j, "tasks[0].program[0].loop.body[0].loop"));
	STR_AT(j, "tasks[0].program[0].loop.body[1].setattr.cgroup", "/");
	ck_assert_ptr_null(at(j, "tasks[0].program[0].loop.body[1].setattr."
				 "nice"));
	STR_AT(j, "tasks[0].program[0].loop.body[3].setattr.cgroup", "/tg2");
	INT_AT(j, "tasks[0].program[0].loop.body[3].setattr.nice", 3);
	STR_AT(j, "tasks[1].name", "u");
	ck_assert_ptr_null(at(j, "tasks[1].cgroup"));
	STR_AT(j, "templates.k.cgroup", "/tg1/tg11");
	/* no note: a taskgroup is no longer ignored */
	ck_assert_ptr_null(strstr(str_at(j, "description"), "Ignored"));
	cJSON_Delete(j);
	/* no taskgroup, no "groups"; the root alone makes none either */
	j = native("{'tasks': {'t': {'loop': 1, 'run': 1, 'taskgroup': "
		   "'/'}}}");
	ck_assert_ptr_null(at(j, "groups"));
	STR_AT(j, "tasks[0].cgroup", "/");
	cJSON_Delete(j);
}
END_TEST

START_TEST(bad_taskgroups_name_their_path)
{
	/* parse_taskgroup_data(): a string (json-c's type check) from '/' */
	expect_error("{'tasks': {'t': {'taskgroup': 5, 'run': 1}}}",
		     "tasks.t.taskgroup", "must be a string");
	expect_error("{'tasks': {'t': {'taskgroup': null, 'run': 1}}}",
		     "tasks.t.taskgroup", "must be a string");
	expect_error("{'tasks': {'t': {'phases': {'p': {'taskgroup': 'tg1',"
		     " 'run': 1}}}}}",
		     "tasks.t.phases.p.taskgroup",
		     "rt-app refuses a taskgroup that does not start with "
		     "'/' (\"Taskgroup [tg1] has to start with [/]\")");
	/* directories eevdf-sim cannot name */
	expect_error("{'tasks': {'t': {'taskgroup': '/a b', 'run': 1}}}",
		     "tasks.t.taskgroup",
		     "taskgroup '/a b' is no cgroup eevdf-sim can make: a "
		     "name has letters, digits and ._-@:+ only");
	expect_error("{'tasks': {'t': {'taskgroup': '/a/../b', 'run': 1}}}",
		     "tasks.t.taskgroup", "an empty, '.' or '..' name");
}
END_TEST

START_TEST(unknown_event_or_key_names_path_and_valid_ones)
{
	expect_error("{'tasks': {'thread0': {'phases': {'light': "
		     "{'run': 1, 'spin': 5}}}}}",
		     "tasks.thread0.phases.light.spin",
		     "unknown key 'spin': events start with run, runtime");
	expect_error("{'tasks': {'t': {'run': 1, 'bogus': 5}}}",
		     "tasks.t.bogus", "for the thread keys");
	expect_error("{'tasks': {'t': {'timer': {'ref': 'a', 'period': 1, "
		     "'when': 2}}}}",
		     "tasks.t.timer.when",
		     "unknown key 'when' (valid: ref, period, mode)");
	expect_error("{'global': {'duraton': 1}, 'tasks': {}}",
		     "global.duraton", "valid: duration, default_policy");
	expect_error("{'tasks': {'t': {'run': 1}}, 'extra': 1}", "extra",
		     "valid: global, resources, tasks");
}
END_TEST

START_TEST(bad_values_name_their_path)
{
	expect_error("{'global': {}}", "",
		     "an rt-app fragment (only \"global\", no \"tasks\")");
	expect_error("{'tasks': []}", "tasks", "must be an object");
	expect_error("{'tasks': {'t': {'loop': 3}}}", "tasks.t", "no events");
	expect_error("{'tasks': {'t': {'phases': {'p': {'loop': 3}}}}}",
		     "tasks.t.phases.p", "no events");
	expect_error("{'tasks': {'t': {'run': -1}}}", "tasks.t.run",
		     "microseconds");
	expect_error("{'tasks': {'t': {'run': 1.5}}}", "tasks.t.run",
		     "microseconds");
	expect_error("{'tasks': {'t': {'loop': -2, 'run': 1}}}", "tasks.t.loop",
		     "-1 (for ever)");
	expect_error("{'tasks': {'t': {'loop': 1, 'loop': 2, 'run': 1}}}",
		     "tasks.t.loop", "duplicate key 'loop'");
	expect_error("{'tasks': {'t': {'run': 1}, 't': {'run': 2}}}", "tasks.t",
		     "duplicate thread name");
	expect_error("{'tasks': {'t': {'phases': {'p': {'run': 1}}, "
		     "'sleep': 5}}}",
		     "tasks.t.sleep", "outside \"phases\"");
	expect_error("{'tasks': {'t': {'timer': {'ref': 'a', 'period': 0}}}}",
		     "tasks.t.timer.period", "greater than 0");
	expect_error("{'tasks': {'t': {'timer': {'ref': 'a', 'period': 5, "
		     "'mode': 'late'}}}}",
		     "tasks.t.timer.mode", "relative");
	expect_error("{'tasks': {'t': {'wait': {'ref': 'c'}}}}", "tasks.t.wait",
		     "missing key 'mutex'");
	expect_error("{'tasks': {'t': {'lock': 'a b'}}}", "tasks.t.lock",
		     "names may use only");
	expect_error("{'tasks': {'t': {'fork': 'nobody', 'run': 1}}}",
		     "tasks.t.fork", "no task named 'nobody'");
	expect_error("{'tasks': {'t': {'cpus': [0, 5000], 'run': 1}}}",
		     "tasks.t.cpus[1]", "from 0 to 4095");
	expect_error("{'tasks': {'t': {'instance': 0, 'barrier': 'b'}, "
		     "'m': {'fork': 't', 'barrier': 'b'}}}",
		     "tasks.t.barrier", "do not work with fork");
	expect_error("{'tasks': {'t': {'instance': 0, 'run': 1}}}", "tasks",
		     "every one has instance 0");
	expect_error("{'tasks': {'t': {'run': 1}}} x", "",
		     "unexpected text after the JSON value");
}
END_TEST

/* ---- allocation failures ----------------------------------------------- */

/* Test-only allocator state: each test runs in its own process. */
static long alloc_budget; /* allocations left before failing; < 0: no limit */
static bool fail_forever;
static long live;

static void *counting_malloc(size_t n)
{
	void *p;

	if (alloc_budget == 0) {
		if (!fail_forever)
			alloc_budget = -1;
		return NULL;
	}
	if (alloc_budget > 0)
		alloc_budget--;
	p = malloc(n);
	if (p)
		live++;
	return p;
}

static void counting_free(void *p)
{
	if (p)
		live--;
	free(p);
}

static void oom_loop(const char *text, bool forever, bool with_notes,
		     size_t want_notes)
{
	cJSON_Hooks hooks = { counting_malloc, counting_free };
	struct eevdf_diag d;
	long n;
	int r;

	cJSON_InitHooks(&hooks);
	for (n = 0;; n++) {
		struct eevdf_diag *notes = NULL;
		size_t nr = 0;
		char *out = NULL;

		alloc_budget = n;
		fail_forever = forever;
		live = 0;
		r = with_notes ?
			    eevdf__rtapp_translate_notes(text, strlen(text),
							 "o.json", &out, &notes,
							 &nr, &d) :
			    eevdf__rtapp_translate(text, strlen(text), "o.json",
						   &out, &d);
		if (r == 0) {
			if (with_notes)
				ck_assert_uint_eq(nr, want_notes);
			cJSON_free(out);
			cJSON_free(notes);
			ck_assert_int_eq(live, 0);
			if (alloc_budget != 0)
				break; /* no failure was injected */
			continue;
		}
		ck_assert_msg(r == EEVDF_ENOMEM, "n=%ld: got %d: %s", n, r,
			      d.msg);
		ck_assert_str_eq(d.msg, "out of memory");
		ck_assert_ptr_null(out);
		ck_assert_ptr_null(notes);
		ck_assert_msg(live == 0, "n=%ld: %ld allocations leaked", n,
			      live);
	}
	cJSON_InitHooks(NULL);
	ck_assert_int_gt(n, 50);
}

START_TEST(allocation_failures_give_enomem_without_leaks)
{
	char *text = dq("/* c */ {'global': {'duration': -1, 'logdir': 'x'},"
			" 'tasks': {"
			" 'a': {'instance': 2, 'priority': 1, 'cpus': [0, 1],"
			"  'phases': {'p': {'loop': 2, 'run': 10, 'lock': 'm',"
			"  'unlock': 'm', 'barrier': 'b', 'dl-runtime': 5,"
			"  'timer': {'ref': 'unique', 'period': 100}},"
			"  'q': {'suspend': '', 'mem': 100, 'fork': 'c',}}},"
			" 'b': {'loop': 1, 'resume': 'a', 'sem_post': 's', "
			"  'barrier': 'b', 'taskgroup': '/x'},"
			" 'c': {'instance': 0, 'sem_wait': 's', 'sync': "
			"  {'ref': 'r', 'mutex': 'm'}}}}");

	/*
	 * logdir, dl-runtime, mem, and thread a loops for ever: four notes
	 * (the taskgroup is a cgroup, whose allocations fail too)
	 */
	oom_loop(text, false, false, 4);
	oom_loop(text, true, false, 4);
	oom_loop(text, false, true, 4);
	oom_loop(text, true, true, 4);
	free(text);
	/* the RT and deadline settings: priority and dl-period ignored */
	text = dq("{'global': {'default_policy': 'SCHED_FIFO'}, 'tasks': {"
		  " 'a': {'loop': 2, 'priority': 20, 'phases': {"
		  "  'p': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 100,"
		  "   'dl-period': 1000, 'priority': 3, 'run': 10},"
		  "  'q': {'policy': 'SCHED_OTHER', 'priority': 2, 'run': 10},"
		  "  'r': {'priority': 1, 'dl-period': 5, 'run': 10}}},"
		  " 'b': {'policy': 'SCHED_DEADLINE', 'runtime': 100,"
		  "  'period': 1000, 'loop': 1, 'run': 5}}}");
	oom_loop(text, false, true, 2);
	oom_loop(text, true, true, 2);
	free(text);
}
END_TEST

/* ---- end to end ---------------------------------------------------------- */

/* Translate, load with the native loader and run on ncpus CPUs to the end. */
static eevdf_sim *run_rtapp(const char *s, int ncpus)
{
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	eevdf_sim *sim;
	char *out = translate_ok(s), buf[512];
	int r = eevdf_workload_parse(out, strlen(out), "rt.json", &wl, &d);

	ck_assert_msg(r == 0, "native parse failed (%d): %s\n%s", r,
		      eevdf_diag_format(&d, buf, sizeof(buf)), out);
	free(out);
	eevdf_config_init(&cfg);
	cfg.nr_cpus = ncpus;
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_msg(eevdf_workload_add_tasks(wl, sim, &d) == 0, "%s",
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	r = eevdf_sim_run(sim, eevdf_workload_duration(wl));
	ck_assert_msg(r == 0, "run failed (%d): %s", r, eevdf_sim_errmsg(sim));
	ck_assert_msg(eevdf_sim_done(sim), "not done at %lld ns",
		      (long long)eevdf_sim_now(sim));
	eevdf_workload_free(wl);
	return sim;
}

static struct eevdf_task_stats stats_of(const eevdf_sim *sim, size_t i,
					const char *name)
{
	struct eevdf_task_stats st;

	ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &st), 0);
	ck_assert_str_eq(st.name, name);
	return st;
}

/* cpu_ns is the work plus the syscall and switch costs: a little more. */
#define CK_CPU(st, work, slack)                                                \
	do {                                                                   \
		ck_assert_int_ge((st).cpu_ns, (work));                         \
		ck_assert_int_le((st).cpu_ns, (work) + (slack));               \
	} while (0)

START_TEST(end_to_end_suspend_and_resume)
{
	/*
	 * The waker runs 1 ms, resumes the sleeper, sleeps 1 ms, 5 times;
	 * the sleeper runs 0.5 ms and suspends until resumed, 5 times.
	 */
	eevdf_sim *sim = run_rtapp(
		"{ // two threads\n"
		" 'global': {'duration': -1, 'calibration': 'CPU0'},\n"
		" 'tasks': {\n"
		"  'waker': {'loop': 5, 'run': 1000, 'resume': 'sleeper',"
		"            'sleep': 1000},\n"
		"  'sleeper': {'loop': 5, 'run': 500, 'suspend': ''},\n"
		" }}",
		2);
	struct eevdf_task_stats w = stats_of(sim, 0, "waker");
	struct eevdf_task_stats s = stats_of(sim, 1, "sleeper");

	ck_assert_uint_eq(eevdf_sim_nr_tasks(sim), 2);
	CK_CPU(w, 5 * MS, 50 * US);
	CK_CPU(s, 2500 * US, 50 * US);
	/* woken at 1, 3, 5, 7, 9 ms: 4 naps of ~1.5 ms and one of ~0.5 */
	ck_assert_int_ge(s.sleep_ns, 6500 * US);
	ck_assert_int_le(s.sleep_ns, 6600 * US);
	/* the waker's last nap ends at 10 ms */
	ck_assert_int_ge(eevdf_sim_now(sim), 10 * MS);
	ck_assert_int_le(eevdf_sim_now(sim), 10 * MS + 100 * US);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(end_to_end_phases_locks_semaphores_and_barriers)
{
	/*
	 * Two producers (instance 2, started 100 us late) post 3 units each
	 * per loop under a mutex; the consumer takes 6; all three meet at a
	 * barrier after each loop; 2 loops.
	 */
	eevdf_sim *sim = run_rtapp(
		"{'tasks': {"
		" 'prod': {'instance': 2, 'delay': 100, 'loop': 2,"
		"  'priority': -3, 'dl-runtime': 2000, 'cpus': [0, 1],"
		"  'phases': {"
		"   'make': {'loop': 3, 'run': 200, 'lock': 'm',"
		"            'runtime': 50, 'unlock': 'm', 'sem_post': 's'},"
		"   'meet': {'barrier': 'b', 'yield': ''}}},"
		" 'cons': {'loop': 2, 'phases': {"
		"   'take': {'loop': 6, 'sem_wait': 's', 'run': 100},"
		"   'meet': {'barrier': 'b', 'sleep': 10}}}}}",
		2);
	struct eevdf_task_stats p0 = stats_of(sim, 0, "prod[0]");
	struct eevdf_task_stats p1 = stats_of(sim, 1, "prod[1]");
	struct eevdf_task_stats c = stats_of(sim, 2, "cons");

	/* 2 x 3 x (200 us run + 50 us spin, at most) */
	CK_CPU(p0, 2 * 3 * 200 * US, 2 * 3 * 50 * US + 50 * US);
	CK_CPU(p1, 2 * 3 * 200 * US, 2 * 3 * 50 * US + 50 * US);
	CK_CPU(c, 2 * 6 * 100 * US, 50 * US);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(end_to_end_barriers_alternate_until_the_global_duration)
{
	/*
	 * rt-app's tutorial example 7: two threads meet at three barriers;
	 * a 9 ms cycle in which task0 burns 4 ms and task1 5 ms, killed at
	 * 5 s: 555 cycles and a partial one (task0 3 ms, task1 3 ms).
	 */
	eevdf_sim *sim = run_rtapp(
		"{ /* two tasks driving each other in turn */\n"
		" 'tasks': {\n"
		"  'task0': {'loop': -1, 'runtime1': 1000, 'sleep1': 2000,"
		"   'barrier1': 'FIRST', 'runtime2': 2000,"
		"   'barrier2': 'SECOND',"
		"   'runtime3': 1000, 'sleep3': 2000, 'barrier3': 'THIRD',},\n"
		"  'task1': {'loop': -1, 'runtime1': 2000, 'barrier1': 'FIRST',"
		"   'runtime2': 1000, 'sleep2': 2000, 'barrier2': 'SECOND',"
		"   'runtime3': 2000, 'barrier3': 'THIRD',},\n"
		" },\n"
		" 'global': {'duration': 5, 'calibration': 'CPU0',"
		"  'ftrace': 'main,task,loop,event', 'gnuplot': false,}}",
		2);
	struct eevdf_task_stats t0 = stats_of(sim, 0, "task0");
	struct eevdf_task_stats t1 = stats_of(sim, 1, "task1");

	ck_assert_int_eq(eevdf_sim_now(sim), 5000 * MS);
	ck_assert_int_ge(t0.cpu_ns, 2220 * MS);
	ck_assert_int_le(t0.cpu_ns, 2225 * MS);
	/*
	 * Each sleep ends on an idle CPU that pays its exit latency, which
	 * stretches the cycle by microseconds: the kill may then land in
	 * cycle 555 (554 full cycles, 2770 ms, and a partial one).
	 */
	ck_assert_int_ge(t1.cpu_ns, 2770 * MS);
	ck_assert_int_le(t1.cpu_ns, 2781 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Load an rt-app file of the source tree (file) or text and run it to the
 * end on a flat machine of ncpus CPUs whose every cost is zero, so that the
 * times are the workload's alone and can be worked out by hand.
 */
static eevdf_sim *run_zero_cost(const char *file, const char *text, int ncpus)
{
	struct eevdf_load_opts o = { .ncpus = ncpus };
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	eevdf_machine *m = NULL;
	eevdf_sim *sim;
	char *j = text ? dq(text) : NULL, buf[512];
	int r = j ? eevdf_workload_parse_opts(j, strlen(j), "rt.json", &o, &wl,
					      &d) :
		    eevdf_workload_load_file_opts(file, &o, &wl, &d);

	ck_assert_msg(r == 0, "load failed (%d): %s", r,
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	free(j);
	ck_assert_int_eq(eevdf_machine_new_flat(ncpus, &m, buf, sizeof(buf)),
			 0);
	for (int i = 0; i < COST_NR_ENTRIES; i++)
		ck_assert_int_eq(eevdf_machine_set_cost(
					 m, eevdf__costs_name(i),
					 eevdf__costs_is_pct(i) ? 100 : 0),
				 0);
	eevdf_config_init(&cfg);
	cfg.machine = m;
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, buf, sizeof(buf)), 0);
	eevdf_machine_free(m);
	ck_assert_msg(eevdf_workload_add_tasks(wl, sim, &d) == 0, "%s",
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	r = eevdf_sim_run(sim, eevdf_workload_duration(wl));
	ck_assert_msg(r == 0, "run failed (%d): %s", r, eevdf_sim_errmsg(sim));
	ck_assert_msg(eevdf_sim_done(sim), "not done at %lld ns",
		      (long long)eevdf_sim_now(sim));
	eevdf_workload_free(wl);
	return sim;
}

START_TEST(end_to_end_calibration_json_runs_fifo)
{
	/*
	 * tests/rtapp/calibration.json, rt-app's calibration.json: the
	 * thread is SCHED_FIFO at priority 10 by global.default_policy;
	 * alone, at no cost, it runs 2 ms from 0, sleeps 2 ms and exits at
	 * 4 ms.
	 */
	eevdf_sim *sim = run_zero_cost("tests/rtapp/calibration.json", NULL, 2);
	struct eevdf_task_stats st = stats_of(sim, 0, "thread");

	ck_assert_uint_eq(eevdf_sim_nr_tasks(sim), 1);
	ck_assert_int_eq(st.policy, EEVDF_POLICY_FIFO);
	ck_assert_uint_eq(st.rt_priority, 10);
	ck_assert_int_eq(st.cpu_ns, 2 * MS);
	ck_assert_int_eq(st.sleep_ns, 2 * MS);
	ck_assert_int_eq(st.wait_ns, 0);
	ck_assert_int_eq(eevdf_sim_now(sim), 4 * MS);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(end_to_end_dvfs_json_runs_fifo_on_cpu_1)
{
	/*
	 * tests/rtapp/dvfs.json, rt-app's dvfs.json: SCHED_FIFO priority 10
	 * on CPU 1.  The first timer wait starts the grid at 0 + 1.2 s: it
	 * wakes at 1.2 k s (k = 1..10) and runs 900 ms each time, the last
	 * from 12.0 to 12.9 s.  cpu_ns is 10 x 900 ms = 9 s; it sleeps
	 * 1.2 s, then 9 x (1.2 - 0.9) s = 2.7 s: 3.9 s.
	 */
	eevdf_sim *sim = run_zero_cost("tests/rtapp/dvfs.json", NULL, 2);
	struct eevdf_task_stats st = stats_of(sim, 0, "thread");

	ck_assert_int_eq(st.policy, EEVDF_POLICY_FIFO);
	ck_assert_uint_eq(st.rt_priority, 10);
	ck_assert_int_eq(st.cpu, 1);
	ck_assert_uint_eq(st.migrations, 0);
	ck_assert_int_eq(st.cpu_ns, 10 * 900 * MS);
	ck_assert_int_eq(st.sleep_ns, 3900 * MS);
	ck_assert_int_eq(eevdf_sim_now(sim), 12900 * MS);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(end_to_end_deadline_thread_gets_its_bandwidth)
{
	/*
	 * A SCHED_DEADLINE thread of 10 ms every 100 ms that never sleeps,
	 * next to a SCHED_OTHER hog on one CPU, killed at 1 s.  Both start
	 * at 0; the deadline class runs first: setup_new_dl_entity() gives
	 * runtime 10 ms, deadline 100 ms.  HRTICK_DL is off: the tick at
	 * 10 ms finds the runtime at 0 and throttles it until its next
	 * period, 100 ms, where replenish_dl_entity() adds 10 ms and moves
	 * the deadline on.  Ten periods in 1 s: 10 x 10 ms = 100 ms; the
	 * hog has the rest, 900 ms (the fair server, deferred, never has to
	 * run: the hog runs 900 ms of every second).
	 */
	eevdf_sim *sim = run_zero_cost(
		NULL,
		"{'global': {'duration': 1},"
		" 'tasks': {"
		"  'dl': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 10000,"
		"         'dl-period': 100000, 'run': 100000},"
		"  'hog': {'run': 100000}}}",
		1);
	struct eevdf_task_stats dl = stats_of(sim, 0, "dl");
	struct eevdf_task_stats hog = stats_of(sim, 1, "hog");

	ck_assert_int_eq(dl.policy, EEVDF_POLICY_DEADLINE);
	ck_assert_int_eq(dl.dl_runtime, 10 * MS);
	ck_assert_int_eq(dl.dl_deadline, 100 * MS);
	ck_assert_int_eq(dl.dl_period, 100 * MS);
	ck_assert_int_eq(eevdf_sim_now(sim), 1000 * MS);
	ck_assert_int_eq(dl.cpu_ns, 100 * MS);
	ck_assert_int_eq(hog.cpu_ns, 900 * MS);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(end_to_end_phase_leaves_fifo_for_the_fair_class)
{
	/*
	 * On one CPU at no cost: w is SCHED_FIFO for its first phase (10 ms
	 * of work), then SCHED_OTHER for its second (10 ms); the hog has
	 * 10 ms of work.  Both start at 0: w runs first and the hog, a fair
	 * task, waits the whole FIFO phase, so its first delay is at least
	 * 10 ms.  The CPU is never idle: everything ends at 30 ms, and w
	 * ends as a fair task.
	 */
	eevdf_sim *sim = run_zero_cost(
		NULL,
		"{'tasks': {"
		" 'w': {'policy': 'SCHED_FIFO', 'priority': 5, 'loop': 1,"
		"  'phases': {'rt': {'run': 10000},"
		"             'fair': {'policy': 'SCHED_OTHER', 'run': 10000}}},"
		" 'hog': {'loop': 1, 'run': 10000}}}",
		1);
	struct eevdf_task_stats w = stats_of(sim, 0, "w");
	struct eevdf_task_stats hog = stats_of(sim, 1, "hog");

	ck_assert_int_eq(w.policy, EEVDF_POLICY_NORMAL);
	ck_assert_uint_eq(w.rt_priority, 0);
	ck_assert_int_eq(w.cpu_ns, 20 * MS);
	ck_assert_int_eq(hog.cpu_ns, 10 * MS);
	ck_assert_int_ge(hog.delay_max_ns, 10 * MS);
	ck_assert_int_eq(eevdf_sim_now(sim), 30 * MS);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(loader_reads_rtapp_by_detection_or_when_told)
{
	static const char rt[] =
		"{\"tasks\": {\"a\": {\"loop\": 2, \"run\": 100}, "
		"\"b\": {\"instance\": 3, \"loop\": 1, \"sleep\": 5}}}";
	static const char native[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"name\": \"n\", "
		"\"tasks\": [{\"name\": \"t\", \"program\": "
		"[{\"run\": \"1ms\"}]}]}";
	struct eevdf_load_opts o = { .input = EEVDF_INPUT_AUTO };
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;

	/* auto: the rt-app text is imported (a, b[0..2]: four tasks) */
	ck_assert_int_eq(eevdf_workload_parse_opts(rt, strlen(rt), "r.json", &o,
						   &wl, &d),
			 0);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 4);
	ck_assert_str_eq(eevdf_workload_name(wl), "r");
	eevdf_workload_free(wl);
	/* auto: a native file stays native */
	ck_assert_int_eq(eevdf_workload_parse_opts(native, strlen(native),
						   "n.json", &o, &wl, &d),
			 0);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 1);
	eevdf_workload_free(wl);
	/* told native: the rt-app text is a native file with a bad "tasks" */
	o.input = EEVDF_INPUT_NATIVE;
	ck_assert_int_eq(eevdf_workload_parse_opts(rt, strlen(rt), "r.json", &o,
						   &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_null(wl);
	ck_assert_str_eq(d.file, "r.json");
	/* told rt-app: a native file has keys rt-app does not know */
	o.input = EEVDF_INPUT_RTAPP;
	ck_assert_int_eq(eevdf_workload_parse_opts(native, strlen(native),
						   "n.json", &o, &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_null(wl);
	ck_assert_ptr_nonnull(strstr(d.msg, "format"));
	/* an input mode that does not exist */
	o.input = (enum eevdf_input)7;
	ck_assert_int_eq(eevdf_workload_parse_opts(rt, strlen(rt), "r.json", &o,
						   &wl, &d),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(wl);
}
END_TEST

/* The results JSON of wl run to its end on two CPUs. */
static char *results_of(const eevdf_workload *wl)
{
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_sim *sim;
	char *json = NULL;

	eevdf_config_init(&cfg);
	cfg.nr_cpus = 2;
	cfg.seed = 3;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, eevdf_workload_duration(wl)), 0);
	ck_assert_int_eq(eevdf_sim_results_json(sim, &json), 0);
	eevdf_sim_free(sim);
	return json;
}

START_TEST(loader_keeps_the_notes_and_the_translation)
{
	char *rt = dq("{'global': {'ftrace': 'main', 'duration': -1},"
		      " 'tasks': {'a': {'loop': 20, 'run': 1000, 'mem': 5000,"
		      " 'sleep': 500}, 'b': {'instance': 2, 'loop': 10,"
		      " 'nodes_membind': [0], 'run': 700, 'sleep': 900}}}");
	static const char native[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"name\": \"n\", "
		"\"tasks\": [{\"name\": \"t\", \"program\": "
		"[{\"run\": \"1ms\"}]}]}";
	struct eevdf_diag d, *notes = NULL;
	eevdf_workload *wl = NULL, *again = NULL;
	const char *text;
	char *ra, *rb, *out = NULL;
	size_t nr = 0;

	/* NULL-safe */
	ck_assert_uint_eq(eevdf_workload_nr_notes(NULL), 0);
	ck_assert_ptr_null(eevdf_workload_note(NULL, 0));
	ck_assert_ptr_null(eevdf_workload_translation(NULL));

	/* the loader's notes are the translator's, in its order */
	ck_assert_int_eq(eevdf__rtapp_translate_notes(rt, strlen(rt), "r.json",
						      &out, &notes, &nr, &d),
			 0);
	ck_assert_int_eq(
		eevdf_workload_parse(rt, strlen(rt), "r.json", &wl, &d), 0);
	ck_assert_uint_eq(nr, 3);
	ck_assert_uint_eq(eevdf_workload_nr_notes(wl), 3);
	for (size_t i = 0; i < nr; i++) {
		const struct eevdf_diag *n = eevdf_workload_note(wl, i);

		ck_assert_ptr_nonnull(n);
		ck_assert_str_eq(n->file, notes[i].file);
		ck_assert_str_eq(n->path, notes[i].path);
		ck_assert_str_eq(n->msg, notes[i].msg);
	}
	ck_assert_str_eq(eevdf_workload_note(wl, 0)->path, "global.ftrace");
	ck_assert_str_eq(eevdf_workload_note(wl, 1)->path, "tasks.a.mem");
	ck_assert_str_eq(eevdf_workload_note(wl, 2)->path,
			 "tasks.b.nodes_membind");
	ck_assert_ptr_null(eevdf_workload_note(wl, 3));
	ck_assert_ptr_null(eevdf_workload_note(wl, (size_t)-1));

	/* the translation is the translator's text, and loads the same */
	text = eevdf_workload_translation(wl);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, out);
	ck_assert_int_eq(eevdf_workload_parse(text, strlen(text), "n.json",
					      &again, &d),
			 0);
	ck_assert_ptr_null(eevdf_workload_translation(again));
	ck_assert_uint_eq(eevdf_workload_nr_notes(again), 0);
	ck_assert_str_eq(eevdf_workload_name(again), "r");
	ck_assert_str_eq(eevdf_workload_description(again),
			 eevdf_workload_description(wl));
	ck_assert_uint_eq(eevdf_workload_nr_tasks(again), 3);
	ck_assert_int_eq(eevdf_workload_duration(again),
			 eevdf_workload_duration(wl));
	ra = results_of(wl);
	rb = results_of(again);
	ck_assert_str_eq(ra, rb);
	free(ra);
	free(rb);
	eevdf_workload_free(again);
	eevdf_workload_free(wl);
	free(notes);
	free(out);
	free(rt);

	/* a native file: no notes, no translation */
	ck_assert_int_eq(eevdf_workload_parse(native, strlen(native), "n.json",
					      &wl, &d),
			 0);
	ck_assert_uint_eq(eevdf_workload_nr_notes(wl), 0);
	ck_assert_ptr_null(eevdf_workload_note(wl, 0));
	ck_assert_ptr_null(eevdf_workload_translation(wl));
	eevdf_workload_free(wl);
}
END_TEST

static struct eevdf_group_stats group_stats_of(const eevdf_sim *sim,
					       const char *path)
{
	struct eevdf_group_stats g;

	for (size_t i = 0; i < eevdf_sim_nr_groups(sim); i++) {
		ck_assert_int_eq(eevdf_sim_group_stats(sim, i, &g), 0);
		if (strcmp(g.path, path) == 0)
			return g;
	}
	ck_abort_msg("no group '%s'", path);
	return g;
}

START_TEST(end_to_end_two_taskgroups_split_the_cpu)
{
	/*
	 * tests/rtapp/taskgroups.json: /fg and /bg, both of the default
	 * cpu.weight 100 (shares 1024), each the whole of its entity's
	 * weight on the one CPU (calc_group_shares() of a group on one CPU
	 * is tg->shares): 1 s each of the 2 s, the one thread of /fg 1 s,
	 * the four of /bg 250 ms each, within 0.5 %.
	 */
	eevdf_sim *sim = run_zero_cost("tests/rtapp/taskgroups.json", NULL, 1);
	struct eevdf_group_stats fg = group_stats_of(sim, "/fg");
	struct eevdf_group_stats bg = group_stats_of(sim, "/bg");

	ck_assert_int_eq(eevdf_sim_now(sim), 2000 * MS);
	ck_assert_int_ge(fg.cpu_ns, 995 * MS);
	ck_assert_int_le(fg.cpu_ns, 1005 * MS);
	ck_assert_int_ge(bg.cpu_ns, 995 * MS);
	ck_assert_int_le(bg.cpu_ns, 1005 * MS);
	ck_assert_uint_eq(fg.weight, 100);
	ck_assert_uint_eq(bg.nr_tasks, 4);
	/* the threads: front the whole of /fg, batch[i] a quarter of /bg */
	CK_CPU(stats_of(sim, 0, "front"), 995 * MS, 10 * MS);
	for (size_t i = 1; i <= 4; i++) {
		struct eevdf_task_stats st;

		ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &st), 0);
		ck_assert_str_eq(st.cgroup, "/bg");
		ck_assert_int_ge(st.cpu_ns, 245 * MS);
		ck_assert_int_le(st.cpu_ns, 255 * MS);
	}
	eevdf_sim_free(sim);
}
END_TEST

Suite *rtapp_suite(void)
{
	Suite *s = suite_create("rtapp");
	TCase *tc = tcase_create("read");

	tcase_add_test(tc, strip_blanks_comments_and_trailing_commas);
	tcase_add_test(tc, commented_file_translates_and_keeps_line_numbers);
	tcase_add_test(tc, detect_tells_rtapp_from_native_text);
	tcase_add_test(tc, loader_reads_rtapp_by_detection_or_when_told);
	tcase_add_test(tc, loader_keeps_the_notes_and_the_translation);
	tcase_add_test(tc, duplicate_keys_run_in_file_order);
	tcase_add_test(tc, events_match_by_prefix);
	suite_add_tcase(s, tc);

	tc = tcase_create("map");
	tcase_add_test(tc, section13_example_translates_to_nested_loops);
	tcase_add_test(tc, priority_becomes_nice_and_is_checked);
	tcase_add_test(tc, dl_runtime_becomes_a_clamped_slice);
	tcase_add_test(tc, instance_becomes_count);
	tcase_add_test(tc, delay_becomes_start);
	tcase_add_test(tc, global_duration_becomes_stop);
	tcase_add_test(tc, ignored_keys_are_listed_in_the_description);
	tcase_add_test(tc,
		       ignored_and_approximate_keys_are_notes_with_their_paths);
	tcase_add_test(tc, notes_are_empty_on_error_and_need_their_count);
	tcase_add_test(tc, phase_settings_become_setattr_at_phase_entry);
	tcase_add_test(tc, rt_policies_take_their_rt_priority);
	tcase_add_test(tc, deadline_reservation_takes_rtapp_defaults);
	tcase_add_test(tc, phase_policies_resolve_in_file_order);
	tcase_add_test(tc, synchronisation_events_translate);
	tcase_add_test(tc, timers_forks_and_suspends_translate);
	tcase_add_test(tc, mem_iorun_memrun_are_approximate_work);
	tcase_add_test(tc, taskgroups_become_groups_and_cgroups);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, rt_and_deadline_errors_name_their_path);
	tcase_add_test(tc, taskgroups_need_a_fair_policy_as_in_rtapp);
	tcase_add_test(tc, bad_taskgroups_name_their_path);
	tcase_add_test(tc, fragments_are_named_as_such);
	tcase_add_test(tc, unknown_event_or_key_names_path_and_valid_ones);
	tcase_add_test(tc, bad_values_name_their_path);
	tcase_add_test(tc, allocation_failures_give_enomem_without_leaks);
	suite_add_tcase(s, tc);

	tc = tcase_create("run");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, end_to_end_suspend_and_resume);
	tcase_add_test(tc, end_to_end_phases_locks_semaphores_and_barriers);
	tcase_add_test(tc,
		       end_to_end_barriers_alternate_until_the_global_duration);
	tcase_add_test(tc, end_to_end_calibration_json_runs_fifo);
	tcase_add_test(tc, end_to_end_dvfs_json_runs_fifo_on_cpu_1);
	tcase_add_test(tc, end_to_end_deadline_thread_gets_its_bandwidth);
	tcase_add_test(tc, end_to_end_phase_leaves_fifo_for_the_fair_class);
	tcase_add_test(tc, end_to_end_two_taskgroups_split_the_cpu);
	suite_add_tcase(s, tc);
	return s;
}
