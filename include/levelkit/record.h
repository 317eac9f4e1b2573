/*
 * record.h - the level text format: records, fields, streams, writers.
 *
 * A stream holds records separated by blank lines.  Inside a record, lines
 * starting with ';' are comments, lines "name: value" are fields, and the
 * remaining contiguous lines are the grid.  Every line is kept verbatim, in
 * order, so reading and writing a record is lossless; commands only add,
 * replace or remove their own fields.  See docs/format.md.
 */
#ifndef LEVELKIT_RECORD_H
#define LEVELKIT_RECORD_H

#include <stdbool.h>
#include <stdio.h>

#include "levelkit/strbuf.h"

enum lk_line_kind {
	LK_LINE_COMMENT,   /* starts with ';' */
	LK_LINE_FIELD,     /* "name: value" or "name:" */
	LK_LINE_GRID       /* anything else that is not blank */
};

struct lk_line {
	enum lk_line_kind kind;
	char *text;        /* the line as read, without its newline */
	size_t lineno;     /* 1-based line in the source; 0 if a command added it */
	size_t name_len;   /* fields: length of the name */
	size_t value_off;  /* fields: offset of the (left-trimmed) value in text */
};

struct lk_record {
	struct lk_line *lines;
	size_t nlines, alloc;
	char *source;        /* display name of the input ("<stdin>" for -) */
	size_t first_lineno; /* line of the record's first line */
	size_t number;       /* 1-based position of the record in its input */
	bool lossy;          /* a line could not be kept verbatim (a NUL byte) */
};

#define LK_RECORD_INIT { NULL, 0, 0, NULL, 0, 0, false }

void lk_record_init(struct lk_record *rec);
void lk_record_release(struct lk_record *rec);
/* Deep copy.  dst must be initialised; its previous content is released. */
void lk_record_copy(struct lk_record *dst, const struct lk_record *src);

/* Classify one line (without newline) the way the reader does.  For fields
 * *name_len and *value_off are set.  Blank lines are reported as -1. */
int lk_line_classify(const char *text, size_t *name_len, size_t *value_off);

/* Does the field name text[0..len) equal name, ignoring ASCII case? */
bool lk_field_name_eq(const char *text, size_t len, const char *name);
bool lk_field_names_equal(const char *a, size_t alen, const char *b, size_t blen);

/* Append a line of the given text; it is classified like input (blank
 * text is stored as a grid line; do not add any: it would end the record
 * when the output is read back). */
void lk_record_add_line(struct lk_record *rec, const char *text, size_t lineno);

/* Field access.  Names compare case-insensitively ("Title" == "title").
 * get returns the value (left- and right-trimmed view is NOT made: the
 * value runs to the end of the line) or NULL. */
const char *lk_record_get(const struct lk_record *rec, const char *name);
/* Index of the field line, or -1.  If a name occurs more than once, the
 * last occurrence is the one found (and the one get and set use). */
long lk_record_find(const struct lk_record *rec, const char *name);
/* Replace the value of an existing field in place (keeping the name as
 * spelled and the line's position), or append a new field line at the end
 * of the record.  name must match [A-Za-z][A-Za-z0-9_.-]* (aborts if not);
 * newlines in value become spaces. */
void lk_record_set(struct lk_record *rec, const char *name, const char *value);
void lk_record_setf(struct lk_record *rec, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
/* Remove a field (every occurrence); returns whether it was there. */
bool lk_record_unset(struct lk_record *rec, const char *name);

/* The grid block: index of its first line and its number of lines (0 if the
 * record has no grid, e.g. a header of fields and comments; *first is then
 * 0).  first may be NULL. */
size_t lk_record_grid(const struct lk_record *rec, size_t *first);
/* Replace the grid block by the given text (rows separated by '\n'; a final
 * newline is optional; a CR before '\n' is dropped).  Inserts it before the
 * first field if there was no grid.  Rows are taken as grid lines as given,
 * so they must not be blank (use the game's floor character instead). */
void lk_record_set_grid(struct lk_record *rec, const char *rows);
/* The game named by the "game" field, or "sokoban" (also if it is empty). */
const char *lk_record_game(const struct lk_record *rec);
/* A short human name: the "title" field if not empty, else the text of the
 * last non-empty comment line before the grid (without ';' and surrounding
 * blanks; any comment line if there is no grid), else NULL.  Returned
 * pointer is into rec (or into buf, which must not be NULL, for comments). */
const char *lk_record_title(const struct lk_record *rec, struct lk_strbuf *buf);

/* Append the record in text form: its lines, each followed by '\n'. */
void lk_record_write(const struct lk_record *rec, struct lk_strbuf *out);

/* ---------------------------------------------------------------- reading */

struct lk_reader {
	FILE *fp;
	bool own_fp;
	char *name;          /* display name */
	size_t lineno;       /* lines consumed so far */
	size_t records;      /* records returned so far */
	struct lk_strbuf line;
	bool have_pending;   /* line already read but not consumed */
	bool eof;
};

/* Open path for reading; "-" or NULL means stdin.  Returns 0, or -1 with a
 * message in err; lk_reader_close must be called either way. */
int lk_reader_open(struct lk_reader *r, const char *path, struct lk_strbuf *err);
/* Read from an already open stream (not closed by lk_reader_close); name is
 * the display name (NULL means "<stdin>").  Used for pipes and by tests. */
void lk_reader_init_fp(struct lk_reader *r, FILE *fp, const char *name);
void lk_reader_close(struct lk_reader *r);

/*
 * Read the next record into rec (which must be initialised; it is cleared
 * first).  Blank lines before the record are skipped; lines keep their
 * blanks verbatim, a CR before LF is dropped; there is no line length limit.
 * Returns 1 for a record, 0 at end of input, -1 for a malformed record: the
 * record is consumed, err holds the message and *err_line its line, and the
 * next call continues with the following record.  Errors reading the file
 * itself return -2 (the stream cannot continue).  err and err_line may be
 * NULL.  A malformed record still counts in the numbering.
 */
int lk_reader_next(struct lk_reader *r, struct lk_record *rec,
		   struct lk_strbuf *err, size_t *err_line);

/* ---------------------------------------------------------------- writing */

enum lk_format { LK_FORMAT_TEXT, LK_FORMAT_TSV, LK_FORMAT_JSON };

/* Parse "text", "tsv" or "json"; returns -1 for anything else. */
int lk_format_parse(const char *name, enum lk_format *fmt);

/*
 * A writer turns records into one of the output formats.
 *  text: the record itself, followed by one blank line.
 *  tsv:  one header row, then one row per level record (records without a
 *        grid are skipped).  Columns: "record", "title", then the command's
 *        own fields (extra_columns) that the first level record has, in the
 *        command's order, so that they keep their places whatever the
 *        input carried; then the first level record's other fields in
 *        order; then the always_columns not yet there (fields such as
 *        `limit` that a later record may have).  lk_writer_choose_columns
 *        replaces all this by a chosen list.  Names compare
 *        case-insensitively.  There is no quoting: tabs and newlines in
 *        values are written as spaces.
 *  json: one object per level record per line: "record", "title",
 *        "grid" (rows joined by "\n"), "comments" (array of comment lines
 *        without ';' and surrounding blanks), then every field (the last
 *        one if a name repeats; fields named like the four keys above are
 *        left out); values that are JSON numbers are written as numbers,
 *        everything else as strings.
 * In tsv and json, trailing blanks of values are dropped.
 */
struct lk_writer {
	FILE *fp;
	enum lk_format format;
	const char *const *extra_columns; /* NULL-terminated, may be NULL */
	const char *const *always_columns; /* NULL-terminated, may be NULL */
	char **chosen;                    /* tsv: columns given by the user */
	size_t nchosen;
	char **columns;                   /* tsv: chosen at the first level */
	size_t ncolumns;
	bool header_written;
	struct lk_strbuf buf;
};

void lk_writer_init(struct lk_writer *w, FILE *fp, enum lk_format format,
		    const char *const *extra_columns);
void lk_writer_release(struct lk_writer *w);
/* tsv: write exactly these columns, in this order ("record" and "title"
 * included only if listed).  list is comma-separated; returns -1 with a
 * message for a name that is not a field name. */
int lk_writer_choose_columns(struct lk_writer *w, const char *list, struct lk_strbuf *err);
/* Format and write one record, then flush.  Returns 0, or -1 on I/O error. */
int lk_writer_put(struct lk_writer *w, const struct lk_record *rec);
/* Format into a buffer without writing (used to prepare output in worker
 * threads).  Same rules as lk_writer_put; the tsv header is included in the
 * first formatted level record. */
void lk_writer_format(struct lk_writer *w, const struct lk_record *rec,
		      struct lk_strbuf *out);

#endif
