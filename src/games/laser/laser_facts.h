/*
 * laser_facts.h - facts as the expression language looks them up: exact
 * (one solution) or as bounds (a partial solution in a search).
 */
#ifndef LEVELKIT_LASER_FACTS_H
#define LEVELKIT_LASER_FACTS_H

#include "laser_internal.h"

/* Every fact is a sum over types of counts, so bounds on the counts are
 * bounds on the facts: lo holds the least values, hi the greatest. */
struct laser_bounds {
	struct lk_laser_facts lo, hi;
};

/* lk_expr_lookup_fn over a struct lk_laser_facts, and over a struct
 * laser_bounds. */
int laser_lookup_exact(void *ctx, const char *name, const char *arg, double *lo, double *hi);
int laser_lookup_bounds(void *ctx, const char *name, const char *arg, double *lo, double *hi);

#endif
