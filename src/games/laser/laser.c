/*
 * laser.c - the laser game as a levelkit game (game.h): validation
 * and construction from a record, SPEC.md's .lvl files imported as
 * records, and the constraint-game members of csp.h, so that the actions
 * solve, count, verify and rate it the way they do Combination (rating:
 * search nodes over random orders) and answer concept queries.
 *
 * The csp interface counts *all* solutions (idle pieces allowed), or with
 * the game's flag --tidy (lk_csp_flag "tidy") only tidy ones.
 */
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"
#include "levelkit/csp.h"
#include "levelkit/generate.h"

static const char *const laser_metrics[] = { "nodes", NULL };

static int laser_validate(const struct lk_game *game, const void *def,
			  const struct lk_record *rec, const struct lk_level_options *opt,
			  struct lk_strbuf *err, size_t *line)
{
	(void)game;
	(void)def;
	(void)opt;
	return lk_laser_validate(rec, err, line);
}

static struct lk_level *laser_new_level(const struct lk_game *game, const void *def,
					const struct lk_record *rec,
					const struct lk_level_options *opt)
{
	(void)game;
	(void)def;
	(void)opt;
	struct lk_laser *lv = lk_laser_new(rec);
	return lv ? &lv->base : NULL;
}

static void laser_free_level(struct lk_level *level)
{
	lk_laser_free((struct lk_laser *)level);
}

struct two {
	struct lk_laser_placement second;
	const struct lk_laser *lv;
	int calls;
	bool have;
};

/* Keep a second solution (the first is in the result): the next group's,
 * or when the first group stands for more than one, its placement with one
 * spare piece more on a free cell. */
static bool keep_second(void *ctx, const struct lk_laser_solution *s)
{
	struct two *t = ctx;
	if (t->have)
		return true;
	t->second = *s->placement;
	if (++t->calls == 2) {
		t->have = true;
	} else if (s->multiplicity > 1 && s->nfree > 0) {
		int l = 0;
		while (l < t->lv->ntray && !s->spare[l])
			l++;
		if (l < t->lv->ntray) {
			int c = s->free_cells[0];
			t->second.p[t->second.n++] = (struct lk_laser_place){ l + 1, c % t->lv->width,
									      c / t->lv->width };
			t->have = true;
		}
	}
	return true;
}

static void laser_csp_solve(const struct lk_level *level, const struct lk_csp_options *opt,
			    struct lk_csp_result *r)
{
	const struct lk_laser *lv = (const struct lk_laser *)level;
	struct lk_laser_search_options o;
	struct lk_laser_result *res = lk_xmalloc(sizeof *res);
	struct two *t = lk_xcalloc(1, sizeof *t);
	t->lv = lv;
	lk_laser_search_options_init(&o);
	o.tidy = lk_csp_flag(opt, "tidy");
	o.limit = opt->count_limit ? opt->count_limit : 1;
	o.seed = opt->seed;
	o.fixed_order = !opt->dynamic;
	o.weak = !opt->sac && !opt->gcc;   /* the look-ahead plays SAC's part */
	o.bounds = opt->bounds;
	lk_laser_search(lv, &o, keep_second, t, res);
	lk_strbuf_reset(&r->solution);
	lk_strbuf_reset(&r->second);
	r->status = res->status;
	r->limit = res->limit;
	r->solutions = res->solutions < o.limit ? res->solutions : o.limit;
	r->exhausted = res->exhausted;
	r->nodes = res->nodes;
	r->nodes_to_first = res->nodes_to_first;
	r->seconds = res->seconds;
	if (res->solutions)
		lk_laser_placement_format(&res->first, &r->solution);
	if (t->have && r->solutions >= 2)
		lk_laser_placement_format(&t->second, &r->second);
	free(t);
	free(res);
}

/* The evaluation's lines joined by "; " (a field is one line). */
static void one_line(const struct lk_strbuf *msg, struct lk_strbuf *out)
{
	for (size_t i = 0; i < msg->len; i++) {
		if (msg->buf[i] != '\n')
			lk_strbuf_addch(out, msg->buf[i]);
		else if (i + 1 < msg->len)
			lk_strbuf_addstr(out, "; ");
	}
}

static int laser_csp_verify(const struct lk_level *level, const char *solution, bool *valid,
			    struct lk_strbuf *why)
{
	const struct lk_laser *lv = (const struct lk_laser *)level;
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_laser_eval ev;
	*valid = false;
	if (lk_laser_placement_parse(lv, solution, pl, why) < 0) {
		free(pl);
		return -1;
	}
	struct lk_strbuf msg = LK_STRBUF_INIT;
	lk_laser_evaluate(lv, pl, &ev, &msg);
	*valid = ev.solved;
	if (!ev.solved)
		one_line(&msg, why);
	lk_strbuf_release(&msg);
	free(pl);
	return 0;
}

/* solve --verify's note on a valid placement: what each target receives,
 * and whether it is tidy. */
static void laser_csp_verify_note(const struct lk_level *level, const char *solution,
				  struct lk_strbuf *note)
{
	const struct lk_laser *lv = (const struct lk_laser *)level;
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_strbuf err = LK_STRBUF_INIT, msg = LK_STRBUF_INIT;
	if (lk_laser_placement_parse(lv, solution, pl, &err) == 0) {
		struct lk_laser_eval ev;
		lk_laser_evaluate(lv, pl, &ev, &msg);
		one_line(&msg, note);
		lk_strbuf_addstr(note, ev.tidy ? "; tidy" : "; not tidy");
	}
	lk_strbuf_release(&err);
	lk_strbuf_release(&msg);
	free(pl);
}

/* The text drawing of a solution (lk_laser_draw): nothing when it does
 * not read. */
static void laser_describe(const struct lk_level *level, const char *solution,
			   struct lk_strbuf *out)
{
	const struct lk_laser *lv = (const struct lk_laser *)level;
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_laser_placement_parse(lv, solution, pl, &err) == 0)
		lk_laser_draw(lv, pl, out);
	lk_strbuf_release(&err);
	free(pl);
}

static void laser_write_state(const struct lk_level *level, const void *key, struct lk_strbuf *out)
{
	(void)key;
	lk_laser_draw((const struct lk_laser *)level, NULL, out);
}

/* ------------------------------------------------------ .lvl files */

/* A .lvl file starts, after comments and blank lines, with "size W H". */
static bool lvl_probe(const char *data, size_t len)
{
	size_t i = 0;
	while (i < len) {
		while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
			i++;
		if (i < len && data[i] == ';') {
			while (i < len && data[i] != '\n')
				i++;
			continue;
		}
		break;
	}
	return len - i > 5 && strncmp(data + i, "size", 4) == 0 &&
	       (data[i + 4] == ' ' || data[i + 4] == '\t');
}

/* The game's own files: SPEC.md's .lvl, and Refraction's JSON levels
 * (laser_json.c). */
static bool laser_import_probe(const char *data, size_t len)
{
	return lvl_probe(data, len) || laser_json_probe(data, len);
}

/* A .lvl file as one record, titled by its name without ".lvl"; a JSON
 * file as a record per level. */
static int laser_import(const char *path, const char *data, size_t len, struct lk_record **recs,
			size_t *nrecs, struct lk_strbuf *err, size_t *line)
{
	if (!lvl_probe(data, len))
		return laser_json_import(path, data, len, recs, nrecs, err, line);
	char *text = lk_xstrndup(data, len);
	struct lk_laser *lv = lk_laser_read_lvl(text, err, line);
	free(text);
	*recs = NULL;
	*nrecs = 0;
	if (!lv)
		return -1;
	struct lk_record *rec = lk_xmalloc(sizeof *rec);
	lk_record_init(rec);
	const char *base = path ? strrchr(path, '/') : NULL;
	base = base ? base + 1 : path;
	if (base && *base && strcmp(base, "-") != 0) {
		size_t n = strlen(base);
		if (n > 4 && strcmp(base + n - 4, ".lvl") == 0)
			n -= 4;
		struct lk_strbuf title = LK_STRBUF_INIT;
		lk_strbuf_addstr(&title, "title: ");
		lk_strbuf_add(&title, base, n);
		lk_record_add_line(rec, title.buf, 1);
		lk_strbuf_release(&title);
	}
	lk_laser_to_record(lv, rec);
	for (size_t i = 0; i < rec->nlines; i++)
		if (!rec->lines[i].lineno)
			rec->lines[i].lineno = 1;
	rec->first_lineno = 1;
	lk_laser_free(lv);
	*recs = rec;
	*nrecs = 1;
	return 0;
}

static const struct lk_csp_flag laser_flags[] = {
	{ "tidy", "count, solve and ask concepts over tidy solutions only (every placed piece fires)" },
	{ NULL, NULL },
};

static const struct lk_csp_ops laser_csp = {
	.solve = laser_csp_solve,
	.verify = laser_csp_verify,
	.verify_note = laser_csp_verify_note,
	.concept = laser_csp_concept,
	.flags = laser_flags,
};

extern const struct lk_generator lk_gen_laser;
static const struct lk_generator *const laser_generators[] = {
	&lk_gen_laser,
	NULL,
};

/* The rating's counts (rating.h): the empty cells, the pieces to place. */
static void laser_rating_counts(const struct lk_level *level, unsigned *cells, unsigned *objects)
{
	const struct lk_laser *lv = (const struct lk_laser *)level;
	unsigned empty = 0;
	for (int c = 0; c < lv->ncells; c++)
		empty += lv->cells[c] == '.';
	*cells = empty;
	*objects = lv->tray_total > 0 ? (unsigned)lv->tray_total : 0;
}

const struct lk_game lk_game_laser = {
	.name = "laser",
	.summary = "laser: place tray pieces so that beams from the sources give every target its power",
	.metrics = laser_metrics,
	.validate = laser_validate,
	.new_level = laser_new_level,
	.free_level = laser_free_level,
	.write_state = laser_write_state,
	.symmetries = LK_SYMMETRIES_NONE,   /* ports have absolute directions */
	.import_probe = laser_import_probe,
	.import = laser_import,
	.csp = &laser_csp,
	.rating_counts = laser_rating_counts,
	.generators = laser_generators,
	.draw = laser_canvas_draw,
	.describe = laser_describe,
};
