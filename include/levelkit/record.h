/*
 * record.h - the level text format: records, fields, streams, writers.
 *
 * A stream holds records separated by blank lines.  Inside a record, lines
 * starting with ';' are comments, lines "name: value" are fields, and the
 * remaining contiguous lines are the grid.  Every line is kept verbatim, in
 * order, so reading and writing a record is lossless; commands only add,
 * replace or remove their own fields.  The reader also takes the Sokoban
 * pack layouts people have (.sok title lines, "::" notes, Solution and
 * Comment sections, levels without blank lines between them, SLC XML
 * collections); see docs/format.md.
 */
#ifndef LEVELKIT_RECORD_H
#define LEVELKIT_RECORD_H

#include <stdbool.h>
#include <stdio.h>

#include "levelkit/strbuf.h"

enum lk_line_kind {
	LK_LINE_COMMENT,   /* starts with ';' */
	LK_LINE_FIELD,     /* "name: value" or "name:" */
	LK_LINE_GRID,      /* anything else that is not blank */
	/* Only the reader's Sokoban pack layouts make the next three (see
	 * docs/format.md); lk_line_classify never returns them. */
	LK_LINE_TITLE,     /* a .sok title line just before the grid ("Level 1") */
	LK_LINE_TEXT,      /* a note: "::" lines, free text, the body of a
			    * Comment section, the moves of a Solution section */
	LK_LINE_BLANK      /* a blank line inside a record (a .sok level whose
			    * title, board and notes are apart) */
};

struct lk_line {
	enum lk_line_kind kind;
	char *text;        /* the line as read, without its newline */
	size_t lineno;     /* 1-based line in the source; 0 if a command added it */
	size_t name_len;   /* fields: length of the name */
	size_t value_off;  /* fields: offset of the (left-trimmed) value in text */
	/* Fields whose value goes on over the next lines (a .sok Solution or
	 * Comment section): how many lines follow (LK_LINE_TEXT or _BLANK)
	 * and the whole value; 0 and NULL for one-line fields. */
	size_t cont;
	char *value;
};

struct lk_record {
	struct lk_line *lines;
	size_t nlines, alloc;
	char *source;        /* display name of the input ("<stdin>" for -) */
	size_t first_lineno; /* line of the record's first line */
	size_t number;       /* 1-based position of the record in its input */
	bool lossy;          /* a line could not be kept verbatim (a NUL byte,
	                      * or a first line starting with U+FEFF that the
	                      * output could take for a byte order mark) */
	/* The input began with a UTF-8 byte order mark just before this record
	 * (which is then the first one).  The reader takes it off the line and
	 * lk_record_write puts it back, so text output stays byte for byte. */
	bool bom;
};

#define LK_RECORD_INIT { NULL, 0, 0, NULL, 0, 0, false, false }

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

/* Append a copy of a line of another record, keeping its kind and (for a
 * field going on over several lines) its value.  Use it rather than
 * lk_record_add_line to carry lines of a read record over: a title line
 * such as "Level 1" would be classified as a grid line. */
void lk_record_append_line(struct lk_record *rec, const struct lk_line *line);

/* Field access.  Names compare case-insensitively ("Title" == "title").
 * get returns the value (left- and right-trimmed view is NOT made: the
 * value runs to the end of the line) or NULL.  For a field that goes on
 * over several lines (a .sok Solution section) it is the whole value: the
 * moves of a solution joined without separators, the lines of a comment
 * joined by '\n'. */
const char *lk_record_get(const struct lk_record *rec, const char *name);
/* Index of the field line, or -1.  If a name occurs more than once, the
 * last occurrence is the one found (and the one get and set use). */
long lk_record_find(const struct lk_record *rec, const char *name);
/* Replace the value of an existing field in place (keeping the name as
 * spelled and the line's position), or append a new field line at the end
 * of the record.  name must match [A-Za-z][A-Za-z0-9_.-]* (aborts if not);
 * newlines in value become spaces.  A field that went on over several
 * lines becomes a one-line field (its other lines are removed). */
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
 * last non-empty comment or title line before the grid (without ';' and
 * surrounding blanks; any such line if there is no grid), else NULL.
 * Returned pointer is into rec (or into buf, which must not be NULL). */
const char *lk_record_title(const struct lk_record *rec, struct lk_strbuf *buf);
/* Index of the line lk_record_title takes the title from, or -1. */
long lk_record_title_line(const struct lk_record *rec);

/* Append the record in text form: its lines, each followed by '\n' (and
 * the byte order mark first if rec->bom). */
void lk_record_write(const struct lk_record *rec, struct lk_strbuf *out);

/* ---------------------------------------------------------------- reading */

struct lk_reader_state;   /* record_read.c: look-ahead, queued records */

struct lk_reader {
	FILE *fp;
	bool own_fp;
	char *name;          /* display name */
	size_t lineno;       /* lines consumed so far */
	size_t records;      /* records returned so far */
	struct lk_strbuf line;
	bool have_pending;   /* unused (kept for source compatibility) */
	bool eof;
	struct lk_reader_state *st;
};

/* The longest line the reader takes (16 MiB): an endless line such as
 * /dev/zero's is an error, not all of memory. */
#define LK_LINE_MAX ((size_t)1 << 24)

/* Open path for reading; "-" or NULL means stdin.  Returns 0, or -1 with a
 * message in err that starts with the file's name ("x.xsb: cannot open:
 * ..."); lk_reader_close must be called either way. */
int lk_reader_open(struct lk_reader *r, const char *path, struct lk_strbuf *err);
/* Read from an already open stream (not closed by lk_reader_close); name is
 * the display name (NULL means "<stdin>").  Used for pipes and by tests. */
void lk_reader_init_fp(struct lk_reader *r, FILE *fp, const char *name);
void lk_reader_close(struct lk_reader *r);
/* A reader that hands out records made elsewhere (a game's file format
 * imported into records: game->import), numbered in order; it takes them
 * over (each is left initialised and empty). */
void lk_reader_init_records(struct lk_reader *r, struct lk_record *recs, size_t n,
			    const char *name);

/*
 * Read the next record into rec (which must be initialised; it is cleared
 * first).  Blank lines before the record are skipped; lines keep their
 * blanks verbatim; line ends are LF, CRLF or CR alone; a UTF-8 byte order
 * mark at the start is taken off (rec->bom); a line may hold up to
 * LK_LINE_MAX bytes.
 * An input whose first non-blank text is "<?xml", "<!--" or
 * "<SokobanLevels" is read as an SLC XML collection.
 * Returns 1 for a record, 0 at end of input, -1 for a malformed record: the
 * record is consumed (its lines are still in rec, verbatim, so that a
 * command can write it back unchanged), err holds the message and
 * *err_line its line, and the next call continues with the following
 * record.  Errors reading the file itself return -2 (the stream cannot
 * continue): err holds the message without the file's name ("read error:
 * ...", or "line too long (limit N bytes)" with its line in *err_line; 0
 * when the error has no line).  err and err_line may be NULL.  A malformed record still counts
 * in the numbering.
 *
 * A .sok level may be followed by notes or a solution after a blank line,
 * so a record with .sok features (a title line or notes) is handed out
 * only once the next record has begun or the input has ended.
 */
int lk_reader_next(struct lk_reader *r, struct lk_record *rec,
		   struct lk_strbuf *err, size_t *err_line);
/* Is the input an SLC XML collection (known once the first record has been
 * read)?  Its records are made from the XML, not lines of the file, so a
 * command must not write them back over it as if they were. */
bool lk_reader_is_xml(const struct lk_reader *r);

/* ---------------------------------------------------------------- writing */

enum lk_format {
	LK_FORMAT_TEXT, LK_FORMAT_TSV, LK_FORMAT_JSON,
	LK_FORMAT_SOK,      /* a .sok pack (Sokoban YASC, JSoko) */
	LK_FORMAT_SOK_RLE,  /* the same with run-length encoded solutions */
	LK_FORMAT_PUZZLESCRIPT  /* a PuzzleScript LEVELS section */
};

/* Parse "text", "tsv", "json", "sok", "sok-rle" or "puzzlescript"; returns
 * -1 for anything else. */
/* The format names for messages: "text, tsv, json, sok or sok-rle". */
void lk_format_names(struct lk_strbuf *out, const char *last_sep);
int lk_format_parse(const char *name, enum lk_format *fmt);

/*
 * A writer turns records into one of the output formats.
 *  text: the record itself, followed by one blank line.
 *  tsv:  one header row, then one row per level record (records without a
 *        grid are skipped).  Columns: "record", "title", then the command's
 *        own fields (extra_columns, which may be set until the header is
 *        written) whatever the first level record holds, in the command's
 *        order, so that they keep their places whatever the input carried
 *        and whatever the first level's outcome was; then the first level
 *        record's other fields in order; then the always_columns (fields
 *        such as `limit` the command keeps last).  lk_writer_choose_columns
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
 *  sok:  a .sok pack: a "::" header line once, then each Sokoban level as
 *        a title line, its board in plain XSB characters, its comments
 *        and fields as notes, and its solution field as a "Solution"
 *        section (moves in lines of at most 70 characters; run-length
 *        encoded in sok-rle).  Records without a grid and records of other
 *        games are written as in text.  See docs/format.md.
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
	size_t levels;                    /* sok: levels written so far */
	size_t refused;                   /* levels lk_writer_accepts refused */
	struct lk_strbuf buf;
};

/* Can the writer's format hold the record?  puzzlescript writes the maps
 * of PuzzleScript levels, in their script's legend; another game's level
 * (a Sokoban grid's '.', '$' and '*' mean other things in a script's
 * legend, and which script would it go in?) is refused.  0: yes (also for
 * records without a grid); -1: refused, with the message; -2: refused,
 * for the same reason as one before (said once: w->refused counts them
 * all, lk_writer_refusal says why in a few words). */
int lk_writer_accepts(struct lk_writer *w, const struct lk_record *rec, struct lk_strbuf *err);
const char *lk_writer_refusal(const struct lk_writer *w);

void lk_writer_init(struct lk_writer *w, FILE *fp, enum lk_format format,
		    const char *const *extra_columns);
void lk_writer_release(struct lk_writer *w);
/* tsv: write exactly these columns, in this order ("record" and "title"
 * included only if listed).  list is comma-separated; returns -1 with a
 * message for a name that is not a field name. */
int lk_writer_choose_columns(struct lk_writer *w, const char *list, struct lk_strbuf *err);
/* Are the chosen columns fields that exist: "record", "title", the
 * command's own (extra_columns, always_columns) or the fields of rec (the
 * first level as read)?  0, or -1 with a message naming the first that is
 * none of them and the fields there are. */
int lk_writer_check_columns(const struct lk_writer *w, const struct lk_record *rec,
			    struct lk_strbuf *err);
/* Format and write one record, then flush.  Returns 0, or -1 on I/O error. */
int lk_writer_put(struct lk_writer *w, const struct lk_record *rec);
/* Format into a buffer without writing (used to prepare output in worker
 * threads).  Same rules as lk_writer_put; the tsv header is included in the
 * first formatted level record. */
void lk_writer_format(struct lk_writer *w, const struct lk_record *rec,
		      struct lk_strbuf *out);

/* ------------------------------------------------------ Sokoban boards */

/*
 * Decode one board line of a Sokoban pack into plain rows, appended to out
 * with '\n' after each: run lengths ("3#"), groups ("2(#-)"), '|' row
 * breaks, tabs (to the next multiple of 8 columns) and the .sok letters
 * p P b B (written @ + $ *).  Other characters are copied.  A final CR is
 * ignored.  Returns 0, or -1 with a message in err (nothing about rows
 * that are too wide: that is for the grid).
 */
int lk_sok_decode_line(const char *line, struct lk_strbuf *out, struct lk_strbuf *err);
/* Can the line be a row of a Sokoban board (plain or run-length encoded)?
 * That is how the reader tells grid rows from title lines and notes. */
bool lk_sok_row_like(const char *line);

#endif
