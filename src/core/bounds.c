/*
 * bounds.c - a search's bounds (bounds.h) read against the one clock.
 */
#include "levelkit/bounds.h"

#include "levelkit/clock.h"

bool lk_bounds_cancelled(const struct lk_bounds *b)
{
	return b->cancel && *b->cancel;
}

double lk_bounds_deadline(const struct lk_bounds *b, double start)
{
	return start + b->max_seconds;
}

bool lk_bounds_time_up(const struct lk_bounds *b, double deadline)
{
	return b->max_seconds > 0 && lk_now() > deadline;
}
