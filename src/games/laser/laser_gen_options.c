/*
 * laser_gen_options.c - the laser generator's options: defaults, the
 * presets for the paper's concepts, and the palette and powers as text.
 */
#include <stdlib.h>
#include <string.h>

#include "laser_gen.h"

void lk_laser_gen_options_init(struct lk_laser_gen_options *o)
{
	memset(o, 0, sizeof *o);
	o->width = o->height = 10;
	o->sources = 1;
	o->npowers = 1;
	o->power_num[0] = o->power_den[0] = 1;
	o->pieces[LK_LASER_BND] = 4;
	o->pieces[LK_LASER_SP2] = 1;
	o->pieces[LK_LASER_CMB2] = 1;
	o->min_targets = 1;
	o->max_targets = 3;
	o->target_sides = 1;
	o->min_pieces = 2;
	o->max_blockers = -1;
	o->design_nodes = 300;
	o->design_restarts = 50;
	o->redesign_restarts = 10;
	o->check_nodes = 1000000;
	o->max_rounds = 300;
	o->max_boards = 200;
}

int lk_laser_gen_preset(struct lk_laser_gen_options *o, const char *name)
{
	/* all: the guarantee covers every solution, not only tidy ones (the
	 * monolithic presets as the paper states them: every given piece in
	 * one network, so the tray holds no distractor) */
	static const struct {
		const char *name;
		int sources, targets, sp2, cmb2, bnd, max_blockers, distractors;
		bool all;
	} presets[] = {
		{ "split-combine", 1, 3, 2, 2, 6, -1, 2, false },
		{ "split-combine-2", 1, 3, 2, 2, 6, -1, 2, false },
		{ "six-benders", 1, 2, 0, 0, 8, -1, 2, false },
		{ "monolithic", 3, 3, 2, 2, 6, -1, 0, true },
		{ "monolithic-open", 3, 3, 2, 2, 6, 0, 0, true },
		{ "monolithic-tidy", 3, 3, 2, 2, 6, -1, 2, false },
		{ "monolithic-open-tidy", 3, 3, 2, 2, 6, 0, 2, false },
	};
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
		if (strcmp(name, presets[i].name) != 0)
			continue;
		memset(o->pieces, 0, sizeof o->pieces);
		o->pieces[LK_LASER_SP2] = presets[i].sp2;
		o->pieces[LK_LASER_CMB2] = presets[i].cmb2;
		o->pieces[LK_LASER_BND] = presets[i].bnd;
		o->sources = presets[i].sources;
		o->max_targets = presets[i].targets;
		o->min_targets = presets[i].sources == 3 ? 3 : 1;
		o->max_blockers = presets[i].max_blockers;
		o->distractors = presets[i].distractors;
		o->all = presets[i].all;
		/* one network over every given piece: grown from the sources
		 * at the paper's scale (docs/games/laser.md) */
		o->grow = presets[i].all ? -1 : 0;
		o->require = presets[i].name;   /* the concept preset of the same name */
		return 0;
	}
	return -1;
}

int lk_laser_gen_palette(struct lk_laser_gen_options *o, const char *text, struct lk_strbuf *err)
{
	int pieces[LK_LASER_NTYPES] = { 0 };
	const char *s = text;
	for (;;) {
		while (*s == ' ' || *s == ',' || *s == '\t')
			s++;
		if (!*s)
			break;
		char *end;
		long n = strtol(s, &end, 10);
		if (end == s || n < 0 || n > 64) {
			lk_strbuf_addf(err, "pieces: expected COUNT TYPE at '%.12s' (e.g. 2 SP2, 4 BND)", s);
			return -1;
		}
		s = end;
		while (*s == ' ')
			s++;
		size_t len = strcspn(s, " ,\t");
		int t = laser_type_of(s, len);
		if (t < LK_LASER_BND || t > LK_LASER_CMB3) {
			lk_strbuf_addf(err, "pieces: '%.*s' is not BND, SP2, SP3, CMB2 or CMB3", (int)len, s);
			return -1;
		}
		pieces[t] += (int)n;
		s += len;
	}
	memcpy(o->pieces, pieces, sizeof pieces);
	return 0;
}

int lk_laser_gen_powers(struct lk_laser_gen_options *o, const char *text, struct lk_strbuf *err)
{
	int n = 0;
	const char *s = text;
	for (;;) {
		while (*s == ' ' || *s == ',')
			s++;
		if (!*s)
			break;
		char *end;
		long p = strtol(s, &end, 10), q = 1;
		if (end != s && *end == '/')
			q = strtol(end + 1, &end, 10);
		if (end == s || p < 1 || q < 1 || p > 1000 || q > 1000 || n == 8) {
			lk_strbuf_addf(err, "powers: expected up to 8 fractions P or P/Q at '%.12s'", s);
			return -1;
		}
		o->power_num[n] = p;
		o->power_den[n++] = q;
		s = end;
	}
	if (!n) {
		lk_strbuf_addstr(err, "powers: none given");
		return -1;
	}
	o->npowers = n;
	return 0;
}


int lk_laser_gen_symmetry(struct lk_laser_gen_options *o, const char *text, struct lk_strbuf *err)
{
	static const char *const names[] = { "none", "lr", "tb", "both", "rot180", "rot90" };
	for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
		if (!strcmp(text, names[i])) {
			o->symmetry = (enum lk_laser_symmetry)i;
			return 0;
		}
	}
	lk_strbuf_addf(err, "symmetry %s: expected none, lr, tb, both, rot180 or rot90", text);
	return -1;
}

int lk_laser_orbit(enum lk_laser_symmetry sym, int w, int h, int cell, int orbit[4])
{
	int x = cell % w, y = cell / w, n = 0, c[4];
	c[n++] = cell;
	switch (sym) {
	case LK_LASER_SYM_LR: c[n++] = y * w + (w - 1 - x); break;
	case LK_LASER_SYM_TB: c[n++] = (h - 1 - y) * w + x; break;
	case LK_LASER_SYM_BOTH:
		c[n++] = y * w + (w - 1 - x);
		c[n++] = (h - 1 - y) * w + x;
		c[n++] = (h - 1 - y) * w + (w - 1 - x);
		break;
	case LK_LASER_SYM_ROT180: c[n++] = (h - 1 - y) * w + (w - 1 - x); break;
	case LK_LASER_SYM_ROT90:   /* square: (x, y) -> (w-1-y, x) */
		c[n++] = x * w + (w - 1 - y);
		c[n++] = (h - 1 - y) * w + (w - 1 - x);
		c[n++] = (w - 1 - x) * w + y;
		break;
	default: break;
	}
	/* distinct cells only (a cell on an axis is its own mirror) */
	int m = 0;
	for (int i = 0; i < n; i++) {
		int j = 0;
		while (j < m && orbit[j] != c[i])
			j++;
		if (j == m)
			orbit[m++] = c[i];
	}
	return m;
}
