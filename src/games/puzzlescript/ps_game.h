/*
 * ps_game.h - what the PuzzleScript game's files share (puzzlescript.c, the
 * vtable; ps_import.c, reading a script's levels into records).
 */
#ifndef LEVELKIT_PS_GAME_H
#define LEVELKIT_PS_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/record.h"
#include "levelkit/strbuf.h"

struct ps_level;
struct ps_game;
struct ps_runtime;

/* The facts a move can carry (ps_facts.c): "rule L" for each line holding
 * a rule, "move NAME" for each object, and which fact each compiled rule
 * and object stands for. */
struct ps_facts {
	char **names;
	unsigned n;
	uint16_t *rule_fact;     /* per compiled rule */
	int *object_fact;        /* per object id, -1 for an unused id */
	int nrules, nobjects;
};
void ps_facts_init(struct ps_facts *f, const struct ps_game *g);
void ps_facts_release(struct ps_facts *f);
/* The facts of the turn rt just played with tracking on (ps_runtime_track),
 * each once, at most max of them; returns how many. */
unsigned ps_facts_of_turn(const struct ps_facts *f, const struct ps_runtime *rt, uint16_t *out,
			  unsigned max);

/* The rating's counts (rating.h) of a level: ps_rating.c. */
void ps_rating_counts(const struct ps_game *g, const struct ps_level *map, unsigned *cells,
		      unsigned *objects, unsigned *sides);

/* ps_script.c: where a record's script is (its script field, then beside
 * the record's file; a file with the record's script-hash preferred),
 * into path and text; 0, or -1 with a message. */
int ps_script_find(const struct lk_record *rec, struct lk_strbuf *path, struct lk_strbuf *text,
		   struct lk_strbuf *err);
/* A path made absolute (for the script field): resolved when the file is
 * there, else joined to the working directory. */
void ps_script_absolute(const char *path, struct lk_strbuf *out);
/* The record's script at path has changed since it was read (script-hash
 * was, the text now hashes to now): said once per script and run. */
void ps_script_changed(const struct lk_record *rec, const char *path, const char *was,
		       const char *now);
/* When the record's script has changed: whether the record's map is still
 * the script's level it was read as; said once for a level that is not. */
void ps_script_check_level(const struct lk_record *rec, const struct ps_game *g,
			   const struct ps_level *map);

/* ps_script.c: the script as the game's definition, the vtable's hooks
 * (game.h): its key ("path#hash"), the record's script field made
 * absolute, the compiled game and its release, and the note said once a
 * run (what a random or realtime game's answers mean). */
struct lk_game;
struct lk_level;
int ps_def_key(const struct lk_game *game, const struct lk_record *rec, struct lk_strbuf *key,
	       struct lk_strbuf *err, size_t *line);
void ps_update_record(const struct lk_level *level, struct lk_record *rec);
void *ps_load_def(const struct lk_game *game, const struct lk_record *rec, const char *key,
		  struct lk_strbuf *err, size_t *line);
void ps_free_def(void *def);
const char *ps_def_note(const void *def);

/* The game's import hooks (game.h). */
bool ps_import_probe(const char *data, size_t len);
int ps_import(const char *path, const char *data, size_t len, struct lk_record **recs,
	      size_t *nrecs, struct lk_strbuf *err, size_t *line);

/* Whether a map's rows must be indented by one space to read back as the
 * grid of a record: true when one of them would read as a comment (`;`)
 * or a field (`ab:`).  PuzzleScript trims a map's rows, so the indent
 * changes nothing in the game (ps_map_parse trims too). */
bool ps_rows_indent(const char *const *rows, size_t n);
/* The same for a map written as text (a row a line) from text->buf + start:
 * indents every row when ps_rows_indent says so. */
void ps_indent_map_text(struct lk_strbuf *text, size_t start);

struct lk_level;
struct ps_analysis;

/* The pruning techniques (docs/games/puzzlescript.md), each with its
 * switch and its counter (Rolling Stone's way: each testable alone):
 * successors that put a walker in a dead cell, and states the heuristic
 * proves dead (a walker that can reach no cell it must, more walkers than
 * cells for them, a static condition that fails). */
enum ps_prune { PS_PRUNE_DEAD_CELLS, PS_PRUNE_DEAD_STATES, PS_NPRUNE };
/* Turn a technique on or off (before a search; a plain level starts with
 * both off, and dead cells are on only where the analysis found some). */
void ps_level_set_prune(struct lk_level *level, enum ps_prune which, bool on);
/* How many states a technique has dropped in the level's searches. */
unsigned long ps_level_pruned(const struct lk_level *level, enum ps_prune which);
/* Whether a key has a walker in a dead cell (what PS_PRUNE_DEAD_CELLS
 * drops), whatever the switch says: for tests. */
bool ps_level_key_dead_cells(const struct lk_level *level, const void *key);
/* What the analysis read off the rules for the level (ps_solve.h). */
const struct ps_analysis *ps_level_analysis(const struct lk_level *level);

/* What a game that draws random numbers is asked (lk_level_options.rolls). */
enum ps_rolls { PS_ROLLS_SEED, PS_ROLLS_SOME, PS_ROLLS_EVERY };
/* --rolls some / every: the level explored over every outcome of the dice
 * (ps_rolls.c); the game's own_solve hook. */
struct lk_search_options;
int ps_rolls_solve(const struct lk_level *level, const struct lk_search_options *opt,
		   struct lk_record *rec);
/* What ps_rolls.c needs of a level (puzzlescript.c): its question, its inputs
 * (letters and engine codes), and a runtime to borrow and give back. */
enum ps_rolls ps_level_rolls(const struct lk_level *level);
int ps_level_inputs(const struct lk_level *level, const char **letters, const int **codes);
struct ps_runtime *ps_level_borrow(const struct lk_level *level);
void ps_level_give_back(const struct lk_level *level, struct ps_runtime *rt);

/* Whether a key's last bit says the turn that reached it won. */
bool ps_map_key_won(const struct ps_level *lv, const void *key);

/* The game's vtable (puzzlescript.c). */
struct lk_game;
extern const struct lk_game lk_game_puzzlescript;

#endif
