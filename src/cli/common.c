/*
 * common.c - shared options of the solving commands (see common.h).
 */
#include "common.h"

#include <stdlib.h>
#include <string.h>

void lk_cli_common_init(struct lk_cli_common *c, double default_timeout)
{
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	memset(c, 0, sizeof *c);
	c->search = so;
	c->timeout = default_timeout;
	c->jobs = 1;
}

void lk_cli_common_finish(struct lk_cli_common *c, struct lk_pipeline *p)
{
	if (c->algo && lk_algo_parse(c->algo, &c->search.algo) < 0)
		lk_usage_error("unknown algorithm '%s' (use bfs, ucs, astar or greedy)", c->algo);
	c->search.direction = LK_BOTH;
	if (c->direction && lk_direction_parse(c->direction, &c->search.direction) < 0)
		lk_usage_error("unknown direction '%s' (use forward, backward or both)", c->direction);
	if (c->format && lk_format_parse(c->format, &p->format) < 0)
		lk_usage_error("unknown format '%s' (use text, tsv or json)", c->format);
	if (c->jobs == 0)
		c->jobs = lk_cpu_count();
	if (c->jobs > 1024)
		lk_usage_error("--jobs %lu is too many", c->jobs);
	if (!c->max_memory) {
		size_t ram = lk_physical_memory();
		size_t cap = (size_t)4 << 30;
		c->max_memory = ram ? ram / (c->jobs + 1) : (size_t)1 << 30;
		if (c->max_memory > cap)
			c->max_memory = cap;
	}
	c->search.max_states = c->max_states;
	c->search.max_memory = c->max_memory;
	c->search.timeout = c->timeout;
	c->search.cancel = &lk_interrupted;
	/* A metric or heuristic no game knows is a usage error, not a fault
	 * of every record. */
	bool metric_known = !c->metric, heuristic_known = !c->heuristic;
	for (size_t i = 0; lk_games[i]; i++) {
		metric_known |= c->metric && lk_name_in(c->metric, lk_games[i]->metrics);
		heuristic_known |= c->heuristic && lk_name_in(c->heuristic, lk_games[i]->heuristics);
	}
	if (!metric_known)
		lk_usage_error("unknown metric '%s' (sokoban: pushes or moves)", c->metric);
	if (!heuristic_known)
		lk_usage_error("unknown heuristic '%s' (sokoban: matching or mixedaim)", c->heuristic);
	c->level.metric = c->metric;
	c->level.heuristic = c->heuristic;
	c->level.plain = c->plain;
	p->jobs = (unsigned)c->jobs;
	p->output = c->output;
}

struct lk_level *lk_cli_load_level(const struct lk_cli_common *c, struct lk_job *job)
{
	return lk_level_load(job->rec, &c->level, job->err, &job->err_line);
}

void lk_cli_write_stats(const struct lk_cli_common *c, struct lk_record *rec,
			const struct lk_search_result *r)
{
	if (!c->stats)
		return;
	lk_record_setf(rec, "generated", "%llu", (unsigned long long)r->generated);
	lk_record_setf(rec, "stored", "%llu", (unsigned long long)r->stored);
	lk_record_setf(rec, "memory", "%zu", r->peak_bytes);
	lk_record_setf(rec, "overhead", "%.1f", r->overhead_per_state);
	lk_record_setf(rec, "time", "%.3f", r->seconds);
}

void *lk_cli_solver_new(void *ctx)
{
	(void)ctx;
	struct lk_solver *s = lk_xmalloc(sizeof *s);
	lk_solver_init(s);
	return s;
}

void lk_cli_solver_free(void *worker)
{
	lk_solver_release(worker);
	free(worker);
}

void lk_cli_csp_options(const struct lk_cli_common *c, struct lk_csp_options *o)
{
	lk_csp_options_init(o);
	if (c->count_limit)
		o->count_limit = c->count_limit;
	o->sac = !c->no_sac;
	o->gcc = !c->no_gcc;
	o->symmetry = !c->no_symmetry;
	o->dynamic = !c->static_order;
	o->max_nodes = c->max_states;
	o->timeout = c->timeout;
	o->cancel = &lk_interrupted;
}
