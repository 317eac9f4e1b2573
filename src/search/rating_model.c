/*
 * rating_model.c - the rating's model (rating.h): the one place its fitted
 * constants live, and the rating they give, exact or as a lower bound.
 *
 * rating = OFFSET + SCALE * sum over the model's terms of
 *          weight * (t(min(value, most)) - t(least))
 * where t is log(1 + x) for counts and x itself for shares, `least` is the
 * least value of the feature over the data the model was fitted on, OFFSET
 * and SCALE pin the scale to two anchors
 * (docs/rating.md: Microban's first ten levels 2.0 on average, its middle
 * level 4.0), and every weight is at least 0, so that the
 * rating never falls when a feature grows: that is what makes a bound on a
 * feature a bound on the rating.  A feature the game has not (a game
 * without a heuristic has no slack) counts at its `typical` value, the
 * median over the data.  A value above `most`, the greatest in the data,
 * counts at it: the fit never saw what more of it means (Combination's
 * boards are far more crowded than any Sokoban level's), and a linear term
 * carried beyond its data would swamp the others.
 *
 * The sum is then passed through a soft floor, log(1 + e^x): the rating is
 * never below 0, yet levels below the easiest of the data (a box one push
 * from its goal, then two) still rate in their order; from about 3 up it
 * is the sum itself (within 0.05).  It rises with the sum, so bounds stay
 * bounds.  --explain shows what the floor adds as part of the base.
 *
 * The block between the FITTED markers is written by bench/rating_fit.py
 * from ../shared/data (docs/rating.md: the data, the cross-validation, the
 * held-out figures); do not edit it by hand.
 */
#include "levelkit/rating.h"

#include <math.h>
#include <string.h>

enum transform { LK_T_LOG, LK_T_RAW };

struct term {
	enum lk_feature feature;
	enum transform t;
	double weight, least, typical, most;
};

/* BEGIN FITTED (bench/rating_fit.py) */
static const struct term terms[] = {
	{ LK_F_LENGTH, LK_T_LOG, 0, 1, 15, 334 },
	{ LK_F_INPUTS, LK_T_LOG, 0.407, 1, 58, 459 },
	{ LK_F_SLACK, LK_T_LOG, 0.334912, 0, 0, 58 },
	{ LK_F_UPHILL, LK_T_LOG, 0, 0, 0, 24 },
	{ LK_F_AGAINST, LK_T_LOG, 0, 0, 3, 31 },
	{ LK_F_EFFORT, LK_T_LOG, 0.346512, 1, 40.6, 129700 },
	{ LK_F_SPREAD, LK_T_RAW, 0.295646, 0, 0.0684, 2.775 },
	{ LK_F_DETOUR, LK_T_LOG, 0.0195881, 0, 1, 54 },
	{ LK_F_ASTAR, LK_T_LOG, 0.135302, 1, 36, 276312 },
	{ LK_F_CELLS, LK_T_LOG, 3.11143, 3, 31, 217 },
	{ LK_F_OBJECTS, LK_T_LOG, 0, 1, 4, 16 },
	{ LK_F_DENSITY, LK_T_RAW, 23.1373, 0.004608, 0.129, 0.3333 },
	{ LK_F_NARROW, LK_T_RAW, 3.08065, 0.6222, 1.25, 2.667 },
	{ LK_F_SESSIONS, LK_T_LOG, 0, 1, 7, 37 },
	{ LK_F_JUGGLE, LK_T_LOG, 0.0828226, 0, 1, 5 },
	{ LK_F_WALKER, LK_T_RAW, 0.0794015, 0, 1.855, 18.01 },
	{ LK_F_SCARCITY, LK_T_RAW, 0.232569, 0, 5.097, 6 },
};
static const double OFFSET = -9.78414, SCALE = 0.807327;
/* END FITTED */

#define NTERMS (sizeof terms / sizeof terms[0])

static double t(enum transform tr, double x)
{
	if (tr == LK_T_RAW)
		return x;
	return log1p(x > 0 ? x : 0);
}

static double soft_floor(double x)
{
	return x > 30 ? x : log1p(exp(x));
}

bool lk_feature_in_model(enum lk_feature f)
{
	for (size_t i = 0; i < NTERMS; i++)
		if (terms[i].feature == f && terms[i].weight > 0)
			return true;
	return false;
}

void lk_score(const struct lk_features *f, bool solvable_known, struct lk_score *out)
{
	memset(out, 0, sizeof *out);
	bool exact = solvable_known, bounded = false;
	double sum = OFFSET;
	out->base = OFFSET;
	for (size_t i = 0; i < NTERMS; i++) {
		const struct term *m = &terms[i];
		enum lk_feature id = m->feature;
		/* a feature the fit gave no weight changes nothing, not even
		 * whether the rating is exact */
		if (m->weight <= 0)
			continue;
		double x;
		switch (f->how[id]) {
		case LK_KNOWN_EXACT:
			x = f->value[id];
			break;
		case LK_KNOWN_AT_LEAST:
			/* weights are >= 0: a lower bound gives a lower bound */
			x = f->value[id];
			exact = false;
			bounded = true;
			break;
		case LK_KNOWN_ABSENT:
			x = m->typical;
			out->assumed[id] = true;
			break;
		default:
			/* unknown, or only an upper bound: the least it can be */
			x = m->least;
			exact = false;
			break;
		}
		if (x > m->most)
			x = m->most;
		double part = SCALE * m->weight * (t(m->t, x) - t(m->t, m->least));
		out->part[id] = part;
		sum += part;
	}
	out->rating = soft_floor(sum);
	out->base += out->rating - sum;
	out->how = exact ? LK_KNOWN_EXACT : bounded || solvable_known ? LK_KNOWN_AT_LEAST
									: LK_KNOWN_NOT;
}
