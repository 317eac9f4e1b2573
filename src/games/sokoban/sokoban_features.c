/*
 * sokoban_features.c - the features of a position that the search for any
 * solution (solve -a any) steers by, read off its plan (sokoban_plan.c):
 * boxes packed, player areas, boxes in doorways, boxes out of plan and
 * hotspots (Shoham and Schaeffer's FESS; docs/games/sokoban.md, "Feature
 * space").
 *
 * Every child of an expanded state is scored, and its hotspots (boxes that
 * some other box off the goals cuts off from every goal) were counted over
 * every pair of boxes: on Sasquatch II 17, 84 boxes, 7,000 pairs a child.
 * A child differs from its parent by one box, so the parent's count of
 * cutters per box is kept (soko_features_base) and a child's found from it
 * (soko_features_move): the count less the box gone, plus the box come, and
 * the moved box's own counted afresh, n pairs instead of n^2.  The parent's
 * counts come the same way from the last parent's, while few boxes differ.
 * The same features as from scratch (tests/test_sokoban_any_moves.c checks every
 * child of random walks both ways).
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/bits.h"
#include "sokoban_any.h"

static uint32_t fresh(uint32_t *mark, uint32_t *stamp, size_t n)
{
	if (++*stamp == 0) {
		memset(mark, 0, n * sizeof *mark);
		*stamp = 1;
	}
	return *stamp;
}

static uint8_t clamp(int v, int max)
{
	return (uint8_t)(v > max ? max : v);
}

void soko_features(struct soko_plan *p, const struct sokoban *s, const struct soko_scratch *sc,
		   int nboxes, struct soko_features *f)
{
	soko_features_areas(p, s, sc, nboxes, -1, f);
}

/* Of the boxes in sc, how many a box on cell y has that cut it off from
 * every goal (boxes off goals, not y itself). */
static int cutters(const struct soko_plan *p, const struct sokoban *s,
		   const struct soko_scratch *sc, int nboxes, int y)
{
	const uint8_t *row = p->cuts + (size_t)s->compact[y] * (size_t)p->nfloor;
	int k = 0;
	for (int j = 0; j < nboxes; j++) {
		int x = sc->boxes[j];
		k += x != y && !s->goal[x] && row[s->compact[x]];
	}
	return k;
}

/* cutters for the boxes off goals in p->cut_off (soko_features_base's),
 * less none: a box is not its own cutter (no row has its own bit).  The
 * rows as bits, a word of 64 squares at a time instead of a box at a time:
 * the features' base counted every pair of boxes from scratch, a twentieth
 * of the time on Sasquatch III 16. */
static inline int cutters_bits(const struct soko_plan *p, const struct sokoban *s, int y)
{
	const uint64_t *row = p->cut_bits + (size_t)s->compact[y] * p->cut_words;
	int k = 0;
	for (size_t w = 0; w < p->cut_words; w++)
		k += lk_popcount64(row[w] & p->cut_off[w]);
	return k;
}

/* Every box's cutters_bits into p->cutters; on x86 also built for the
 * processor's own count of bits (a library call a word without it) and
 * chosen when the processor has it: the same counts. */
static inline void all_cutters_body(struct soko_plan *p, const struct sokoban *s,
				    const struct soko_scratch *sc, int nboxes)
{
	for (int i = 0; i < nboxes; i++)
		p->cutters[sc->boxes[i]] = (uint16_t)cutters_bits(p, s, sc->boxes[i]);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
__attribute__((target("popcnt"))) static void all_cutters_popcnt(struct soko_plan *p,
								 const struct sokoban *s,
								 const struct soko_scratch *sc,
								 int nboxes)
{
	all_cutters_body(p, s, sc, nboxes);
}

static void all_cutters(struct soko_plan *p, const struct sokoban *s,
			const struct soko_scratch *sc, int nboxes)
{
	if (__builtin_cpu_supports("popcnt"))
		all_cutters_popcnt(p, s, sc, nboxes);
	else
		all_cutters_body(p, s, sc, nboxes);
}
#else
static void all_cutters(struct soko_plan *p, const struct sokoban *s,
			const struct soko_scratch *sc, int nboxes)
{
	all_cutters_body(p, s, sc, nboxes);
}
#endif

static bool cuts(const struct soko_plan *p, const struct sokoban *s, int y, int x)
{
	return p->cuts[(size_t)s->compact[y] * (size_t)p->nfloor + (size_t)s->compact[x]];
}

/* The features but hotspots, which the callers count their ways. */
static void features_but_hot(struct soko_plan *p, const struct sokoban *s,
			     const struct soko_scratch *sc, int nboxes, int areas, int hot,
			     struct soko_features *f)
{
	int packed = 0, on_goal = 0, doorways = 0, in_way = 0;
	for (int a = 0; a < p->nareas; a++) {
		int i = p->area_first[a];
		while (i < p->area_first[a + 1] && sc->box[p->area_goals[i]])
			i++;
		packed += i - p->area_first[a];
		if (i == p->area_first[a + 1] || !p->zone || !p->zone[i])
			continue;
		/* boxes off the packed goals in the way of the next one: the
		 * boxes in its zone less those on the area's packed goals
		 * (the goals of the area before it, every one with a box),
		 * counted over the zone's squares (a few) instead of over
		 * every box, a twentieth of the time on Sasquatch III 6 */
		int k = 0;
		for (uint32_t z = p->zone_first[i]; z < p->zone_first[i + 1]; z++)
			k += sc->box[p->zone_cells[z]];
		in_way += k - p->zone_packed[i];
	}
	for (int i = 0; i < nboxes; i++) {
		int y = sc->boxes[i];
		on_goal += s->goal[y];
		doorways += p->doorway[y];
	}
	/* player areas: connected free floor (unless known) */
	if (areas < 0) {
		areas = 0;
		uint32_t st = fresh(p->mark, &p->stamp, (size_t)s->cells);
		for (int i = 0; i < s->nfloor; i++) {
			int c = s->cell_of[i];
			if (sc->box[c] || p->mark[c] == st)
				continue;
			areas++;
			int sp = 0;
			p->mark[c] = st;
			p->stack[sp++] = (uint16_t)c;
			while (sp > 0) {
				int x = p->stack[--sp];
				for (int d = 0; d < 4; d++) {
					int y = x + s->off[d];
					if ((s->wall[y] | sc->box[y]) || p->mark[y] == st)
						continue;
					p->mark[y] = st;
					p->stack[sp++] = (uint16_t)y;
				}
			}
		}
	}
	f->packed = clamp(packed, 255);
	f->areas = clamp(areas, 63);
	f->doorways = clamp(p->rooms ? soko_rooms_cut(p->rooms, s, sc->box) : doorways, 63);
	f->out_of_plan = clamp(on_goal - packed + in_way, 63);
	f->hotspots = clamp(hot, 63);
	if (p->park)
		soko_park_features(p->park, sc, nboxes, f);
}

void soko_features_areas(struct soko_plan *p, const struct sokoban *s,
			 const struct soko_scratch *sc, int nboxes, int areas,
			 struct soko_features *f)
{
	int hot = 0;
	for (int i = 0; i < nboxes; i++)
		hot += cutters(p, s, sc, nboxes, sc->boxes[i]) > 0;
	features_but_hot(p, s, sc, nboxes, areas, hot, f);
}

void soko_features_base(struct soko_plan *p, const struct sokoban *s,
			const struct soko_scratch *sc, int nboxes)
{
	size_t cells = (size_t)s->cells;
	if (!p->cutters) {
		p->cutters = lk_xmalloc(cells * sizeof *p->cutters);
		p->cut_boxes = lk_xmalloc(3 * cells * sizeof *p->cut_boxes);
		p->cut_gone = p->cut_boxes + cells;
		p->cut_come = p->cut_gone + cells;
		p->cut_off = lk_xmalloc(p->cut_words * sizeof *p->cut_off);
		p->cut_n = -1;
	}
	memset(p->cut_off, 0, p->cut_words * sizeof *p->cut_off);
	for (int i = 0; i < nboxes; i++) {
		int y = sc->boxes[i], k = s->compact[y];
		if (!s->goal[y])
			p->cut_off[k / 64] |= (uint64_t)1 << (k % 64);
	}
	/* the boxes gone since the last base and the boxes come (both
	 * lists in cell order, as soko_unpack leaves them) */
	int ngone = 0, ncome = 0;
	if (p->cut_n >= 0) {
		int i = 0, k = 0;
		while (i < nboxes || k < p->cut_n) {
			int now = i < nboxes ? sc->boxes[i] : INT32_MAX;
			int was = k < p->cut_n ? p->cut_boxes[k] : INT32_MAX;
			if (now == was) {
				i++;
				k++;
			} else if (was < now) {
				p->cut_gone[ngone++] = (uint16_t)was;
				k++;
			} else {
				p->cut_come[ncome++] = (uint16_t)now;
				i++;
			}
		}
	}
	if (p->cut_n < 0 || 4 * (ngone + ncome) > nboxes) {
		/* from scratch: n pairs a box */
		all_cutters(p, s, sc, nboxes);
	} else {
		/* the boxes that stayed: less the gone, plus the come; the
		 * boxes come: from scratch */
		size_t nf = (size_t)p->nfloor;
		for (int i = 0, c = 0; i < nboxes; i++) {
			int y = sc->boxes[i];
			if (c < ncome && p->cut_come[c] == y) {
				c++;
				continue;
			}
			const uint8_t *row = p->cuts + (size_t)s->compact[y] * nf;
			int k = p->cutters[y];
			for (int g = 0; g < ngone; g++)
				k -= !s->goal[p->cut_gone[g]] && row[s->compact[p->cut_gone[g]]];
			for (int j = 0; j < ncome; j++)
				k += !s->goal[p->cut_come[j]] && row[s->compact[p->cut_come[j]]];
			p->cutters[y] = (uint16_t)k;
		}
		for (int c = 0; c < ncome; c++)
			p->cutters[p->cut_come[c]] = (uint16_t)cutters_bits(p, s, p->cut_come[c]);
	}
	for (int i = 0; i < nboxes; i++)
		p->cut_boxes[i] = sc->boxes[i];
	p->cut_n = nboxes;
}

void soko_features_move(struct soko_plan *p, const struct sokoban *s,
			const struct soko_scratch *sc, int nboxes, int areas, int from, int to,
			struct soko_features *f)
{
	/* a box's cutters are the base's, less the box gone from `from`,
	 * plus the box come to `to`; the moved box's own counted afresh */
	size_t nf = (size_t)p->nfloor;
	int lost = !s->goal[from], won = !s->goal[to];
	size_t fi = (size_t)s->compact[from], ti = (size_t)s->compact[to];
	int hot = 0;
	for (int i = 0; i < nboxes; i++) {
		int y = sc->boxes[i];
		if (y == to) {
			/* the base's boxes off goals, less the one gone */
			hot += cutters_bits(p, s, y) - (lost && cuts(p, s, y, from)) > 0;
			continue;
		}
		const uint8_t *row = p->cuts + (size_t)s->compact[y] * nf;
		int k = p->cutters[y] - (lost && row[fi]) + (won && row[ti]);
		hot += k > 0;
	}
	features_but_hot(p, s, sc, nboxes, areas, hot, f);
}

uint32_t soko_features_pack(const struct soko_features *f)
{
	return (uint32_t)f->packed << 24 | (uint32_t)f->areas << 18 | (uint32_t)f->doorways << 12 |
	       (uint32_t)f->out_of_plan << 6 | f->hotspots;
}

void soko_features_unpack(uint32_t v, struct soko_features *f)
{
	f->packed = (uint8_t)(v >> 24);
	f->areas = (uint8_t)(v >> 18 & 63);
	f->doorways = (uint8_t)(v >> 12 & 63);
	f->out_of_plan = (uint8_t)(v >> 6 & 63);
	f->hotspots = (uint8_t)(v & 63);
}

bool soko_features_better(const struct soko_features *a, const struct soko_features *b)
{
	if (a->packed != b->packed)
		return a->packed > b->packed;
	if (a->areas != b->areas)
		return a->areas < b->areas;
	if (a->doorways != b->doorways)
		return a->doorways < b->doorways;
	if (a->out_of_plan != b->out_of_plan)
		return a->out_of_plan < b->out_of_plan;
	return a->hotspots < b->hotspots;
}

void soko_next_goals(const struct soko_plan *p, const struct soko_scratch *sc, uint16_t *next)
{
	soko_next_goals_box(p, sc->box, next);
}

void soko_next_goals_box(const struct soko_plan *p, const uint8_t *box, uint16_t *next)
{
	for (int a = 0; a < p->nareas; a++) {
		next[a] = SOKO_NONE;
		for (int i = p->area_first[a]; i < p->area_first[a + 1]; i++)
			if (!box[p->area_goals[i]]) {
				next[a] = p->area_goals[i];
				break;
			}
	}
}
