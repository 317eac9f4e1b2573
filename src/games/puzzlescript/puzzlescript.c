/*
 * puzzlescript.c - PuzzleScript as a levelkit game: a script the user brings is
 * the game's definition (compiled once, shared by all its levels and
 * threads), a level record is a map in the script's legend characters,
 * and the state space is the engine's: a state is the engine's packed
 * key, a move is an input (up, left, down, right, action), written
 * compactly as "uldrx".
 *
 * How a record finds its script (ps_import.c reads scripts into records,
 * ps_script.c finds them, keys and compiles them: the vtable's definition
 * hooks): the fields `script` (its absolute path) and
 * `script-hash` (a hash of its text), looked for at that path and beside
 * the record's own file.  A script edited since the level was read is
 * played as it is now, the change said once.
 * docs/games/puzzlescript.md has more.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/canvas.h"
#include "levelkit/game.h"
#include "levelkit/generate.h"
#include "levelkit/grid.h"
#include "ps.h"
#include "ps_draw.h"
#include "ps_game.h"
#include "ps_runtime.h"
#include "ps_solve.h"

/* "cost": a move costs 1 plus the COST of every rule that fired in it */
static const char *const ps_metrics[] = { "moves", "cost", NULL };
/* docs/games/puzzlescript.md: "mixedaim" the thesis's sum of the win
 * conditions' terms, "bound" their largest, a lower bound in every game */
static const char *const ps_heuristics[] = { "mixedaim", "bound", "thesis", NULL };

struct ps_lk_level {
	struct lk_level base;
	const struct ps_game *g;
	struct ps_level *map;
	/* the inputs: u l d r, x (action) unless noaction, t (a tick, a turn
	 * with no key) in a realtime game; their engine codes */
	int ninputs;
	char letters[8];
	int codes[8];
	char *seed;                    /* random games: the generator's seed */
	enum ps_rolls rolls;           /* and what they are asked */
	/* metric "cost": the rules with a COST, whose firing a move pays */
	bool cost_metric;
	int *costly;
	int ncostly;
	size_t costly_alloc;
	struct ps_facts facts;         /* what a move can carry, for concepts */
	struct lk_strbuf note;         /* the heuristic's, for --stats */
	/* the heuristic and pruning (ps_analysis.c, ps_heuristic.c) */
	struct ps_analysis *an;
	enum ps_heuristic heuristic;
	bool prune[PS_NPRUNE];
	atomic_ulong pruned[PS_NPRUNE];
	size_t cells_off, ints_off;    /* in a search's scratch */
	/* every runtime made for the level, freed with it; the idle ones
	 * (lent for a moment: a start, a label, a replay) on a stack */
	pthread_mutex_t lock;
	struct ps_runtime **runtimes, **idle;
	size_t nruntimes, runtimes_alloc, nidle, idle_alloc;
};

/* A search's scratch: the runtime it uses (found on first use). */
struct ps_scratch {
	struct ps_runtime *rt;
};

/* ------------------------------------------------------------- a level */

/* The record's grid rows, and their index in rec->lines. */
static const char **grid_rows(const struct lk_record *rec, size_t *n, size_t *first)
{
	*n = lk_record_grid(rec, first);
	const char **rows = lk_xmalloc((*n ? *n : 1) * sizeof *rows);
	for (size_t i = 0; i < *n; i++)
		rows[i] = rec->lines[*first + i].text;
	return rows;
}

const struct ps_analysis *ps_level_analysis(const struct lk_level *level)
{
	return ((const struct ps_lk_level *)level)->an;
}

void ps_level_set_prune(struct lk_level *level, enum ps_prune which, bool on)
{
	((struct ps_lk_level *)level)->prune[which] = on;
}

unsigned long ps_level_pruned(const struct lk_level *level, enum ps_prune which)
{
	struct ps_lk_level *l = (struct ps_lk_level *)level;
	return atomic_load(&l->pruned[which]);
}

static int ps_validate(const struct lk_game *game, const void *def, const struct lk_record *rec,
		       const struct lk_level_options *opt, struct lk_strbuf *err, size_t *line)
{
	(void)game;
	(void)opt;
	const struct ps_game *g = def;
	size_t n, first, bad = 0;
	const char **rows = grid_rows(rec, &n, &first);
	struct ps_level *map = n ? ps_map_parse(g, rows, n, err, &bad) : NULL;
	free(rows);
	if (!n) {
		lk_strbuf_addstr(err, "record has no grid");
		*line = (size_t)-1;
		return -1;
	}
	if (!map) {
		*line = bad ? first + bad - 1 : first;
		return -1;
	}
	ps_script_check_level(rec, g, map);
	ps_map_free(map);
	return 0;
}

static struct lk_level *ps_new_level(const struct lk_game *game, const void *def,
				     const struct lk_record *rec, const struct lk_level_options *opt)
{
	(void)opt;
	const struct ps_game *g = def;
	struct ps_lk_level *l = lk_xcalloc(1, sizeof *l);
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t n, first, bad;
	const char **rows = grid_rows(rec, &n, &first);
	l->map = ps_map_parse(g, rows, n, &err, &bad);
	free(rows);
	lk_strbuf_release(&err);
	l->g = g;
	/* inputs are numbered up, left, down, right, action; the thesis
	 * measure tries them clockwise from up, as native Sokoban steps, so
	 * that a Sokoban level gives the same counts in both engines */
	static const char all[] = "uldrx";
	static const int natural[5] = { 0, 1, 2, 3, 4 }, clockwise[5] = { 0, 3, 2, 1, 4 };
	bool thesis = opt && opt->thesis;
	for (int i = 0; i < (ps_game_flags(g)->noaction ? 4 : 5); i++) {
		int k = (thesis ? clockwise : natural)[i];
		l->letters[l->ninputs] = all[k];
		l->codes[l->ninputs++] = k;
	}
	if (ps_game_flags(g)->realtime_interval > 0) {
		l->letters[l->ninputs] = 't';
		l->codes[l->ninputs++] = PS_TICK;
	}
	if (g->random) {
		const char *seed = lk_record_get(rec, "seed");
		if (seed && *seed) {
			l->seed = lk_xstrdup(seed);
		} else {
			char buf[32];
			snprintf(buf, sizeof buf, "%llu", (unsigned long long)(opt ? opt->seed : 0));
			l->seed = lk_xstrdup(buf);
		}
		l->base.random_seed = l->seed;
		const char *rolls = opt ? opt->rolls : NULL;
		l->rolls = rolls && !strcmp(rolls, "some") ? PS_ROLLS_SOME :
			   rolls && !strcmp(rolls, "every") ? PS_ROLLS_EVERY : PS_ROLLS_SEED;
		if (l->rolls != PS_ROLLS_SEED)
			l->base.random_seed = NULL;   /* the answer holds for the dice, not a seed */
	}
	pthread_mutex_init(&l->lock, NULL);
	bool plain = opt && (opt->plain || thesis);
	l->an = ps_analysis_new(g, l->map, plain);
	const char *h = thesis ? "thesis" : opt ? opt->heuristic : NULL;
	l->heuristic = !h ? PS_H_MIXEDAIM
		       : strcmp(h, "bound") == 0 ? PS_H_BOUND
		       : strcmp(h, "thesis") == 0 ? PS_H_THESIS : PS_H_MIXEDAIM;
	/* a plain level is the raw state space: nothing dropped */
	l->cost_metric = !thesis && opt && opt->metric && strcmp(opt->metric, "cost") == 0;
	for (int r = 0; r < g->nrules; r++)
		if (g->rules[r].cost) {
			LK_ALLOC_GROW(l->costly, (size_t)l->ncostly + 1, l->costly_alloc);
			l->costly[l->ncostly++] = r;
		}
	l->prune[PS_PRUNE_DEAD_CELLS] = l->an->prune;
	l->prune[PS_PRUNE_DEAD_STATES] = !plain;
	for (int i = 0; i < PS_NPRUNE; i++)
		atomic_init(&l->pruned[i], 0);
	size_t ncells = (size_t)ps_map_width(l->map) * (size_t)ps_map_height(l->map);
	l->cells_off = (sizeof(struct ps_scratch) + 7) / 8 * 8;
	l->ints_off = l->cells_off + ncells * (size_t)g->ow * sizeof(ps_word);
	l->base.game = game;
	l->base.key_size = ps_map_key_size(l->map);
	l->base.max_successors = (unsigned)l->ninputs;
	l->base.scratch_size = l->ints_off + ps_heuristic_ints(l->an) * sizeof(int);
	l->base.metric = l->cost_metric ? "cost" : "moves";
	l->base.weighted = l->cost_metric && l->ncostly > 0;
	ps_facts_init(&l->facts, g);
	l->base.facts = (const char *const *)l->facts.names;
	l->base.nfacts = l->facts.n;
	l->base.has_heuristic = true;
	l->base.heuristic_admissible =
		l->heuristic == PS_H_BOUND ||
		(l->heuristic == PS_H_MIXEDAIM && ps_mixedaim_admissible(l->an));
	ps_heuristic_note(l->an, g, l->heuristic, &l->note);
	l->base.heuristic_note = l->note.buf;
	return &l->base;
}

static void ps_free_level(struct lk_level *level)
{
	struct ps_lk_level *l = (struct ps_lk_level *)level;
	for (size_t i = 0; i < l->nruntimes; i++)
		ps_runtime_free(l->runtimes[i]);
	free(l->runtimes);
	free(l->idle);
	free(l->costly);
	pthread_mutex_destroy(&l->lock);
	ps_facts_release(&l->facts);
	lk_strbuf_release(&l->note);
	free(l->seed);
	ps_analysis_free(l->an);
	ps_map_free(l->map);
	free(l);
}

/* A runtime of the level's own (an idle one, or a new one), kept until
 * the level is freed.  Searches keep theirs in their scratch: the solver
 * clears a scratch block before each search, so a search never gives
 * its runtime back, and the level frees them all. */
static struct ps_runtime *new_runtime(const struct ps_lk_level *cl)
{
	struct ps_lk_level *l = (struct ps_lk_level *)cl;
	pthread_mutex_lock(&l->lock);
	struct ps_runtime *rt = l->nidle ? l->idle[--l->nidle] : NULL;
	pthread_mutex_unlock(&l->lock);
	if (rt)
		return rt;
	rt = ps_runtime_new_map(l->g, l->map);
	if (l->seed)
		ps_runtime_seed(rt, l->seed);
	pthread_mutex_lock(&l->lock);
	LK_ALLOC_GROW(l->runtimes, l->nruntimes + 1, l->runtimes_alloc);
	l->runtimes[l->nruntimes++] = rt;
	pthread_mutex_unlock(&l->lock);
	return rt;
}

/* Give back a runtime borrowed with new_runtime. */
static void done_runtime(const struct ps_lk_level *cl, struct ps_runtime *rt)
{
	struct ps_lk_level *l = (struct ps_lk_level *)cl;
	pthread_mutex_lock(&l->lock);
	LK_ALLOC_GROW(l->idle, l->nidle + 1, l->idle_alloc);
	l->idle[l->nidle++] = rt;
	pthread_mutex_unlock(&l->lock);
}

enum ps_rolls ps_level_rolls(const struct lk_level *level)
{
	return ((const struct ps_lk_level *)level)->rolls;
}

int ps_level_inputs(const struct lk_level *level, const char **letters, const int **codes)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	*letters = l->letters;
	*codes = l->codes;
	return l->ninputs;
}

struct ps_runtime *ps_level_borrow(const struct lk_level *level)
{
	return new_runtime((const struct ps_lk_level *)level);
}

void ps_level_give_back(const struct lk_level *level, struct ps_runtime *rt)
{
	done_runtime((const struct ps_lk_level *)level, rt);
}

/* The own_solve hook: --rolls some and every are answered by ps_rolls.c. */
static int ps_own_solve(const struct lk_level *level, const struct lk_search_options *opt,
			struct lk_record *rec)
{
	if (ps_level_rolls(level) == PS_ROLLS_SEED)
		return 0;
	return ps_rolls_solve(level, opt, rec);
}

static struct ps_runtime *scratch_runtime(const struct ps_lk_level *l, void *scratch)
{
	struct ps_scratch *s = scratch;
	if (!s->rt)
		s->rt = new_runtime(l);
	return s->rt;
}

bool ps_level_key_dead_cells(const struct lk_level *level, const void *key)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	struct ps_runtime *rt = new_runtime(l);
	ps_word *cells = lk_xmalloc((size_t)rt->n * (size_t)rt->ow * sizeof(ps_word));
	ps_unpack_cells(rt, key, cells);
	bool dead = !ps_map_key_won(l->map, key) && ps_dead_cells(l->an, cells);
	free(cells);
	done_runtime(l, rt);
	return dead;
}

static void ps_initial_state(const struct lk_level *level, void *key)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	struct ps_runtime *rt = new_runtime(l);
	ps_start(rt, NULL);
	ps_store(rt, key);
	done_runtime(l, rt);
}

/* One input from key into out; false when it changes nothing (or never
 * settles: the again loop's bound). */
static bool step(struct ps_runtime *rt, const void *key, int input, void *out)
{
	ps_load(rt, key);
	unsigned flags = ps_turn(rt, input, NULL);
	if (flags & PS_AGAIN_LIMIT)
		return false;
	if (rt->lv->rng_in_key) {
		/* a turn that changes nothing on the board may still have drawn
		 * random numbers: another roll waits there */
		ps_store(rt, out);
		return (flags & PS_WON) || memcmp(out, key, ps_key_size(rt)) != 0;
	}
	if (!(flags & (PS_CHANGED | PS_WON)))
		return false;
	ps_store(rt, out);
	return true;
}

static unsigned ps_successors(const struct lk_level *level, const void *key, void *scratch,
			      unsigned char *keys_out, struct lk_edge *edges)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	struct ps_runtime *rt = scratch_runtime(l, scratch);
	unsigned n = 0;
	if (ps_key_won(rt, key))
		return 0;   /* a won state ends the level */
	if (l->base.weighted)
		ps_runtime_track(rt, true);   /* which rules fire: what a move costs */
	for (int input = 0; input < l->ninputs; input++) {
		if (!step(rt, key, l->codes[input], keys_out + (size_t)n * level->key_size))
			continue;
		if (l->prune[PS_PRUNE_DEAD_CELLS] && !ps_key_won(rt, keys_out + (size_t)n * level->key_size) &&
		    ps_dead_cells(l->an, ps_cells(rt, NULL))) {
			atomic_fetch_add_explicit(&((struct ps_lk_level *)l)->pruned[PS_PRUNE_DEAD_CELLS], 1,
						  memory_order_relaxed);
			continue;
		}
		edges[n].cost = 1;
		for (int k = 0; k < l->ncostly && l->base.weighted; k++)
			if (ps_rule_fired(rt, l->costly[k]))
				edges[n].cost += l->g->rules[l->costly[k]].cost;
		edges[n].move = (uint32_t)input;
		n++;
	}
	return n;
}

static unsigned evaluate(const struct lk_level *level, const void *key, void *scratch,
			 bool estimate)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	if (ps_map_key_won(l->map, key))
		return 0;
	struct ps_runtime *rt = scratch_runtime(l, scratch);
	ps_word *cells = (ps_word *)((char *)scratch + l->cells_off);
	int *ints = (int *)((char *)scratch + l->ints_off);
	ps_unpack_cells(rt, key, cells);
	if (l->heuristic == PS_H_THESIS)
		return ps_thesis_heuristic(l->an, cells, ints);   /* greedy's guess too */
	bool dead;
	unsigned h = ps_evaluate(l->an, l->heuristic, estimate, l->prune[PS_PRUNE_DEAD_STATES], cells,
				 ints, &dead);
	if (dead)
		atomic_fetch_add_explicit(&((struct ps_lk_level *)l)->pruned[PS_PRUNE_DEAD_STATES], 1,
					  memory_order_relaxed);
	return h;
}

static unsigned ps_heuristic(const struct lk_level *level, const void *key, void *scratch)
{
	return evaluate(level, key, scratch, false);
}

static unsigned ps_estimate(const struct lk_level *level, const void *key, void *scratch)
{
	return evaluate(level, key, scratch, true);
}

static bool ps_is_goal(const struct lk_level *level, const void *key)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	return ps_map_key_won(l->map, key);
}

static void ps_label_path(const struct lk_level *level, const unsigned char *keys, size_t nkeys,
			  struct lk_moves *out)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	struct ps_runtime *rt = new_runtime(l);
	size_t ks = level->key_size;
	unsigned char *next = lk_xmalloc(ks);
	uint16_t *facts = lk_xcalloc(l->facts.n + 1, sizeof *facts);
	ps_runtime_track(rt, true);
	for (size_t i = 1; i < nkeys; i++) {
		char c = '?';
		unsigned nf = 0;
		for (int input = 0; input < l->ninputs; input++)
			if (step(rt, keys + (i - 1) * ks, l->codes[input], next) &&
			    memcmp(next, keys + i * ks, ks) == 0) {
				c = l->letters[input];
				nf = ps_facts_of_turn(&l->facts, rt, facts, l->facts.n);
				break;
			}
		lk_moves_add(out, &c, 1, 1, facts, nf);
	}
	ps_runtime_track(rt, false);
	free(facts);
	free(next);
	done_runtime(l, rt);
}

/* The input a letter of a solution stands for, or -1. */
static int input_of(const struct ps_lk_level *l, char c)
{
	char lower = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	const char *p = c ? strchr(l->letters, lower) : NULL;
	return p ? (int)(p - l->letters) : -1;
}

/* The keys a replay passes through (start first), for playing it back. */
struct key_list {
	unsigned char *keys;
	size_t n, alloc, size;
};

static void add_key(struct key_list *k, const struct ps_runtime *rt)
{
	if (!k)
		return;
	LK_ALLOC_GROW(k->keys, (k->n + 1) * k->size, k->alloc);
	ps_store(rt, k->keys + k->n++ * k->size);
}

static int replay_on(const struct ps_lk_level *l, struct ps_runtime *rt, const char *solution,
		     struct lk_moves *moves, bool *solved, struct key_list *keys,
		     struct lk_strbuf *err);

static int ps_replay(const struct lk_level *level, const char *solution, struct lk_moves *moves,
		     bool *solved, struct lk_strbuf *err)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	struct ps_runtime *rt = new_runtime(l);
	int rc = replay_on(l, rt, solution, moves, solved, NULL, err);
	done_runtime(l, rt);
	return rc;
}

/* The same replay, keeping the state after each input: an input that
 * changes nothing is a frame like the others, as it is a move. */
static int ps_replay_keys(const struct lk_level *level, const char *solution, unsigned char **keys,
			  size_t *nkeys, struct lk_strbuf *err)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	struct ps_runtime *rt = new_runtime(l);
	struct lk_moves moves;
	lk_moves_init(&moves, level);
	struct key_list k = { .size = level->key_size };
	bool solved = false;
	int rc = replay_on(l, rt, solution, &moves, &solved, &k, err);
	done_runtime(l, rt);
	lk_moves_release(&moves);
	if (rc < 0) {
		free(k.keys);
		k.keys = NULL;
		k.n = 0;
	}
	*keys = k.keys;
	*nkeys = k.n;
	return rc;
}

static int replay_on(const struct ps_lk_level *l, struct ps_runtime *rt, const char *solution,
		     struct lk_moves *moves, bool *solved, struct key_list *keys,
		     struct lk_strbuf *err)
{
	unsigned long step_no = 0;
	bool won = false;
	uint16_t *facts = lk_xcalloc(l->facts.n + 1, sizeof *facts);
	int rc = 0;
	struct ps_turn_info start;
	ps_start(rt, &start);
	/* a win in the again turns of the start rules wins on load */
	won = (start.flags & PS_WON) != 0;
	ps_runtime_track(rt, true);   /* the facts of each move */
	add_key(keys, rt);
	for (const char *p = solution; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == ',')
			continue;
		int input = input_of(l, *p);
		if (input < 0) {
			bool action = strchr(l->letters, 'x') != NULL, tick = strchr(l->letters, 't') != NULL;
			lk_strbuf_addf(err, "'%c' is not an input of this game (use u, l, d, r%s%s)", *p,
				       action ? ", x for action" : "", tick ? ", t for a tick" : "");
			rc = -1;
			break;
		}
		if (won) {
			if (step_no == 0)
				lk_strbuf_addstr(err, "the level is solved on load (a win in the again turns "
					       "of its start rules), but moves follow");
			else
				lk_strbuf_addf(err, "the level is solved after move %lu, but more moves "
					       "follow", step_no);
			rc = -1;
			break;
		}
		step_no++;
		unsigned flags = ps_turn(rt, l->codes[input], NULL);
		if (flags & PS_AGAIN_LIMIT) {
			lk_strbuf_addf(err, "move %lu ('%c') starts an again loop that never ends", step_no,
				       *p);
			rc = -1;
			break;
		}
		won = (flags & PS_WON) != 0;
		unsigned nf = ps_facts_of_turn(&l->facts, rt, facts, l->facts.n);
		lk_moves_add(moves, &l->letters[input], 1, 1, facts, nf);
		add_key(keys, rt);
	}
	ps_runtime_track(rt, false);
	free(facts);
	*solved = won;
	return rc;
}

/* The facts of the input `move` out of key: the turn played again with
 * the engine tracking what fired and what moved. */
static unsigned ps_move_facts(const struct lk_level *level, const void *key, uint32_t move,
			      uint16_t *facts, unsigned max)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	struct ps_runtime *rt = new_runtime(l);
	ps_runtime_track(rt, true);
	ps_load(rt, key);
	ps_turn(rt, l->codes[move], NULL);
	unsigned n = ps_facts_of_turn(&l->facts, rt, facts, max);
	ps_runtime_track(rt, false);
	done_runtime(l, rt);
	return n;
}

/* The state's cells as the engine holds them, drawn by ps_draw.c. */
static void ps_draw(const struct lk_level *level, const void *key, const char *placement,
		    struct lk_canvas *c)
{
	(void)placement;
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	struct ps_runtime *rt = new_runtime(l);
	if (key)
		ps_load(rt, key);
	else
		ps_start(rt, NULL);   /* the start, after any start rules */
	ps_draw_cells(l->g, ps_map_width(l->map), ps_map_height(l->map), ps_cells(rt, NULL), c);
	done_runtime(l, rt);
}

static void ps_write_state(const struct lk_level *level, const void *key, struct lk_strbuf *out)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	struct ps_runtime *rt = new_runtime(l);
	ps_load(rt, key);
	size_t start = out->len;
	ps_map_write(l->g, l->map, ps_cells(rt, NULL), out);
	ps_indent_map_text(out, start);
	done_runtime(l, rt);
}

extern const struct lk_generator lk_gen_puzzlescript_transform;
static const struct lk_generator *const ps_generators[] = {
	&lk_gen_puzzlescript_transform,
	NULL,
};

static void ps_vt_rating_counts(const struct lk_level *level, unsigned *cells,
				unsigned *objects)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	ps_rating_counts(l->g, l->map, cells, objects, NULL);
}

static unsigned ps_vt_rating_wall_sides(const struct lk_level *level)
{
	const struct ps_lk_level *l = (const struct ps_lk_level *)level;
	unsigned cells, objects, sides = 0;
	ps_rating_counts(l->g, l->map, &cells, &objects, &sides);
	return sides;
}

const struct lk_game lk_game_puzzlescript = {
	.name = "puzzlescript",
	.summary = "a PuzzleScript game of your own: its script's rules and levels",
	.metrics = ps_metrics,
	.heuristics = ps_heuristics,
	.def_key = ps_def_key,
	.load_def = ps_load_def,
	.free_def = ps_free_def,
	.def_note = ps_def_note,
	.validate = ps_validate,
	.new_level = ps_new_level,
	.free_level = ps_free_level,
	.own_solve = ps_own_solve,
	.initial_state = ps_initial_state,
	.successors = ps_successors,
	.is_goal = ps_is_goal,
	.heuristic = ps_heuristic,
	.estimate = ps_estimate,
	.label_path = ps_label_path,
	.move_facts = ps_move_facts,
	.replay = ps_replay,
	.write_state = ps_write_state,
	.rating_counts = ps_vt_rating_counts,
	.rating_wall_sides = ps_vt_rating_wall_sides,
	.draw = ps_draw,
	.replay_keys = ps_replay_keys,
	/* rules may name absolute directions: a turned level is another level */
	.symmetries = LK_SYMMETRIES_NONE,
	.import_probe = ps_import_probe,
	.import = ps_import,
	.update_record = ps_update_record,
	.generators = ps_generators,
};
