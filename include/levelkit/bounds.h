/*
 * bounds.h - the bounds of one search: states, memory, time and
 * cancellation in one struct, which a command fills from its options and
 * which is passed down as it is to the search that honours it (a
 * state-space search, a constraint search, a game's own), timed on the
 * library's one clock (clock.h).  A search that hits a bound answers
 * unknown and says which (lk_limit).
 */
#ifndef LEVELKIT_BOUNDS_H
#define LEVELKIT_BOUNDS_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/clock.h"

struct lk_bounds {
	/* stored states (a constraint search: search nodes), 0 = no bound */
	uint64_t max_states;
	/* bytes for a search's table and open list, 0 = none (constraint
	 * searches hold little and ignore it) */
	size_t max_memory;
	double max_seconds;     /* from the search's start, 0 = none */
	/* Checked now and then; a search stops (unknown, interrupted) once
	 * *cancel is non-zero.  May be NULL. */
	const volatile sig_atomic_t *cancel;
	/* Another thread's stop: the searches of one level run in parallel
	 * (solve -a any --split) stop, interrupted, once *stop is non-zero,
	 * read where *cancel is.  May be NULL. */
	const atomic_int *stop;
};

/* Inline: searches ask these in their inner loops. */

/* Has the search been cancelled? */
static inline bool lk_bounds_cancelled(const struct lk_bounds *b)
{
	return (b->cancel && *b->cancel) ||
	       (b->stop && atomic_load_explicit(b->stop, memory_order_relaxed));
}

/* The time by which a search started at `start` (lk_now()) must stop;
 * meaningful only with a time bound. */
static inline double lk_bounds_deadline(const struct lk_bounds *b, double start)
{
	return start + b->max_seconds;
}

/* Is the time up for a search with this deadline?  (Reads the clock only
 * when there is a time bound.) */
static inline bool lk_bounds_time_up(const struct lk_bounds *b, double deadline)
{
	return b->max_seconds > 0 && lk_now() > deadline;
}

/* The bounds as a user gave them, completed for a run of `jobs` searches
 * at once (src/core/bounds.c): no memory bound given means RAM / (jobs +
 * 1), at most 4G (1G when the RAM is unknown); cancel is the run's flag. */
void lk_bounds_finish(struct lk_bounds *b, unsigned long jobs,
		      const volatile sig_atomic_t *cancel);
/* Number of online processors (at least 1). */
unsigned lk_cpu_count(void);
/* Physical memory in bytes, or 0 if unknown. */
size_t lk_physical_memory(void);

#endif
