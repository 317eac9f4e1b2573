/*
 * common.c - the options solve, rate and gen share (common.h): their help
 * texts made from the registry (the games' techniques, constraint flags,
 * metrics and heuristics), the checks of their values, and their
 * translation into the actions' options (struct lk_act_options, the
 * bounds), plus -f/-o/--color resolved into a format or a picture.  What
 * the options then drive is the library's (pipeline.h, actions.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "common.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "levelkit/registry.h"

_Noreturn void lk_cli_unknown_format(const char *name)
{
	struct lk_strbuf names = LK_STRBUF_INIT;
	lk_view_all_format_names(&names, " or ");
	lk_usage_error("unknown format '%s' (use %s)", name, names.buf);
}

void lk_cli_choose_format(const char *format, const char *output, const char *color,
			  enum lk_format *fmt, enum lk_view_format *view)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_view_choose(format, output, color, isatty(1), view, &err) < 0)
		lk_usage_error("%s", err.buf);
	if (format && *view == LK_VIEW_NONE && lk_format_parse(format, fmt) < 0)
		lk_cli_unknown_format(format);
	lk_strbuf_release(&err);
}

void lk_cli_check_title(const char *title, enum lk_view_format view)
{
	if (title && view != LK_VIEW_HTML && view != LK_VIEW_SVG)
		lk_usage_error("--title is the title of a page or a sheet: give -f html or svg (or -o "
			       "FILE.html, FILE.svg)");
}

struct game_pred {
	bool (*holds)(const struct lk_game *);
};

static bool game_pred_holds(const struct lk_game *g, const void *ctx)
{
	return ((const struct game_pred *)ctx)->holds(g);
}

void lk_cli_games_where(struct lk_strbuf *out, bool (*pred)(const struct lk_game *))
{
	struct game_pred p = { pred };
	lk_games_named(out, game_pred_holds, &p);
}

void lk_cli_csp_flags_init(struct lk_cli_csp_flags *f)
{
	memset(f, 0, sizeof *f);
	for (size_t i = 0; lk_games[i]; i++) {
		const struct lk_csp_ops *csp = lk_games[i]->csp;
		for (const struct lk_csp_flag *g = csp ? csp->flags : NULL; g && g->name; g++) {
			size_t k = 0;
			while (k < f->n && strcmp(f->opts[k].long_name, g->name) != 0)
				k++;
			if (k == f->n) {
				if (f->n == LK_CLI_MAX_CSP_FLAGS)
					continue;
				snprintf(f->help[k], sizeof f->help[k], "%s (%s", g->help, lk_games[i]->name);
				f->opts[k] = (struct lk_option){ LK_OPT_FLAG, 0, g->name, &f->on[k], NULL,
								 f->help[k], NULL };
				f->n++;
			} else {
				size_t len = strlen(f->help[k]);
				snprintf(f->help[k] + len, sizeof f->help[k] - len, ", %s", lk_games[i]->name);
			}
		}
	}
	for (size_t k = 0; k < f->n; k++) {
		size_t len = strlen(f->help[k]);
		snprintf(f->help[k] + len, sizeof f->help[k] - len, ")");
	}
	f->opts[f->n] = (struct lk_option)LK_OPT_END_();
}

void lk_cli_csp_flags_finish(struct lk_cli_csp_flags *f, struct lk_csp_options *o)
{
	size_t n = 0;
	for (size_t k = 0; k < f->n; k++)
		if (f->on[k])
			f->given[n++] = f->opts[k].long_name;
	f->given[n] = NULL;
	o->flags = f->given;
}

#define ALGO_HELP(last) \
	"bfs, ucs, " last "\n(any: a game's own search for any solution, for hard levels; auto: A*,\n" \
	"and BFS beside it where the heuristic is no proven bound)"

void lk_cli_common_default_auto(struct lk_cli_common *c)
{
	snprintf(c->algo_help, sizeof c->algo_help, "%s", ALGO_HELP("astar, greedy, any or auto (default)"));
}

/* --without's and --with's help: "turn these techniques off (sokoban:
 * dead-squares, freeze, ...)" from the registry; --with lists only the
 * techniques that are off by default (LK_TECH_OFF). */
static void techniques_help(char *out, size_t size, bool off_by_default)
{
	struct lk_strbuf b = LK_STRBUF_INIT;
	for (size_t i = 0; lk_games[i]; i++) {
		const struct lk_technique *t = lk_games[i]->techniques;
		size_t listed = 0;
		for (size_t j = 0; t && t[j].name; j++) {
			if (off_by_default && !(t[j].flags & LK_TECH_OFF))
				continue;
			if (!listed++)
				lk_strbuf_addf(&b, "%s%s: ", b.len ? "; " : "", lk_games[i]->name);
			else
				lk_strbuf_addf(&b, ", ");
			lk_strbuf_addf(&b, "%s", t[j].name);
		}
	}
	int need = snprintf(out, size, off_by_default ? "turn these techniques on, off by default (%s)"
						      : "turn these techniques off (%s)",
			    b.buf ? b.buf : "none");
	lk_strbuf_release(&b);
	/* A cut list would hide techniques from --help (it once ended at
	 * "unparked-turn", without the rest): a registry that outgrows the
	 * buffer is a programming error, found by the help test at once. */
	if (need < 0 || (size_t)need >= size) {
		fprintf(stderr, "levelkit: the techniques' help needs %d bytes, has %zu\n", need, size);
		abort();
	}
}

/* Split a list of techniques (--without, --with) at its commas and check
 * every name against the games' techniques (for --with, those off by
 * default).  The names live as long as the process (held in `held` too,
 * so that they are still reachable at exit). */
struct technique_list {
	char *copy;
	const char **names;
};
static struct technique_list without_held, with_held;

static const char **techniques_named(const char *list, bool off_by_default, const char *help,
				     struct technique_list *held)
{
	size_t n = 1;
	for (const char *p = list; *p; p++)
		n += *p == ',';
	held->copy = lk_xstrdup(list);
	held->names = lk_xcalloc(n + 1, sizeof *held->names);
	n = 0;
	for (char *tok = held->copy, *next; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (!*tok)
			continue;
		bool known = false;
		for (size_t i = 0; lk_games[i] && !known; i++)
			for (const struct lk_technique *t = lk_games[i]->techniques; t && t->name; t++)
				known |= strcmp(t->name, tok) == 0 &&
					 (!off_by_default || (t->flags & LK_TECH_OFF));
		if (!known)
			lk_usage_error("%s technique '%s' (%s)",
				       off_by_default ? "--with: no off-by-default" : "unknown", tok, help);
		held->names[n++] = tok;
	}
	return held->names;
}

void lk_cli_common_init(struct lk_cli_common *c, double default_timeout, unsigned long default_jobs,
			uint64_t default_states)
{
	memset(c, 0, sizeof *c);
	lk_act_options_init(&c->act);
	c->bounds.max_seconds = default_timeout;
	c->jobs = default_jobs;
	if (default_states)
		snprintf(c->states_help, sizeof c->states_help, "states stored, every one met "
			 "(default %llu); the states field counts fewer: those expanded",
			 (unsigned long long)default_states);
	else
		snprintf(c->states_help, sizeof c->states_help, "states stored, every one met "
			 "(default: none); the states field counts fewer: those expanded");
	snprintf(c->timeout_help, sizeof c->timeout_help, "time per search (default %g s)",
		 default_timeout);
	snprintf(c->algo_help, sizeof c->algo_help, "%s", ALGO_HELP("astar (default), greedy, any or auto"));
	if (default_jobs)
		snprintf(c->jobs_help, sizeof c->jobs_help, "levels in parallel (default %lu; 0: every core)",
			 default_jobs);
	else
		snprintf(c->jobs_help, sizeof c->jobs_help, "levels in parallel (default 0: every core)");
	c->static_order_help = "squares in reading order, as the paper did (default: fewest "
			       "values first)";
	struct lk_strbuf games = LK_STRBUF_INIT;
	lk_games_named(&games, lk_game_is_constraint, NULL);
	snprintf(c->csp_heading, sizeof c->csp_heading, "Constraint games (%s)", games.buf);
	lk_strbuf_release(&games);
	lk_cli_csp_flags_init(&c->csp_flags);
	techniques_help(c->without_help, sizeof c->without_help, false);
	techniques_help(c->with_help, sizeof c->with_help, true);
}

/* The constraint games' options from the shared ones. */
static void csp_options(const struct lk_cli_common *c, struct lk_csp_options *o)
{
	lk_csp_options_init(o);
	if (c->count_limit)
		o->count_limit = c->count_limit;
	o->sac = !c->no_sac;
	o->gcc = !c->no_gcc;
	o->symmetry = !c->no_symmetry;
	o->dynamic = !c->static_order;
	o->bounds = c->bounds;
}

/* "sokoban: pushes or moves; fruit: moves" from the registry: the names
 * in the list at `member` of every game that has one. */
static void known_names(struct lk_strbuf *out, size_t member)
{
	for (size_t i = 0; lk_games[i]; i++) {
		const char *const *list =
			*(const char *const *const *)((const char *)lk_games[i] + member);
		if (!list || !list[0])
			continue;
		lk_strbuf_addf(out, "%s%s: ", out->len ? "; " : "", lk_games[i]->name);
		for (size_t j = 0; list[j]; j++)
			lk_strbuf_addf(out, "%s%s", j == 0 ? "" : list[j + 1] ? ", " : " or ", list[j]);
	}
}

/* --measure: "levelkit" changes nothing; "thesis" is the thesis's
 * configuration (game.h lk_level_options.thesis), searched forwards, and
 * an option that contradicts it is a usage error rather than a measure
 * that is neither. */
static void measure(struct lk_cli_common *c)
{
	if (!c->measure || strcmp(c->measure, "levelkit") == 0)
		return;
	if (strcmp(c->measure, "thesis") != 0)
		lk_usage_error("unknown measure '%s' (use levelkit or thesis)", c->measure);
	if (c->metric && strcmp(c->metric, "moves") != 0)
		lk_usage_error("--measure thesis counts moves: --metric %s contradicts it", c->metric);
	if (c->heuristic && strcmp(c->heuristic, "thesis") != 0)
		lk_usage_error("--measure thesis uses the thesis's heuristic: --heuristic %s "
			       "contradicts it", c->heuristic);
	if (c->direction && c->act.search.direction != LK_FORWARD)
		lk_usage_error("--measure thesis searches forward: --direction %s contradicts it",
			       c->direction);
	c->act.search.direction = LK_FORWARD;
	c->act.level.thesis = true;
}

void lk_cli_common_finish(struct lk_cli_common *c, struct lk_pipeline *p)
{
	if (c->algo && lk_algo_parse(c->algo, &c->act.search.algo) < 0)
		lk_usage_error("unknown algorithm '%s' (use bfs, ucs, astar, greedy, any or auto)", c->algo);
	c->act.search.direction = LK_BOTH;
	if (c->direction && lk_direction_parse(c->direction, &c->act.search.direction) < 0)
		lk_usage_error("unknown direction '%s' (use forward, backward or both)", c->direction);
	measure(c);
	lk_cli_choose_format(c->format, c->output, c->color, &p->format, &p->view);
	lk_cli_check_title(c->title, p->view);
	p->title = c->title;
	if (c->jobs == 0)
		c->jobs = lk_cpu_count();
	if (c->jobs > 1024)
		lk_usage_error("--jobs %lu is too many", c->jobs);
	lk_bounds_finish(&c->bounds, c->jobs, &lk_interrupted);
	c->act.search.bounds = c->bounds;
	/* A metric or heuristic no game knows is a usage error, not a fault
	 * of every record. */
	bool metric_known = !c->metric, heuristic_known = !c->heuristic;
	for (size_t i = 0; lk_games[i]; i++) {
		metric_known |= c->metric && lk_name_in(c->metric, lk_games[i]->metrics);
		heuristic_known |= c->heuristic && lk_name_in(c->heuristic, lk_games[i]->heuristics);
	}
	if (!metric_known) {
		struct lk_strbuf known = LK_STRBUF_INIT;
		known_names(&known, offsetof(struct lk_game, metrics));
		lk_usage_error("unknown metric '%s' (%s)", c->metric, known.buf);
	}
	if (!heuristic_known) {
		struct lk_strbuf known = LK_STRBUF_INIT;
		known_names(&known, offsetof(struct lk_game, heuristics));
		lk_usage_error("unknown heuristic '%s' (%s)", c->heuristic, known.buf);
	}
	if (lk_option_given("count-limit") && c->count_limit == 0)
		lk_usage_error("--count-limit 0: solutions are counted up to n, at least 1 (default 2)");
	c->act.level.metric = c->metric;
	c->act.level.heuristic = c->heuristic;
	c->act.level.plain = c->plain;
	if (c->without)
		c->act.level.off = techniques_named(c->without, false, c->without_help, &without_held);
	if (c->with)
		c->act.level.on = techniques_named(c->with, true, c->with_help, &with_held);
	c->act.stats = c->stats;
	c->act.no_fallback = c->no_fallback;
	c->act.search.no_meeting = c->no_meeting;
	csp_options(c, &c->act.csp);
	lk_cli_csp_flags_finish(&c->csp_flags, &c->act.csp);
	c->act.rate.search = c->act.search;
	c->act.rate.no_fallback = c->no_fallback;
	p->jobs = (unsigned)c->jobs;
	p->output = c->output;
	p->force = c->force;
	if (c->fields && (p->format != LK_FORMAT_TSV || p->view))
		lk_usage_error("--fields chooses the columns of -f tsv");
	lk_cli_check_fields(c->fields);
	p->fields = c->fields;
}

void lk_cli_check_fields(const char *fields)
{
	if (!fields)
		return;
	/* before -o creates its file, so that a usage error leaves none */
	struct lk_writer w;
	struct lk_strbuf err = LK_STRBUF_INIT;
	lk_writer_init(&w, NULL, LK_FORMAT_TSV, NULL);
	if (lk_writer_choose_columns(&w, fields, &err) < 0)
		lk_usage_error("%s", err.buf);
	lk_writer_release(&w);
	lk_strbuf_release(&err);
}

void lk_cli_reject_options(const char *const *names, const char *what)
{
	struct lk_strbuf given = LK_STRBUF_INIT;
	size_t n = 0;
	for (size_t i = 0; names[i]; i++)
		n += lk_option_given(names[i]);
	for (size_t i = 0, k = 0; names[i]; i++) {
		if (!lk_option_given(names[i]))
			continue;
		lk_strbuf_addf(&given, "%s%s", k == 0 ? "" : k + 1 == n ? " and " : ", ",
			       lk_option_typed(names[i]));
		k++;
	}
	if (n)
		lk_usage_error("%s %s not apply to %s", given.buf, n == 1 ? "does" : "do", what);
	lk_strbuf_release(&given);
}

void lk_cli_common_unapplied(const struct lk_cli_common *c, uint64_t seen)
{
	static const char *const search[] = { "algo", "direction", "plain", "measure", NULL };
	static const char *const csp[] = { "count-limit", "no-sac", "no-gcc", "no-symmetry",
					   "static-order", NULL };
	for (size_t i = 0; search[i]; i++)
		lk_warn_unapplied(seen, search[i], lk_game_has_state_space, NULL);
	for (size_t i = 0; csp[i]; i++)
		lk_warn_unapplied(seen, csp[i], lk_game_is_constraint, NULL);
	if (c->metric)
		lk_warn_unapplied(seen, "metric", lk_game_knows_metric, c->metric);
	if (c->heuristic)
		lk_warn_unapplied(seen, "heuristic", lk_game_knows_heuristic, c->heuristic);
	for (size_t k = 0; k < c->csp_flags.n; k++)
		lk_warn_unapplied(seen, c->csp_flags.opts[k].long_name, lk_game_has_csp_flag,
				  c->csp_flags.opts[k].long_name);
}
