/*
 * laser_facts.h - facts as the expression language looks them up: exact
 * (one solution) or as bounds (a partial solution in a search).
 */
#ifndef LEVELKIT_LASER_FACTS_H
#define LEVELKIT_LASER_FACTS_H

#include "laser_internal.h"

/* A fact over powers (laser_powers.c): made(P), adds(P + Q), into(P) ... */
enum { LASER_MADE = 1, LASER_ADDS, LASER_INTO };
struct laser_power_ref {
	int what;                 /* LASER_MADE, _ADDS, _INTO */
	unsigned mask;            /* made(T P), into(T P): the types T */
	int n;                    /* addends (1 to 3) */
	int64_t num[3], den[3];
};

/* A fact resolved from its name: what it reads, over which types. */
struct laser_fact_ref {
	int what;
	unsigned mask;
	struct laser_power_ref power;   /* what == W_POWER (laser_facts.c) */
};

/*
 * What the facts over powers read: a placement's firing state, exact for
 * a whole placement (final), or a search node's partial one, with what
 * may still come: the pieces of each type that may still fire.
 */
struct laser_view {
	const struct lk_laser *lv;
	const int16_t *at;                /* kind per cell; negative: no piece */
	const bool *fired;
	const uint8_t *recv;
	const int64_t (*recv_value)[4];
	const int16_t (*recv_from)[4];
	bool final;
	int may_fire[LK_LASER_NTYPES];
};

int laser_power_resolve(const char *name, const char *arg, struct laser_power_ref *r);
void laser_power_bounds(const struct laser_view *v, const struct laser_power_ref *r, double *lo,
			double *hi);
/* The types a word names (SP2, splitter, piece ...) as a bit mask; 0 when
 * none. */
unsigned laser_type_mask(const char *word);
/* The view of a simulated placement (exact). */
void laser_view_of_sim(const struct lk_laser *lv, const int16_t *kind_at,
		       const struct laser_sim *sim, struct laser_view *v);
/* The concept on a simulated placement's facts and firing state (exact). */
bool laser_concept_holds_view(const struct lk_expr *concept, const struct lk_laser_facts *f,
			      const struct laser_view *v);

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
	/* the placement's firing state for the facts over powers; NULL: they
	 * are unknown (from 0 up) */
	const struct laser_view *view;
};

/* lk_expr_lookup_fn over a struct lk_laser_facts, and over a struct
 * laser_bounds. */
int laser_lookup_exact(void *ctx, const char *name, const char *arg, double *lo, double *hi);
int laser_lookup_bounds(void *ctx, const char *name, const char *arg, double *lo, double *hi);
/* lk_expr_lookup_fn that answers like laser_lookup_exact on zero facts and
 * adds to ((unsigned *)ctx)[0] the types a fact reads, and to [1] those
 * whose numbers it reads (count, placed; not only whether one fires), and
 * sets [2] when it reads a fact over powers (three unsigned). */
int laser_lookup_types(void *ctx, const char *name, const char *arg, double *lo, double *hi);

#endif
