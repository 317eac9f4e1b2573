/*
 * judge.h - whether a generated candidate is kept (internal to the act
 * layer): it is solved, analysed or rated as far as the thresholds need,
 * with what solve and rate would write added to it.
 */
#ifndef LEVELKIT_ACT_JUDGE_H
#define LEVELKIT_ACT_JUDGE_H

#include "levelkit/generate.h"

/* 0 when rec passes every threshold of o, or -1 with *why. */
int lk_judge(struct lk_gen_worker *w, const struct lk_gen_options *o, struct lk_record *rec,
	     enum lk_reject *why);

#endif
