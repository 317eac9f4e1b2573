/*
 * ps_import.c - a PuzzleScript script given to a command reads as one
 * record per level of its LEVELS section (game.h's import hooks).
 *
 * Each record is the level's map, its rows as the script writes them and
 * with the script's line numbers, and the fields game, script (the path,
 * made absolute: ps_script.c), script-hash (of the script's text) and level (the map's number,
 * from 1); the messages shown before a map are its `message` fields, and
 * messages after the last map make a record of their own, without a grid.
 * The script is compiled here, once: its levels are the engine's, and the
 * compiled game goes into the definitions cache under the key the levels
 * will ask for, so that loading them compiles nothing again.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/hash.h"
#include "ps.h"
#include "ps_game.h"


/* A line of only '=' (three or more), blanks around allowed. */
static bool rule_line(const char *s, size_t n)
{
	size_t eq = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '=')
			eq++;
		else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	}
	return eq >= 3;
}

/* A line that is the word alone, any case, once blanks and comments in
 * parentheses (which nest) are left out: the reference reads
 * "OBJECTS(cat)" as the OBJECTS section's head. */
static bool word_line(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word), got = 0;
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '(')
			depth++;
		else if (c == ')' && depth > 0)
			depth--;
		else if (depth > 0)
			continue;
		else if (c == ' ' || c == '\t' || c == '\r') {
			if (got > 0 && got < w)
				return false;   /* a blank inside the word */
		}
		else if (got < w && (c | 0x20) == word[got])
			got++;
		else
			return false;
	}
	return got == w;
}

/* A script has its OBJECTS section headed by a rule of '=' signs. */
bool ps_import_probe(const char *data, size_t len)
{
	const char *prev = NULL;
	size_t prev_len = 0;
	for (const char *s = data; s < data + len;) {
		const char *nl = memchr(s, '\n', (size_t)(data + len - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(data + len - s);
		if (prev && rule_line(prev, prev_len) && word_line(s, n, "objects"))
			return true;
		prev = s;
		prev_len = n;
		s = nl ? nl + 1 : data + len;
	}
	return false;
}

/* The script's lines, by number (1-based): starts and lengths. */
struct lines {
	const char **start;
	size_t *len;
	size_t n;
};

static void split_lines(const char *data, size_t len, struct lines *l)
{
	size_t alloc = 16;
	l->start = lk_xmalloc(alloc * sizeof *l->start);
	l->len = lk_xmalloc(alloc * sizeof *l->len);
	l->n = 0;
	for (const char *s = data; s < data + len;) {
		const char *nl = memchr(s, '\n', (size_t)(data + len - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(data + len - s);
		while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (l->n + 1 >= alloc) {
			alloc *= 2;
			l->start = lk_xrealloc(l->start, alloc * sizeof *l->start);
			l->len = lk_xrealloc(l->len, alloc * sizeof *l->len);
		}
		l->start[l->n] = s;
		l->len[l->n] = n;
		l->n++;
		s = nl ? nl + 1 : data + len;
	}
}

struct importer {
	const char *path;            /* as given, for a title */
	const char *field;           /* the script field: the path made absolute */
	char hash[17];
	const char *title;
	struct lk_record *recs;
	size_t nrecs, alloc;
	struct lk_strbuf messages;   /* "message: ..." lines waiting for a map */
	size_t nmessages;
};

static struct lk_record *new_record(struct importer *im, size_t line)
{
	LK_ALLOC_GROW(im->recs, im->nrecs + 1, im->alloc);
	struct lk_record *rec = &im->recs[im->nrecs++];
	lk_record_init(rec);
	rec->first_lineno = line;
	return rec;
}

static void add_fields(struct importer *im, struct lk_record *rec, int number)
{
	struct lk_strbuf t = LK_STRBUF_INIT;
	if (number > 0) {
		lk_strbuf_addf(&t, "; %s: level %d", im->title ? im->title : im->path, number);
		lk_record_add_line(rec, t.buf, 0);
	}
	lk_record_set(rec, "game", "puzzlescript");
	lk_record_set(rec, "script", im->field);
	lk_record_set(rec, "script-hash", im->hash);
	if (number > 0)
		lk_record_setf(rec, "level", "%d", number);
	/* every message line waiting, in order */
	for (const char *m = im->messages.buf; *m;) {
		const char *nl = strchr(m, '\n');
		lk_strbuf_reset(&t);
		lk_strbuf_add(&t, m, (size_t)(nl - m));
		lk_record_add_line(rec, t.buf, 0);
		m = nl + 1;
	}
	lk_strbuf_reset(&im->messages);
	lk_strbuf_release(&t);
}

int ps_import(const char *path, const char *data, size_t len, struct lk_record **recs,
	      size_t *nrecs, struct lk_strbuf *err, size_t *line)
{
	struct lk_strbuf why = LK_STRBUF_INIT;
	int at = 0;
	*recs = NULL;
	*nrecs = 0;
	struct ps_game *g = ps_compile(data, len, path, &why, &at);
	if (!g) {
		lk_strbuf_addf(err, "the script does not compile: %s", why.buf);
		*line = at > 0 ? (size_t)at : 0;
		lk_strbuf_release(&why);
		return -1;
	}
	lk_strbuf_release(&why);
	struct lk_strbuf absolute = LK_STRBUF_INIT;
	ps_script_absolute(path, &absolute);
	struct importer im = { .path = path, .field = absolute.buf, .title = ps_game_flags(g)->title };
	snprintf(im.hash, sizeof im.hash, "%016llx", (unsigned long long)lk_hash_text(data, len));
	lk_strbuf_init(&im.messages);
	struct lines lines;
	split_lines(data, len, &lines);
	int maps = 0;
	for (int i = 0; i < ps_game_level_count(g); i++) {
		if (ps_level_is_message(g, i)) {
			lk_strbuf_addf(&im.messages, "message: %s\n", ps_level_message(g, i));
			continue;
		}
		size_t first = (size_t)ps_level_line(g, i);
		struct lk_record *rec = new_record(&im, first);
		add_fields(&im, rec, ++maps);
		/* the map's rows: its height of non-blank lines from its line,
		 * indented when one would not read back as a grid line */
		int h = ps_level_height(g, i), rows = 0;
		char **text = lk_xcalloc((size_t)h + 1, sizeof *text);
		size_t *pos = lk_xcalloc((size_t)h + 1, sizeof *pos);
		for (size_t k = first; k >= 1 && k <= lines.n && rows < h; k++) {
			if (lines.len[k - 1] == 0)
				continue;
			text[rows] = lk_xstrndup(lines.start[k - 1], lines.len[k - 1]);
			pos[rows++] = k;
		}
		bool indent = ps_rows_indent((const char *const *)text, (size_t)rows);
		for (int r = 0; r < rows; r++) {
			struct lk_strbuf row = LK_STRBUF_INIT;
			lk_strbuf_addf(&row, "%s%s", indent ? " " : "", text[r]);
			lk_record_add_line(rec, row.buf, pos[r]);
			lk_strbuf_release(&row);
			free(text[r]);
		}
		free(text);
		free(pos);
	}
	if (im.messages.len)   /* messages after the last map */
		add_fields(&im, new_record(&im, lines.n), 0);
	free(lines.start);
	free(lines.len);
	lk_strbuf_release(&im.messages);
	/* The levels will ask for this definition: compiled once. */
	struct lk_strbuf key = LK_STRBUF_INIT;
	lk_strbuf_addf(&key, "%s#%s", im.field, im.hash);
	lk_game_def_add(&lk_game_puzzlescript, key.buf, g);
	lk_strbuf_release(&key);
	lk_strbuf_release(&absolute);
	*recs = im.recs;
	*nrecs = im.nrecs;
	return 0;
}

bool ps_rows_indent(const char *const *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t name_len, value_off;
		if (lk_line_classify(rows[i], &name_len, &value_off) != LK_LINE_GRID)
			return true;
	}
	return false;
}

void ps_indent_map_text(struct lk_strbuf *text, size_t start)
{
	/* the rows of text from start, one per line */
	size_t n = 0;
	char **rows = NULL;
	size_t alloc = 0;
	for (size_t at = start; at < text->len;) {
		const char *nl = memchr(text->buf + at, '\n', text->len - at);
		size_t len = nl ? (size_t)(nl - (text->buf + at)) : text->len - at;
		LK_ALLOC_GROW(rows, n + 1, alloc);
		rows[n++] = lk_xstrndup(text->buf + at, len);
		at += len + (nl ? 1 : 0);
	}
	if (ps_rows_indent((const char *const *)rows, n)) {
		text->len = start;
		text->buf[start] = '\0';
		for (size_t i = 0; i < n; i++)
			lk_strbuf_addf(text, " %s\n", rows[i]);
	}
	for (size_t i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
}
