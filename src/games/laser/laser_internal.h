/*
 * laser_internal.h - the laser game's level model, shared by the files of
 * src/games/laser and its generator (the game's API, for its tests and the
 * bench driver, is laser.h).
 *
 * Every piece on the board and every tray line is a *kind*: type, in- and
 * out-ports, and for sources and targets a power.  Fixed pieces come
 * first (one kind per letter), then the tray lines, then the blocker.
 */
#ifndef LEVELKIT_LASER_INTERNAL_H
#define LEVELKIT_LASER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/game.h"
#include "laser.h"
#include "levelkit/rays.h"

#define LASER_MAX_KINDS (LK_LASER_MAX_FIXED + LK_LASER_MAX_LINES + 1)
/* Powers in units stay below this, so sums of a few never overflow. */
#define LASER_MAX_POWER (INT64_C(1) << 56)

struct laser_kind {
	uint8_t type;             /* enum lk_laser_type */
	uint8_t ins, outs;        /* a bit per side (1 << LK_LASER_N ...) */
	uint8_t nin, nout;
	char letter;              /* fixed pieces: the grid letter, else 0 */
	bool any_need;            /* a target the generator places: takes any power */
	int64_t num, den;         /* sources and targets: power as written */
	int64_t value;            /* ... in units of 1/unit */
};

struct lk_laser {
	struct lk_level base;     /* a game level, for csp.h */
	int width, height, ncells;
	char *cells;              /* '.', '#', or a fixed piece's letter */
	int16_t *cell_kind;       /* -1 for an empty cell, else the kind there */
	int nkinds, nfixed, ntray, blocker;
	struct laser_kind kind[LASER_MAX_KINDS];
	int tray_count[LK_LASER_MAX_LINES];   /* line i is kind nfixed + i */
	/* Tray lines share counts by group: at most group_count[g] pieces of
	 * all the lines of group g.  Levels read from text have one line per
	 * group; the generator's palette puts every orientation of a type in
	 * one group (laser_set_groups). */
	int ngroups;
	int line_group[LK_LASER_MAX_LINES];
	int group_count[LK_LASER_MAX_LINES];
	int64_t unit;
	int64_t src_total, need_total;        /* in units */
	int nsources, ntargets, nblockers, tray_total;
	/* fixed pieces other than blockers, by cell */
	int npieces;
	int piece_cell[LK_LASER_MAX_CELLS];
	struct lk_rays rays;      /* from every cell, the 4 sides; squares are '.' */
};

static inline int laser_opposite(int side)
{
	return side ^ 2;
}

/* Whole-placement simulation (laser_sim.c).  kind_at: per cell the kind of
 * the piece there, -1 when empty (fixed pieces and blockers included). */
struct laser_beam {
	int from, side;           /* the cell and out side it leaves by */
	int to;                   /* the cell it stops at, or -1 off the board */
	int64_t value;
	bool absorbed;            /* it reached an in-port */
};

struct laser_sim {
	bool fired[LK_LASER_MAX_CELLS];
	int64_t out[LK_LASER_MAX_CELLS];          /* power a firing piece emits per out-port */
	uint8_t recv[LK_LASER_MAX_CELLS];         /* in-ports that received a beam */
	int64_t recv_value[LK_LASER_MAX_CELLS][4];
	int16_t recv_from[LK_LASER_MAX_CELLS][4];  /* the cell each beam came from */
	int nbeams;
	struct laser_beam beam[LK_LASER_MAX_CELLS * 3];
};

void laser_kind_at(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		   int16_t *kind_at);
void laser_simulate(const struct lk_laser *lv, const int16_t *kind_at, struct laser_sim *sim);
/* What a piece's in-ports received in all: the sum of the values of the
 * sides in recv (a target on several sides sums its beams). */
int64_t laser_received(const struct laser_kind *k, uint8_t recv, const int64_t *value);
/* Facts of a simulated placement (placed: the cells holding tray pieces). */
void laser_facts_of(const struct lk_laser *lv, const int16_t *kind_at, const struct laser_sim *sim,
		    struct lk_laser_facts *f);
void laser_level_facts(const struct lk_laser *lv, struct lk_laser_facts *f);
/* The cells a simulated placement uses: the cells of its tray pieces and
 * every empty cell a beam crosses (a bit per cell, LK_LASER_MAX_CELLS / 64
 * words). */
void laser_footprint(const struct lk_laser *lv, const int16_t *kind_at, const struct laser_sim *sim,
		     uint64_t *cells);

/* Text of a power value in units as a reduced fraction "p/q" or "p". */
void laser_power_text(const struct lk_laser *lv, int64_t value, struct lk_strbuf *out);
/* "W>NS" */
void laser_ports_text(uint8_t ins, uint8_t outs, struct lk_strbuf *out);
int laser_type_of(const char *name, size_t len);

/* Building a level from parts (laser_level.c): the generator's way in.
 * cells holds '.', '#' and fixed letters; kinds are the fixed pieces'
 * (with letters) then the tray lines'; the unit and tables are derived. */
struct laser_spec {
	int width, height;
	char cells[LK_LASER_MAX_CELLS];
	int nfixed, ntray;
	struct laser_kind fixed[LK_LASER_MAX_FIXED];
	struct laser_kind tray[LK_LASER_MAX_LINES];
	int tray_count[LK_LASER_MAX_LINES];
};
/* 0 and the level, or -1 with a message (invalid spec). */
int laser_build(const struct laser_spec *spec, struct lk_laser **out, struct lk_strbuf *err);
/* Make lines share counts: line i in group group[i] (0 .. ngroups-1),
 * each group holding count[g] pieces of one type.  The unit is recomputed
 * for the groups' counts.  -1 with err when the unit overflows. */
int laser_set_groups(struct lk_laser *lv, int ngroups, const int *group, const int *count,
		     struct lk_strbuf *err);
/* The spec a level was built from. */
void laser_spec_of(const struct lk_laser *lv, struct laser_spec *spec);

/* Reading text (laser_level.c), for laser_io.c: blank-separated words
 * (up to 6; n is 7 when there are more), whole numbers up to max, words
 * equal ignoring case, and the spec built line by line, each returning 0
 * or -1 with a message. */
struct laser_words {
	const char *w[6];
	size_t len[6];
	int n;
};

void laser_split_words(const char *s, struct laser_words *ws);
int laser_parse_int(const char *s, size_t len, int64_t max, int64_t *out);
bool laser_same_word(const char *a, size_t len, const char *b);
int laser_spec_add(struct laser_spec *spec, const char *text, bool fixed, struct lk_strbuf *err);
int laser_spec_row(struct laser_spec *spec, int y, const char *row, struct lk_strbuf *err);
/* Letters on the grid and fixed lines match: -1 with the grid row in *row
 * or the fixed line's index in *def (the other -1). */
int laser_spec_letters(const struct laser_spec *spec, struct lk_strbuf *err, int *row, int *def);

/* Refraction's JSON level files (laser_json.c): does the start of a file
 * hold one, and the file as records (game.h's import). */
bool laser_json_probe(const char *data, size_t len);
int laser_json_import(const char *path, const char *data, size_t len, struct lk_record **recs,
		      size_t *nrecs, struct lk_strbuf *err, size_t *line);

/* The game's members (laser_canvas.c, laser_concept.c). */
struct lk_canvas;
void laser_canvas_draw(const struct lk_level *level, const void *key, const char *placement,
		       struct lk_canvas *c);
struct lk_csp_options;
struct lk_concept_result;
int laser_csp_concept(const struct lk_level *level, const struct lk_expr *concept,
		      enum lk_quantifier q, const struct lk_csp_options *opt,
		      struct lk_concept_result *r, struct lk_strbuf *err);

extern const struct lk_game lk_game_laser;

#endif
