/*
 * laser_sim.c - firing a whole placement (the least fixpoint of SPEC.md),
 * judging it, its facts, and the placement text "LINE@X,Y ...".
 *
 * The fixpoint is reached by a worklist from the sources: a piece fires
 * once every in-port has received a beam from a firing piece, and then
 * sends its beams.  Firing only ever adds beams, so the order does not
 * matter, and pieces on a cycle never fire because none of them can be
 * first.  This is the reference the search (laser_search.c) is tested
 * against, and what verify, the drawing and the facts use.
 */
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"

void laser_kind_at(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		   int16_t *kind_at)
{
	memcpy(kind_at, lv->cell_kind, (size_t)lv->ncells * sizeof *kind_at);
	for (int i = 0; pl && i < pl->n; i++)
		kind_at[pl->p[i].y * lv->width + pl->p[i].x] = (int16_t)(lv->nfixed + pl->p[i].line - 1);
}

static int64_t emitted(const struct laser_kind *k, const int64_t *in)
{
	int64_t sum = 0;
	for (int s = 0; s < 4; s++)
		if (k->ins >> s & 1)
			sum += in[s];
	switch (k->type) {
	case LK_LASER_SRC: return k->value;
	case LK_LASER_SP2: return sum / 2;
	case LK_LASER_SP3: return sum / 3;
	default: return sum;   /* benders pass it on, combiners add */
	}
}

void laser_simulate(const struct lk_laser *lv, const int16_t *kind_at, struct laser_sim *sim)
{
	int work[LK_LASER_MAX_CELLS], nwork = 0;
	memset(sim->fired, 0, sizeof sim->fired);
	memset(sim->recv, 0, sizeof sim->recv);
	sim->nbeams = 0;
	for (int c = 0; c < lv->ncells; c++) {
		if (kind_at[c] >= 0 && lv->kind[kind_at[c]].type == LK_LASER_SRC) {
			sim->fired[c] = true;
			sim->out[c] = lv->kind[kind_at[c]].value;
			work[nwork++] = c;
		}
	}
	while (nwork) {
		int c = work[--nwork];
		const struct laser_kind *k = &lv->kind[kind_at[c]];
		for (int s = 0; s < 4; s++) {
			if (!(k->outs >> s & 1))
				continue;
			int len, to = -1;
			const int *ray = lk_ray(&lv->rays, c, s, &len);
			for (int i = 0; i < len && to < 0; i++)
				if (kind_at[ray[i]] >= 0)
					to = ray[i];
			if (to < 0)
				to = lv->rays.stop[c * 4 + s];
			struct laser_beam *b = &sim->beam[sim->nbeams++];
			*b = (struct laser_beam){ .from = c, .side = s, .to = to, .value = sim->out[c] };
			if (to < 0)
				continue;
			const struct laser_kind *t = &lv->kind[kind_at[to]];
			int in = laser_opposite(s);
			if (!(t->ins >> in & 1))
				continue;   /* blocked */
			b->absorbed = true;
			sim->recv[to] |= (uint8_t)(1u << in);
			sim->recv_value[to][in] = b->value;
			sim->recv_from[to][in] = (int16_t)c;
			if (t->type == LK_LASER_TGT) {
				sim->fired[to] = true;   /* a target "fires" on its first beam */
			} else if (sim->recv[to] == t->ins) {
				sim->fired[to] = true;
				sim->out[to] = emitted(t, sim->recv_value[to]);
				if (t->nout)
					work[nwork++] = to;
			}
		}
	}
}

int64_t laser_received(const struct laser_kind *k, uint8_t recv, const int64_t *value)
{
	int64_t sum = 0;
	for (int s = 0; s < 4; s++)
		if ((k->ins & recv) >> s & 1)
			sum += value[s];
	return sum;
}

static int find(int *parent, int a)
{
	while (parent[a] != a)
		a = parent[a] = parent[parent[a]];
	return a;
}

void laser_level_facts(const struct lk_laser *lv, struct lk_laser_facts *f)
{
	memset(f, 0, sizeof *f);
	f->blockers = lv->nblockers;
	f->sources = lv->nsources;
	f->targets = lv->ntargets;
	f->tray = lv->tray_total;
}

void laser_facts_of(const struct lk_laser *lv, const int16_t *kind_at, const struct laser_sim *sim,
		    struct lk_laser_facts *f)
{
	int parent[LK_LASER_MAX_CELLS];
	laser_level_facts(lv, f);
	for (int c = 0; c < lv->ncells; c++) {
		parent[c] = c;
		int k = kind_at[c];
		if (k < 0 || k == lv->blocker)
			continue;
		int type = lv->kind[k].type;
		f->fired[type] += sim->fired[c];
		if (k >= lv->nfixed) {
			f->placed[type]++;
			f->placed_total++;
			f->idle += !sim->fired[c];
		}
	}
	for (int i = 0; i < sim->nbeams; i++) {
		const struct laser_beam *b = &sim->beam[i];
		if (b->absorbed) {
			int a = find(parent, b->from), c = find(parent, b->to);
			parent[a] = c;
		}
	}
	for (int c = 0; c < lv->ncells; c++)
		f->network += kind_at[c] >= 0 && kind_at[c] != lv->blocker && find(parent, c) == c;
}

void lk_laser_evaluate(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		       struct lk_laser_eval *out, struct lk_strbuf *msg)
{
	int16_t kind_at[LK_LASER_MAX_CELLS];
	struct laser_sim *sim = lk_xmalloc(sizeof *sim);
	laser_kind_at(lv, pl, kind_at);
	laser_simulate(lv, kind_at, sim);
	memset(out, 0, sizeof *out);
	for (int c = 0; c < lv->ncells; c++) {
		int k = kind_at[c];
		if (k < 0 || lv->kind[k].type != LK_LASER_TGT)
			continue;
		const struct laser_kind *t = &lv->kind[k];
		bool got = sim->recv[c] != 0;
		int64_t sum = laser_received(t, sim->recv[c], sim->recv_value[c]);
		bool ok = got && sum == t->value;
		out->targets++;
		out->targets_ok += ok;
		if (!msg)
			continue;
		lk_strbuf_addf(msg, "target %c (%d,%d): ", t->letter, c % lv->width, c / lv->width);
		if (!got)
			lk_strbuf_addstr(msg, "nothing");
		/* a target on several sides: the beams it sums, then the sum */
		for (int s = 0, n = 0; s < 4 && got && (sim->recv[c] & (sim->recv[c] - 1)); s++) {
			if (!(sim->recv[c] >> s & 1))
				continue;
			lk_strbuf_addstr(msg, n++ ? " + " : "");
			laser_power_text(lv, sim->recv_value[c][s], msg);
		}
		if (got && (sim->recv[c] & (sim->recv[c] - 1)))
			lk_strbuf_addstr(msg, " = ");
		if (got)
			laser_power_text(lv, sum, msg);
		lk_strbuf_addstr(msg, " of ");
		laser_power_text(lv, t->value, msg);
		lk_strbuf_addstr(msg, ok ? ", satisfied\n" : ", not satisfied\n");
	}
	laser_facts_of(lv, kind_at, sim, &out->facts);
	out->solved = out->targets_ok == out->targets;
	out->tidy = out->solved && out->facts.idle == 0;
	free(sim);
}

/* ----------------------------------------------------------- placements */

static int parse_num(const char **s, int *out)
{
	long v = 0;
	const char *p = *s;
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9' && v < 100000)
		v = v * 10 + (*p++ - '0');
	*out = (int)v;
	*s = p;
	return 0;
}

int lk_laser_placement_parse(const struct lk_laser *lv, const char *text,
			     struct lk_laser_placement *out, struct lk_strbuf *err)
{
	int used[LK_LASER_MAX_LINES] = { 0 };
	bool taken[LK_LASER_MAX_CELLS] = { false };
	const char *s = text;
	out->n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (*s == '-' && (s[1] == '\0' || s[1] == ' ' || s[1] == '\t')) {
			s++;
			continue;
		}
		struct lk_laser_place p;
		const char *start = s;
		if (parse_num(&s, &p.line) < 0 || *s++ != '@' || parse_num(&s, &p.x) < 0 ||
		    *s++ != ',' || parse_num(&s, &p.y) < 0 || (*s && *s != ' ' && *s != '\t')) {
			lk_strbuf_addf(err, "expected LINE@X,Y at '%.12s'", start);
			return -1;
		}
		if (p.line < 1 || p.line > lv->ntray) {
			lk_strbuf_addf(err, "tray line %d does not exist (the tray has %d)", p.line, lv->ntray);
			return -1;
		}
		if (p.x >= lv->width || p.y >= lv->height) {
			lk_strbuf_addf(err, "cell %d,%d is off the %dx%d board", p.x, p.y, lv->width,
				       lv->height);
			return -1;
		}
		int c = p.y * lv->width + p.x;
		if (lv->cells[c] != '.' || taken[c]) {
			lk_strbuf_addf(err, "cell %d,%d is not empty", p.x, p.y);
			return -1;
		}
		if (++used[p.line - 1] > lv->tray_count[p.line - 1]) {
			lk_strbuf_addf(err, "tray line %d has only %d piece%s", p.line,
				       lv->tray_count[p.line - 1], lv->tray_count[p.line - 1] == 1 ? "" : "s");
			return -1;
		}
		taken[c] = true;
		out->p[out->n++] = p;
	}
	return 0;
}

static int place_cmp(const void *a, const void *b)
{
	const struct lk_laser_place *p = a, *q = b;
	if (p->line != q->line)
		return p->line - q->line;
	if (p->y != q->y)
		return p->y - q->y;
	return p->x - q->x;
}

void lk_laser_placement_format(const struct lk_laser_placement *pl, struct lk_strbuf *out)
{
	struct lk_laser_place sorted[LK_LASER_MAX_PLACED];
	memcpy(sorted, pl->p, (size_t)pl->n * sizeof *sorted);
	qsort(sorted, (size_t)pl->n, sizeof *sorted, place_cmp);
	if (!pl->n)
		lk_strbuf_addch(out, '-');
	for (int i = 0; i < pl->n; i++)
		lk_strbuf_addf(out, "%s%d@%d,%d", i ? " " : "", sorted[i].line, sorted[i].x, sorted[i].y);
}

void laser_footprint(const struct lk_laser *lv, const int16_t *kind_at, const struct laser_sim *sim,
		     uint64_t *cells)
{
	memset(cells, 0, LK_LASER_MAX_CELLS / 8);
	for (int c = 0; c < lv->ncells; c++)
		if (kind_at[c] >= lv->nfixed && kind_at[c] < lv->nfixed + lv->ntray)
			cells[c / 64] |= UINT64_C(1) << (c % 64);
	for (int i = 0; i < sim->nbeams; i++) {
		const struct laser_beam *b = &sim->beam[i];
		int len;
		const int *ray = lk_ray(&lv->rays, b->from, b->side, &len);
		for (int j = 0; j < len && ray[j] != b->to; j++)
			cells[ray[j] / 64] |= UINT64_C(1) << (ray[j] % 64);
	}
}
