/*
 * gen_inputs.c - what gen reads and says before a run (gen_run.h): the
 * level of --from, --freeze and --combine, the rules of --rules (a preset
 * of the generator's game or a file), and the help texts made from the
 * registry (the default minimums, the presets).
 */
#include "levelkit/gen_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "levelkit/actions.h"
#include "levelkit/registry.h"
#include "levelkit/transform.h"

/* The nth record with a grid in path (n from 1). */
void lk_gen_inputs_init(struct lk_gen_inputs *in)
{
	lk_record_init(&in->from_rec);
	lk_record_init(&in->freeze_rec);
	lk_record_init(&in->combine_rec);
	lk_strbuf_init(&in->rules_text);
	in->msg_line = 0;
}

void lk_gen_inputs_release(struct lk_gen_inputs *in)
{
	lk_record_release(&in->from_rec);
	lk_record_release(&in->freeze_rec);
	lk_record_release(&in->combine_rec);
	lk_strbuf_release(&in->rules_text);
}

int lk_gen_read_level(const char *path, unsigned long n, struct lk_record *rec, struct lk_strbuf *msg,
		      size_t *msg_line)
{
	struct lk_reader r;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	*msg_line = 0;
	unsigned long seen = 0;
	int got = -1;
	bool opened = lk_input_open(&r, path, &err) == 0;
	if (opened) {
		while ((got = lk_reader_next(&r, rec, &err, &line)) != 0) {
			if (got == 1 && lk_record_grid(rec, NULL) && ++seen == n)
				break;
			if (got < 0)
				break;
		}
	}
	if (got != 1) {
		if (!opened)
			lk_strbuf_addstr(msg, err.buf);   /* it names the file */
		else if (got < 0)
			lk_strbuf_addstr(msg, err.buf), *msg_line = line;
		else if (seen > 0)
			lk_strbuf_addf(msg, "%s: --level %lu: the file has %lu level%s", path, n, seen,
				       seen == 1 ? "" : "s");
		else
			lk_strbuf_addf(msg, "%s: no level in the file", path);
	}
	lk_reader_close(&r);
	lk_strbuf_release(&err);
	return got == 1 ? 0 : -1;
}

/* --from, --freeze and --rules into o (gen_run.h).  A
 * preset's text comes from the generator's game, for these options (a
 * PuzzleScript preset names the script's own objects). */
int lk_gen_inputs_load(struct lk_gen_inputs *in, const struct lk_generator *gen,
		       struct lk_gen_options *o, struct lk_strbuf *msg)
{
	if (in->from) {
		in->msg_path = in->from;
		if (lk_gen_read_level(in->from, in->level ? in->level : 1, &in->from_rec, msg,
				      &in->msg_line) < 0)
			return -1;
		o->from = &in->from_rec;
	}
	if (in->freeze) {
		in->msg_path = in->freeze;
		if (lk_gen_read_level(in->freeze, 1, &in->freeze_rec, msg, &in->msg_line) < 0)
			return -1;
		o->freeze = &in->freeze_rec;
	}
	if (in->combine || in->combine_below) {
		in->msg_path = in->combine ? in->combine : in->combine_below;
		if (lk_gen_read_level(in->combine ? in->combine : in->combine_below, 1, &in->combine_rec,
				      msg, &in->msg_line) < 0)
			return -1;
		o->combine = &in->combine_rec;
		o->combine_below = !in->combine;
	}
	if (in->rules) {
		const struct lk_transform_ops *ops = gen->transform;
		bool preset = lk_transform_has_preset(ops, in->rules);
		if (preset) {
			struct lk_strbuf err = LK_STRBUF_INIT;
			int rc = lk_transform_preset(ops, o, in->rules, &in->rules_text, &err);
			if (rc < 0)
				lk_strbuf_addf(msg, "--rules %s: %s", in->rules, err.buf);
			lk_strbuf_release(&err);
			if (rc < 0)
				return -2;
		} else if (lk_strbuf_read_file(&in->rules_text, in->rules) < 0) {
			struct lk_strbuf names = LK_STRBUF_INIT;
			for (size_t i = 0; ops && ops->presets && ops->presets[i]; i++)
				lk_strbuf_addf(&names, "%s%s", i ? ", " : "", ops->presets[i]);
			lk_strbuf_addf(msg, "%s: not a preset (%s) and cannot be read: %s", in->rules,
				       names.buf, strerror(errno));
			lk_strbuf_release(&names);
			return -1;
		}
		o->rules = in->rules_text.buf;
		if (!preset)
			o->rules_name = in->rules;
	}
	return 0;
}

/* A generator's default minimum: its moves' (field NULL) or its field's. */
static double default_min(const struct lk_generator *g, const char *field)
{
	if (!field)
		return g->default_min_moves;
	const struct lk_gen_field *f = lk_generator_field(g, field);
	return f && !f->rating ? f->default_min : 0;
}

/* "at least n moves (default 4 for fruit and skiddy, 8 for puzzlescript)":
 * the generators with a default, grouped by value, a game named alone
 * when all its generators have that default. */
void lk_gen_help_min(char *out, size_t size, const char *what, const char *field)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	double done[16];
	size_t ndone = 0;
	const struct lk_generator *g, *h;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL && ndone < 16;) {
		double v = default_min(g, field);
		bool seen = !(v > 0);
		for (size_t i = 0; i < ndone && !seen; i++)
			seen = done[i] == v;
		if (seen)
			continue;
		done[ndone++] = v;
		struct lk_strbuf names = LK_STRBUF_INIT;
		size_t n = 0, k = 0;
		for (size_t jt = 0; (h = lk_generator_next(&jt)) != NULL;)
			n += default_min(h, field) == v;
		for (size_t jt = 0; (h = lk_generator_next(&jt)) != NULL;) {
			if (default_min(h, field) != v)
				continue;
			/* "fruit" when every generator of fruit has this default,
			 * else "sokoban backward" */
			bool whole = true;
			const struct lk_game *game = lk_game_find(h->game);
			for (size_t i = 0; game && game->generators && game->generators[i]; i++)
				whole &= default_min(game->generators[i], field) == v;
			lk_strbuf_addf(&names, "%s%s", k == 0 ? "" : k + 1 == n ? " and " : ", ", h->game);
			if (!whole)
				lk_strbuf_addf(&names, " %s", h->name);
			k++;
		}
		lk_strbuf_addf(&text, "%s%g for %s", text.len ? ", " : "", v, names.buf);
		lk_strbuf_release(&names);
	}
	if (text.len)
		snprintf(out, size, "at least n %s (default %s)", what, text.buf);
	else
		snprintf(out, size, "at least n %s", what);
	lk_strbuf_release(&text);
}

/* "a rules file, or a preset of the game's (sokoban: walls, ..., mix
 * (default) or push; puzzlescript: ...)": each game's list in the form the
 * completion reads (src/cli/levelkit.bash) */
void lk_gen_help_rules(char *out, size_t size)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	const struct lk_generator *g;
	lk_strbuf_addstr(&text, "a rules file, or a preset of the game's (");
	bool first = true;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL;) {
		const struct lk_transform_ops *ops = g->transform;
		if (!ops || !ops->presets)
			continue;
		lk_strbuf_addf(&text, "%s%s: ", first ? "" : "; ", g->game);
		for (size_t i = 0; ops->presets[i]; i++)
			lk_strbuf_addf(&text, "%s%s%s", i == 0 ? "" : ops->presets[i + 1] ? ", " : " or ",
				       ops->presets[i],
				       ops->default_preset && strcmp(ops->presets[i], ops->default_preset) == 0
				       ? " (default)" : "");
		first = false;
	}
	lk_strbuf_addch(&text, ')');
	snprintf(out, size, "%s", text.buf);
	lk_strbuf_release(&text);
}
