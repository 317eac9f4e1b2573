/*
 * clock.c - the library's clock (clock.h): CLOCK_MONOTONIC, which no
 * change of the wall clock moves.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/clock.h"

#include <time.h>

double lk_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
