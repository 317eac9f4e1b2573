/*
 * clock.c - the library's clock (clock.h): CLOCK_MONOTONIC, which no
 * change of the wall clock moves; and the calling thread's processor time,
 * for figures that must not depend on the machine's load.
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

double lk_thread_cpu(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0.0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
