/*
 * judge.h - whether a generated candidate is kept (internal to the act
 * layer): it is solved, analysed or rated as far as the thresholds need,
 * with what solve and rate would write added to it.
 */
#ifndef LEVELKIT_ACT_JUDGE_H
#define LEVELKIT_ACT_JUDGE_H

#include "levelkit/gen_run.h"
#include "levelkit/generate.h"

/* 0 when rec (loaded as level, with o->level) passes every threshold of
 * o, or -1 with *why; what it found is in *j either way. */
int lk_judge(struct lk_gen_worker *w, const struct lk_gen_options *o, const struct lk_level *level,
	     struct lk_record *rec, struct lk_judged *j, enum lk_reject *why);

#endif
