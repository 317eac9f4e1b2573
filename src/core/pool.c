/*
 * pool.c - the ordered worker pool (see pool.h).  The main thread takes and
 * puts; workers only work.  Slot states: FREE, PENDING (taken, needs
 * work), RUNNING, DONE.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "levelkit/strbuf.h"

enum slot_state { SLOT_FREE, SLOT_PENDING, SLOT_RUNNING, SLOT_DONE };

struct pool {
	const struct lk_pool_ops *ops;
	unsigned char *data;           /* nslots * slot_size */
	enum slot_state *state;
	size_t nslots;
	uint64_t next_take, next_put;  /* sequence numbers */
	bool closing;
	bool taking;                   /* the main thread is in take */
	bool input_done;               /* take said LK_POOL_END */
	pthread_mutex_t lock;
	pthread_cond_t work_ready, work_done;
};

static void *slot_data(struct pool *p, uint64_t seq)
{
	return p->data + (size_t)(seq % p->nslots) * p->ops->slot_size;
}

static enum slot_state *slot_state(struct pool *p, uint64_t seq)
{
	return &p->state[seq % p->nslots];
}

/* The threads the job worked on in this thread may use (share_spare). */
static _Thread_local unsigned job_threads = 1;

unsigned lk_pool_threads(void)
{
	return job_threads;
}

/* How long a worker waits for the read in progress to tell whether its job
 * is the last (share_spare): reading one record takes microseconds. */
#define SPARE_WAIT_NS 50000000L

/* With share_spare, the threads job seq (just marked running, the lock
 * held) may use: its share of those the unfinished jobs leave idle, once
 * the input has ended. */
static unsigned spare_share(struct pool *p, uint64_t seq, unsigned jobs)
{
	if (!p->ops->share_spare || jobs < 2)
		return 1;
	if (!p->input_done && p->taking && seq + 1 == p->next_take) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += SPARE_WAIT_NS;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		while (!p->input_done && p->taking && seq + 1 == p->next_take)
			if (pthread_cond_timedwait(&p->work_ready, &p->lock, &ts) != 0)
				break;
	}
	if (!p->input_done)
		return 1;
	unsigned left = 0;
	for (uint64_t s = p->next_put; s < p->next_take; s++)
		left += *slot_state(p, s) == SLOT_PENDING || *slot_state(p, s) == SLOT_RUNNING;
	return left && left < jobs ? jobs / left : 1;
}

static void *worker_main(void *arg)
{
	struct pool *p = arg;
	const struct lk_pool_ops *ops = p->ops;
	void *worker = ops->worker_new ? ops->worker_new(ops->ctx) : NULL;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		uint64_t seq = p->next_put;
		while (seq < p->next_take && *slot_state(p, seq) != SLOT_PENDING)
			seq++;
		if (seq == p->next_take) {
			if (p->closing)
				break;
			pthread_cond_wait(&p->work_ready, &p->lock);
			continue;
		}
		*slot_state(p, seq) = SLOT_RUNNING;
		job_threads = spare_share(p, seq, ops->jobs);
		pthread_mutex_unlock(&p->lock);
		ops->work(ops->ctx, worker, slot_data(p, seq));
		job_threads = 1;
		pthread_mutex_lock(&p->lock);
		*slot_state(p, seq) = SLOT_DONE;
		pthread_cond_broadcast(&p->work_done);
	}
	pthread_mutex_unlock(&p->lock);
	if (ops->worker_free)
		ops->worker_free(ops->ctx, worker);
	return NULL;
}

/* Take jobs into the free slots; false once there are no more. */
static bool fill(struct pool *p)
{
	const struct lk_pool_ops *ops = p->ops;
	while (p->next_take - p->next_put < p->nslots) {
		if (ops->cancel && *ops->cancel)
			return false;
		void *slot = slot_data(p, p->next_take);
		memset(slot, 0, ops->slot_size);
		pthread_mutex_lock(&p->lock);
		p->taking = true;
		pthread_mutex_unlock(&p->lock);
		enum lk_pool_take t = ops->take(ops->ctx, p->next_take, slot);
		pthread_mutex_lock(&p->lock);
		p->taking = false;
		if (t == LK_POOL_END) {
			p->input_done = true;
			pthread_cond_broadcast(&p->work_ready);
			pthread_mutex_unlock(&p->lock);
			return false;
		}
		*slot_state(p, p->next_take) = t == LK_POOL_WORK ? SLOT_PENDING : SLOT_DONE;
		p->next_take++;
		pthread_cond_broadcast(&p->work_ready);
		pthread_mutex_unlock(&p->lock);
	}
	return true;
}

/* Wait until the head slot is finished, ticking four times a second. */
static void wait_head(struct pool *p, bool inline_work, void *inline_worker)
{
	const struct lk_pool_ops *ops = p->ops;
	enum slot_state *head = slot_state(p, p->next_put);
	pthread_mutex_lock(&p->lock);
	if (inline_work) {
		if (*head == SLOT_PENDING) {
			*head = SLOT_RUNNING;
			pthread_mutex_unlock(&p->lock);
			ops->work(ops->ctx, inline_worker, slot_data(p, p->next_put));
			pthread_mutex_lock(&p->lock);
			*head = SLOT_DONE;
		}
	}
	while (*head != SLOT_DONE) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 250000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->work_done, &p->lock, &ts);
		if (*head != SLOT_DONE && ops->tick) {
			pthread_mutex_unlock(&p->lock);
			ops->tick(ops->ctx);
			pthread_mutex_lock(&p->lock);
		}
	}
	pthread_mutex_unlock(&p->lock);
}

void lk_pool_run(const struct lk_pool_ops *ops)
{
	struct pool p = { .ops = ops };
	unsigned jobs = ops->jobs ? ops->jobs : 1;
	bool threaded = !(jobs == 1 && ops->inline_single);
	p.nslots = ops->nslots ? ops->nslots : threaded ? 4 * (size_t)jobs : 1;
	p.data = lk_xcalloc(p.nslots, ops->slot_size ? ops->slot_size : 1);
	p.state = lk_xcalloc(p.nslots, sizeof *p.state);
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.work_ready, NULL);
	pthread_cond_init(&p.work_done, NULL);

	pthread_t *threads = NULL;
	void *inline_worker = NULL;
	if (threaded) {
		threads = lk_xcalloc(jobs, sizeof *threads);
		for (unsigned i = 0; i < jobs; i++)
			pthread_create(&threads[i], NULL, worker_main, &p);
	} else if (ops->worker_new) {
		inline_worker = ops->worker_new(ops->ctx);
	}

	bool more = true;
	for (;;) {
		if (more)
			more = fill(&p);
		if (p.next_put == p.next_take)
			break;
		wait_head(&p, !threaded, inline_worker);
		bool go_on = ops->put(ops->ctx, slot_data(&p, p.next_put));
		pthread_mutex_lock(&p.lock);
		*slot_state(&p, p.next_put) = SLOT_FREE;
		p.next_put++;
		pthread_mutex_unlock(&p.lock);
		if (!go_on)
			break;
	}

	pthread_mutex_lock(&p.lock);
	p.closing = true;
	/* Slots not yet started will not be: workers only finish theirs. */
	for (uint64_t seq = p.next_put; seq < p.next_take; seq++)
		if (*slot_state(&p, seq) == SLOT_PENDING)
			*slot_state(&p, seq) = SLOT_DONE;
	pthread_cond_broadcast(&p.work_ready);
	pthread_mutex_unlock(&p.lock);
	for (unsigned i = 0; threads && i < jobs; i++)
		pthread_join(threads[i], NULL);
	for (uint64_t seq = p.next_put; seq < p.next_take; seq++)
		if (ops->drop)
			ops->drop(ops->ctx, slot_data(&p, seq));
	if (inline_worker && ops->worker_free)
		ops->worker_free(ops->ctx, inline_worker);
	free(threads);
	free(p.data);
	free(p.state);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.work_ready);
	pthread_cond_destroy(&p.work_done);
}
