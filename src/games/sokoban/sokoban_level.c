/*
 * sokoban_level.c - reading a Sokoban level: validation, then the static
 * analysis every search relies on (playable floor, goal distances, dead
 * squares).  The vtable is sokoban.c.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/grid.h"
#include "levelkit/record.h"
#include "sokoban.h"


/* Characters of the XSB format, plus run lengths, groups and row breaks,
 * tabs, and the .sok letters p P b B (see lk_sok_decode_line). */
static bool xsb_char(char c)
{
	return (c != '\0' && strchr("#@+$*. -_|()\tpPbB", c) != NULL) || (c >= '0' && c <= '9');
}

/* The grid of a record with '-' and '_' read as floor.  Returns 0 or -1
 * with err and *line (index into rec->lines) set. */
static int read_grid(const struct lk_record *rec, struct lk_grid *g, struct lk_strbuf *err,
		     size_t *line)
{
	size_t first, n = lk_record_grid(rec, &first);
	if (n == 0) {
		lk_strbuf_addstr(err, "record has no grid");
		*line = (size_t)-1;
		return -1;
	}
	/* Decode every line into plain rows, remembering each row's line.
	 * A line may decode to 64 KiB of rows ("9(9(9(9(#))))"), so the
	 * first row too wide, or one too many, ends the reading at once:
	 * time and memory stay those of a grid of the largest size however
	 * many such lines follow. */
	struct lk_strbuf text = LK_STRBUF_INIT;
	size_t *origin = NULL, nrows = 0, alloc = 0;
	int rc = -1;
	for (size_t i = 0; i < n; i++) {
		const char *t = rec->lines[first + i].text;
		for (size_t k = 0; t[k]; k++) {
			if (!xsb_char(t[k]) && !(t[k] == '\r' && !t[k + 1])) {
				lk_strbuf_addf(err, "unknown sokoban cell '%c' in column %zu", t[k], k + 1);
				*line = first + i;
				goto out;
			}
		}
		size_t before = text.len, row_start = before;
		if (lk_sok_decode_line(t, &text, err) < 0) {
			*line = first + i;
			goto out;
		}
		for (size_t k = before; k < text.len; k++) {
			if (text.buf[k] != '\n')
				continue;
			if (k - row_start > LK_GRID_MAX_SIDE || nrows == LK_GRID_MAX_SIDE) {
				lk_strbuf_addf(err, nrows == LK_GRID_MAX_SIDE ? "grid is taller than %d rows"
									 : "row is wider than %d cells",
					       LK_GRID_MAX_SIDE);
				*line = first + i;
				goto out;
			}
			row_start = k + 1;
			LK_ALLOC_GROW(origin, nrows + 1, alloc);
			origin[nrows++] = first + i;
		}
	}
	{
		/* One pointer per row into the decoded text. */
		const char **rows = lk_xmalloc((nrows ? nrows : 1) * sizeof *rows);
		size_t r = 0;
		for (char *p = text.buf; r < nrows && *p; r++) {
			char *nl = strchr(p, '\n');
			*nl = '\0';
			rows[r] = p;
			p = nl + 1;
		}
		struct lk_grid_parse opt = { .fill = ' ', .run_length = false };
		size_t bad = 0;
		rc = lk_grid_parse_rows(g, rows, nrows, &opt, err, &bad);
		free(rows);
		if (rc < 0) {
			*line = nrows ? origin[bad < nrows ? bad : nrows - 1] : first;
			goto out;
		}
	}
	for (int i = 0; i < g->width * g->height; i++)
		if (g->cells[i] == '-' || g->cells[i] == '_')
			g->cells[i] = ' ';
out:
	free(origin);
	lk_strbuf_release(&text);
	return rc;
}

static bool is_player(char c) { return c == '@' || c == '+'; }
static bool is_box(char c) { return c == '$' || c == '*'; }
static bool is_goal(char c) { return c == '.' || c == '*' || c == '+'; }

/* Row y of the grid as an index into rec->lines (run-length packs may
 * put several rows on one line; then the grid's first line is used). */
static size_t row_line(const struct lk_record *rec, const struct lk_grid *g, int y)
{
	size_t first, n = lk_record_grid(rec, &first);
	return (size_t)g->height == n ? first + (size_t)y : first;
}

int soko_validate(const struct lk_record *rec, const struct lk_level_options *opt,
		  struct lk_strbuf *err, size_t *line)
{
	(void)opt;
	struct lk_grid g;
	if (read_grid(rec, &g, err, line) < 0)
		return -1;
	int px = -1, py = -1, boxes = 0, goals = 0, rc = -1;
	for (int y = 0; y < g.height; y++) {
		for (int x = 0; x < g.width; x++) {
			char c = lk_grid_get(&g, x, y);
			boxes += is_box(c);
			goals += is_goal(c);
			if (!is_player(c))
				continue;
			if (px >= 0) {
				lk_strbuf_addf(err, "more than one player (second in column %d)", x + 1);
				*line = row_line(rec, &g, y);
				goto out;
			}
			px = x;
			py = y;
		}
	}
	if (px < 0) {
		lk_strbuf_addstr(err, "level has no player");
		*line = row_line(rec, &g, 0);
		goto out;
	}
	/* As the big Sokoban programs do (YASC's solver, JSoko, KSokoban),
	 * a level has as many boxes as goals: a spare goal would be a level
	 * other programs refuse to load (docs/games/sokoban.md). */
	if (boxes != goals) {
		lk_strbuf_addf(err, "%s boxes (%d) than goals (%d); a Sokoban level has as many boxes "
			       "as goals", boxes > goals ? "more" : "fewer", boxes, goals);
		*line = row_line(rec, &g, 0);
		goto out;
	}
	/* The player must be walled in: walk everywhere that is not a wall. */
	{
		size_t n = (size_t)g.width * (size_t)g.height;
		uint8_t *seen = lk_xcalloc(n, 1);
		int *stack = lk_xmalloc(n * sizeof *stack);
		int sp = 0, open_y = -1;
		stack[sp++] = py * g.width + px;
		seen[py * g.width + px] = 1;
		while (sp > 0 && open_y < 0) {
			int c = stack[--sp], x = c % g.width, y = c / g.width;
			for (int d = 0; d < 4; d++) {
				int nx = x + lk_dir_dx[d], ny = y + lk_dir_dy[d];
				if (!lk_grid_inside(&g, nx, ny)) {
					open_y = y;
					break;
				}
				int nc = ny * g.width + nx;
				if (!seen[nc] && g.cells[nc] != '#') {
					seen[nc] = 1;
					stack[sp++] = nc;
				}
			}
		}
		free(seen);
		free(stack);
		if (open_y >= 0) {
			lk_strbuf_addstr(err, "level is not enclosed: the player can walk off the grid");
			*line = row_line(rec, &g, open_y);
			goto out;
		}
	}
	rc = 0;
out:
	lk_grid_release(&g);
	return rc;
}

/* Push distances to goal number gi: a reverse breadth-first search that
 * pulls a box away from the goal (the player needs the cell beyond). */
static void goal_distances(struct sokoban *s, int gi, uint16_t *queue)
{
	uint16_t *dist = s->dist + (size_t)gi * (size_t)s->cells;
	for (int c = 0; c < s->cells; c++)
		dist[c] = SOKO_INF;
	int head = 0, tail = 0;
	dist[s->goals[gi]] = 0;
	queue[tail++] = s->goals[gi];
	while (head < tail) {
		int y = queue[head++];
		for (int d = 0; d < 4; d++) {
			int x = y - s->off[d];       /* where the box came from */
			int p = x - s->off[d];       /* where the player stood */
			if (s->wall[x] || s->wall[p] || dist[x] != SOKO_INF)
				continue;
			dist[x] = (uint16_t)(dist[y] + 1);
			queue[tail++] = (uint16_t)x;
		}
	}
}

struct lk_level *soko_new_level(const struct lk_record *rec, const struct lk_level_options *opt)
{
	struct lk_grid g;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	if (read_grid(rec, &g, &err, &line) < 0) {
		lk_strbuf_release(&err);
		return NULL;
	}
	lk_strbuf_release(&err);

	struct sokoban *s = lk_xcalloc(1, sizeof *s);
	s->width = g.width + 2;
	s->height = g.height + 2;
	s->cells = s->width * s->height;
	for (int d = 0; d < 4; d++)
		s->off[d] = lk_dir_dy[d] * s->width + lk_dir_dx[d];
	/* the thesis measure: moves, its heuristic, no pruning (the player's
	 * steps are tried clockwise from up, as the PuzzleScript game tries
	 * its inputs under the measure) */
	bool plain = opt->plain || opt->thesis;
	s->push_graph = !opt->thesis && (!opt->metric || strcmp(opt->metric, "pushes") == 0);
	s->heuristic = opt->thesis || (opt->heuristic && (strcmp(opt->heuristic, "mixedaim") == 0 ||
							   strcmp(opt->heuristic, "thesis") == 0))
			       ? SOKO_H_MIXEDAIM : SOKO_H_MATCHING;
	for (int t = 0; t < SOKO_NTECH; t++) {
		const char *name = soko_techniques[t].name;
		bool asked = !(soko_techniques[t].flags & LK_TECH_OFF) ||
			     (opt->on && lk_name_in(name, opt->on));
		s->use[t] = !plain && asked && !(opt->off && lk_name_in(name, opt->off));
	}

	size_t n = (size_t)s->cells;
	char *board = lk_xmalloc(n);
	memset(board, '#', n);
	for (int y = 0; y < g.height; y++)
		for (int x = 0; x < g.width; x++)
			board[(y + 1) * s->width + x + 1] = lk_grid_get(&g, x, y);
	lk_grid_release(&g);

	/* Floor = everything the player can reach with boxes counted as floor. */
	s->wall = lk_xmalloc(n);
	memset(s->wall, 1, n);
	s->goal = lk_xcalloc(n, 1);
	uint16_t *queue = lk_xmalloc(n * sizeof *queue);
	for (int c = 0; c < s->cells; c++)
		if (is_player(board[c]))
			s->player0 = (uint16_t)c;
	int head = 0, tail = 0;
	queue[tail++] = s->player0;
	s->wall[s->player0] = 0;
	while (head < tail) {
		int c = queue[head++];
		for (int d = 0; d < 4; d++) {
			int nc = c + s->off[d];
			if (s->wall[nc] && board[nc] != '#') {
				s->wall[nc] = 0;
				queue[tail++] = (uint16_t)nc;
			}
		}
	}
	/* Number the floor; a box outside it can never move: on a goal it is
	 * a wall, off a goal it makes the level impossible. */
	s->compact = lk_xmalloc(n * sizeof *s->compact);
	s->cell_of = lk_xmalloc(n * sizeof *s->cell_of);
	s->goals = lk_xmalloc(n * sizeof *s->goals);
	for (int c = 0; c < s->cells; c++) {
		s->compact[c] = -1;
		if (s->wall[c]) {
			if (is_box(board[c]) && !is_goal(board[c]))
				s->impossible = true;
			continue;
		}
		s->compact[c] = s->nfloor;
		s->cell_of[s->nfloor++] = (uint16_t)c;
		if (is_goal(board[c])) {
			s->goal[c] = 1;
			s->goals[s->ngoals++] = (uint16_t)c;
		}
	}
	s->bitset_bytes = ((size_t)s->nfloor + 7) / 8;
	s->box0 = lk_xcalloc(s->bitset_bytes, 1);
	s->goal_bits = lk_xcalloc(s->bitset_bytes, 1);
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		if (is_box(board[c])) {
			soko_bit_flip(s->box0, i);
			s->nboxes++;
		}
		if (s->goal[c])
			soko_bit_flip(s->goal_bits, i);
	}
	if (s->nboxes > s->ngoals)
		s->impossible = true;
	/* Keep the fixed part of the drawing for write_state. */
	for (int c = 0; c < s->cells; c++) {
		if (board[c] == '#' || (s->wall[c] && is_box(board[c])))
			board[c] = is_box(board[c]) ? '*' : '#';
		else
			board[c] = is_goal(board[c]) ? '.' : ' ';
	}
	s->board = board;

	s->dist = lk_xmalloc((size_t)(s->ngoals ? s->ngoals : 1) * n * sizeof *s->dist);
	for (int gi = 0; gi < s->ngoals; gi++)
		goal_distances(s, gi, queue);
	free(queue);
	s->dead = lk_xcalloc(n, 1);
	for (int c = 0; c < s->cells; c++) {
		if (s->wall[c])
			continue;
		bool reachable = false;
		for (int gi = 0; gi < s->ngoals && !reachable; gi++)
			reachable = s->dist[(size_t)gi * n + (size_t)c] != SOKO_INF;
		s->dead[c] = !reachable;
		if (s->dead[c] && s->use[SOKO_T_DEAD_SQUARES] && soko_bit(s->box0, s->compact[c]))
			s->impossible = true;
	}
	/* Without dead squares (plain levels) every push is generated, as a
	 * rule interpreter would. */
	if (!s->use[SOKO_T_DEAD_SQUARES])
		memset(s->dead, 0, n);

	s->ntargets = s->ngoals;
	s->targets = s->goals;
	s->tdist = s->dist;
	soko_targets_by_cell(s);
	soko_target_order(s);
	soko_find_deadends(s);
	soko_aware_build(s);
	soko_aware_by_cell(s);
	s->pairs = soko_pairs_new(s, false);
	s->base.game = &lk_game_sokoban;
	s->base.key_size = 2 + s->bitset_bytes;
	s->base.max_successors = s->push_graph ? (unsigned)(4 * (s->nboxes ? s->nboxes : 1)) : 4;
	s->base.scratch_size = soko_scratch_size(s);
	s->base.metric = s->push_graph ? "pushes" : "moves";
	s->base.has_heuristic = true;
	/* the halved greedy matching can overestimate (sokoban_heuristic.c) */
	s->base.heuristic_admissible = s->heuristic == SOKO_H_MATCHING;
	soko_name_facts(s);
	/* With four boxes or fewer a small search is most of the level, and
	 * the level solves in fewer pushes than learning costs (Boxoban's
	 * levels): no table. */
	if (s->use[SOKO_T_DEADTAB] && s->push_graph && !s->impossible && s->nboxes > SOKO_DT_MIN_BOXES)
		s->deadtab = soko_deadtab_new(s);
	s->patterns = soko_patterns_new(s);
	return &s->base;
}

void soko_free_level(struct lk_level *level)
{
	struct sokoban *s = (struct sokoban *)level;
	if (s->forward) {
		/* a reversed level owns only what differs from its forward one */
		free(s->dead);
		free((void *)s->targets);
		free((void *)s->tdist);
		if (s->tdist_by_cell != s->forward->tdist_by_cell)
			free(s->tdist_by_cell);
		if (s->aware_tdist != s->forward->aware_tdist)
			free((void *)s->aware_tdist);
		if (s->aware_by_cell != s->forward->aware_by_cell) {
			free(s->aware_by_cell);
			free(s->aware_row_flags);
		}
		if (s->pairs != s->forward->pairs)
			soko_pairs_free(s->pairs);
		free(s->start_key);
		free(s->blocks);
		free(s->target_index);
		free(s);
		return;
	}
	free(s->exit_area);
	free(s->board);
	free(s->wall);
	free(s->goal);
	free(s->dead);
	free(s->compact);
	free(s->cell_of);
	free(s->goals);
	free(s->box0);
	free(s->goal_bits);
	free(s->dist);
	free(s->tdist_by_cell);
	free(s->deadend);
	soko_aware_free(s);
	soko_pairs_free(s->pairs);
	soko_patterns_free(s->patterns);
	soko_deadtab_free(s->deadtab);
	free(s->blocks);
	free(s->target_index);
	free(s->fact_names);
	free(s->fact_text);
	free(s);
}

const struct lk_technique soko_techniques[] = {
	[SOKO_T_DEAD_SQUARES] = { "dead-squares", "pruned-dead-squares",
				  "no push onto a square from which no goal can be reached",
				  LK_TECH_OPTIMAL },
	[SOKO_T_FREEZE] = { "freeze", "pruned-freeze",
			    "no push that leaves a box frozen off its goal", LK_TECH_OPTIMAL },
	[SOKO_T_BIPARTITE] = { "bipartite", "pruned-bipartite",
			       "no state whose boxes cannot be matched to distinct goals",
			       LK_TECH_OPTIMAL },
	[SOKO_T_PI_CORRALS] = { "pi-corrals", "pruned-pi-corrals",
				"only the pushes into a PI-corral while one needs pushing",
				LK_TECH_OPTIMAL },
	[SOKO_T_TUNNELS] = { "tunnel-macros", "tunnel-macros",
			     "pushes metric: a box pushed into a dead-end corridor goes on to its "
			     "deepest empty goal at once",
			     LK_TECH_OPTIMAL },
	[SOKO_T_DEADTAB] = { "deadlock-table", "pruned-deadlock-table",
			     "patterns of boxes proved dead by small searches, learned and matched",
			     LK_TECH_OPTIMAL },
	[SOKO_T_AWARE] = { "player-aware", "player-aware-raised",
			   "push distances that know which side of a box the player can reach "
			   "(the lower bound)",
			   LK_TECH_OPTIMAL },
	[SOKO_T_PAIRS] = { "pair-conflicts", "pair-conflicts-raised",
			   "pushes metric: the lower bound adds what pairs of boxes cost together "
			   "beyond their costs alone (a pattern database of two boxes)",
			   LK_TECH_OPTIMAL },
	[SOKO_T_GREEDY_FIRST] = { "greedy-first", "greedy-runs",
				  "-a any: greedy best-first search both ways first, with 30 % of the time",
				  LK_TECH_ANY },
	[SOKO_T_MACROS] = { "box-macros", "box-moves",
			    "-a any: a move pushes one box as far as it goes, not one square",
			    LK_TECH_ANY },
	[SOKO_T_PACKING] = { "packing-order", "packing-goals",
			     "-a any: goals filled in an order worked out backwards from the solution",
			     LK_TECH_ANY },
	[SOKO_T_FEATURES] = { "feature-space", "feature-cells",
			      "-a any: states taken in turn from the cells of their features (FESS)",
			      LK_TECH_ANY },
	[SOKO_T_ADVISORS] = { "advisors", "advised-moves",
			      "-a any: the moves that improve a feature are tried first", LK_TECH_ANY },
	[SOKO_T_GOAL_ROOMS] = { "goal-rooms", "goal-room-cuts",
				"-a any: boxes on the goals an area has packed in order stay there, a unit",
				LK_TECH_ANY },
	[SOKO_T_GOAL_CUTS] = { "goal-cuts", "goal-cuts",
			       "-a any: a move that fills the next goal of an area cuts the other moves",
			       LK_TECH_ANY },
	[SOKO_T_GREEDY_SLICES] = { "greedy-slices", "greedy-slices",
				   "-a any: greedy first in slices of states between turns of the "
				   "feature-space search, not 30 % of the time at once",
				   LK_TECH_ANY },
	[SOKO_T_ALIVE_REUSE] = { "alive-reuse", "alive-reused",
				 "deadlock table: a small search stops at a position already found alive "
				 "(counted by -a any)",
				 LK_TECH_OPTIMAL },
	[SOKO_T_RELEVANCE] = { "relevance-cuts", "relevance-cuts",
			       "-a any: moves far from the last one are cut once a path has made "
			       "its budget of such moves",
			       LK_TECH_ANY },
	[SOKO_T_PULL] = { "pull-search", "pull-search-answers",
			  "-a any: greedy search by pulls from the solved position beside the "
			  "feature-space search, which may also meet it",
			  LK_TECH_ANY },
	[SOKO_T_STALL] = { "stall-turns", "stall-turns",
			   "-a any: the search without goal rooms and relevance cuts gets turns "
			   "while the first one packs no more boxes",
			   LK_TECH_ANY },
	[SOKO_T_PULL_TWO_WAY] = { "pull-two-way", "pull-two-way-answers",
				  "-a any: the pull search also answers when it pulls to a position "
				  "the feature-space search holds",
				  LK_TECH_ANY },
	[SOKO_T_PARKING] = { "parking-plan", "parked-boxes",
			     "-a any: a packing order that first parks boxes off the goals, where "
			     "their start needs one",
			     LK_TECH_ANY },
	[SOKO_T_PATTERNS] = { "pattern-search", "patterns-found",
			      "pushes metric: the lower bound adds the penalties of clusters of up "
			      "to four boxes, proved by small searches during the search",
			      LK_TECH_OPTIMAL },
	[SOKO_T_ROOMS] = { "room-connectivity", "room-links",
			   "-a any, off unless --with asks for it (it gained no Sasquatch level): "
			   "a feature and cell coordinate of the links between rooms that boxes "
			   "cut, in place of boxes in doorways (FESS)",
			   LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_PULL_WEIGHTED] = { "pull-weighted", "pull-weighted-answers",
				   "-a any, off unless --with asks for it (it gained Sasquatch II 48 "
				   "and lost II 16, 27 and III 11): the pull search orders its states "
				   "as YASS's backward search, pulls/2 + 3/2 of the bound, not greedily",
				   LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_NO_UNPACK] = { "no-unpacking", "unpacking-unadvised",
			       "-a any: in the first search (which trusts the packing order) no "
			       "advisor proposes a move that unpacks a box (Festival's rule)",
			       LK_TECH_ANY },
	[SOKO_T_PULL_BOTH] = { "pull-both-orders", "pull-both-orders-answers",
			       "-a any: while greedy's pull search stalls, the pull search also "
			       "expands states in YASS's order, one for each greedy expansion, up "
			       "to a cap, over one table (pull-weighted: YASS's order alone)",
			       LK_TECH_ANY },
	[SOKO_T_EXPLORER] = { "explorer", "explorer-moves",
			      "-a any, off unless --with asks for it: an advisor (FESS's explorer) "
			      "proposes the move after which the player reaches a push out of "
			      "reach before",
			      LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_OPENER] = { "opener", "opener-moves",
			    "-a any, off unless --with asks for it: an advisor (FESS's opener) "
			    "proposes pushing the box nearest the next goal to fill away from it",
			    LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_PACK_ENTRY] = { "packing-entry", "packing-entry-refusals",
				"-a any: the packing order's retrieval takes a box out only to where "
				"the player, after the pulls, can walk back to the start (else the "
				"order may fill a goal whose way in an earlier goal closes)",
				LK_TECH_ANY },
	[SOKO_T_SPLIT] = { "split", "split-wins",
			   "-a any with --split N: N differently configured searches of a level "
			   "at once, one a thread; counts the answers of a search other than the "
			   "default one",
			   LK_TECH_ANY },
	[SOKO_T_PLAN_DEAD] = { "plan-deadlocks", "plan-deadlock-cuts",
			       "-a any: in the first search (goal rooms on), a move is cut when "
			       "after it a box can no longer reach a goal not packed, or such a "
			       "goal no box, with the packed boxes as walls (off by default: "
			       "it gained no level)",
			       LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_BIG_CORRALS] = { "big-corrals", "big-corral-patterns",
				 "deadlock table, off unless --with asks for it (it gained no "
				 "Sasquatch level and lost III 43 at -t 30): a corral fenced by up "
				 "to 16 boxes (not 6) is searched alone too, within 100 positions; "
				 "counts the states its patterns cut",
				 LK_TECH_OPTIMAL | LK_TECH_OFF },
	[SOKO_T_PROVEN_ALIVE] = { "proven-alive", "alive-unproven",
				  "deadlock table, off unless --with asks for it (it gained no "
				  "Sasquatch level and lost III 43 at -t 30): a corral's fence "
				  "searched alone (within 200 positions) stops only at a position "
				  "known alive by a proof (on the way to every box on a goal), not "
				  "by boxes spread apart (alive only as seen from that search's "
				  "start); counts the positions not trusted",
				  LK_TECH_OPTIMAL | LK_TECH_OFF },
	[SOKO_T_REPLAN] = { "replan", "replans",
			    "-a any, off unless --with asks for it (it gained no Sasquatch "
			    "level): when the first search stalls with a box shut off from the "
			    "goals left by boxes it packed, it runs again under a packing order "
			    "that fills those packed goals last",
			    LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_IMAGINE] = { "imagine", "imagine-moves",
			     "-a any, off unless --with asks for it (it gained no Sasquatch level "
			     "and lost II 24 and III 43 at -t 30): an advisor (Festival's "
			     "imagine) proposes, where a parking plan is in force, the move that "
			     "puts one more box where the plan has it before its next packing, "
			     "the boxes then nearest that position",
			     LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_PLAYABLE_PARK] = { "playable-parking", "parking-refusals",
				   "-a any, off unless --with asks for it (it gained Sasquatch II "
				   "21 and lost II 19 at -t 30): the parking plan parks no box on a "
				   "start square whose own box the plan moves only later (a plan so "
				   "could not be played); counts the parking squares it refused",
				   LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_PARK_RETRY] = { "parking-retry", "parking-retries",
				"-a any: where the parking plan's search finds no complete plan, "
				"it runs again refusing the start squares taken, as "
				"playable-parking does; counts the plans found so",
				LK_TECH_ANY },
	[SOKO_T_PLAYABLE_PLAN] = { "playable-plan", "playable-plans",
				   "-a any, off unless --with asks for it (of the Sasquatch "
				   "levels it changes only I 41's plan, and builds plans 40 % "
				   "slower): the parking plan is first sought with the boxes it "
				   "has taken out kept on their start squares, so that it can be "
				   "played push by push (else as without it); counts the plans "
				   "found so",
				   LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_PARK_DEAD] = { "park-deadlocks", "park-deadlock-cuts",
			       "-a any: in the first search, where a parking plan is in force, "
			       "a move is cut when after it a box can no longer reach a goal the "
			       "plan has not reached, or such a goal no box, with the boxes on "
			       "the goals of the steps reached as walls",
			       LK_TECH_ANY },
	[SOKO_T_GREEDY_SHARE] = { "greedy-share", "greedy-share-stops",
				  "-a any: greedy search's 30 % share of the time bound is counted "
				  "in states (150,000 a second), not timed, so that a level's course "
				  "is the same on every run; counts the greedy searches it stopped",
				  LK_TECH_ANY },
	[SOKO_T_CELL_AGE] = { "cell-age", "aged-turns",
			      "-a any, off unless --with asks for it: every 8th turn of a "
			      "feature-space cell plays the expansion that has waited in it "
			      "longest, not the lightest (so that newer ones of equal weight "
			      "cannot starve it); counts those turns",
			      LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_PLAN_REPAIR] = { "plan-repair", "plans-repaired",
				 "-a any, off unless --with asks for it (with park-deadlocks it "
				 "loses Sasquatch I 31, which it gained without them): where the "
				 "parking plan's first step that cannot be pushed finds its target "
				 "holding a box not moved yet, the plan is mended forwards (a "
				 "blocking box's step played first, or the box set aside) and kept "
				 "when more of it plays push by push; counts the plans so mended",
				 LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_SHUFFLE_PLAN] = { "shuffle-plan", "shuffled-plans",
				  "-a any: where the parking plan cannot be played push by push, a "
				  "bounded best-first search over box moves from the start looks "
				  "for a prelude (boxes shuffled off one another's way) after which "
				  "it plays to its end; the plan in force is then the prelude and "
				  "the plan; counts the plans so found",
				  LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_RESTART] = { "restart", "restarts",
			     "-a any, off unless --with asks for it (it gained none of the 12 "
			     "unsolved Sasquatch levels with a parking plan): where the first "
			     "search under a parking plan stalls or runs dry, fresh bounded "
			     "searches from the first positions of its best path at each plan "
			     "step, deepest first, each as a level of its own; an answer is "
			     "joined to the path to its position; counts those searches",
			     LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_UNORDERED] = { "unordered-turns", "unordered-turns",
			       "-a any: where the level has a packing order, every other turn "
			       "of the sound search beside a stalled first search (the first "
			       "turn first) runs under a plan without it, every goal an area of "
			       "its own, in case the order is wrong; counts those turns",
			       LK_TECH_ANY },
	[SOKO_T_UNPARKED] = { "unparked-turns", "unparked-turns",
			      "-a any, off unless --with asks for it: where the level has a "
			      "parking plan, turns of the sound search also run under the "
			      "packing order without the parking plan, a third kind of turn "
			      "in the rotation; counts those turns",
			      LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_DRY_TURNS] = { "dry-turns", "dry-turns",
			       "-a any, off unless --with asks for it: where the first search "
			       "runs dry and the sound search runs again in its place, it gets "
			       "stall turns too, of the kinds unordered-turns and "
			       "unparked-turns enable (not its own plan's); counts those turns",
			       LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_DRY_RESTART] = { "dry-restart", "dry-restarts",
				 "-a any, off unless --with asks for it: where the first search "
				 "runs dry and the sound search runs again in its place, at each "
				 "of that search's stalls fresh searches from positions on its "
				 "best path, each as a level of its own with a plan made from "
				 "there (restart's rounds, parking plan or not); counts those "
				 "searches",
				 LK_TECH_ANY | LK_TECH_OFF },
	[SOKO_T_PULL_CAP] = { "pull-cap-turns", "pull-cap-raises",
			      "-a any: each stall turn that does not answer raises "
			      "pull-both-orders' cap on the states of YASS's order fourfold, "
			      "its states past the old cap taking turns in the pull search's "
			      "share; counts the raises",
			      LK_TECH_ANY },
	[SOKO_T_AREAS] = { "area-by-area", "areas-apart",
			   "-a any: before the search of the whole level, each goal area (goals "
			   "at most two steps apart) with the boxes the matching gives it is "
			   "solved as a level of its own, every other box a wall, the player "
			   "left beside the boxes still to go; what is left is then searched "
			   "from there; counts the areas so solved",
			   LK_TECH_ANY },
	[SOKO_T_AREA_RESTARTS] = { "area-restarts", "area-restarts",
				   "-a any: where area by area leaves areas unsolved, each of "
				   "them with an area solved before it is taken as one area, "
				   "and the areas are solved again from the start, with more "
				   "states a solve; counts the restarts tried",
				   LK_TECH_ANY },
	[SOKO_T_AREA_RESTORE] = { "area-restore", "area-restores",
				  "-a any: where area by area and the rest after it did not "
				  "solve the level, a second pass from the start solves an area "
				  "whose level, every other box a wall, is proved unsolvable or "
				  "dead at the start again with the boxes of the other areas "
				  "near it in it, free to move but each to end on its own "
				  "square; counts the areas so solved",
				  LK_TECH_ANY },

	{ NULL, NULL, NULL, 0 },
};

void soko_technique_counts(const struct lk_level *level, const void *scratch, uint64_t *counts)
{
	(void)level;
	const struct soko_scratch *sc = scratch;
	if (!sc->ready)
		return;
	for (int t = 0; t < SOKO_NTECH; t++)
		counts[t] += sc->count[t];
}
