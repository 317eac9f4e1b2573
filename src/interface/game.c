/*
 * game.c - the game interface's own code: the validate-then-build loader
 * (with the cache of shared definitions), labelled moves, the canonical
 * text of a level.  Finding a game by name is the registry's
 * (src/games/registry.c), above every game.
 */
#include "levelkit/game.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/grid.h"

const char *lk_status_name(enum lk_status status)
{
	switch (status) {
	case LK_SOLVED: return "yes";
	case LK_UNSOLVABLE: return "no";
	default: return "unknown";
	}
}

const char *lk_limit_name(enum lk_limit limit)
{
	switch (limit) {
	case LK_LIMIT_STATES: return "states";
	case LK_LIMIT_MEMORY: return "memory";
	case LK_LIMIT_TIME: return "time";
	case LK_LIMIT_INTERRUPTED: return "interrupted";
	default: return "none";
	}
}

bool lk_name_in(const char *name, const char *const *list)
{
	for (size_t i = 0; list && list[i]; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

static size_t source_line(const struct lk_record *rec, size_t line)
{
	if (line < rec->nlines && rec->lines[line].lineno)
		return rec->lines[line].lineno;
	return rec->first_lineno;
}

/* -------------------------------------------------------------- notices */

static lk_notice_fn *notice_handler;   /* set once, before any thread starts */

void lk_set_notice_handler(lk_notice_fn *fn)
{
	notice_handler = fn;
}

void lk_notice(const struct lk_record *rec, size_t line, const char *fmt, ...)
{
	lk_notice_fn *fn = notice_handler;
	if (!fn)
		return;
	struct lk_strbuf text = LK_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	lk_strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	fn(rec->source, source_line(rec, line), text.buf);
	lk_strbuf_release(&text);
}

/* ---------------------------------------------------------- definitions */

/*
 * The definitions loaded so far, one per (game, key), kept for the life of
 * the process: a PuzzleScript script with 30 levels is compiled once, and
 * every worker thread shares it (definitions are immutable once built).
 * A run meets few definitions, so a list will do.
 */
struct def_entry {
	const struct lk_game *game;
	char *key;
	void *def;
	struct def_entry *next;
	bool noted;              /* its note (game->def_note) was given */
};

static struct def_entry *defs;
static pthread_mutex_t defs_lock = PTHREAD_MUTEX_INITIALIZER;

/* A definition's note, the first time a record uses it (defs_lock held):
 * a notice about that record, naming the definition (a script's path,
 * the key up to its '#'). */
static void note_def(struct def_entry *e, const struct lk_record *rec)
{
	if (e->noted)
		return;
	e->noted = true;
	const char *note = e->game->def_note ? e->game->def_note(e->def) : NULL;
	if (!note)
		return;
	const char *hash = strrchr(e->key, '#');
	int len = hash ? (int)(hash - e->key) : (int)strlen(e->key);
	lk_notice(rec, (size_t)-1, "%.*s: %s", len, e->key, note);
}

static const void *find_def(const struct lk_game *game, const struct lk_record *rec,
			    struct lk_strbuf *err, size_t *line)
{
	struct lk_strbuf key = LK_STRBUF_INIT;
	const void *def = NULL;
	if (game->def_key(game, rec, &key, err, line) < 0) {
		lk_strbuf_release(&key);
		return NULL;
	}
	pthread_mutex_lock(&defs_lock);
	struct def_entry *found = NULL;
	for (struct def_entry *e = defs; e && !found; e = e->next)
		if (e->game == game && strcmp(e->key, key.buf) == 0)
			found = e;
	if (!found) {
		/* Loaded under the lock: two threads meeting a new script at
		 * once compile it once. */
		void *made = game->load_def(game, rec, key.buf, err, line);
		if (made) {
			struct def_entry *e = lk_xmalloc(sizeof *e);
			*e = (struct def_entry){ game, lk_strbuf_detach(&key, NULL), made, defs, false };
			defs = e;
			found = e;
		}
	}
	if (found) {
		def = found->def;
		note_def(found, rec);
	}
	pthread_mutex_unlock(&defs_lock);
	lk_strbuf_release(&key);
	return def;
}

void lk_game_def_add(const struct lk_game *game, const char *key, void *def)
{
	pthread_mutex_lock(&defs_lock);
	bool have = false;
	for (struct def_entry *e = defs; e && !have; e = e->next)
		have = e->game == game && strcmp(e->key, key) == 0;
	if (!have) {
		struct def_entry *e = lk_xmalloc(sizeof *e);
		*e = (struct def_entry){ game, lk_xstrdup(key), def, defs, false };
		defs = e;
	}
	pthread_mutex_unlock(&defs_lock);
	if (have)
		game->free_def(def);
}

void lk_game_defs_release(void)
{
	pthread_mutex_lock(&defs_lock);
	while (defs) {
		struct def_entry *e = defs;
		defs = e->next;
		e->game->free_def(e->def);
		free(e->key);
		free(e);
	}
	pthread_mutex_unlock(&defs_lock);
}

/* --------------------------------------------------------------- loader */

struct lk_level *lk_game_load_level(const struct lk_game *game, const struct lk_record *rec,
				    const struct lk_level_options *opt, struct lk_strbuf *err,
				    size_t *lineno)
{
	if (opt->metric && !lk_name_in(opt->metric, game->metrics)) {
		lk_strbuf_addf(err, "game %s has no metric '%s'", game->name, opt->metric);
		*lineno = rec->first_lineno;
		return NULL;
	}
	if (opt->heuristic && !lk_name_in(opt->heuristic, game->heuristics)) {
		lk_strbuf_addf(err, "game %s has no heuristic '%s'", game->name, opt->heuristic);
		*lineno = rec->first_lineno;
		return NULL;
	}
	size_t line = (size_t)-1;
	const void *def = NULL;
	if (game->def_key) {
		def = find_def(game, rec, err, &line);
		if (!def) {
			*lineno = source_line(rec, line);
			return NULL;
		}
	}
	if (game->validate(game, def, rec, opt, err, &line) < 0) {
		*lineno = source_line(rec, line);
		return NULL;
	}
	struct lk_level *level = game->new_level(game, def, rec, opt);
	if (level)
		level->def = def;
	return level;
}

void lk_level_free(struct lk_level *level)
{
	if (level)
		level->game->free_level(level);
}

/* ---------------------------------------------------------------- moves */

void lk_moves_init(struct lk_moves *m, const struct lk_level *level)
{
	memset(m, 0, sizeof *m);
	lk_strbuf_init(&m->text);
	m->nfacts = level ? level->nfacts : 0;
	m->facts = level ? level->facts : NULL;
	m->fact_counts = lk_xcalloc(m->nfacts ? m->nfacts : 1, sizeof *m->fact_counts);
}

void lk_moves_release(struct lk_moves *m)
{
	lk_strbuf_release(&m->text);
	free(m->fact_counts);
	m->fact_counts = NULL;
}

void lk_moves_reset(struct lk_moves *m)
{
	lk_strbuf_reset(&m->text);
	m->inputs = m->nmoves = 0;
	memset(m->fact_counts, 0, (m->nfacts ? m->nfacts : 1) * sizeof *m->fact_counts);
}

void lk_moves_add(struct lk_moves *m, const char *label, size_t len, unsigned long inputs,
		  const uint16_t *facts, unsigned nfacts)
{
	lk_strbuf_add(&m->text, label, len);
	m->inputs += inputs;
	m->nmoves++;
	for (unsigned i = 0; i < nfacts; i++)
		if (facts[i] < m->nfacts)
			m->fact_counts[facts[i]]++;
}

uint64_t lk_moves_count(const struct lk_moves *m, const char *fact)
{
	for (unsigned i = 0; i < m->nfacts; i++)
		if (strcmp(m->facts[i], fact) == 0)
			return m->fact_counts[i];
	return 0;
}

bool lk_level_has_fact(const struct lk_level *level, const char *fact)
{
	for (unsigned i = 0; i < level->nfacts; i++)
		if (strcmp(level->facts[i], fact) == 0)
			return true;
	return false;
}

void lk_concept_result_init(struct lk_concept_result *r)
{
	memset(r, 0, sizeof *r);
	r->answer = LK_MAYBE;
	r->solvable = LK_UNKNOWN;
	lk_moves_init(&r->witness, NULL);
	lk_strbuf_init(&r->witness_facts);
}

void lk_concept_result_release(struct lk_concept_result *r)
{
	lk_moves_release(&r->witness);
	lk_strbuf_release(&r->witness_facts);
}

void lk_level_label(const struct lk_level *level, const unsigned char *keys, size_t nkeys,
		    struct lk_moves *moves)
{
	level->game->label_path(level, keys, nkeys, moves);
}

/* ------------------------------------------------------------ canonical */

void lk_level_canonical(const struct lk_level *level, const struct lk_record *rec,
			struct lk_strbuf *out)
{
	if (level->game->canonical) {
		level->game->canonical(level, out);
		return;
	}
	/* Fallback: the grid text, trimmed of blank margins, in the
	 * orientation (among the game's symmetries) whose text sorts first. */
	size_t first, n = lk_record_grid(rec, &first);
	const char **rows = lk_xmalloc((n ? n : 1) * sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = rec->lines[first + i].text;
	struct lk_grid g;
	struct lk_grid_parse opt = { .fill = ' ', .run_length = false };
	struct lk_strbuf err = LK_STRBUF_INIT, best = LK_STRBUF_INIT, text = LK_STRBUF_INIT;
	size_t bad;
	unsigned symmetries = level->game->symmetries | 1u;   /* the identity always */
	if (lk_grid_parse_rows(&g, rows, n, &opt, &err, &bad) == 0) {
		bool have = false;
		for (int sym = 0; sym < LK_SYM_COUNT; sym++) {
			if (!(symmetries & (1u << sym)))
				continue;
			struct lk_grid t;
			lk_grid_transform(&t, &g, sym);
			lk_strbuf_reset(&text);
			lk_grid_write_trimmed(&t, &text);
			if (!have || strcmp(text.buf, best.buf) < 0) {
				lk_strbuf_reset(&best);
				lk_strbuf_add(&best, text.buf, text.len);
				have = true;
			}
			lk_grid_release(&t);
		}
		lk_grid_release(&g);
	}
	lk_strbuf_add(out, best.buf, best.len);
	lk_strbuf_release(&best);
	lk_strbuf_release(&text);
	lk_strbuf_release(&err);
	free(rows);
}
