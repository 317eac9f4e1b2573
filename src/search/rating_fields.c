/*
 * rating_fields.c - the rating's fields (rating.h): rating, the grade read
 * off it, with --explain what contributed, and with --features the raw
 * features (f-NAME) that bench/rating_fit.py fits on.
 */
#include "levelkit/fields.h"
#include "levelkit/rating.h"

#include <math.h>
#include <stdio.h>

/* A value as the fields write it: whole numbers without decimals. */
static void value_text(char *buf, size_t size, double v)
{
	if (v == (double)(long long)v && v < 1e15 && v > -1e15)
		snprintf(buf, size, "%lld", (long long)v);
	else
		snprintf(buf, size, "%.4g", v);
}

void lk_fields_features(struct lk_record *rec, const struct lk_features *f)
{
	static const char *const prefix[] = { "", "", ">= ", "<= ", "" };
	for (int i = 0; i < LK_F_COUNT; i++) {
		char v[48];
		const char *name = lk_feature_field((enum lk_feature)i);
		if (f->how[i] == LK_KNOWN_NOT) {
			lk_record_unset(rec, name);
			continue;
		}
		if (f->how[i] == LK_KNOWN_ABSENT) {
			lk_record_set(rec, name, "none");   /* the game has no such thing */
			continue;
		}
		value_text(v, sizeof v, f->value[i]);
		lk_record_setf(rec, name, "%s%s", prefix[f->how[i]], v);
	}
}

/* The grade of a rating; of a lower bound a lower bound (">= hard"),
 * except in the top band, which nothing can overturn, and the lowest,
 * which says nothing. */
static void write_grade(struct lk_record *rec, const struct lk_score *s)
{
	enum lk_grade g = lk_grade_of(s->rating);
	if (s->how == LK_KNOWN_NOT || (s->how == LK_KNOWN_AT_LEAST && g == 0))
		lk_record_set(rec, "grade", "unknown");
	else if (s->how == LK_KNOWN_AT_LEAST && g != LK_GRADE_COUNT - 1)
		lk_record_setf(rec, "grade", ">= %s", lk_grade_name(g));
	else
		lk_record_set(rec, "grade", lk_grade_name(g));
}

/* What contributed, largest share first, after the scale's offset: "base
 * -1.20; effort 131 states +2.10; ...". */
static void write_explain(struct lk_record *rec, const struct lk_features *f,
			  const struct lk_score *s)
{
	static const char *const prefix[] = { "", "", ">= ", "<= ", "" };
	bool done[LK_F_COUNT] = { false };
	struct lk_strbuf out = LK_STRBUF_INIT;
	lk_strbuf_addf(&out, "base %+.2f", s->base);
	for (;;) {
		int pick = -1;
		for (int i = 0; i < LK_F_COUNT; i++)
			if (!done[i] && lk_feature_in_model((enum lk_feature)i) &&
			    (pick < 0 || s->part[i] > s->part[pick]))
				pick = i;
		if (pick < 0)
			break;
		done[pick] = true;
		enum lk_feature id = (enum lk_feature)pick;
		const char *unit = lk_feature_unit(id);
		lk_strbuf_addf(&out, "%s%s ", out.len ? "; " : "", lk_feature_name(id));
		if (s->assumed[pick]) {
			lk_strbuf_addstr(&out, "(none here: typical)");
		} else if (f->how[pick] == LK_KNOWN_NOT) {
			lk_strbuf_addstr(&out, "unknown");
		} else {
			char v[48];
			value_text(v, sizeof v, f->value[pick]);
			lk_strbuf_addf(&out, "%s%s%s%s", prefix[f->how[pick]], v, *unit ? " " : "", unit);
		}
		lk_strbuf_addf(&out, " %+.2f", s->part[pick]);
	}
	lk_record_set(rec, "explain", out.buf ? out.buf : "");
	lk_strbuf_release(&out);
}

void lk_fields_rating_score(struct lk_record *rec, const struct lk_features *f,
			    const struct lk_score *s, bool explain)
{
	lk_record_unset(rec, "explain");
	if (s->how == LK_KNOWN_EXACT)
		lk_record_setf(rec, "rating", "%.1f", s->rating);
	else if (s->how == LK_KNOWN_AT_LEAST)
		/* rounded down: a bound rounded up would claim too much */
		lk_record_setf(rec, "rating", ">= %.1f", floor(s->rating * 10.0) / 10.0);
	else
		lk_record_set(rec, "rating", "unknown");
	write_grade(rec, s);
	if (explain)
		write_explain(rec, f, s);
}

/* limit: every bound any search hit, the rating's own effort runs' too (a
 * rating that is a bound says why), in the order of enum lk_limit. */
static void write_all_limits(struct lk_record *rec, unsigned limits)
{
	struct lk_strbuf names = LK_STRBUF_INIT;
	for (int l = LK_LIMIT_NONE + 1; l <= LK_LIMIT_INTERRUPTED; l++)
		if (limits & LK_LIMIT_BIT(l))
			lk_strbuf_addf(&names, "%s%s", names.len ? ", " : "",
				       lk_limit_name((enum lk_limit)l));
	if (names.len)
		lk_record_set(rec, "limit", names.buf);
	lk_strbuf_release(&names);
}

void lk_fields_no_rating(struct lk_record *rec)
{
	lk_record_unset(rec, "rating");
	lk_record_unset(rec, "grade");
	lk_record_unset(rec, "explain");
}

void lk_fields_rate_level(struct lk_record *rec, struct lk_solver *solver,
			  const struct lk_level *level, const struct lk_rating *r,
			  const struct lk_feature_options *fo, unsigned flags)
{
	bool solved = r->optimal.status == LK_SOLVED || r->other.status == LK_SOLVED;
	if (r->unsolvable) {
		lk_fields_no_rating(rec);
		return;
	}
	struct lk_features f;
	struct lk_score s;
	lk_features_compute(solver, level, r, fo, &f);
	lk_score(&f, solved, &s);
	lk_fields_rating_score(rec, &f, &s, flags & LK_RATE_EXPLAIN);
	if (f.limits & ~r->limits)
		write_all_limits(rec, r->limits | f.limits);
	if (flags & LK_RATE_FEATURES)
		lk_fields_features(rec, &f);
}

void lk_fields_rate_csp(struct lk_record *rec, const struct lk_level *level,
			const struct lk_csp_rating *r, unsigned flags)
{
	bool solved = r->status == LK_SOLVED || r->runs_solved;
	if (r->status == LK_UNSOLVABLE) {
		lk_fields_no_rating(rec);
		return;
	}
	struct lk_features f;
	struct lk_score s;
	lk_features_csp(level, r, &f);
	lk_score(&f, solved, &s);
	lk_fields_rating_score(rec, &f, &s, flags & LK_RATE_EXPLAIN);
	if (flags & LK_RATE_FEATURES)
		lk_fields_features(rec, &f);
}
