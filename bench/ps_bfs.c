/*
 * ps_bfs.c - raw speed of the PuzzleScript engine: a plain breadth-first
 * search over packed state keys (levelkit's state table) on each level of
 * a game, one core, no pruning.  Every input (up, left, down, right, and
 * action unless the game says noaction) is tried from every state, with
 * the again turns it causes; a turn that wins reaches a state of its own
 * (the key's won bit), which is not expanded.  bench/ps_ref_bfs.js runs the
 * same search on the reference JavaScript engine, so that the two can be
 * compared state for state: the same bounds give the same states stored,
 * turns run and wins.
 *
 * Prints per level the states stored, turns run ("generated"), whether a
 * win was reached, CPU seconds per search, generated states per CPU
 * second, the runs made, the key's bytes and the table's bytes per stored
 * state (keys, links, probe index, growth slack).
 *
 * Usage: ps_bfs GAME.txt [LEVEL...] [--max-states N] [--max-generated N]
 *               [--seconds S] [--min-seconds M] [--seed SEED]
 *   LEVEL: 0-based index into the script's levels, messages included (as
 *   the reference's loadLevel counts them); none: every map.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "levelkit/table.h"
#include "../src/games/puzzlescript/ps.h"
#include "../src/games/puzzlescript/ps_diag.h"

/* CPU time of this process: the machine is shared, and a core's
 * throughput is what is measured */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

struct bounds {
	double max_states, max_generated, seconds, min_seconds;
	const char *seed;
};

struct outcome {
	uint32_t stored;
	unsigned long generated;
	bool won;
	double secs;
	size_t key_size;
	double bytes_per_state;
};

static struct outcome search(const struct ps_game *g, int lv, const struct bounds *b)
{
	int ninputs = ps_game_flags(g)->noaction ? 4 : 5;
	struct ps_runtime *rt = ps_runtime_new(g, lv);
	if (b->seed)
		ps_runtime_seed(rt, b->seed);
	size_t ks = ps_key_size(rt);
	unsigned char *key = malloc(ks), *next = malloc(ks);
	struct lk_table t;
	lk_table_init(&t, ks, 0);
	struct outcome o = { 0 };
	double t0 = now();
	ps_start(rt, NULL);
	ps_store(rt, key);
	uint32_t id;
	lk_table_intern(&t, key, lk_hash_bytes(key, ks), LK_NO_ENTRY, 0, &id);
	o.won = ps_key_won(rt, key);
	for (uint32_t cur = 0; cur < t.count; cur++) {
		memcpy(key, lk_table_key(&t, cur), ks);
		if (ps_key_won(rt, key))
			continue;   /* a won state ends the level */
		bool stop = false;
		for (int in = 0; in < ninputs; in++) {
			if ((double)o.generated >= b->max_generated || (double)t.count >= b->max_states ||
			    ((o.generated & 255) == 0 && now() - t0 > b->seconds)) {
				stop = true;
				break;
			}
			ps_load(rt, key);
			unsigned f = ps_turn(rt, in, NULL);
			o.generated++;
			if (f & PS_WON)
				o.won = true;
			ps_store(rt, next);
			lk_table_intern(&t, next, lk_hash_bytes(next, ks), cur, 0, &id);
		}
		if (stop)
			break;
	}
	o.secs = now() - t0;
	o.stored = t.count;
	o.key_size = ks;
	o.bytes_per_state = (double)ks + lk_table_overhead_per_state(&t);
	lk_table_release(&t);
	free(key);
	free(next);
	ps_runtime_free(rt);
	return o;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: ps_bfs GAME.txt [LEVEL...] [--max-states N] [--max-generated N] "
				"[--seconds S] [--min-seconds M] [--seed SEED]\n");
		return 2;
	}
	struct bounds b = { INFINITY, INFINITY, INFINITY, 0, NULL };
	int levels[256], nlevels = 0;
	for (int a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "--max-states") && a + 1 < argc)
			b.max_states = atof(argv[++a]);
		else if (!strcmp(argv[a], "--max-generated") && a + 1 < argc)
			b.max_generated = atof(argv[++a]);
		else if (!strcmp(argv[a], "--seconds") && a + 1 < argc)
			b.seconds = atof(argv[++a]);
		else if (!strcmp(argv[a], "--min-seconds") && a + 1 < argc)
			b.min_seconds = atof(argv[++a]);
		else if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			b.seed = argv[++a];
		else if (argv[a][0] != '-' && nlevels < 256)
			levels[nlevels++] = atoi(argv[a]);
		else {
			fprintf(stderr, "ps_bfs: bad argument %s\n", argv[a]);
			return 2;
		}
	}
	size_t len;
	char *src = read_file(argv[1], &len);
	if (!src) {
		fprintf(stderr, "ps_bfs: %s: cannot read\n", argv[1]);
		return 1;
	}
	/* lenient, as the reference: it plays a game with a few errors, and
	 * its test suite has such games */
	struct ps_diags d;
	ps_diags_init(&d);
	struct ps_game *g = ps_compile_diags(src, len, argv[1], true, &d);
	free(src);
	for (size_t i = 0; i < d.n; i++)
		if (d.v[i].is_error)
			fprintf(stderr, "ps_bfs: %s:%d: %s%s\n", argv[1], d.v[i].line, g ? "(played anyway) " : "",
				d.v[i].msg);
	ps_diags_release(&d);
	if (!g)
		return 1;
	const char *why;
	if (!ps_game_deterministic(g, &why))
		printf("# note: %s; searching it anyway\n", why);
	double total_time = 0, total_gen = 0;
	printf("level\tstates\tgenerated\tsolved\tseconds\tgenerated/s\truns\tkey bytes\tbytes/state\n");
	for (int lv = 0; lv < ps_game_level_count(g); lv++) {
		if (ps_level_is_message(g, lv))
			continue;
		bool chosen = nlevels == 0;
		for (int k = 0; k < nlevels; k++)
			if (levels[k] == lv)
				chosen = true;
		if (!chosen)
			continue;
		/* repeat until min_seconds have passed: small levels take
		 * microseconds, and one run of them measures the clock */
		struct outcome o;
		double spent = 0;
		int runs = 0;
		do {
			o = search(g, lv, &b);
			spent += o.secs;
			runs++;
		} while (spent < b.min_seconds);
		double per = spent / runs;
		printf("%d\t%u\t%lu\t%s\t%.4f\t%.0f\t%d\t%zu\t%.1f\n", lv, o.stored, o.generated,
		       o.won ? "yes" : "no", per, per > 0 ? (double)o.generated / per : 0.0, runs,
		       o.key_size, o.bytes_per_state);
		total_time += per;
		total_gen += (double)o.generated;
	}
	printf("# total\t%.0f generated in %.2f s: %.0f generated/s\n", total_gen, total_time,
	       total_time > 0 ? total_gen / total_time : 0.0);
	ps_game_free(g);
	return 0;
}
