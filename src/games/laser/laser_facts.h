/*
 * laser_facts.h - facts as the expression language looks them up: exact
 * (one solution) or as bounds (a partial solution in a search).
 */
#ifndef LEVELKIT_LASER_FACTS_H
#define LEVELKIT_LASER_FACTS_H

#include "laser_internal.h"

/* A fact resolved from its name: what it reads, over which types. */
struct laser_fact_ref {
	int what;
	unsigned mask;
};

/* Names already resolved, by the identity of the expression's strings. */
#define LASER_FACT_CACHE 32
struct laser_fact_cache {
	int n;
	const char *name[LASER_FACT_CACHE], *arg[LASER_FACT_CACHE];
	struct laser_fact_ref ref[LASER_FACT_CACHE];
};

/* Every fact is a sum over types of counts, so bounds on the counts are
 * bounds on the facts: lo holds the least values, hi the greatest.  cache
 * may be NULL; a search keeps one for its expressions. */
struct laser_bounds {
	struct lk_laser_facts lo, hi;
	struct laser_fact_cache *cache;
};

/* lk_expr_lookup_fn over a struct lk_laser_facts, and over a struct
 * laser_bounds. */
int laser_lookup_exact(void *ctx, const char *name, const char *arg, double *lo, double *hi);
int laser_lookup_bounds(void *ctx, const char *name, const char *arg, double *lo, double *hi);
/* lk_expr_lookup_fn that answers like laser_lookup_exact on zero facts and
 * adds to ((unsigned *)ctx)[0] the types a fact reads, and to [1] those
 * whose numbers it reads (count, placed; not only whether one fires). */
int laser_lookup_types(void *ctx, const char *name, const char *arg, double *lo, double *hi);

#endif
