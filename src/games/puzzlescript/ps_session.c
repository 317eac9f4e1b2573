/*
 * ps_session.c - undo, restart, checkpoints and level changes around the
 * engine's turns, as the reference engine does them in its test harness
 * (engine.js DoUndo, DoRestart, nextLevel; see ps_session.h).
 *
 * The reference touches its undo stack and level list from inside a turn
 * (a restart command pushes an undo state, a win loads the next level
 * before the turn's again check runs); the runtime calls back here at
 * those points through struct ps_host.
 */
#include <stdlib.h>
#include <string.h>

#include "ps_runtime.h"
#include "ps_session.h"

struct ps_session {
	const struct ps_game *g;
	int level;
	struct ps_runtime *rt;
	struct ps_runtime *next;         /* the level a win moved to */
	struct ps_runtime *keyed;        /* whose keys the stacks below hold */
	size_t key_size;
	unsigned char *backups;          /* undo stack of keys */
	size_t nbackups, backups_alloc;
	unsigned char *restart_target;
	unsigned char *scratch_key;
	bool restarting;
	const char **history;
	size_t nhistory, history_alloc;
};

static void host_push_undo(void *ctx, struct ps_runtime *rt, const ps_word *cells);
static void host_restart(void *ctx, struct ps_runtime *rt);
static bool host_win(void *ctx, struct ps_runtime *rt);
static void host_checkpoint(void *ctx, struct ps_runtime *rt);
static void host_sound(void *ctx, int seed);

static const struct ps_host session_host = {
	.push_undo = host_push_undo,
	.restart = host_restart,
	.win = host_win,
	.checkpoint = host_checkpoint,
	.sound = host_sound,
};

static void set_keys(struct ps_session *s, struct ps_runtime *rt)
{
	s->keyed = rt;
	s->key_size = ps_key_size(rt);
	free(s->backups);
	free(s->restart_target);
	free(s->scratch_key);
	s->backups = NULL;
	s->nbackups = s->backups_alloc = 0;
	s->restart_target = lk_xcalloc(1, s->key_size);
	s->scratch_key = lk_xcalloc(1, s->key_size);
}

/* loadLevelFromLevelDat for a map: fresh undo stack, the restart target
 * is the map as written, then the start rules. */
static struct ps_runtime *load_map(struct ps_session *s, int level, const struct ps_rng *rng)
{
	struct ps_runtime *rt = ps_runtime_new(s->g, level);
	if (!rt)
		return NULL;
	if (rng)
		rt->rng = *rng;
	ps_set_host(rt, &session_host, s);
	set_keys(s, rt);
	ps_pack_cells(rt, rt->cells, s->restart_target);
	if (s->g->flags.run_rules_on_level_start)
		ps_process_input(rt, -1, true, false);
	return rt;
}

/* A level the last turn loaded (a win, a restart) replaces the runtime. */
static void take_next(struct ps_session *s)
{
	if (s->next) {
		ps_runtime_free(s->rt);
		s->rt = s->next;
		s->next = NULL;
	}
}

/* Run the turns "again" asks for after a turn, as the reference does;
 * false when they do not settle within PS_MAX_AGAIN. */
static bool settle(struct ps_session *s)
{
	for (int n = 0; s->rt->againing; n++) {
		if (n == PS_MAX_AGAIN)
			return false;
		s->rt->againing = false;
		s->rt->left_level = false;
		ps_process_input(s->rt, -1, false, false);
		take_next(s);
	}
	return true;
}

struct ps_session *ps_session_new(const struct ps_game *g, int level, const char *seed)
{
	struct ps_session *s = lk_xcalloc(1, sizeof *s);
	s->g = g;
	s->level = level;
	struct ps_rng rng;
	ps_rng_seed(&rng, seed ? seed : "0");
	s->rt = load_map(s, level, &rng);
	if (!s->rt) {
		ps_session_free(s);
		return NULL;
	}
	/* the reference clears its recording after loading */
	s->nhistory = 0;
	settle(s);
	return s;
}

void ps_session_free(struct ps_session *s)
{
	if (!s)
		return;
	ps_runtime_free(s->rt);
	ps_runtime_free(s->next);
	free(s->backups);
	free(s->restart_target);
	free(s->scratch_key);
	free(s->history);
	free(s);
}

/* ---- what the runtime calls back ---- */

static void push_key(struct ps_session *s, const unsigned char *key)
{
	LK_ALLOC_GROW(s->backups, (s->nbackups + 1) * s->key_size, s->backups_alloc);
	memcpy(s->backups + s->nbackups * s->key_size, key, s->key_size);
	s->nbackups++;
}

static void host_push_undo(void *ctx, struct ps_runtime *rt, const ps_word *cells)
{
	struct ps_session *s = ctx;
	if (rt != s->keyed)
		return;
	ps_pack_cells(rt, cells, s->scratch_key);
	push_key(s, s->scratch_key);
}

static void do_restart(struct ps_session *s, struct ps_runtime *rt, bool force)
{
	if (s->restarting)
		return;
	s->restarting = true;
	if (!force) {
		ps_pack_cells(rt, rt->cells, s->scratch_key);
		push_key(s, s->scratch_key);
	}
	ps_load(rt, s->restart_target);
	if (s->g->flags.run_rules_on_level_start)
		ps_process_input(rt, -1, true, false);
	rt->queue = 0;
	rt->queue_len = 0;
	s->restarting = false;
}

static void host_restart(void *ctx, struct ps_runtime *rt)
{
	do_restart(ctx, rt, true);
}

static bool host_win(void *ctx, struct ps_runtime *rt)
{
	struct ps_session *s = ctx;
	if (s->level < s->g->nlevels - 1) {
		s->level++;
		if (s->g->levels[s->level].is_message) {
			rt->text_mode = true;
			return false;
		}
		ps_runtime_free(s->next);
		s->next = load_map(s, s->level, &rt->rng);
		return s->next != NULL;
	}
	/* the end of the game: the title screen */
	s->level = 0;
	rt->text_mode = true;
	return false;
}

static void host_checkpoint(void *ctx, struct ps_runtime *rt)
{
	struct ps_session *s = ctx;
	if (rt == s->keyed)
		ps_pack_cells(rt, rt->cells, s->restart_target);
}

static void host_sound(void *ctx, int seed)
{
	struct ps_session *s = ctx;
	LK_ALLOC_GROW(s->history, s->nhistory + 1, s->history_alloc);
	s->history[s->nhistory++] = s->g->seeds[seed];
}

/* ---- the player's actions ---- */

static bool run(struct ps_session *s, int input)
{
	s->rt->left_level = false;
	ps_process_input(s->rt, input, false, false);
	take_next(s);
	return settle(s);
}

bool ps_session_input(struct ps_session *s, int input)
{
	return run(s, input);
}

void ps_session_undo(struct ps_session *s)
{
	if (s->g->flags.noundo)
		return;
	ps_pack_cells(s->rt, s->rt->cells, s->scratch_key);
	while (s->nbackups > 0 &&
	       !memcmp(s->backups + (s->nbackups - 1) * s->key_size, s->scratch_key, s->key_size))
		s->nbackups--;
	if (s->nbackups > 0) {
		s->nbackups--;
		ps_load(s->rt, s->backups + s->nbackups * s->key_size);
	}
}

bool ps_session_restart(struct ps_session *s)
{
	if (s->g->flags.norestart)
		return true;
	do_restart(s, s->rt, false);
	return settle(s);
}

int ps_session_level(const struct ps_session *s)
{
	return s->level;
}

bool ps_session_text_mode(const struct ps_session *s)
{
	return s->rt->text_mode;
}

struct ps_runtime *ps_session_runtime(struct ps_session *s)
{
	return s->rt;
}

size_t ps_session_sound_count(const struct ps_session *s)
{
	return s->nhistory;
}

const char *ps_session_sound(const struct ps_session *s, size_t i)
{
	return s->history[i];
}

void ps_session_debug_string(const struct ps_session *s, struct lk_strbuf *out)
{
	ps_debug_string(s->rt, out);
}
