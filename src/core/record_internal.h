/*
 * record_internal.h - what the record_*.c files share and nothing else
 * needs: the format's blank characters, the Sokoban pack layout rules
 * (record_pack.c), the SLC reader (record_slc.c) and the .sok writer
 * (record_sok.c).
 */
#ifndef LEVELKIT_RECORD_INTERNAL_H
#define LEVELKIT_RECORD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <string.h>

#include "levelkit/record.h"

/* A blank of the record format.  '\r' counts as blank so that stray
 * carriage returns (e.g. "\r\r\n" or a CRLF file's separator line) never
 * turn a separator into a grid line. */
static inline bool lk_blank_char(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static inline bool lk_blank_mem(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!lk_blank_char(s[i]))
			return false;
	return true;
}

/* The length of s without trailing blanks ("moves: 12 " is still the
 * number 12 for a script, though the text keeps the blank). */
static inline size_t lk_trimmed_len(const char *s)
{
	size_t n = strlen(s);
	while (n && lk_blank_char(s[n - 1]))
		n--;
	return n;
}

/* ------------------------------------------------------ record_pack.c */

/* Could the line be the title line of a .sok level ("Level 1", "1",
 * "Level 12 - Foo")?  Not a board row, not a comment, field or "::" note,
 * and it starts with none of the characters a board row starts with. */
bool lk_pack_title_candidate(const char *line);
/* Does the block (a record's worth of lines without blank lines between
 * them) belong to Sokoban, the game the pack layouts are for? */
bool lk_pack_is_sokoban(const struct lk_record *block);
/*
 * Cut a block read by the reader into proto-records.  Sokoban blocks get
 * the pack layout rules: grid lines are told apart as board rows, title
 * lines and notes, Solution sections are joined, and the block is cut
 * before each title line or "; N" comment that starts another level.
 * Other blocks come back whole and unchanged.  The block's lines are moved
 * into the new records (*out, *nout records; the caller frees them).
 */
void lk_pack_split(struct lk_record *block, struct lk_record **out, size_t *nout);

/* ------------------------------------------------------- record_slc.c */

/* A record the reader hands out, with its status (1, or -1 and msg). */
struct lk_queued {
	struct lk_record rec;
	int status;
	char *msg;
	size_t err_line;
};

/* Where the SLC reader puts its records: the reader's queue. */
struct lk_slc_sink {
	void (*put)(void *ctx, struct lk_record *rec, const char *msg, size_t err_line);
	void *ctx;
};

/* Read an SLC XML collection held in text (len bytes; lines counted from
 * first_lineno) and hand every record to sink: a header record for the
 * collection, one record per <Level>, and for each part that cannot be
 * read a malformed record holding its source lines verbatim. */
void lk_slc_read(const char *text, size_t len, size_t first_lineno,
		 const struct lk_slc_sink *sink);
/* Does this first non-blank line start an XML document? */
bool lk_slc_detect(const char *line);

/* -------------------------------------------------------- record_sok.c */

void lk_sok_format(struct lk_writer *w, const struct lk_record *rec, struct lk_strbuf *out);

#endif
