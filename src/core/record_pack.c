/*
 * record_pack.c - the Sokoban pack layouts inside one block of lines.
 *
 * The text format has three kinds of line; Sokoban packs as people have
 * them hold more: a title line just above the board ("Level 1", "1"),
 * "::" notes, free text, "Solution" sections whose moves run over several
 * lines, and several levels without a blank line between them.  These
 * rules tell them apart using the only thing that is certain about a
 * Sokoban board row: which characters it can hold.  They apply only to
 * blocks that belong to Sokoban (no other game named), so the grids of
 * other games, whose rows may be made of any letters, are read as before.
 * docs/format.md states the rules for users.
 */
#include "record_internal.h"

#include <stdlib.h>
#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_letter(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool in_set(char c, const char *set)
{
	return c != '\0' && strchr(set, c) != NULL;
}

/* Length without trailing blanks. */
/*
 * A board row holds only board characters (with run lengths, groups, '|'
 * row breaks and tabs), at least one of them a wall, box, player or floor
 * mark, and does not end in a run length.  So "1", "12." and "..." are not
 * rows (JSoko's rule), while "---", an empty interior row, is.
 */
bool lk_sok_row_like(const char *line)
{
	size_t n = lk_trimmed_len(line);
	bool cell = false;

	if (n == 0 || is_digit(line[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = line[i];
		if (!in_set(c, "#@+$*.-_ \tpPbB|()") && !is_digit(c))
			return false;
		cell |= in_set(c, "#@+$*pPbB-_");
	}
	return cell;
}

/*
 * A title line starts with none of the characters a row starts with and
 * does not end with a wall: a row with a mistyped cell ("#x  #", "x###")
 * stays a row, for the game to report.
 */
bool lk_pack_title_candidate(const char *line)
{
	size_t n = lk_trimmed_len(line);

	if (n == 0 || in_set(line[0], "#@+$*.-_ \t|();") || line[n - 1] == '#')
		return false;
	if (line[0] == ':' && line[1] == ':')
		return false;
	return !lk_sok_row_like(line) && lk_line_classify(line, NULL, NULL) == LK_LINE_GRID;
}

bool lk_pack_is_sokoban(const struct lk_record *block)
{
	for (size_t i = 0; i < block->nlines; i++) {
		const struct lk_line *l = &block->lines[i];
		const char *v;
		size_t n;

		if (l->kind != LK_LINE_FIELD || !lk_field_name_eq(l->text, l->name_len, "game"))
			continue;
		v = l->text + l->value_off;
		n = lk_trimmed_len(v);
		if (n > 0 && !(n == 7 && strncmp(v, "sokoban", 7) == 0))
			return false;
	}
	return true;
}

/* "Solution", "Solution 97/26", "Solution (moves)": a .sok solution head
 * that is not a field. */
static bool solution_word(const char *s)
{
	static const char word[] = "solution";

	for (size_t i = 0; i < sizeof(word) - 1; i++)
		if ((s[i] | 0x20) != word[i])
			return false;
	return !is_letter(s[sizeof(word) - 1]);
}

/* A line of moves: LURD letters, run lengths and groups. */
static bool move_line(const char *s)
{
	bool letter = false;

	for (; *s; s++) {
		if (!in_set(*s, "lurdLURD0123456789() \t\r"))
			return false;
		letter |= is_letter(*s);
	}
	return letter;
}

static void set_kind(struct lk_line *l, enum lk_line_kind kind)
{
	l->kind = kind;
	if (kind != LK_LINE_FIELD)
		l->name_len = l->value_off = 0;
}

static void add_trimmed(struct lk_strbuf *sb, const char *s)
{
	while (lk_blank_char(*s))
		s++;
	lk_strbuf_add(sb, s, lk_trimmed_len(s));
}

/* Join each solution head with the lines of moves after it. */
static void join_solutions(struct lk_record *b, bool *txt)
{
	for (size_t i = 0; i < b->nlines; i++) {
		struct lk_line *l = &b->lines[i];
		struct lk_strbuf value = LK_STRBUF_INIT;
		bool field = l->kind == LK_LINE_FIELD && l->cont == 0 &&
			     lk_field_name_eq(l->text, l->name_len, "solution");
		size_t j = i + 1;

		if (!field && !(txt[i] && solution_word(l->text)))
			continue;
		while (j < b->nlines && txt[j] && move_line(b->lines[j].text))
			j++;
		if (j == i + 1)
			continue;
		if (field) {
			add_trimmed(&value, l->text + l->value_off);
		} else {
			l->kind = LK_LINE_FIELD;
			l->name_len = 8;
			l->value_off = strlen(l->text);
			txt[i] = false;
		}
		for (size_t k = i + 1; k < j; k++) {
			add_trimmed(&value, b->lines[k].text);
			set_kind(&b->lines[k], LK_LINE_TEXT);
			txt[k] = false;
		}
		l->cont = j - i - 1;
		l->value = lk_strbuf_detach(&value, NULL);
		i = j - 1;
	}
}

static bool has_digit(const char *s)
{
	for (; *s; s++)
		if (is_digit(*s))
			return true;
	return false;
}

/* For each line, whether another level follows it in the block: after
 * comments, fields or notes, a board row or a title line.  (One pass from
 * the end, so that a block of many "; N" lines costs linear time.) */
static bool *levels_follow(const struct lk_record *b, const bool *row)
{
	bool *follows = lk_xcalloc(b->nlines + 1, sizeof(*follows));

	for (size_t i = b->nlines; i-- > 0;) {
		const struct lk_line *n = i + 1 < b->nlines ? &b->lines[i + 1] : NULL;
		if (!n)
			follows[i] = false;
		else if (n->kind == LK_LINE_TITLE || (n->kind == LK_LINE_GRID && row[i + 1]))
			follows[i] = true;
		else if (n->kind == LK_LINE_GRID)
			follows[i] = false;
		else
			follows[i] = follows[i + 1];
	}
	return follows;
}

static void cut(struct lk_record *b, size_t start, size_t end, struct lk_record **out,
		size_t *nout, size_t *alloc)
{
	struct lk_record *s;

	LK_ALLOC_GROW(*out, *nout + 1, *alloc);
	s = &(*out)[(*nout)++];
	lk_record_init(s);
	LK_ALLOC_GROW(s->lines, end - start, s->alloc);
	memcpy(s->lines, b->lines + start, (end - start) * sizeof(*s->lines));
	s->nlines = end - start;
}

void lk_pack_split(struct lk_record *b, struct lk_record **out, size_t *nout)
{
	size_t n = b->nlines, start = 0, alloc = 0;
	bool *row, *txt, *follows, has_grid = false;

	*out = NULL;
	*nout = 0;
	if (n == 0)
		return;
	if (!lk_pack_is_sokoban(b)) {
		cut(b, 0, n, out, nout, &alloc);
		goto done;
	}
	row = lk_xcalloc(n, sizeof(*row));
	txt = lk_xcalloc(n, sizeof(*txt));
	for (size_t i = 0; i < n; i++) {
		struct lk_line *l = &b->lines[i];
		if (l->kind != LK_LINE_GRID)
			continue;
		if (l->text[0] == ':' && l->text[1] == ':')
			set_kind(l, LK_LINE_TEXT);   /* YSokoban's notes for people */
		else if (lk_sok_row_like(l->text))
			row[i] = true;
		else
			txt[i] = true;
	}
	join_solutions(b, txt);
	/* Text just above a row names the level; other text is a note, unless
	 * it looks like a broken row, which the game will report. */
	for (size_t i = 0; i < n; i++) {
		if (!txt[i] || !lk_pack_title_candidate(b->lines[i].text))
			continue;
		set_kind(&b->lines[i], i + 1 < n && row[i + 1] ? LK_LINE_TITLE : LK_LINE_TEXT);
	}
	/* Another level starts at a title line or a "; N" comment after the
	 * board of this one. */
	follows = levels_follow(b, row);
	for (size_t i = 0; i < n; i++) {
		const struct lk_line *l = &b->lines[i];
		if (has_grid && (l->kind == LK_LINE_TITLE ||
				 (l->kind == LK_LINE_COMMENT && has_digit(l->text) && follows[i]))) {
			cut(b, start, i, out, nout, &alloc);
			start = i;
			has_grid = false;
		}
		has_grid |= l->kind == LK_LINE_GRID;
	}
	cut(b, start, n, out, nout, &alloc);
	free(follows);
	free(row);
	free(txt);
done:
	/* The lines now belong to the pieces. */
	free(b->lines);
	b->lines = NULL;
	b->nlines = b->alloc = 0;
}
