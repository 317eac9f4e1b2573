/*
 * laser_level.c - the laser game's level model: reading piece lines
 * ("A SRC >E 1/2", "2 BND W>S") and grid rows into a spec with a message
 * for each fault, and building a level from a spec: the power unit (every
 * power a whole number of units), the powers in units, and the ray table.
 * laser_io.c reads and writes the two text forms through these.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"

static const char *const type_names[LK_LASER_NTYPES] = {
	"SRC", "TGT", "BND", "SP2", "SP3", "CMB2", "CMB3", "blocker"
};
/* in- and out-ports each type has */
static const uint8_t type_nin[LK_LASER_NTYPES] = { 0, 1, 1, 1, 1, 2, 3, 0 };
static const uint8_t type_nout[LK_LASER_NTYPES] = { 1, 0, 1, 2, 3, 1, 1, 0 };
static const char side_letter[4] = { 'N', 'E', 'S', 'W' };

const char *lk_laser_type_name(enum lk_laser_type t)
{
	return (unsigned)t < LK_LASER_NTYPES ? type_names[t] : "?";
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

bool laser_same_word(const char *a, size_t len, const char *b)
{
	if (strlen(b) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (upper(a[i]) != upper(b[i]))
			return false;
	return true;
}

int laser_type_of(const char *name, size_t len)
{
	for (int t = 0; t < LK_LASER_NTYPES; t++)
		if (laser_same_word(name, len, type_names[t]))
			return t;
	return -1;
}

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* a * b, or -1 when it would pass LASER_MAX_POWER. */
static int64_t mul_checked(int64_t a, int64_t b)
{
	if (a < 0 || b < 0 || (b && a > LASER_MAX_POWER / b))
		return -1;
	return a * b;
}

void laser_power_text(const struct lk_laser *lv, int64_t value, struct lk_strbuf *out)
{
	int64_t g = gcd64(value < 0 ? -value : value, lv->unit);
	if (g == 0)
		g = 1;
	if (lv->unit / g == 1)
		lk_strbuf_addf(out, "%lld", (long long)(value / g));
	else
		lk_strbuf_addf(out, "%lld/%lld", (long long)(value / g), (long long)(lv->unit / g));
}

void laser_ports_text(uint8_t ins, uint8_t outs, struct lk_strbuf *out)
{
	for (int s = 0; s < 4; s++)
		if (ins >> s & 1)
			lk_strbuf_addch(out, side_letter[s]);
	lk_strbuf_addch(out, '>');
	for (int s = 0; s < 4; s++)
		if (outs >> s & 1)
			lk_strbuf_addch(out, side_letter[s]);
}

/* ----------------------------------------------------- piece lines */

void laser_split_words(const char *s, struct laser_words *ws)
{
	ws->n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s || *s == ';')   /* ';' starts a trailing comment */
			return;
		if (ws->n == 6) {
			ws->n++;
			return;
		}
		ws->w[ws->n] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		ws->len[ws->n] = (size_t)(s - ws->w[ws->n]);
		ws->n++;
	}
}

int laser_parse_int(const char *s, size_t len, int64_t max, int64_t *out)
{
	int64_t v = 0;
	if (!len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return -1;
	}
	*out = v;
	return 0;
}

/* "P" or "P/Q", P and Q positive, reduced. */
static int parse_fraction(const char *s, size_t len, int64_t *num, int64_t *den)
{
	const char *slash = memchr(s, '/', len);
	size_t plen = slash ? (size_t)(slash - s) : len;
	*den = 1;
	if (laser_parse_int(s, plen, INT64_C(1) << 40, num) < 0 ||
	    (slash && laser_parse_int(slash + 1, len - plen - 1, INT64_C(1) << 40, den) < 0) ||
	    *num <= 0 || *den <= 0)
		return -1;
	int64_t g = gcd64(*num, *den);
	*num /= g;
	*den /= g;
	return 0;
}

static int parse_ports(const char *s, size_t len, int type, struct laser_kind *k,
		       struct lk_strbuf *err)
{
	const char *gt = memchr(s, '>', len);
	if (!gt) {
		lk_strbuf_addf(err, "ports '%.*s' lack '>' (e.g. W>NS: in from W, out N and S)",
			       (int)len, s);
		return -1;
	}
	k->ins = k->outs = 0;
	for (size_t i = 0; i < len; i++) {
		if (s + i == gt)
			continue;
		const char *p = strchr("NESW", upper(s[i]));
		if (!p || !s[i]) {
			lk_strbuf_addf(err, "ports '%.*s': '%c' is not a side (N E S W) or '>'",
				       (int)len, s, s[i]);
			return -1;
		}
		uint8_t bit = (uint8_t)(1u << (p - "NESW"));
		if ((k->ins | k->outs) & bit) {
			lk_strbuf_addf(err, "ports '%.*s' name side %c twice", (int)len, s, upper(s[i]));
			return -1;
		}
		if (s + i < gt)
			k->ins |= bit;
		else
			k->outs |= bit;
	}
	k->nin = (uint8_t)(((k->ins >> 0) & 1) + ((k->ins >> 1) & 1) + ((k->ins >> 2) & 1) + ((k->ins >> 3) & 1));
	k->nout = (uint8_t)(((k->outs >> 0) & 1) + ((k->outs >> 1) & 1) + ((k->outs >> 2) & 1) + ((k->outs >> 3) & 1));
	if (type == LK_LASER_TGT && k->nin >= 1 && k->nout == 0)
		return 0;   /* a target on several sides sums its beams */
	if (type == LK_LASER_TGT) {
		lk_strbuf_addf(err, "TGT takes 1 to 4 in-ports and no out-port, not '%.*s'", (int)len, s);
		return -1;
	}
	if (k->nin != type_nin[type] || k->nout != type_nout[type]) {
		lk_strbuf_addf(err, "%s takes %d in-port%s and %d out-port%s, not '%.*s'",
			       type_names[type], type_nin[type], type_nin[type] == 1 ? "" : "s",
			       type_nout[type], type_nout[type] == 1 ? "" : "s", (int)len, s);
		return -1;
	}
	if (type == LK_LASER_BND && (k->outs == (k->ins << 2 & 15) || k->ins == (k->outs << 2 & 15))) {
		lk_strbuf_addf(err, "a bender turns a beam by 90 degrees: '%.*s' goes straight",
			       (int)len, s);
		return -1;
	}
	return 0;
}

/* "A SRC >E 1" (fixed) or "2 BND W>S" (tray) into k; the letter or the
 * count in *tag. */
static int parse_piece(const char *text, bool fixed, struct laser_kind *k, int64_t *tag,
		       struct lk_strbuf *err)
{
	struct laser_words ws;
	memset(k, 0, sizeof *k);
	laser_split_words(text, &ws);
	const char *usage = fixed ? "expected LETTER TYPE PORTS [POWER], e.g. A SRC >E 1/2"
				  : "expected COUNT TYPE PORTS, e.g. 2 BND W>S";
	if (ws.n < 3 || ws.n > 4 || (!fixed && ws.n != 3)) {
		lk_strbuf_addstr(err, usage);
		return -1;
	}
	if (fixed) {
		char c = ws.w[0][0];
		if (ws.len[0] != 1 || !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
			lk_strbuf_addf(err, "'%.*s' is not a letter: %s", (int)ws.len[0], ws.w[0], usage);
			return -1;
		}
		k->letter = c;
		*tag = c;
	} else if (laser_parse_int(ws.w[0], ws.len[0], LK_LASER_MAX_CELLS, tag) < 0 || *tag < 1) {
		lk_strbuf_addf(err, "'%.*s' is not a count from 1 to %d: %s", (int)ws.len[0], ws.w[0],
			       LK_LASER_MAX_CELLS, usage);
		return -1;
	}
	int type = laser_type_of(ws.w[1], ws.len[1]);
	if (type < 0 || type == LK_LASER_BLOCKER) {
		lk_strbuf_addf(err, "unknown piece type '%.*s' (SRC TGT BND SP2 SP3 CMB2 CMB3)",
			       (int)ws.len[1], ws.w[1]);
		return -1;
	}
	if (!fixed && (type == LK_LASER_SRC || type == LK_LASER_TGT)) {
		lk_strbuf_addf(err, "a tray holds benders, splitters and combiners, not %s",
			       type_names[type]);
		return -1;
	}
	k->type = (uint8_t)type;
	if (parse_ports(ws.w[2], ws.len[2], type, k, err) < 0)
		return -1;
	bool powered = type == LK_LASER_SRC || type == LK_LASER_TGT;
	if (powered && ws.n != 4) {
		lk_strbuf_addf(err, "%s %c needs a power, e.g. 1/2", type_names[type], k->letter);
		return -1;
	}
	if (!powered && ws.n == 4) {
		lk_strbuf_addf(err, "only sources and targets have a power, not %s", type_names[type]);
		return -1;
	}
	if (powered && parse_fraction(ws.w[3], ws.len[3], &k->num, &k->den) < 0) {
		lk_strbuf_addf(err, "'%.*s' is not a positive power P or P/Q", (int)ws.len[3], ws.w[3]);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ specs */

static int find_fixed(const struct laser_spec *spec, char letter)
{
	for (int i = 0; i < spec->nfixed; i++)
		if (spec->fixed[i].letter == letter)
			return i;
	return -1;
}

/* Add a piece line to spec.  -1 with err. */
int laser_spec_add(struct laser_spec *spec, const char *text, bool fixed, struct lk_strbuf *err)
{
	struct laser_kind k;
	int64_t tag;
	if (parse_piece(text, fixed, &k, &tag, err) < 0)
		return -1;
	if (fixed) {
		if (find_fixed(spec, k.letter) >= 0) {
			lk_strbuf_addf(err, "fixed piece %c is defined twice", k.letter);
			return -1;
		}
		spec->fixed[spec->nfixed++] = k;   /* at most 52 letters */
	} else {
		if (spec->ntray == LK_LASER_MAX_LINES) {
			lk_strbuf_addf(err, "more than %d tray lines", LK_LASER_MAX_LINES);
			return -1;
		}
		spec->tray_count[spec->ntray] = (int)tag;
		spec->tray[spec->ntray++] = k;
	}
	return 0;
}

/* Check one grid row and store it; -1 with err. */
int laser_spec_row(struct laser_spec *spec, int y, const char *row, struct lk_strbuf *err)
{
	size_t len = strlen(row);
	while (len && (row[len - 1] == ' ' || row[len - 1] == '\r' || row[len - 1] == '\t'))
		len--;
	if (y == 0) {
		if (len < 1 || len > LK_LASER_MAX_SIDE) {
			lk_strbuf_addf(err, "rows are 1 to %d cells wide, not %zu", LK_LASER_MAX_SIDE, len);
			return -1;
		}
		spec->width = (int)len;
	} else if ((int)len != spec->width) {
		lk_strbuf_addf(err, "row %d has %zu cells, the first row %d", y + 1, len, spec->width);
		return -1;
	}
	if (y >= LK_LASER_MAX_SIDE) {
		lk_strbuf_addf(err, "more than %d rows", LK_LASER_MAX_SIDE);
		return -1;
	}
	for (size_t x = 0; x < len; x++) {
		char c = row[x];
		if (c != '.' && c != '#' && !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
			lk_strbuf_addf(err, "unknown cell '%c' in column %zu (use . # and letters of fixed pieces)",
				       c, x + 1);
			return -1;
		}
		spec->cells[y * spec->width + (int)x] = c;
	}
	return 0;
}

/* Every letter on the grid defined, every definition on the grid: the
 * offending row in *row, or -1 for a definition (then *def is its index). */
int laser_spec_letters(const struct laser_spec *spec, struct lk_strbuf *err, int *row, int *def)
{
	bool seen[LK_LASER_MAX_FIXED] = { false };
	*row = *def = -1;
	for (int c = 0; c < spec->width * spec->height; c++) {
		char ch = spec->cells[c];
		if (ch == '.' || ch == '#')
			continue;
		int f = find_fixed(spec, ch);
		if (f < 0) {
			lk_strbuf_addf(err, "letter %c in column %d has no fixed line (e.g. fixed: %c SRC >E 1)",
				       ch, c % spec->width + 1, ch);
			*row = c / spec->width;
			return -1;
		}
		seen[f] = true;
	}
	for (int f = 0; f < spec->nfixed; f++) {
		if (!seen[f]) {
			lk_strbuf_addf(err, "fixed piece %c is not on the grid", spec->fixed[f].letter);
			*def = f;
			return -1;
		}
	}
	return 0;
}

/* ---------------------------------------------------------- building */

/* The unit for the spec's fixed pieces and n2, n3 splitters in the tray;
 * -1 with err when it overflows. */
static int compute_unit(const struct laser_spec *spec, int n2, int n3, int64_t *unit,
			struct lk_strbuf *err)
{
	int64_t l = 1;
	for (int f = 0; f < spec->nfixed; f++) {
		const struct laser_kind *k = &spec->fixed[f];
		if (k->type == LK_LASER_SRC || k->type == LK_LASER_TGT)
			l = mul_checked(l / gcd64(l, k->den), k->den);
		if (l < 0)
			goto overflow;
	}
	for (int c = 0; c < spec->width * spec->height; c++) {
		int f = spec->cells[c] == '.' || spec->cells[c] == '#' ? -1 : find_fixed(spec, spec->cells[c]);
		n2 += f >= 0 && spec->fixed[f].type == LK_LASER_SP2;
		n3 += f >= 0 && spec->fixed[f].type == LK_LASER_SP3;
	}
	for (int i = 0; i < n2 && l >= 0; i++)
		l = mul_checked(l, 2);
	for (int i = 0; i < n3 && l >= 0; i++)
		l = mul_checked(l, 3);
	if (l < 0)
		goto overflow;
	*unit = l;
	return 0;
overflow:
	lk_strbuf_addstr(err, "powers too fine: the common unit of all powers and splits overflows");
	return -1;
}

/* Powers of sources and targets in units. */
static void set_values(struct lk_laser *lv)
{
	for (int f = 0; f < lv->nfixed; f++) {
		struct laser_kind *k = &lv->kind[f];
		if (k->type == LK_LASER_SRC || k->type == LK_LASER_TGT)
			k->value = mul_checked(lv->unit / k->den, k->num);
	}
}

int laser_build(const struct laser_spec *spec, struct lk_laser **out, struct lk_strbuf *err)
{
	int64_t unit;
	int row, def;
	*out = NULL;
	if (spec->width < 1 || spec->height < 1 || spec->width > LK_LASER_MAX_SIDE ||
	    spec->height > LK_LASER_MAX_SIDE) {
		lk_strbuf_addf(err, "board is 1x1 to %dx%d", LK_LASER_MAX_SIDE, LK_LASER_MAX_SIDE);
		return -1;
	}
	int n2 = 0, n3 = 0;
	for (int i = 0; i < spec->ntray; i++) {
		n2 += spec->tray[i].type == LK_LASER_SP2 ? spec->tray_count[i] : 0;
		n3 += spec->tray[i].type == LK_LASER_SP3 ? spec->tray_count[i] : 0;
	}
	if (laser_spec_letters(spec, err, &row, &def) < 0 || compute_unit(spec, n2, n3, &unit, err) < 0)
		return -1;
	struct lk_laser *lv = lk_xcalloc(1, sizeof *lv);
	lv->width = spec->width;
	lv->height = spec->height;
	lv->ncells = spec->width * spec->height;
	lv->cells = lk_xmalloc((size_t)lv->ncells + 1);
	memcpy(lv->cells, spec->cells, (size_t)lv->ncells);
	lv->cells[lv->ncells] = '\0';
	lv->cell_kind = lk_xmalloc((size_t)lv->ncells * sizeof *lv->cell_kind);
	lv->unit = unit;
	lv->nfixed = spec->nfixed;
	lv->ntray = spec->ntray;
	for (int f = 0; f < spec->nfixed; f++)
		lv->kind[f] = spec->fixed[f];
	for (int i = 0; i < spec->ntray; i++) {
		lv->kind[lv->nfixed + i] = spec->tray[i];
		lv->tray_count[i] = spec->tray_count[i];
		lv->tray_total += spec->tray_count[i];
	}
	lv->ngroups = lv->ntray;
	for (int i = 0; i < lv->ntray; i++) {
		lv->line_group[i] = i;
		lv->group_count[i] = lv->tray_count[i];
	}
	lv->blocker = lv->nfixed + lv->ntray;
	lv->nkinds = lv->blocker + 1;
	lv->kind[lv->blocker] = (struct laser_kind){ .type = LK_LASER_BLOCKER };
	set_values(lv);
	for (int c = 0; c < lv->ncells; c++) {
		char ch = lv->cells[c];
		lv->cell_kind[c] = (int16_t)(ch == '.' ? -1 : ch == '#' ? lv->blocker : find_fixed(spec, ch));
		if (ch == '#') {
			lv->nblockers++;
			continue;
		}
		if (ch == '.')
			continue;
		const struct laser_kind *k = &lv->kind[lv->cell_kind[c]];
		lv->piece_cell[lv->npieces++] = c;
		if (k->type == LK_LASER_SRC) {
			lv->nsources++;
			lv->src_total = k->value < 0 || lv->src_total < 0 ? -1 : lv->src_total + k->value;
		} else if (k->type == LK_LASER_TGT) {
			lv->ntargets++;
			lv->need_total = k->value < 0 || lv->need_total < 0 ? -1 : lv->need_total + k->value;
		}
		if (lv->src_total > LASER_MAX_POWER || lv->need_total > LASER_MAX_POWER)
			lv->src_total = -1;
	}
	if (lv->src_total < 0 || lv->need_total < 0) {
		lk_strbuf_addstr(err, "powers too large: the sum of the sources' powers overflows");
		lk_laser_free(lv);
		return -1;
	}
	int all[LK_LASER_MAX_CELLS];
	for (int c = 0; c < lv->ncells; c++)
		all[c] = c;
	const struct lk_ray_board board = {
		.width = lv->width, .height = lv->height, .cells = lv->cells, .squares = ".",
	};
	lk_rays_build(&lv->rays, &board, all, lv->ncells, 4);
	lv->base.game = &lk_game_laser;
	lv->base.metric = "nodes";
	*out = lv;
	return 0;
}

int laser_set_groups(struct lk_laser *lv, int ngroups, const int *group, const int *count,
		     struct lk_strbuf *err)
{
	struct laser_spec *spec = lk_xmalloc(sizeof *spec);
	int n2 = 0, n3 = 0, rc;
	int64_t unit;
	lv->ngroups = ngroups;
	lv->tray_total = 0;
	for (int g = 0; g < ngroups; g++)
		lv->group_count[g] = count[g];
	for (int i = 0; i < lv->ntray; i++)
		lv->line_group[i] = group[i];
	for (int g = 0; g < ngroups; g++) {
		int i = 0;
		while (i < lv->ntray && group[i] != g)
			i++;
		int type = i < lv->ntray ? lv->kind[lv->nfixed + i].type : -1;
		n2 += type == LK_LASER_SP2 ? count[g] : 0;
		n3 += type == LK_LASER_SP3 ? count[g] : 0;
		lv->tray_total += count[g];
	}
	laser_spec_of(lv, spec);
	rc = compute_unit(spec, n2, n3, &unit, err);
	free(spec);
	if (rc < 0)
		return -1;
	lv->unit = unit;
	set_values(lv);
	lv->src_total = lv->need_total = 0;
	for (int i = 0; i < lv->npieces; i++) {
		const struct laser_kind *k = &lv->kind[lv->cell_kind[lv->piece_cell[i]]];
		if (k->type == LK_LASER_SRC)
			lv->src_total += k->value;
		else if (k->type == LK_LASER_TGT)
			lv->need_total += k->value;
	}
	return 0;
}

void laser_spec_of(const struct lk_laser *lv, struct laser_spec *spec)
{
	memset(spec, 0, sizeof *spec);
	spec->width = lv->width;
	spec->height = lv->height;
	memcpy(spec->cells, lv->cells, (size_t)lv->ncells);
	spec->nfixed = lv->nfixed;
	spec->ntray = lv->ntray;
	for (int f = 0; f < lv->nfixed; f++)
		spec->fixed[f] = lv->kind[f];
	for (int i = 0; i < lv->ntray; i++) {
		spec->tray[i] = lv->kind[lv->nfixed + i];
		spec->tray_count[i] = lv->tray_count[i];
	}
}

void lk_laser_free(struct lk_laser *lv)
{
	if (!lv)
		return;
	lk_rays_release(&lv->rays);
	free(lv->cells);
	free(lv->cell_kind);
	free(lv);
}

const struct lk_level *lk_laser_level(const struct lk_laser *lv) { return &lv->base; }
int lk_laser_width(const struct lk_laser *lv) { return lv->width; }
int lk_laser_height(const struct lk_laser *lv) { return lv->height; }
int lk_laser_tray_lines(const struct lk_laser *lv) { return lv->ntray; }
int64_t lk_laser_unit(const struct lk_laser *lv) { return lv->unit; }
