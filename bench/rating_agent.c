/* bench/rating_agent.c - probe of issue 22: model Boxoban's *agents*, not a person.
 *
 * Boxoban's README says only that its medium and hard sets were made as
 * described in Guez et al. 2018 ("An investigation of model-free planning");
 * issue 22 takes it that trained agents filtered them.  Such agents play
 * episodes capped in steps (120 moves in gym-sokoban's Boxoban environment),
 * rewarded +1 box onto a target, -1 off, +10 solved, -0.1 a step.  This probe explores a level's whole
 * state graph at the level of moves (player position and boxes; a move into a
 * wall is a step that changes nothing) and writes, per level, candidate
 * features of how hard it is for a reward-driven agent within the step cap:
 *
 *   moves-opt   the fewest moves that solve the level (breadth first)
 *   cap-excess  max(0, moves-opt - CAP)
 *   depth-det   the least lookahead d (1..DMAX) at which a depth-d planner
 *               (maximises the d-step return, ties to the first move in a fixed
 *               order) solves the level within CAP steps; DMAX + 1 if none
 *   depth-r50   the same for the planner that breaks ties uniformly at random:
 *               the least d whose success rate over RUNS rollouts is >= 1/2
 *   depth-area  the sum over d = 1..DMAX of (1 - that success rate): the depth
 *               an agent lacks, on average over depths
 *   hdepth-det, hdepth-r50, hdepth-area, hrate-D (D = 4, 8, 16: the success
 *               rate at depth D)
 *               the same for a planner that knows the dead ends (states from
 *               which no solution is reachable count -100 at its horizon):
 *               an agent that learned what not to do, not where to go
 *   randwalk    -log10 of the chance that uniformly random moves solve the
 *               level within CAP steps (exact, over the graph)
 *   dwalk       the same for random moves that never enter a dead end
 *
 * A state with a box on a cell from which no push reaches a goal is dead and
 * not expanded (what follows it cannot solve the level; the reward-only
 * planner's values there miss the rewards it could still collect, a small
 * difference to a planner that cannot win from there anyway).
 * The planner's values are exact: V_d(s) = max_a r(s,a) + V_{d-1}(s') over the
 * whole graph (a solved state ends the episode), in tenths so ties are exact.
 * Output: one line per level of the .xsb read on stdin, "index<TAB>features"
 * with a header; a level over MAXS states gets empty fields (unknown).
 *
 * Build: cc -O2 -std=c11 -Wall -Wextra -Wconversion -o rating_agent bench/rating_agent.c -lm
 * (about 0.03 s of CPU a Boxoban level; unfiltered levels, roomier, take longer)
 * Used by bench/rating_agent.py (joins the features onto bench/rating.sh's TSVs).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXW = 64, MAXCELLS = 255, MAXBOX = 32, CAP = 120, DMAX = 30, HMAX = DMAX, RUNS = 16,
       DEADV = 1000, DEAD = 30 };
#ifndef MAXS
#define MAXS 4000000u
#endif

static int ncell, nbox, keylen;
static int nb[MAXCELLS][4];        /* neighbour cell in direction, -1 wall */
static int isgoal[MAXCELLS];
static int pushd[MAXCELLS];        /* pushes to the nearest goal, empty board */
static uint8_t *keys;              /* state i: keys[i*keylen..]: player, boxes sorted */
static uint32_t nstates, capstates;
static uint32_t *table;            /* open addressing, index + 1, 0 empty */
static uint32_t tmask;
static int32_t *succ;              /* 4 per state */
static int16_t *rew;               /* 4 per state, tenths */
static uint8_t *solved;

static uint32_t hash(const uint8_t *k)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < keylen; i++)
		h = (h ^ k[i]) * 16777619u;
	return h;
}

static int grow(void)
{
	uint32_t ncap = capstates ? capstates * 2 : 1u << 16;
	if (ncap > MAXS)
		ncap = MAXS;
	if (ncap <= capstates)
		return -1;
	uint8_t *k = realloc(keys, (size_t)ncap * (size_t)keylen);
	if (!k)
		return -1;
	keys = k;
	uint32_t tcap = 1;
	while (tcap < ncap * 2u)
		tcap <<= 1;
	free(table);
	table = calloc(tcap, sizeof *table);
	if (!table)
		return -1;
	tmask = tcap - 1;
	for (uint32_t i = 0; i < nstates; i++) {
		uint32_t h = hash(keys + (size_t)i * (size_t)keylen) & tmask;
		while (table[h])
			h = (h + 1) & tmask;
		table[h] = i + 1;
	}
	capstates = ncap;
	return 0;
}

/* the state's index, adding it if new; -1 when MAXS is reached */
static int64_t intern(const uint8_t *k)
{
	uint32_t h = hash(k) & tmask;
	while (table[h]) {
		uint32_t i = table[h] - 1;
		if (!memcmp(keys + (size_t)i * (size_t)keylen, k, (size_t)keylen))
			return i;
		h = (h + 1) & tmask;
	}
	if (nstates == capstates) {
		if (grow())
			return -1;
		return intern(k);
	}
	memcpy(keys + (size_t)nstates * (size_t)keylen, k, (size_t)keylen);
	table[h] = nstates + 1;
	return nstates++;
}

static int cmpu8(const void *a, const void *b)
{
	return *(const uint8_t *)a - *(const uint8_t *)b;
}

static int ongoal(const uint8_t *k)
{
	int n = 0;
	for (int i = 1; i < keylen; i++)
		n += isgoal[k[i]];
	return n;
}

/* explores every state from start; fills succ, rew, solved; -1 over MAXS */
static int explore(const uint8_t *start)
{
	nstates = 0;
	if (intern(start) < 0)
		return -1;
	free(succ);
	free(rew);
	free(solved);
	size_t cap = 1u << 16;
	succ = malloc(cap * 4 * sizeof *succ);
	rew = malloc(cap * 4 * sizeof *rew);
	solved = malloc(cap);
	if (!succ || !rew || !solved)
		return -1;
	uint8_t k[MAXBOX + 1], n[MAXBOX + 1];
	for (uint32_t s = 0; s < nstates; s++) {
		if (s >= cap) {
			cap *= 2;
			succ = realloc(succ, cap * 4 * sizeof *succ);
			rew = realloc(rew, cap * 4 * sizeof *rew);
			solved = realloc(solved, cap);
			if (!succ || !rew || !solved)
				return -1;
		}
		memcpy(k, keys + (size_t)s * (size_t)keylen, (size_t)keylen);
		int on = ongoal(k), stuck = 0;
		solved[s] = on == nbox;
		for (int i = 1; i < keylen; i++)
			stuck |= pushd[k[i]] >= DEAD;
		for (int d = 0; d < 4; d++) {
			succ[s * 4 + (unsigned)d] = (int32_t)s;
			rew[s * 4 + (unsigned)d] = -1;
			/* a box on a cell from which no push reaches a goal: dead, and
			   nothing after it matters to these agents: not expanded */
			if (solved[s] || stuck)
				continue;
			int to = nb[k[0]][d];
			if (to < 0)
				continue;
			memcpy(n, k, (size_t)keylen);
			int bi = -1;
			for (int i = 1; i < keylen; i++)
				if (k[i] == to)
					bi = i;
			if (bi > 0) {
				int beyond = nb[to][d];
				int blocked = beyond < 0;
				for (int i = 1; i < keylen && !blocked; i++)
					blocked = k[i] == beyond;
				if (blocked)
					continue;
				n[bi] = (uint8_t)beyond;
				for (int i = bi; i > 1 && n[i - 1] > n[i]; i--) {
					uint8_t x = n[i];
					n[i] = n[i - 1];
					n[i - 1] = x;
				}
				for (int i = bi; i < nbox && n[i + 1] < n[i]; i++) {
					uint8_t x = n[i];
					n[i] = n[i + 1];
					n[i + 1] = x;
				}
			}
			n[0] = (uint8_t)to;
			int64_t t = intern(n);
			if (t < 0)
				return -1;
			int non = ongoal(n);
			succ[s * 4 + (unsigned)d] = (int32_t)t;
			rew[s * 4 + (unsigned)d] = (int16_t)(-1 + 10 * (non - on) + (non == nbox ? 100 : 0));
		}
	}
	return 0;
}

static uint64_t rng = UINT64_C(88172645463325252);
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

/* one episode of the depth-d planner (values v = V_{d-1}); 1 if solved in CAP */
static int episode(const int32_t *v, int random_ties)
{
	uint32_t s = 0;
	for (int step = 0; step < CAP; step++) {
		int32_t best = INT32_MIN;
		int nbest = 0, pick = 0;
		for (int d = 0; d < 4; d++) {
			uint32_t t = (uint32_t)succ[s * 4 + (unsigned)d];
			int32_t q = rew[s * 4 + (unsigned)d] + (solved[t] ? 0 : v[t]);
			if (q > best) {
				best = q;
				nbest = 1;
				pick = d;
			} else if (q == best && random_ties && rnd() % (unsigned)++nbest == 0) {
				pick = d;
			}
		}
		s = (uint32_t)succ[s * 4 + (unsigned)pick];
		if (solved[s])
			return 1;
	}
	return 0;
}

struct plan {
	int ddet, dr50;
	double area, rate[DMAX + 1];
};

/* the depth-d planner for d = 1..dmax: leaf values v0 (NULL: 0), the values
   V_d(s) = max_a r(s,a) + V_{d-1}(s') computed over the whole graph */
static struct plan planner(const int32_t *v0, int dmax)
{
	struct plan o = {dmax + 1, dmax + 1, 0, {0}};
	int32_t *v = malloc(nstates * sizeof *v), *w = malloc(nstates * sizeof *w);
	for (uint32_t s = 0; s < nstates; s++)
		v[s] = v0 ? v0[s] : 0;
	for (int d = 1; d <= dmax; d++) {
		if (o.ddet > dmax && episode(v, 0))
			o.ddet = d;
		rng = UINT64_C(88172645463325252) ^ (uint64_t)(unsigned)d;
		int won = 0;
		for (int r = 0; r < RUNS; r++)
			won += episode(v, 1);
		o.rate[d] = (double)won / RUNS;
		o.area += 1 - o.rate[d];
		if (o.dr50 > dmax && 2 * won >= RUNS)
			o.dr50 = d;
		for (uint32_t s = 0; s < nstates; s++) {
			int32_t best = INT32_MIN;
			if (solved[s]) {
				w[s] = 0;
				continue;
			}
			for (unsigned a = 0; a < 4; a++) {
				uint32_t t = (uint32_t)succ[s * 4 + a];
				int32_t q = rew[s * 4 + a] + (solved[t] ? 0 : v[t]);
				if (q > best)
					best = q;
			}
			w[s] = best;
		}
		int32_t *x = v;
		v = w;
		w = x;
	}
	free(v);
	free(w);
	return o;
}

static void features(const uint8_t *start)
{
	if (explore(start)) {
		printf("\t\t\t\t\t\t\t\t\t\t\t\t\t%u\n", nstates);
		return;
	}
	/* moves-opt: breadth first from the start */
	int32_t *dist = malloc(nstates * sizeof *dist);
	uint32_t *queue = malloc(nstates * sizeof *queue);
	for (uint32_t i = 0; i < nstates; i++)
		dist[i] = -1;
	uint32_t qh = 0, qt = 0;
	int opt = -1;
	dist[0] = 0;
	queue[qt++] = 0;
	while (qh < qt && opt < 0) {
		uint32_t s = queue[qh++];
		if (solved[s]) {
			opt = dist[s];
			break;
		}
		for (unsigned d = 0; d < 4; d++) {
			uint32_t t = (uint32_t)succ[s * 4 + d];
			if (dist[t] < 0) {
				dist[t] = dist[s] + 1;
				queue[qt++] = t;
			}
		}
	}
	free(dist);
	free(queue);
	/* the leaf values of the planner that knows the dead ends: -DEADV tenths
	   for a state from which no solved state is reachable (a fixpoint over the
	   graph; states are numbered breadth first, so backwards converges fast) */
	uint8_t *alive = malloc(nstates);
	for (uint32_t s = 0; s < nstates; s++)
		alive[s] = solved[s];
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t s = nstates; s-- > 0;) {
			if (alive[s])
				continue;
			for (unsigned a = 0; a < 4; a++)
				if (alive[succ[s * 4 + a]]) {
					alive[s] = 1;
					changed = 1;
					break;
				}
		}
	}
	int32_t *hval = malloc(nstates * sizeof *hval);
	for (uint32_t s = 0; s < nstates; s++)
		hval[s] = alive[s] ? 0 : -DEADV;
	struct plan pa = planner(NULL, DMAX), pb = planner(hval, HMAX);
	/* random moves: the chance of solving within CAP steps */
	float *p = calloc(nstates, sizeof *p), *q = malloc(nstates * sizeof *q);
	for (uint32_t s = 0; s < nstates; s++)
		p[s] = solved[s];
	uint32_t nalive = 0, *live = malloc(nstates * sizeof *live);
	for (uint32_t s = 0; s < nstates; s++)
		if (alive[s] && !solved[s])
			live[nalive++] = s;
	for (int k = 0; k < CAP; k++) {
		for (uint32_t i = 0; i < nalive; i++) {
			uint32_t s = live[i];
			float sum = 0;
			for (unsigned a = 0; a < 4; a++)
				sum += p[succ[s * 4 + a]];
			q[s] = sum / 4;
		}
		for (uint32_t i = 0; i < nalive; i++)
			p[live[i]] = q[live[i]];
	}
	double walk = p[0] > 0 ? -log10(p[0]) : 400;
	/* the same walker knowing the dead ends: uniform over the moves that keep
	   the level solvable (a move into a wall is one of them) */
	for (uint32_t s = 0; s < nstates; s++)
		p[s] = solved[s];
	for (int k = 0; k < CAP; k++) {
		for (uint32_t i = 0; i < nalive; i++) {
			uint32_t s = live[i];
			float sum = 0;
			int n = 0;
			for (unsigned a = 0; a < 4; a++)
				if (alive[succ[s * 4 + a]]) {
					sum += p[succ[s * 4 + a]];
					n++;
				}
			q[s] = sum / (float)n;
		}
		for (uint32_t i = 0; i < nalive; i++)
			p[live[i]] = q[live[i]];
	}
	double dwalk = p[0] > 0 ? -log10(p[0]) : 400;
	free(live);
	free(alive);
	free(hval);
	printf("%d\t%d\t%d\t%d\t%.4g\t%d\t%d\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%u\n", opt,
	       opt > CAP ? opt - CAP : 0, pa.ddet, pa.dr50, pa.area, pb.ddet, pb.dr50, pb.area, pb.rate[4], pb.rate[8], pb.rate[16], walk, dwalk, nstates);
	free(p);
	free(q);
}

/* one board: rows[0..h) */
static void level(char rows[][MAXW + 2], int h, int index)
{
	int w = 0, id[MAXW][MAXW], pr = -1, pc = -1;
	for (int r = 0; r < h; r++) {
		int len = (int)strlen(rows[r]);
		if (len > w)
			w = len;
		for (int c = 0; c < len; c++)
			if (rows[r][c] == '@' || rows[r][c] == '+')
				pr = r, pc = c;
	}
	printf("%d\t", index);
	if (pr < 0) {
		printf("\t\t\t\t\t\t\t\t\t\t\t\t\t\n");
		return;
	}
	/* the floor the player can reach (boxes count as floor) */
	for (int r = 0; r < h; r++)
		for (int c = 0; c < MAXW; c++)
			id[r][c] = -2;
	int stack[MAXW * MAXW][2], sp = 0;
	ncell = 0;
	stack[sp][0] = pr, stack[sp][1] = pc, sp++;
	id[pr][pc] = -1;
	uint8_t start[MAXBOX + 1];
	nbox = 0;
	int ngoal = 0, bad = 0;
	while (sp) {
		sp--;
		int r = stack[sp][0], c = stack[sp][1];
		if (ncell >= MAXCELLS) {
			bad = 1;
			break;
		}
		id[r][c] = ncell++;
		char ch = rows[r][c];
		isgoal[id[r][c]] = ch == '.' || ch == '*' || ch == '+';
		ngoal += isgoal[id[r][c]];
		if (ch == '$' || ch == '*') {
			if (nbox >= MAXBOX)
				bad = 1;
			else
				start[1 + nbox++] = (uint8_t)id[r][c];
		}
		static const int dr[4] = {-1, 0, 1, 0}, dc[4] = {0, 1, 0, -1};
		for (int d = 0; d < 4; d++) {
			int rr = r + dr[d], cc = c + dc[d];
			if (rr < 0 || rr >= h || cc < 0 || cc >= (int)strlen(rows[rr]))
				continue;
			if (rows[rr][cc] == '#' || id[rr][cc] != -2)
				continue;
			id[rr][cc] = -1;
			stack[sp][0] = rr, stack[sp][1] = cc, sp++;
		}
	}
	if (bad || nbox == 0 || ngoal != nbox) {
		printf("\t\t\t\t\t\t\t\t\t\t\t\t\t\n");
		return;
	}
	for (int r = 0; r < h; r++)
		for (int c = 0; c < (int)strlen(rows[r]); c++) {
			if (id[r][c] < 0)
				continue;
			static const int dr[4] = {-1, 0, 1, 0}, dc[4] = {0, 1, 0, -1};
			for (int d = 0; d < 4; d++) {
				int rr = r + dr[d], cc = c + dc[d];
				int ok = rr >= 0 && rr < h && cc >= 0 && cc < MAXW && id[rr][cc] >= 0;
				nb[id[r][c]][d] = ok ? id[rr][cc] : -1;
			}
		}
	/* pushd by pulling from every goal: a box on c moves to nb[c][d] when the
	   player stands on nb[c][opposite] */
	for (int c = 0; c < ncell; c++)
		pushd[c] = isgoal[c] ? 0 : DEAD;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int c = 0; c < ncell; c++)
			for (int d = 0; d < 4; d++) {
				int to = nb[c][d], from = nb[c][(d + 2) % 4];
				if (to >= 0 && from >= 0 && pushd[to] + 1 < pushd[c]) {
					pushd[c] = pushd[to] + 1;
					changed = 1;
				}
			}
	}
	start[0] = (uint8_t)id[pr][pc];
	keylen = nbox + 1;
	qsort(start + 1, (size_t)nbox, 1, cmpu8);
	free(keys);
	free(table);
	keys = NULL;
	table = NULL;
	capstates = 0;
	nstates = 0;
	if (grow()) {
		printf("\t\t\t\t\t\t\t\t\t\t\t\t\t\n");
		return;
	}
	features(start);
	fflush(stdout);
}

static int boardline(const char *s)
{
	if (!strchr(s, '#'))
		return 0;
	for (; *s; s++)
		if (!strchr("#@$.*+ -_", *s))
			return 0;
	return 1;
}

int main(void)
{
	static char rows[MAXW][MAXW + 2];
	char line[4096];
	int h = 0, index = 0;
	printf("index\tmoves-opt\tcap-excess\tdepth-det\tdepth-r50\tdepth-area\thdepth-det\thdepth-r50\thdepth-area\thrate-4\thrate-8\thrate-16"
	       "\trandwalk\tdwalk\tmstates\n");
	for (;;) {
		char *got = fgets(line, sizeof line, stdin);
		if (got) {
			line[strcspn(line, "\r\n")] = 0;
			for (char *c = line; *c; c++)
				if (*c == '-' || *c == '_')
					*c = ' ';
		}
		if (got && boardline(line) && strlen(line) <= MAXW && h < MAXW) {
			strcpy(rows[h++], line);
			continue;
		}
		if (h) {
			level(rows, h, ++index);
			h = 0;
		}
		if (!got)
			break;
	}
	return 0;
}
