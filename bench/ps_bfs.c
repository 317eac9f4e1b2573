/*
 * ps_bfs.c - raw speed of the PuzzleScript engine: a plain breadth-first
 * search over packed state keys (levelkit's state table) on each level of
 * a game, one core, no pruning.  Every input (up, left, down, right, and
 * action unless the game says noaction) is tried from every state, with
 * the again turns it causes.  Prints per level the states stored,
 * successors generated, CPU seconds, and generated states per CPU second.
 *
 * Usage: ps_bfs GAME.txt [MAX_STATES_PER_LEVEL] [LEVEL...]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "levelkit/table.h"
#include "../src/games/puzzlescript/ps.h"

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

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: ps_bfs GAME.txt [MAX_STATES] [LEVEL...]\n");
		return 2;
	}
	size_t len;
	char *src = read_file(argv[1], &len);
	if (!src) {
		fprintf(stderr, "ps_bfs: %s: cannot read\n", argv[1]);
		return 1;
	}
	struct lk_strbuf err = LK_STRBUF_INIT;
	int line;
	struct ps_game *g = ps_compile(src, len, argv[1], &err, &line);
	free(src);
	if (!g) {
		fprintf(stderr, "ps_bfs: %s:%d: %s\n", argv[1], line, err.buf);
		return 1;
	}
	const char *why;
	if (!ps_game_deterministic(g, &why))
		printf("# note: %s; searching it anyway\n", why);
	uint32_t max_states = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 2000000;
	int ninputs = ps_game_flags(g)->noaction ? 4 : 5;
	double total_time = 0, total_gen = 0;
	printf("level\tstates\tgenerated\tsolved\tseconds\tgenerated/s\n");
	for (int lv = 0; lv < ps_game_level_count(g); lv++) {
		if (ps_level_is_message(g, lv))
			continue;
		bool chosen = argc <= 3;
		for (int a = 3; a < argc; a++)
			if (atoi(argv[a]) == lv)
				chosen = true;
		if (!chosen)
			continue;
		struct ps_runtime *rt = ps_runtime_new(g, lv);
		size_t ks = ps_key_size(rt);
		unsigned char *key = malloc(ks), *next = malloc(ks);
		struct lk_table t;
		lk_table_init(&t, ks, 0);
		double t0 = now();
		ps_start(rt, NULL);
		ps_store(rt, key);
		uint32_t id;
		lk_table_intern(&t, key, lk_hash_bytes(key, ks), LK_NO_ENTRY, 0, &id);
		unsigned long generated = 0;
		bool solved = false;
		for (uint32_t cur = 0; cur < t.count && t.count < max_states; cur++) {
			memcpy(key, lk_table_key(&t, cur), ks);
			for (int in = 0; in < ninputs; in++) {
				ps_load(rt, key);
				unsigned f = ps_turn(rt, in, NULL);
				generated++;
				if (f & PS_WON)
					solved = true;
				ps_store(rt, next);
				lk_table_intern(&t, next, lk_hash_bytes(next, ks), cur, 0, &id);
			}
		}
		double dt = now() - t0;
		printf("%d\t%u\t%lu\t%s\t%.3f\t%.0f\n", lv, t.count, generated, solved ? "yes" : "no", dt,
		       dt > 0 ? (double)generated / dt : 0.0);
		total_time += dt;
		total_gen += (double)generated;
		lk_table_release(&t);
		free(key);
		free(next);
		ps_runtime_free(rt);
	}
	printf("# total\t%.0f generated in %.2f s: %.0f generated/s\n", total_gen, total_time,
	       total_time > 0 ? total_gen / total_time : 0.0);
	ps_game_free(g);
	lk_strbuf_release(&err);
	return 0;
}
