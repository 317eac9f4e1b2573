/*
 * laser_powers.c - facts over powers: what a piece produces, what a piece
 * adds, and what reaches a target, so that a concept can say "practises
 * 1/12 + 1/12" (a combiner adds 1/12 and 1/12 and its beam feeds a
 * target) rather than only "a combiner fires" (which a combiner whose beam
 * leaves the board satisfies while a 1/6 source feeds the target):
 *
 *   made(P), made(T P)    firing pieces (of type T) whose beams carry P
 *   adds(P + Q [+ R])     firing combiners whose inputs carry P, Q (, R),
 *                         and targets fed from several sides by exactly
 *                         those beams (a target on several sides adds too)
 *   into(P), into(T P)    beams carrying P that enter a target, made by a
 *                         piece of type T: the last piece that changed the
 *                         power (a source, splitter or combiner; benders
 *                         pass a beam on unchanged)
 *   into(P + Q [+ R])     beams entering a target that a combiner made by
 *                         adding P, Q (, R)
 *
 * P is a power "N" or "N/M".  They are read off a placement's firing state
 * (a view: the kinds on the cells, who fired, what each in-port received
 * and from where), exactly for a whole placement and as bounds for the
 * partial placement of a search node: a piece that fired keeps its beams
 * and a beam delivered stays, so what is there already is a lower bound,
 * and the pieces that may still fire (or the target in-ports still dark)
 * bound what may come.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "laser_facts.h"

static bool word_is(const char *s, size_t len, const char *w)
{
	return laser_same_word(s, len, w);
}

/* "N" or "N/M" (N, M from 1 to 2^40): 0, or -1. */
static int power_word(const char *s, size_t len, int64_t *num, int64_t *den)
{
	const char *slash = memchr(s, '/', len);
	size_t n = slash ? (size_t)(slash - s) : len;
	*den = 1;
	if (laser_parse_int(s, n, INT64_C(1) << 40, num) < 0 || *num < 1)
		return -1;
	if (slash && (laser_parse_int(slash + 1, len - n - 1, INT64_C(1) << 40, den) < 0 || *den < 1))
		return -1;
	return 0;
}

int laser_power_resolve(const char *name, const char *arg, struct laser_power_ref *r)
{
	memset(r, 0, sizeof *r);
	size_t nlen = strlen(name);
	if (word_is(name, nlen, "made"))
		r->what = LASER_MADE;
	else if (word_is(name, nlen, "adds"))
		r->what = LASER_ADDS;
	else if (word_is(name, nlen, "into"))
		r->what = LASER_INTO;
	else
		return -1;
	if (!arg)
		return -1;
	/* words: [TYPE] P, or P + Q [+ R] */
	const char *w[8];
	size_t len[8];
	int nw = 0;
	for (const char *s = arg; *s && nw < 8;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		w[nw] = s;
		while (*s && *s != ' ')
			s++;
		len[nw] = (size_t)(s - w[nw]);
		nw++;
	}
	int i = 0;
	if (nw >= 2 && !(w[0][0] >= '0' && w[0][0] <= '9')) {
		if (r->what == LASER_ADDS)
			return -1;
		char type[16];
		if (len[0] >= sizeof type)
			return -1;
		memcpy(type, w[0], len[0]);
		type[len[0]] = '\0';
		r->mask = laser_type_mask(type);
		if (!r->mask || (r->mask & (1u << LK_LASER_TGT | 1u << LK_LASER_BLOCKER)))
			return -1;   /* targets and blockers send nothing */
		i = 1;
	}
	for (; i < nw; i++) {
		if (r->n == 3 || power_word(w[i], len[i], &r->num[r->n], &r->den[r->n]) < 0)
			return -1;
		r->n++;
		if (i + 1 < nw) {
			if (!word_is(w[i + 1], len[i + 1], "+") || i + 2 == nw)
				return -1;
			i++;
		}
	}
	if (r->n == 0 || (r->what == LASER_MADE && r->n != 1) || (r->what == LASER_ADDS && r->n < 2) ||
	    (r->mask && r->n != 1) || nw > 7)
		return -1;
	if (!r->mask)
		r->mask = (1u << LK_LASER_NTYPES) - 1;
	return 0;
}

/* ------------------------------------------------------------- counting */

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The power num/den in units of the level, or -1 when no beam can carry
 * it (not a whole number of units, or beyond any level's powers). */
static int64_t in_units(const struct lk_laser *lv, int64_t num, int64_t den)
{
	int64_t g = gcd64(lv->unit, den);
	if (den / g != 1)
		return -1;
	int64_t per = lv->unit / den;
	return num > (INT64_C(1) << 58) / per ? -1 : num * per;
}

static const struct laser_kind *kind_at(const struct laser_view *v, int c)
{
	return v->at[c] >= 0 ? &v->lv->kind[v->at[c]] : NULL;
}

/* The power each out-port of the firing piece on c sends. */
static int64_t out_of(const struct laser_view *v, int c)
{
	const struct laser_kind *k = kind_at(v, c);
	if (k->type == LK_LASER_SRC)
		return k->value;
	int64_t sum = laser_received(k, v->recv[c], v->recv_value[c]);
	return k->type == LK_LASER_SP2 ? sum / 2 : k->type == LK_LASER_SP3 ? sum / 3 : sum;
}

/* Do the values received on the sides in recv equal the addends, in any
 * order? */
static bool same_values(const int64_t *value, uint8_t recv, const int64_t *want, int n)
{
	bool used[3] = { false, false, false };
	int got = 0;
	for (int s = 0; s < 4; s++) {
		if (!(recv >> s & 1))
			continue;
		int j = 0;
		while (j < n && (used[j] || want[j] != value[s]))
			j++;
		if (j == n)
			return false;
		used[j] = true;
		got++;
	}
	return got == n;
}

/* The piece that made the beam arriving on side s of c: back through
 * benders, which pass a beam on unchanged. */
static int origin(const struct laser_view *v, int c, int s)
{
	int o = v->recv_from[c][s];
	for (int guard = 0; guard < LK_LASER_MAX_CELLS && kind_at(v, o)->type == LK_LASER_BND; guard++) {
		const struct laser_kind *k = kind_at(v, o);
		int in = 0;
		while (!(k->ins >> in & 1))
			in++;
		o = v->recv_from[o][in];
	}
	return o;
}

/* A target that can take no more beams: every side fed, or its need met
 * (one more beam would pass it). */
static bool closed(const struct laser_view *v, int c)
{
	const struct laser_kind *k = kind_at(v, c);
	if (v->recv[c] == k->ins)
		return true;
	return !k->any_need && laser_received(k, v->recv[c], v->recv_value[c]) >= k->value;
}

static int popcount4(unsigned x)
{
	return (int)(x & 1) + (int)(x >> 1 & 1) + (int)(x >> 2 & 1) + (int)(x >> 3 & 1);
}

void laser_power_bounds(const struct laser_view *v, const struct laser_power_ref *r, double *lo,
			double *hi)
{
	const struct lk_laser *lv = v->lv;
	int64_t want[3];
	int64_t total = 0;
	int count = 0, more = 0;
	for (int i = 0; i < r->n; i++) {
		want[i] = in_units(lv, r->num[i], r->den[i]);
		if (want[i] < 0) {
			*lo = *hi = 0;   /* no beam carries it */
			return;
		}
		total += want[i];
	}
	for (int c = 0; c < lv->ncells; c++) {
		const struct laser_kind *k = kind_at(v, c);
		if (!k || k->type == LK_LASER_BLOCKER)
			continue;
		if (r->what == LASER_MADE) {
			if (k->type != LK_LASER_TGT && v->fired[c] && (r->mask >> k->type & 1) &&
			    out_of(v, c) == want[0])
				count++;
		} else if (r->what == LASER_ADDS) {
			bool comb = k->type == LK_LASER_CMB2 || k->type == LK_LASER_CMB3;
			bool tgt = k->type == LK_LASER_TGT && (v->final || closed(v, c));
			if (((comb && v->fired[c]) || tgt) && same_values(v->recv_value[c], v->recv[c], want, r->n))
				count++;
			if (!v->final && k->type == LK_LASER_TGT && !closed(v, c))
				more++;
		} else if (k->type == LK_LASER_TGT) {
			for (int s = 0; s < 4; s++) {
				if (!(v->recv[c] >> s & 1) || v->recv_value[c][s] != total)
					continue;
				int o = origin(v, c, s);
				const struct laser_kind *ok = kind_at(v, o);
				if (r->n == 1 ? (r->mask >> ok->type & 1) != 0
					      : (ok->type == LK_LASER_CMB2 || ok->type == LK_LASER_CMB3) &&
							same_values(v->recv_value[o], v->recv[o], want, r->n))
					count++;
			}
			if (!v->final && !closed(v, c))
				more += popcount4(k->ins & ~v->recv[c]);
		}
	}
	*lo = count;
	if (v->final) {
		*hi = count;
		return;
	}
	/* what may still come: pieces that may fire, target sides still dark */
	if (r->what == LASER_MADE) {
		for (int t = 0; t < LK_LASER_NTYPES; t++)
			if (r->mask >> t & 1 && t != LK_LASER_TGT)
				more += v->may_fire[t];
	} else if (r->what == LASER_ADDS) {
		more += v->may_fire[LK_LASER_CMB2] + v->may_fire[LK_LASER_CMB3];
	}
	*hi = count + more;
}
