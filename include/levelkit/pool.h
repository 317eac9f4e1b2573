/*
 * pool.h - the one ordered worker pool of the commands: jobs numbered in
 * sequence are taken on the main thread, worked on by -j threads in any
 * order, and handed back to the main thread strictly in sequence.  A ring
 * of slots bounds how far taking runs ahead of handing back, so memory
 * stays flat on endless streams (solve reading a pipe, gen for hours).
 *
 * solve, rate (pipeline.c: a job is a record read from the input) and gen
 * (a job is one index of the run) are both this loop with other callbacks.
 */
#ifndef LEVELKIT_POOL_H
#define LEVELKIT_POOL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What take says of the slot it filled. */
enum lk_pool_take {
	LK_POOL_END = -1,    /* no more jobs (the slot was not filled) */
	LK_POOL_READY = 0,   /* the slot needs no work: hand it back as it is */
	LK_POOL_WORK = 1     /* the slot needs work on a worker */
};

struct lk_pool_ops {
	void *ctx;
	size_t slot_size;              /* bytes of one slot, zeroed before take */
	/* Per-thread state (e.g. a reusable solver); both may be NULL. */
	void *(*worker_new)(void *ctx);
	void (*worker_free)(void *ctx, void *worker);
	/* Main thread: fill the slot of job seq; may block (reading input). */
	enum lk_pool_take (*take)(void *ctx, uint64_t seq, void *slot);
	/* Any thread: do the slot's work. */
	void (*work)(void *ctx, void *worker, void *slot);
	/* Main thread, in sequence order: the slot is finished.  Returns
	 * false to end the run: nothing more is taken, and the slots taken
	 * after this one are given to drop. */
	bool (*put)(void *ctx, void *slot);
	/* Main thread: a taken slot that will not be put (the run ended
	 * first), finished or not; may be NULL if slots own nothing. */
	void (*drop)(void *ctx, void *slot);
	/* Main thread, about four times a second while it waits: progress.
	 * May be NULL. */
	void (*tick)(void *ctx);
	/* Nothing more is taken once *cancel is set (SIGINT); the slots
	 * already taken are still finished and put.  May be NULL. */
	const volatile sig_atomic_t *cancel;
	unsigned jobs;                 /* worker threads, at least 1 */
	size_t nslots;                 /* ring size; 0: 4 per job */
	/* With one job, work on the main thread instead of a worker (the
	 * record commands: no thread at all); gen keeps a worker so that its
	 * progress line stays live during a long index. */
	bool inline_single;
	/* Spare threads: a job that starts once the input has ended, with
	 * fewer jobs left unfinished than threads, may use its share of the
	 * threads no job needs (lk_pool_threads), e.g. solve -j 2 on one
	 * level: both.  (A worker that starts the last job taken while the
	 * main thread is still reading waits up to 50 ms for the read
	 * to tell whether the input has ended.) */
	bool share_spare;
};

/* Run jobs until take says LK_POOL_END or put says stop. */
void lk_pool_run(const struct lk_pool_ops *ops);

/* Inside work: the threads the job may use, itself included (1, or with
 * share_spare its share of the spare ones). */
unsigned lk_pool_threads(void);

#endif
