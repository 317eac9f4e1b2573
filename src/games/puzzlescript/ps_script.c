/*
 * ps_script.c - how a PuzzleScript level record finds its script, wherever
 * the command runs, and what is said when the script has changed since
 * the level was read from it.
 *
 * A record names its script by the fields `script` (written as an absolute
 * path, so that a pack works from any directory and through pipes) and
 * `script-hash` (of the script's text).  The script is looked for at that
 * path, then, so that a folder holding a pack and its script can be moved
 * or shared, beside the record's own file: the path joined to the file's
 * folder when it is relative, and the script's file name alone.  A file
 * whose hash matches wins; when none does, the first one found is the
 * script, edited since.
 *
 * An edited script is the game as it is now: its levels are played by it,
 * the change said once per script and run (a notice, game.h), and a level
 * that is no longer the map it was read from (edited or moved in the
 * script) said once more, for that level.  A level's characters that the
 * script no longer has are an error, as always.
 *
 * The script is the game's definition (game.h): keyed by its path and
 * hash, compiled once for all the levels and threads that name it, and
 * what its answers mean (a random or realtime game) said once a run.
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "levelkit/game.h"
#include "levelkit/hash.h"
#include "ps.h"
#include "ps_game.h"
#include "ps_internal.h"   /* the game's file name */

void ps_script_absolute(const char *path, struct lk_strbuf *out)
{
	char *real = realpath(path, NULL);
	if (real) {
		lk_strbuf_addstr(out, real);
		free(real);
		return;
	}
	char cwd[PATH_MAX];
	if (path[0] != '/' && getcwd(cwd, sizeof cwd))
		lk_strbuf_addf(out, "%s/%s", cwd, path);
	else
		lk_strbuf_addstr(out, path);
}

static void text_hash(const struct lk_strbuf *text, char hash[17])
{
	snprintf(hash, 17, "%016llx", (unsigned long long)lk_hash_text(text->buf, text->len));
}

int ps_script_find(const struct lk_record *rec, struct lk_strbuf *path, struct lk_strbuf *text,
		   struct lk_strbuf *err)
{
	const char *given = lk_record_get(rec, "script");
	const char *want = lk_record_get(rec, "script-hash");
	if (!given || !*given) {
		lk_strbuf_addstr(err, "a puzzlescript level needs a script field naming its script");
		return -1;
	}
	/* the places to look, in order */
	struct lk_strbuf places[3] = { LK_STRBUF_INIT, LK_STRBUF_INIT, LK_STRBUF_INIT };
	size_t n = 0;
	lk_strbuf_addstr(&places[n++], given);
	const char *slash = rec->source ? strrchr(rec->source, '/') : NULL;
	size_t dir = slash ? (size_t)(slash - rec->source) + 1 : 0;
	bool from_file = rec->source && strcmp(rec->source, "-") != 0 && rec->source[0] != '<';
	const char *base = strrchr(given, '/') ? strrchr(given, '/') + 1 : given;
	if (from_file && given[0] != '/' && dir) {
		lk_strbuf_add(&places[n], rec->source, dir);
		lk_strbuf_addstr(&places[n++], given);
	}
	if (from_file && base != given) {
		lk_strbuf_add(&places[n], rec->source, dir);
		lk_strbuf_addstr(&places[n++], base);
	}
	int found = -1, first_errno = 0;
	struct lk_strbuf candidate = LK_STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		lk_strbuf_reset(&candidate);
		if (lk_strbuf_read_file(&candidate, places[i].buf) < 0) {
			if (i == 0)
				first_errno = errno;
			continue;
		}
		char hash[17];
		text_hash(&candidate, hash);
		bool same = !want || strcmp(want, hash) == 0;
		if (found < 0 || same) {
			found = (int)i;
			lk_strbuf_reset(path);
			lk_strbuf_addstr(path, places[i].buf);
			lk_strbuf_reset(text);
			lk_strbuf_add(text, candidate.buf, candidate.len);
		}
		if (same)
			break;
	}
	if (found < 0) {
		lk_strbuf_addf(err, "cannot read the script %s: %s (looked for it there", given,
			       strerror(first_errno ? first_errno : ENOENT));
		if (n > 1)
			lk_strbuf_addf(err, " and as %s", places[n - 1].buf);
		lk_strbuf_addstr(err, ", beside this file; was it moved?)");
	}
	lk_strbuf_release(&candidate);
	for (size_t i = 0; i < 3; i++)
		lk_strbuf_release(&places[i]);
	return found < 0 ? -1 : 0;
}

/* ------------------------------------------------------------ notices */

/* The scripts found changed in this run (by the hash their levels carry:
 * the hash of a script's old text names it), and the levels already said
 * to be no longer the script's. */
struct said {
	char *key;
	struct said *next;
};
static struct said *changed_scripts, *changed_levels;
static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;

/* Add key to the list; false when it was there already. */
static bool say_once(struct said **list, const char *key)
{
	pthread_mutex_lock(&said_lock);
	bool fresh = true;
	for (struct said *s = *list; s && fresh; s = s->next)
		fresh = strcmp(s->key, key) != 0;
	if (fresh) {
		struct said *s = lk_xmalloc(sizeof *s);
		*s = (struct said){ lk_xstrdup(key), *list };
		*list = s;
	}
	pthread_mutex_unlock(&said_lock);
	return fresh;
}

static bool said_before(struct said *const *list, const char *key)
{
	pthread_mutex_lock(&said_lock);
	bool found = false;
	for (struct said *s = *list; s && !found; s = s->next)
		found = strcmp(s->key, key) == 0;
	pthread_mutex_unlock(&said_lock);
	return found;
}

void ps_script_changed(const struct lk_record *rec, const char *path, const char *was,
		       const char *now)
{
	if (say_once(&changed_scripts, was)) {
		long line = lk_record_find(rec, "script-hash");
		lk_notice(rec, line >= 0 ? (size_t)line : (size_t)-1,
			  "the script %s has changed since these levels were read from it "
			  "(script-hash %s, now %s): they are played by it as it is now (a level that "
			  "is no longer the script's is named); read its levels again to bring the "
			  "records up to date", path, was, now);
	}
}

/* Is the map the script's level (0-based index) as written? */
static bool same_map(const struct ps_game *g, int level, const struct ps_level *map)
{
	int words;
	const uint64_t *cells = ps_level_cells(g, level, &words);
	if (!cells || ps_level_width(g, level) != ps_map_width(map) ||
	    ps_level_height(g, level) != ps_map_height(map))
		return false;
	size_t n = (size_t)ps_map_width(map) * (size_t)ps_map_height(map) * (size_t)words;
	return memcmp(cells, ps_map_cells(map), n * sizeof *cells) == 0;
}

void ps_script_check_level(const struct lk_record *rec, const struct ps_game *g,
			   const struct ps_level *map)
{
	const char *was = lk_record_get(rec, "script-hash"), *number = lk_record_get(rec, "level");
	struct lk_strbuf key = LK_STRBUF_INIT;
	long want = number ? strtol(number, NULL, 10) : 0;
	if (!was || want <= 0)
		return;   /* not a map of the script (gen's levels) */
	bool changed = said_before(&changed_scripts, was);
	/* the map numbers of the script as it is now: maps count, messages not */
	int at = 0, now = 0;
	for (int i = 0; changed && i < ps_game_level_count(g) && now != want; i++) {
		if (ps_level_is_message(g, i))
			continue;
		at++;
		if ((!now || at == want) && same_map(g, i, map))
			now = at;
	}
	if (changed && now != want) {
		lk_strbuf_addf(&key, "%s#%s:%zu", was, rec->source ? rec->source : "", rec->first_lineno);
		if (say_once(&changed_levels, key.buf)) {
			long line = lk_record_find(rec, "level");
			size_t at_line = line >= 0 ? (size_t)line : (size_t)-1;
			if (now)
				lk_notice(rec, at_line, "this level is level %d of the script %s now, not "
					  "level %ld (the script was edited since the level was read)",
					  now, g->filename, want);
			else
				lk_notice(rec, at_line, "this level is no longer in the script %s (its "
					  "level %ld was edited or removed since it was read): it is played "
					  "as this record has it", g->filename, want);
		}
	}
	lk_strbuf_release(&key);
}

/* ---- the script as the game's definition (the vtable's hooks) ---- */

int ps_def_key(const struct lk_game *game, const struct lk_record *rec,
	       struct lk_strbuf *key, struct lk_strbuf *err, size_t *line)
{
	(void)game;
	struct lk_strbuf path = LK_STRBUF_INIT, text = LK_STRBUF_INIT;
	long field = lk_record_find(rec, "script");
	*line = field >= 0 ? (size_t)field : (size_t)-1;
	int rc = ps_script_find(rec, &path, &text, err);
	if (rc == 0) {
		char hash[17];
		snprintf(hash, sizeof hash, "%016llx", (unsigned long long)lk_hash_text(text.buf, text.len));
		const char *want = lk_record_get(rec, "script-hash");
		/* an edited script is played as it is now, the change said */
		if (want && strcmp(want, hash) != 0)
			ps_script_changed(rec, path.buf, want, hash);
		lk_strbuf_addf(key, "%s#%s", path.buf, hash);
	}
	lk_strbuf_release(&path);
	lk_strbuf_release(&text);
	return rc;
}

/* A record that names its script by a relative path (written by hand, or
 * by an older levelkit) names it, once loaded, by the absolute path where
 * it was found: the record an action writes works from any directory. */
void ps_update_record(const struct lk_level *level, struct lk_record *rec)
{
	const char *given = lk_record_get(rec, "script");
	const struct ps_game *g = level->def;
	if (!given || given[0] == '/' || !g || !g->filename || !*g->filename)
		return;
	struct lk_strbuf path = LK_STRBUF_INIT;
	ps_script_absolute(g->filename, &path);
	if (path.buf[0] == '/')
		lk_record_set(rec, "script", path.buf);
	lk_strbuf_release(&path);
}

void *ps_load_def(const struct lk_game *game, const struct lk_record *rec, const char *key,
		  struct lk_strbuf *err, size_t *line)
{
	(void)game;
	(void)rec;
	(void)line;
	/* the key is "path#hash": the path is the script that hashed so */
	const char *hash = strrchr(key, '#');
	struct lk_strbuf path = LK_STRBUF_INIT, text = LK_STRBUF_INIT;
	lk_strbuf_add(&path, key, (size_t)(hash - key));
	struct ps_game *g = NULL;
	if (lk_strbuf_read_file(&text, path.buf) < 0) {
		lk_strbuf_addf(err, "cannot read the script %s: %s", path.buf, strerror(errno));
	} else {
		struct lk_strbuf why = LK_STRBUF_INIT;
		int at = 0;
		g = ps_compile(text.buf, text.len, path.buf, &why, &at);
		if (!g) {
			if (at > 0)
				lk_strbuf_addf(err, "the script does not compile: %s:%d: %s", path.buf, at,
					       why.buf);
			else
				lk_strbuf_addf(err, "the script does not compile: %s: %s", path.buf, why.buf);
		}
		lk_strbuf_release(&why);
	}
	lk_strbuf_release(&path);
	lk_strbuf_release(&text);
	return g;
}

void ps_free_def(void *def)
{
	ps_game_free(def);
}

/* Said once per script and run: what the answers for a game that draws
 * random numbers mean, and how a realtime game's ticks are played. */
const char *ps_def_note(const void *def)
{
	const struct ps_game *g = def;
	bool realtime = ps_game_flags(g)->realtime_interval > 0;
	if (g->random && realtime)
		return "the game draws random numbers and runs in real time: every answer holds for the "
		       "seed the record names (its seed field, else solve's --seed), not for every roll; a "
		       "tick (t in a solution) is a turn of its own, with no key pressed";
	if (g->random)
		return "the game draws random numbers: every answer holds for the seed the record names "
		       "(its seed field, else solve's --seed), not for every roll";
	if (realtime)
		return "the game runs in real time: a tick (t in a solution) is a turn of its own, with no "
		       "key pressed";
	return NULL;
}
