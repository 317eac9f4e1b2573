/*
 * clock.c - the library's clock (clock.h): CLOCK_MONOTONIC, which no
 * change of the wall clock moves, or with LEVELKIT_CLOCK=cpu in the
 * environment the calling thread's CPU time; and the calling thread's
 * processor time, for figures that must not depend on the machine's load.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/clock.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double lk_now(void)
{
	/* LEVELKIT_CLOCK=cpu: the calling thread's CPU time, so that time
	 * bounds mean the same on a machine other jobs share (benchmarks).
	 * The thread's, not the process's: with -j N each level's search runs
	 * in one worker thread, and the process clock would charge it the
	 * other workers' time too (N levels at once would each get 1/N of
	 * their bound). */
	static int cpu = -1;
	if (cpu < 0) {
		const char *c = getenv("LEVELKIT_CLOCK");
		cpu = c && strcmp(c, "cpu") == 0;
	}
	struct timespec ts;
	clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double lk_thread_cpu(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0.0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
