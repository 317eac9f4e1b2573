/*
 * test_puzzlescript_suite.c - replay the reference PuzzleScript engine's
 * simulation tests (testdata.jsonl: a game, inputs with undo/restart/tick,
 * the final level as debug.js prints it, the sounds played, a seed) and
 * compare.  Each test runs in a child process so that a crash is counted
 * as one and the run goes on.  Prints the pass count, the pass rate by
 * feature and every failure; fails when fewer than 95% pass or any test
 * crashes.
 *
 * Without arguments it is a cmocka test of the whole suite.  By hand:
 *   test_puzzlescript_suite [-v] [FILE] [INDEX|NAME...]
 * FILE defaults to $LEVELKIT_DATA/puzzlescript/testdata.jsonl (any file of
 * the same form works); with INDEX or NAME (a substring) only those tests
 * run, and -v shows the expected and actual results of failures.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "levelkit/json.h"
#include "../src/games/puzzlescript/ps.h"
#include "../src/games/puzzlescript/ps_session.h"
#include "../src/games/puzzlescript/ps_diag.h"

enum outcome { PASS, FAIL_LEVEL, FAIL_AUDIO, FAIL_COMPILE, FAIL_AGAIN, FAIL_SETUP, CRASH, NOUTCOMES };
static const char *const outcome_names[NOUTCOMES] = {
	"pass", "level differs", "sounds differ", "does not compile", "again loop unbounded",
	"bad test record", "crash",
};

static bool verbose;

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct lk_strbuf sb = LK_STRBUF_INIT;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		lk_strbuf_add(&sb, buf, n);
	fclose(f);
	return lk_strbuf_detach(&sb, len);
}

/* Run one test; returns its outcome (in the child). */
static enum outcome replay_test(const struct lk_json *t)
{
	const struct lk_json *src = lk_json_get(t, "source"), *inputs = lk_json_get(t, "inputs");
	const struct lk_json *expected = lk_json_get(t, "expected"), *lvl = lk_json_get(t, "level");
	const struct lk_json *seed = lk_json_get(t, "seed"), *audio = lk_json_get(t, "audio");
	if (!src || src->type != LK_JSON_STRING || !inputs || inputs->type != LK_JSON_ARRAY ||
	    !expected || expected->type != LK_JSON_STRING)
		return FAIL_SETUP;
	int level = 0;
	if (lvl && lvl->type == LK_JSON_NUMBER)
		level = (int)lvl->number;
	else if (lvl && lvl->type == LK_JSON_STRING)
		level = atoi(lvl->str);
	struct ps_diags d;
	ps_diags_init(&d);
	struct ps_game *g = ps_compile_diags(src->str, src->len, "test", true, &d);
	if (!g) {
		if (verbose)
			for (size_t i = 0; i < d.n; i++)
				if (d.v[i].is_error)
					printf("    line %d: %s\n", d.v[i].line, d.v[i].msg);
		ps_diags_release(&d);
		return FAIL_COMPILE;
	}
	ps_diags_release(&d);
	const char *seed_str = seed && seed->type == LK_JSON_STRING ? seed->str :
			       seed && seed->type == LK_JSON_NUMBER ? seed->str : NULL;
	struct ps_session *s = ps_session_new(g, level, seed_str);
	if (!s) {
		ps_game_free(g);
		return FAIL_SETUP;
	}
	enum outcome out = PASS;
	for (size_t i = 0; i < inputs->n && out == PASS; i++) {
		const struct lk_json *in = &inputs->items[i];
		bool ok = true;
		if (in->type == LK_JSON_NUMBER)
			ok = ps_session_input(s, (int)in->number);
		else if (in->type == LK_JSON_STRING && !strcmp(in->str, "undo"))
			ps_session_undo(s);
		else if (in->type == LK_JSON_STRING && !strcmp(in->str, "restart"))
			ok = ps_session_restart(s);
		else if (in->type == LK_JSON_STRING && !strcmp(in->str, "tick"))
			ok = ps_session_input(s, PS_TICK);
		else
			out = FAIL_SETUP;
		if (!ok)
			out = FAIL_AGAIN;
	}
	if (out == PASS) {
		struct lk_strbuf got = LK_STRBUF_INIT;
		ps_session_debug_string(s, &got);
		if (strcmp(got.buf, expected->str)) {
			out = FAIL_LEVEL;
			if (verbose)
				printf("--- expected\n%s--- got\n%s", expected->str, got.buf);
		}
		lk_strbuf_release(&got);
	}
	if (out == PASS && audio && audio->type == LK_JSON_ARRAY) {
		struct lk_strbuf want = LK_STRBUF_INIT, got = LK_STRBUF_INIT;
		for (size_t i = 0; i < audio->n; i++)
			lk_strbuf_addf(&want, "%s%s", i ? ";" : "", audio->items[i].str ? audio->items[i].str : "");
		for (size_t i = 0; i < ps_session_sound_count(s); i++)
			lk_strbuf_addf(&got, "%s%s", i ? ";" : "", ps_session_sound(s, i));
		if (strcmp(want.buf, got.buf)) {
			out = FAIL_AUDIO;
			if (verbose)
				printf("--- expected sounds %s\n--- got sounds      %s\n", want.buf, got.buf);
		}
		lk_strbuf_release(&want);
		lk_strbuf_release(&got);
	}
	ps_session_free(s);
	ps_game_free(g);
	return out;
}

/* ---- features, for the pass rate by feature ---- */

struct feature {
	const char *name;
	const char *needle;   /* in the lower-cased source, or an input kind */
	int tests, passed;
};

static struct feature features[] = {
	{"late rules", "late", 0, 0}, {"rigid", "rigid", 0, 0},
	{"random rules / spawns", "random", 0, 0}, {"ellipsis ...", " ... ", 0, 0},
	{"again", "again", 0, 0}, {"cancel", "cancel", 0, 0}, {"checkpoint", "checkpoint", 0, 0},
	{"startloop/endloop", "startloop", 0, 0}, {"message", "message", 0, 0},
	{"realtime_interval", "realtime_interval", 0, 0},
	{"run_rules_on_level_start", "run_rules_on_level_start", 0, 0},
	{"require_player_movement", "require_player_movement", 0, 0},
	{"+ rule groups", "\n+", 0, 0}, {"sounds checked", "#audio", 0, 0},
	{"undo input", "#undo", 0, 0}, {"restart input", "#restart", 0, 0},
	{"tick input", "#tick", 0, 0},
};
#define NFEATURES (sizeof features / sizeof features[0])

static bool has_feature(const struct feature *f, const struct lk_json *t, const char *lower)
{
	if (f->needle[0] == '#') {
		const char *kind = f->needle + 1;
		if (!strcmp(kind, "audio")) {
			const struct lk_json *a = lk_json_get(t, "audio");
			return a && a->type == LK_JSON_ARRAY;
		}
		const struct lk_json *in = lk_json_get(t, "inputs");
		for (size_t i = 0; in && i < in->n; i++)
			if (in->items[i].type == LK_JSON_STRING && !strcmp(in->items[i].str, kind))
				return true;
		return false;
	}
	return strstr(lower, f->needle) != NULL;
}

static bool selected(int argc, char **argv, int first, size_t index, const char *name)
{
	if (first >= argc)
		return true;
	for (int a = first; a < argc; a++) {
		char *end;
		unsigned long k = strtoul(argv[a], &end, 10);
		if (!*end && k == index)
			return true;
		if (*end && strstr(name, argv[a]))
			return true;
	}
	return false;
}

/* Run the suite; 0 when it passes, 1 when it fails, 77 without data. */
static int run_suite(int argc, char **argv)
{
	int arg = 1;
	if (arg < argc && !strcmp(argv[arg], "-v")) {
		verbose = true;
		arg++;
	}
	struct lk_strbuf path = LK_STRBUF_INIT;
	if (arg < argc && strstr(argv[arg], ".jsonl")) {
		lk_strbuf_addstr(&path, argv[arg++]);
	} else {
		const char *data = getenv("LEVELKIT_DATA");
		lk_strbuf_addf(&path, "%s/puzzlescript/testdata.jsonl", data ? data : "../shared/data");
	}
	size_t len;
	char *text = read_file(path.buf, &len);
	if (!text) {
		printf("skipping: %s not found (set LEVELKIT_DATA)\n", path.buf);
		lk_strbuf_release(&path);
		return 77;
	}
	int counts[NOUTCOMES] = {0};
	size_t total = 0, index = 0;
	struct lk_strbuf failures = LK_STRBUF_INIT;
	for (char *line = text; line < text + len; index++) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line));
		size_t ll = nl ? (size_t)(nl - line) : (size_t)(text + len - line);
		struct lk_json t;
		struct lk_strbuf err = LK_STRBUF_INIT;
		if (ll == 0 || lk_json_parse(line, ll, &t, &err, NULL)) {
			if (ll)
				printf("test %zu: bad JSON: %s\n", index, err.buf);
			lk_strbuf_release(&err);
			line += ll + 1;
			if (!ll)
				index--;
			continue;
		}
		lk_strbuf_release(&err);
		line += ll + 1;
		const struct lk_json *name = lk_json_get(&t, "name");
		const char *nm = name && name->str ? name->str : "?";
		if (!selected(argc, argv, arg, index, nm)) {
			lk_json_release(&t);
			continue;
		}
		fflush(stdout);
		pid_t pid = fork();
		enum outcome out;
		if (pid == 0)
			_exit(replay_test(&t));
		int status = 0;
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			out = CRASH;
		else if (WIFEXITED(status) && WEXITSTATUS(status) < CRASH)
			out = (enum outcome)WEXITSTATUS(status);
		else
			out = CRASH;
		counts[out]++;
		total++;
		const struct lk_json *src = lk_json_get(&t, "source");
		char *lower = lk_xstrdup(src && src->str ? src->str : "");
		for (char *q = lower; *q; q++)
			if (*q >= 'A' && *q <= 'Z')
				*q = (char)(*q + 32);
		for (size_t f = 0; f < NFEATURES; f++)
			if (has_feature(&features[f], &t, lower)) {
				features[f].tests++;
				features[f].passed += out == PASS;
			}
		free(lower);
		if (out != PASS)
			lk_strbuf_addf(&failures, "  %3zu %-20s %s\n", index, outcome_names[out], nm);
		lk_json_release(&t);
	}
	free(text);
	lk_strbuf_release(&path);
	printf("puzzlescript suite: %d of %zu tests pass (%.1f%%)\n", counts[PASS], total,
	       total ? 100.0 * counts[PASS] / (double)total : 0.0);
	for (int o = 1; o < NOUTCOMES; o++)
		if (counts[o])
			printf("  %-22s %d\n", outcome_names[o], counts[o]);
	printf("pass rate by feature (tests whose game or inputs use it):\n");
	for (size_t f = 0; f < NFEATURES; f++)
		if (features[f].tests)
			printf("  %-26s %3d of %3d  %5.1f%%\n", features[f].name, features[f].passed,
			       features[f].tests, 100.0 * features[f].passed / features[f].tests);
	if (failures.len)
		printf("failures:\n%s", failures.buf);
	lk_strbuf_release(&failures);
	bool ok = total > 0 && counts[CRASH] == 0 && counts[PASS] * 100 >= (int)total * 95;
	return ok ? 0 : 1;
}

static void test_suite(void **state)
{
	(void)state;
	char *argv[] = {(char *)"test_puzzlescript_suite", NULL};
	int rc = run_suite(1, argv);
	if (rc == 77)
		skip();
	assert_int_equal(rc, 0);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return run_suite(argc, argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
