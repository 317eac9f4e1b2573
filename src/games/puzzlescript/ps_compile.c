/*
 * ps_compile.c - compile a PuzzleScript game: tokenize, build the legend,
 * the levels and the rules, then win conditions, sounds and prelude
 * flags, and decide which collision layers a state key must hold and
 * whether solvers may treat the game as deterministic.
 *
 * Errors are collected as the reference collects them.  Strict
 * compilation (ps_compile) fails on the first; lenient compilation
 * accepts a game with at most five, as the reference engine plays one.
 */
#include <stdlib.h>
#include <string.h>

#include "ps_compile.h"

#define PS_MAX_ERRORS 5

static const char *const event_names[PS_NEVENTS] = {
	"undo", "restart", "titlescreen", "startgame", "cancel", "endgame", "startlevel",
	"endlevel", "showmessage", "closemessage", "sfx0", "sfx1", "sfx2", "sfx3", "sfx4", "sfx5",
	"sfx6", "sfx7", "sfx8", "sfx9", "sfx10",
};

/* ---- win conditions ---- */

static void compile_wins(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	const struct ps_parse *p = c->p;
	g->wins = ps_alloc(c->keep, (p->nwins + 1) * sizeof *g->wins);
	for (size_t i = 0; i < p->nwins; i++) {
		const struct ps_pwin *w = &p->wins[i];
		if (w->n == 0)
			return;
		struct ps_wincond wc;
		memset(&wc, 0, sizeof wc);
		wc.quantifier = !strcmp(w->words[0], "no") ? -1 : !strcmp(w->words[0], "all") ? 1 : 0;
		wc.line = w->line;
		if (w->n <= 1) {
			ps_diag_add(c->diags, true, w->line, "win conditions is badly formatted - needs to look something like \"no fruit\", \"all target on crate\", \"some fruit\", \"some gold on chest\", \"no gold on chest\", or the like");
			continue;
		}
		const char *names[2] = {w->words[1], w->n == 4 ? w->words[3] : "\nall\n"};
		bool ok = true;
		for (int k = 0; k < 2; k++) {
			int sym = ps_sym_find(c->syms, names[k]);
			const ps_word *m = NULL;
			bool aggr = false;
			if (sym >= 0 && sym < c->nsyms && c->objmask[sym]) {
				m = c->objmask[sym];
			} else if (sym >= 0 && sym < c->nsyms && c->aggmask[sym]) {
				m = c->aggmask[sym];
				aggr = true;
			} else {
				ps_diag_add(c->diags, true, w->line, "unwelcome term \"%s\" found in win condition; I don't know what I'm supposed to do with this",
					    names[k]);
				ok = false;
				break;
			}
			ps_word *km = ps_keep_words(c, (size_t)g->ow);
			memcpy(km, m, (size_t)g->ow * sizeof *km);
			if (k == 0) {
				wc.mask1 = km;
				wc.aggr1 = aggr;
			} else {
				wc.mask2 = km;
				wc.aggr2 = aggr;
			}
		}
		if (ok)
			g->wins[g->nwins++] = wc;
	}
}

/* ---- sounds ---- */

static int seed_index(struct ps_ctx *c, const char *seed)
{
	struct ps_game *g = c->g;
	for (int i = 0; i < g->nseeds; i++)
		if (!strcmp(g->seeds[i], seed))
			return i;
	char **v = ps_memdup_pad(c->keep, g->seeds, (size_t)g->nseeds * sizeof *v, sizeof *v);
	v[g->nseeds] = ps_strdup(c->keep, seed);
	g->seeds = v;
	return g->nseeds++;
}

struct sfx_list {
	struct ps_sfx_mask *v;
	size_t n, alloc;
	int *layer;
};

static void sfx_push(struct ps_ctx *c, struct sfx_list *l, const ps_word *objects, const ps_word *dirs,
		     int seed, int layer)
{
	PS_GROW(c->arena, l->v, l->n + 1, l->alloc);
	size_t a2 = l->n;
	int *lay = ps_alloc(c->arena, (l->n + 1) * sizeof(int));
	if (l->n)
		memcpy(lay, l->layer, a2 * sizeof(int));
	lay[l->n] = layer;
	l->layer = lay;
	l->v[l->n].objects = objects;
	l->v[l->n].dirs = dirs;
	l->v[l->n].seed = seed;
	l->n++;
}

static int sound_dir_mask(const char *d)
{
	static const struct {
		const char *name;
		int mask;
	} t[] = {
		{"up", 1}, {"down", 2}, {"left", 4}, {"right", 8}, {"horizontal", 12}, {"vertical", 3},
		{"orthogonal", 15}, {"___action____", 16},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].name, d))
			return t[i].mask;
	return -1;
}

static void expand_targets(struct ps_ctx *c, int target, struct ps_list *out)
{
	ps_list_push(c, out, target);
	bool modified = true;
	for (int round = 0; modified && round < 64; round++) {
		modified = false;
		for (size_t k = 0; k < out->n; k++) {
			int t = out->v[k];
			if (c->syn[t] >= 0) {
				out->v[k] = c->syn[t];
				modified = true;
			} else if (c->props.val[t]) {
				const struct ps_list *pr = c->props.val[t];
				memmove(out->v + k, out->v + k + 1, (out->n - k - 1) * sizeof(int));
				out->n--;
				k--;
				for (size_t m = 0; m < pr->n; m++)
					ps_list_push(c, out, pr->v[m]);
				modified = true;
			}
		}
	}
}

int ps_compile_sounds(struct ps_ctx *c)
{
	struct ps_game *g = c->g;
	const struct ps_parse *p = c->p;
	int ow = g->ow, mw = g->mw;
	struct sfx_list move = {0}, cant = {0}, create = {0}, destroy = {0};
	for (int e = 0; e < PS_NEVENTS; e++)
		g->event_seed[e] = -1;
	for (size_t i = 0; i < p->nsounds; i++) {
		const struct ps_psound *s = &p->sounds[i];
		if (s->n == 0)
			continue;
		if (s->n == 1) {
			ps_diag_add(c->diags, false, s->line, "incorrect sound declaration");
			continue;
		}
		const char *seed = s->tok[s->n - 1];
		if (s->kind[s->n - 1] != PS_ST_SEED)
			ps_diag_add(c->diags, true, s->line, "expecting sfx data, instead found \"%s\"", seed);
		if (s->kind[0] == PS_ST_EVENT) {
			if (s->n > 3)
				ps_diag_add(c->diags, true, s->line, "too much stuff to define a sound event");
			for (int e = 0; e < PS_NEVENTS; e++)
				if (!strcmp(event_names[e], s->tok[0])) {
					if (g->event_seed[e] >= 0)
						ps_diag_add(c->diags, false, s->line, "%s already declared", s->tok[0]);
					g->event_seed[e] = seed_index(c, seed);
				}
			continue;
		}
		int target = ps_sym(c->syms, s->tok[0]);
		const char *verb = s->tok[1];
		int dmask = 0, ndirs = 0;
		for (size_t j = 2; j + 1 < s->n; j++) {
			if (s->kind[j] == PS_ST_DIRECTION) {
				dmask |= sound_dir_mask(s->tok[j]);
				ndirs++;
			} else {
				ps_diag_add(c->diags, true, s->line, "expected a direction here, but found instead \"%s\"", s->tok[j]);
			}
		}
		if (ndirs > 0 && strcmp(verb, "move") && strcmp(verb, "cantmove"))
			ps_diag_add(c->diags, true, s->line, "incorrect sound declaration - cannot have directions (up/down/etc.) attached to non-directional sound verbs (create is not directional, but move is directional)");
		if (!strcmp(verb, "action")) {
			verb = "move";
			dmask = 16;
			ndirs = 1;
		}
		if (ndirs == 0)
			dmask = 15;
		if (target < c->nsyms && c->aggs.val[target]) {
			ps_diag_add(c->diags, true, s->line, "cannot assign sound events to aggregate objects (declared with \"and\"), only to regular objects, or properties, things defined in terms of \"or\" (\"%s\")",
				    s->tok[0]);
			continue;
		}
		if (target >= c->nsyms || !c->objmask[target]) {
			ps_diag_add(c->diags, true, s->line, "object \"%s\" not found", s->tok[0]);
			continue;
		}
		int si = seed_index(c, seed);
		if (!strcmp(verb, "move") || !strcmp(verb, "cantmove")) {
			struct ps_list targets = {NULL, 0, 0};
			expand_targets(c, target, &targets);
			for (size_t k = 0; k < targets.n; k++) {
				int t = targets.v[k];
				if (!ps_ctx_is_object(c, t) || c->obj_id[t] < 0 || g->objects[c->obj_id[t]].layer < 0)
					continue;
				int layer = g->objects[c->obj_id[t]].layer;
				ps_word *om = ps_keep_words(c, (size_t)ow), *dm = ps_keep_words(c, (size_t)mw);
				ps_bit_set(om, c->obj_id[t]);
				ps_mov_or(dm, layer, (unsigned)dmask);
				sfx_push(c, !strcmp(verb, "move") ? &move : &cant, om, dm, si, layer);
			}
		}
		ps_word *tm = ps_keep_words(c, (size_t)ow);
		memcpy(tm, c->objmask[target], (size_t)ow * sizeof *tm);
		if (!strcmp(verb, "create"))
			sfx_push(c, &create, tm, NULL, si, -1);
		else if (!strcmp(verb, "destroy"))
			sfx_push(c, &destroy, tm, NULL, si, -1);
	}
	/* movement sounds grouped by layer, in declaration order */
	g->sfx_move = ps_alloc(c->keep, (move.n + 1) * sizeof *g->sfx_move);
	g->sfx_move_first = ps_alloc(c->keep, (size_t)(g->nlayers + 1) * sizeof(int));
	g->sfx_move_count = ps_alloc(c->keep, (size_t)(g->nlayers + 1) * sizeof(int));
	int at = 0;
	for (int l = 0; l < g->nlayers; l++) {
		g->sfx_move_first[l] = at;
		for (size_t k = 0; k < move.n; k++)
			if (move.layer[k] == l)
				g->sfx_move[at++] = move.v[k];
		g->sfx_move_count[l] = at - g->sfx_move_first[l];
	}
	g->nsfx_move = at;
	g->sfx_cantmove = ps_memdup_pad(c->keep, cant.v, cant.n * sizeof *cant.v, sizeof *cant.v);
	g->nsfx_cantmove = (int)cant.n;
	g->sfx_create = ps_memdup_pad(c->keep, create.v, create.n * sizeof *create.v, sizeof *create.v);
	g->nsfx_create = (int)create.n;
	g->sfx_destroy = ps_memdup_pad(c->keep, destroy.v, destroy.n * sizeof *destroy.v, sizeof *destroy.v);
	g->nsfx_destroy = (int)destroy.n;
	return 0;
}

/* ---- prelude ---- */

static void parse_dims(struct ps_ctx *c, const char *v, int line, int out[2])
{
	char *end;
	long a = strtol(v, &end, 10);
	if (*end != 'x') {
		ps_diag_add(c->diags, false, line, "dimensions must be of the form axb");
		return;
	}
	long b = strtol(end + 1, &end, 10);
	if (*end || a <= 0 || b <= 0) {
		ps_diag_add(c->diags, false, line, "couldn't understand the dimensions given to me (you gave \"%s\") - should be of the form axb", v);
		return;
	}
	out[0] = (int)a;
	out[1] = (int)b;
}

static void compile_flags(struct ps_ctx *c)
{
	struct ps_game_flags *f = &c->g->flags;
	const struct ps_parse *p = c->p;
	f->again_interval = 0.15;
	f->key_repeat_interval = 0.15;
	for (size_t i = 0; i < p->nmeta; i++) {
		const char *k = p->meta[i].key, *v = p->meta[i].value;
		if (!strcmp(k, "run_rules_on_level_start"))
			f->run_rules_on_level_start = true;
		else if (!strcmp(k, "require_player_movement"))
			f->require_player_movement = true;
		else if (!strcmp(k, "noaction"))
			f->noaction = true;
		else if (!strcmp(k, "noundo"))
			f->noundo = true;
		else if (!strcmp(k, "norestart"))
			f->norestart = true;
		else if (!strcmp(k, "norepeat_action"))
			f->norepeat_action = true;
		else if (!strcmp(k, "throttle_movement"))
			f->throttle_movement = true;
		else if (!strcmp(k, "realtime_interval"))
			f->realtime_interval = strtod(v, NULL);
		else if (!strcmp(k, "again_interval"))
			f->again_interval = strtod(v, NULL);
		else if (!strcmp(k, "key_repeat_interval"))
			f->key_repeat_interval = strtod(v, NULL);
		else if (!strcmp(k, "title"))
			f->title = ps_strdup(c->keep, v);
		else if (!strcmp(k, "author"))
			f->author = ps_strdup(c->keep, v);
		else if (!strcmp(k, "homepage"))
			f->homepage = ps_strdup(c->keep, v);
		else if (!strcmp(k, "flickscreen"))
			parse_dims(c, v, p->meta[i].line, f->flickscreen);
		else if (!strcmp(k, "zoomscreen"))
			parse_dims(c, v, p->meta[i].line, f->zoomscreen);
		else if (!strcmp(k, "color_palette"))
			f->color_palette = ps_strdup(c->keep, v);
		else if (!strcmp(k, "background_color"))
			f->background_color = ps_strdup(c->keep, v);
	}
}

/* ---- the driver ---- */

static void check_layered(struct ps_ctx *c)
{
	for (size_t i = 0; i < c->p->nobjects; i++) {
		const struct ps_pobject *o = &c->p->objects[i];
		if (o->defined && (c->obj_id[o->sym] < 0 || c->g->objects[c->obj_id[o->sym]].layer < 0))
			ps_diag_add(c->diags, true, o->line, "object \"%s\" has been defined, but not assigned to a layer",
				    ps_ctx_name(c, o->sym));
	}
}

static bool defined_anywhere(const struct ps_ctx *c, int sym)
{
	return ps_parse_declared(c->p, sym, NULL);
}

/* Parse the rule lines into c->rules and c->loops. */
static void parse_rules(struct ps_ctx *c)
{
	const struct ps_parse *p = c->p;
	struct ps_arule **rules = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < p->nrules; i++) {
		int bracket;
		struct ps_arule *r = ps_rule_parse(c, &p->rules[i], rules, n, &bracket);
		if (bracket) {
			PS_GROW(c->arena, c->loops, c->nloops + 1, c->loops_alloc);
			c->loops[c->nloops][0] = p->rules[i].line;
			c->loops[c->nloops][1] = bracket;
			c->nloops++;
			continue;
		}
		if (!r)
			continue;
		PS_GROW(c->arena, rules, n + 1, alloc);
		rules[n++] = r;
	}
	ps_rule_check_coincidences(c, rules, n);
	c->rules = rules;
	c->nrules = n;
}

static bool too_many(const struct ps_ctx *c)
{
	return c->lenient ? c->diags->nerrors > PS_MAX_ERRORS : c->diags->nerrors > 0;
}

struct ps_game *ps_compile_diags(const char *src, size_t len, const char *filename, bool lenient,
				 struct ps_diags *diags)
{
	struct ps_arena scratch;
	struct ps_symtab syms;
	struct ps_parse p;
	struct ps_ctx c;
	ps_arena_init(&scratch);
	ps_symtab_init(&syms, &scratch);
	ps_parse_init(&p, &scratch, &syms, diags);
	memset(&c, 0, sizeof c);
	c.arena = &scratch;
	c.keep = lk_xcalloc(1, sizeof *c.keep);
	ps_arena_init(c.keep);
	c.syms = &syms;
	c.diags = diags;
	c.p = &p;
	c.lenient = lenient;
	c.g = ps_alloc(c.keep, sizeof *c.g);
	c.g->keep = c.keep;
	c.g->filename = ps_strdup(c.keep, filename ? filename : "");

	ps_parse_source(&p, src, len);
	c.player_sym = ps_sym(&syms, "player");
	c.background_sym = ps_sym(&syms, "background");
	c.all_sym = ps_sym(&syms, "\nall\n");
	c.nsyms = syms.count;
	bool ok = !too_many(&c);
	if (ok) {
		if (!defined_anywhere(&c, c.player_sym))
			ps_diag_add(diags, true, 0, "error, didn't find any object called player, either in the objects section, or the legends section; there must be a player");
		if (!defined_anywhere(&c, c.background_sym))
			ps_diag_add(diags, true, 0, "error, didn't find any object called background, either in the objects section, or the legends section; there must be a background");
		if (p.nlayers == 0) {
			ps_diag_add(diags, true, 0, "no collision layers defined; all objects need to be in collision layers");
			ok = false;
		}
	}
	if (ok) {
		ps_compile_legend(&c);
		ps_compile_levels(&c);
		parse_rules(&c);
		ps_rules_expand(&c);
		ok = !c.invalid;
	}
	if (ok) {
		ps_compile_rule_masks(&c);
		compile_wins(&c);
		check_layered(&c);
		compile_flags(&c);
		ps_compile_sounds(&c);
		ps_compile_layout(&c);
		ps_compile_anchors(&c);
		if (c.g->nlevels == 0)
			ps_diag_add(diags, true, 0, "no levels found; add some levels!");
		ok = !too_many(&c);
	}
	ps_symtab_release(&syms);
	ps_arena_release(&scratch);
	if (!ok || (!lenient && diags->nerrors > 0)) {
		ps_arena_release(c.keep);
		free(c.keep);
		return NULL;
	}
	return c.g;
}

struct ps_game *ps_compile(const char *src, size_t len, const char *filename,
			   struct lk_strbuf *err, int *err_line)
{
	struct ps_diags d;
	ps_diags_init(&d);
	struct ps_game *g = ps_compile_diags(src, len, filename, false, &d);
	if (!g) {
		const struct ps_diag *first = NULL;
		for (size_t i = 0; i < d.n && !first; i++)
			if (d.v[i].is_error)
				first = &d.v[i];
		lk_strbuf_reset(err);
		lk_strbuf_addstr(err, first ? first->msg : "compilation failed");
		*err_line = first ? first->line : 0;
	}
	ps_diags_release(&d);
	return g;
}

void ps_game_free(struct ps_game *g)
{
	if (!g)
		return;
	struct ps_arena *keep = g->keep;
	ps_arena_release(keep);
	free(keep);
}

/* ---- accessors ---- */

const struct ps_game_flags *ps_game_flags(const struct ps_game *g)
{
	return &g->flags;
}

bool ps_game_deterministic(const struct ps_game *g, const char **reason)
{
	const char *why = NULL;
	for (int i = 0; i < g->ngroups && !why; i++)
		if (g->groups[i].random)
			why = "the game has random rules";
	for (int i = 0; i < g->npatterns && !why; i++) {
		if (g->patterns[i].has_rep && g->patterns[i].rep_random_obj)
			why = "the game creates random objects";
		else if (g->patterns[i].has_rep && g->patterns[i].rep_random_dir)
			why = "the game has randomdir movements";
	}
	if (!why && g->flags.realtime_interval > 0)
		why = "the game runs in real time (realtime_interval)";
	if (reason)
		*reason = why;
	return !why;
}

int ps_game_object_count(const struct ps_game *g)
{
	return g->nobjects;
}

const char *ps_game_object_name(const struct ps_game *g, int id)
{
	return id >= 0 && id < g->nobjects && g->objects[id].layer >= 0 ? g->objects[id].name : NULL;
}

int ps_game_object_layer(const struct ps_game *g, int id)
{
	return id >= 0 && id < g->nobjects ? g->objects[id].layer : -1;
}

int ps_game_layer_count(const struct ps_game *g)
{
	return g->nlayers;
}

int ps_game_object_color_count(const struct ps_game *g, int id)
{
	return id >= 0 && id < g->nobjects ? g->objects[id].ncolors : 0;
}

const char *ps_game_object_color(const struct ps_game *g, int id, int k)
{
	if (id < 0 || id >= g->nobjects || k < 0 || k >= g->objects[id].ncolors)
		return NULL;
	return g->objects[id].colors[k];
}

int ps_game_object_pixel(const struct ps_game *g, int id, int x, int y)
{
	if (id < 0 || id >= g->nobjects || x < 0 || x >= 5 || y < 0 || y >= 5)
		return -1;
	return g->objects[id].sprite[y][x];
}

int ps_game_rule_count(const struct ps_game *g)
{
	return g->nrules;
}

int ps_game_rule_line(const struct ps_game *g, int rule)
{
	return rule >= 0 && rule < g->nrules ? g->rules[rule].line : 0;
}
