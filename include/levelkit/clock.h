/*
 * clock.h - the one clock of the library: every time bound (a search's,
 * the transformer's, gen's progress) is measured on it.
 */
#ifndef LEVELKIT_CLOCK_H
#define LEVELKIT_CLOCK_H

/* Seconds on a monotonic clock (from an arbitrary start); with
 * LEVELKIT_CLOCK=cpu in the environment, the calling thread's CPU time,
 * for bounds that mean the same on a shared machine (a search runs in one
 * thread, so with -j N each level's bound is its own). */
double lk_now(void);
/* Processor seconds the calling thread has used (for figures that must not
 * depend on the machine's load). */
double lk_thread_cpu(void);

#endif
