/*
 * record_xml.h - the XML scanner the SLC reader (record_slc.c) reads
 * collections with: only the part of XML these files use (elements,
 * attributes, character data, comments, CDATA, processing instructions, a
 * DOCTYPE without an internal subset, the five entities and character
 * references), with errors at their source line.
 */
#ifndef LEVELKIT_RECORD_XML_H
#define LEVELKIT_RECORD_XML_H

#include <stdbool.h>
#include <stddef.h>

#include "record_internal.h"

struct xml {
	const char *s;
	size_t len, pos;
	size_t first_lineno;
	const size_t *line_at;   /* line_at[k] = offset where line k starts */
	size_t nlines;
	bool latin1;             /* the declaration names a single-byte charset */
	bool cp1252;
	char err[160];
	size_t err_pos;
	const struct lk_slc_sink *sink;
	size_t next_source;      /* the first line no malformed record holds yet */
	/* Offsets after which a search found no "-->", "?>", ">" or "]]>":
	 * later searches fail at once, so broken input costs linear time. */
	size_t none_after[4];
};

#define MAX_ATTRS 32
struct tag {
	char name[64];
	bool end, empty;
	size_t pos;              /* offset of its '<' */
	size_t nattrs;
	char attr[MAX_ATTRS][64];
	struct lk_strbuf value[MAX_ATTRS];
};

const char *lk_xml_find_in(const struct xml *x, size_t from, size_t to, const char *needle);
const char *lk_xml_find(struct xml *x, size_t from, const char *needle, int kind);
bool lk_xml_space(char c);
bool lk_xml_name_char(char c);
char lk_xml_lower(char c);
bool lk_xml_eq_nocase(const char *a, const char *b);
bool lk_xml_starts_nocase(const char *s, size_t avail, const char *prefix);
size_t lk_xml_line_of(const struct xml *x, size_t pos);
int lk_xml_fail(struct xml *x, size_t pos, const char *msg, const char *arg);
int lk_xml_read_tag(struct xml *x, struct tag *t);
int lk_xml_read_text(struct xml *x, struct lk_strbuf *out);
int lk_xml_skip_element(struct xml *x, const struct tag *t);
int lk_xml_element_text(struct xml *x, const struct tag *t, struct lk_strbuf *out);
int lk_xml_skip_all_misc(struct xml *x);
void lk_xml_tag_init(struct tag *t);
void lk_xml_tag_release(struct tag *t);

#endif
