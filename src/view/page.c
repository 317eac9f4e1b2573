/*
 * page.c - levelkit's HTML page: one self-contained file, its style and
 * script inside (page.css and page.js, embedded at build time), then the
 * data: one JSON value a line, the paints and symbols as they first
 * appear, then each record with its fields and its film (film.c).
 *
 * The data streams: a record's line is written as soon as it is made, so
 * a command writing a page flushes record by record like any other
 * output, and a page cut short still opens with what it has.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/difficulty.h"
#include "view_internal.h"

/* page.js and page.css, embedded by src/cmake/LevelkitEmbed.cmake */
extern const unsigned char lk_view_page_js[];
extern const unsigned char lk_view_page_css[];

struct view_page {
	struct view_dict dict;
	struct film_maker *fm;
	struct film film;
};

struct view_page *view_page_new(void)
{
	struct view_page *pg = lk_xcalloc(1, sizeof *pg);
	view_dict_init(&pg->dict);
	pg->fm = film_maker_new();
	film_init(&pg->film);
	return pg;
}

void view_page_free(struct view_page *pg)
{
	if (!pg)
		return;
	view_dict_release(&pg->dict);
	film_maker_free(pg->fm);
	film_release(&pg->film);
	free(pg);
}

static const char skeleton[] =
	"<header>\n"
	"<div class=\"lk-controls\">\n"
	"<input id=\"lk-filter\" type=\"search\" placeholder=\"filter: an expression as filter takes it "
	"(moves &gt;= 30 &amp;&amp; grade == &quot;hard&quot;), or words of a title\" "
	"aria-label=\"filter\">\n"
	"<label>sort <select id=\"lk-sort\" aria-label=\"sort by\"></select></label>\n"
	"<button id=\"lk-desc\" type=\"button\">ascending</button>\n"
	"<span id=\"lk-refresh\" hidden>reloads as it is rewritten "
	"<label><input id=\"lk-pause\" type=\"checkbox\"> pause</label></span>\n"
	"</div>\n"
	"<div id=\"lk-count\"></div>\n"
	"</header>\n"
	"<pre id=\"lk-headers\" hidden></pre>\n"
	"<section id=\"lk-charts\" aria-label=\"charts\"></section>\n"
	"<section id=\"lk-legend\" aria-label=\"legend\"></section>\n"
	"<main id=\"lk-sheet\"></main>\n"
	"<div id=\"lk-detail\" hidden><div class=\"lk-panel\" role=\"dialog\">\n"
	"<h2><span id=\"lk-d-title\"></span><button id=\"lk-close\" type=\"button\">close (Esc)</button></h2>\n"
	"<div><div id=\"lk-d-pic\"></div>\n"
	"<div class=\"lk-player\">\n"
	"<button id=\"lk-first\" type=\"button\" title=\"start (Home)\">|&lt;</button>\n"
	"<button id=\"lk-prev\" type=\"button\" title=\"step back (left arrow)\">&lt;</button>\n"
	"<button id=\"lk-play\" type=\"button\" title=\"play or pause (space)\">play</button>\n"
	"<button id=\"lk-next\" type=\"button\" title=\"step (right arrow)\">&gt;</button>\n"
	"<button id=\"lk-last\" type=\"button\" title=\"end (End)\">&gt;|</button>\n"
	"<input id=\"lk-scrub\" type=\"range\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"frame\">\n"
	"<select id=\"lk-speed\" aria-label=\"speed\"><option value=\"4\">4/s</option>"
	"<option value=\"8\" selected>8/s</option><option value=\"16\">16/s</option>"
	"<option value=\"32\">32/s</option></select>\n"
	"<span id=\"lk-frame\"></span> <span id=\"lk-status\" class=\"lk-badge\"></span>\n"
	"</div><div id=\"lk-d-note\"></div><div id=\"lk-d-legend\"></div></div>\n"
	"<div><table id=\"lk-d-fields\"></table><pre id=\"lk-d-notes\"></pre><pre id=\"lk-d-grid\"></pre></div>\n"
	"</div></div>\n"
	"<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">"
	"<defs id=\"lk-symbols\"></defs></svg>\n";

void view_page_start(const struct lk_view_options *opt, struct lk_strbuf *out)
{
	const char *title = opt && opt->title ? opt->title : "levelkit";
	lk_strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			 "<meta name=\"generator\" content=\"levelkit\">\n<title>");
	view_xml_escape(out, title);
	lk_strbuf_addstr(out, "</title>\n<style>\n");
	lk_strbuf_addstr(out, (const char *)lk_view_page_css);
	lk_strbuf_addstr(out, "</style>\n<script>\nwindow.LK_CONFIG = {\"refresh\": ");
	lk_strbuf_addf(out, "%g", opt && opt->refresh > 0 ? opt->refresh : 0.0);
	lk_strbuf_addstr(out, ", \"grades\": [");
	for (int g = 0; g < LK_GRADE_COUNT; g++)
		lk_strbuf_addf(out, "%s\"%s\"", g ? ", " : "", lk_grade_name((enum lk_grade)g));
	lk_strbuf_addstr(out, "]};\n</script>\n<script>\n");
	lk_strbuf_addstr(out, (const char *)lk_view_page_js);
	lk_strbuf_addstr(out, "</script>\n</head>\n<body>\n");
	lk_strbuf_addstr(out, "<h1 style=\"margin:8px 16px 0\">");
	view_xml_escape(out, title);
	lk_strbuf_addstr(out, "</h1>");
	if (opt && opt->note) {
		lk_strbuf_addstr(out, " <span id=\"lk-note\">");
		view_xml_escape(out, opt->note);
		lk_strbuf_addstr(out, "</span>");
	}
	lk_strbuf_addch(out, '\n');
	lk_strbuf_addstr(out, skeleton);
	lk_strbuf_addstr(out, "<script type=\"application/x-levelkit\" id=\"lk-data\">\n");
}

void view_page_end(struct lk_strbuf *out)
{
	lk_strbuf_addstr(out, "</script>\n</body>\n</html>\n");
}

/* The record's fields, comments and notes. */
static void fields_and_comments(const struct lk_record *rec, struct lk_strbuf *out)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_strbuf_addstr(out, "\"f\":[");
	bool any = false;
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		if (l->kind != LK_LINE_FIELD)
			continue;
		lk_strbuf_reset(&text);
		lk_strbuf_add(&text, l->text, l->name_len);
		lk_strbuf_addstr(out, any ? ",[" : "[");
		view_json_string(out, text.buf);
		lk_strbuf_addch(out, ',');
		view_json_string(out, l->value ? l->value : l->text + l->value_off);
		lk_strbuf_addch(out, ']');
		any = true;
	}
	lk_strbuf_addstr(out, "],\"c\":[");
	any = false;
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		if (l->kind != LK_LINE_COMMENT && l->kind != LK_LINE_TITLE && l->kind != LK_LINE_TEXT)
			continue;
		if (any)
			lk_strbuf_addch(out, ',');
		view_json_string(out, l->text);
		any = true;
	}
	lk_strbuf_addch(out, ']');
	lk_strbuf_release(&text);
}

/* Paints and symbols the page has not defined yet. */
static void new_definitions(struct view_dict *d, struct lk_strbuf *out)
{
	struct lk_strbuf attrs = LK_STRBUF_INIT;
	for (; d->paints_sent < d->npaints; d->paints_sent++) {
		lk_strbuf_reset(&attrs);
		view_paint_attrs(&d->paints[d->paints_sent], &attrs);
		lk_strbuf_addf(out, "{\"p\":[%zu,", d->paints_sent);
		view_json_string(out, attrs.buf);
		lk_strbuf_addstr(out, "]}\n");
	}
	for (; d->symbols_sent < d->nsymbols; d->symbols_sent++) {
		const struct view_symbol *s = &d->symbols[d->symbols_sent];
		lk_strbuf_addf(out, "{\"y\":[%zu,", d->symbols_sent);
		view_json_string(out, s->name);
		lk_strbuf_addch(out, ',');
		view_json_string(out, s->label ? s->label : "");
		lk_strbuf_addch(out, ',');
		view_json_string(out, s->code);
		lk_strbuf_addstr(out, "]}\n");
	}
	lk_strbuf_release(&attrs);
}

static const char *const solution_names[] = {
	[FILM_NO_SOLUTION] = "none", [FILM_SOLVED] = "solved", [FILM_UNSOLVED] = "unsolved",
	[FILM_BAD] = "bad",
};

void view_page_record(struct view_page *pg, const struct lk_record *rec, struct lk_strbuf *out)
{
	size_t first, rows = lk_record_grid(rec, &first);
	if (!rows) {
		lk_strbuf_addstr(out, "{\"hdr\":1,");
		fields_and_comments(rec, out);
		lk_strbuf_addstr(out, "}\n");
		return;
	}
	struct film *f = &pg->film;
	film_release(f);
	film_make(pg->fm, rec, &pg->dict, f);
	new_definitions(&pg->dict, out);

	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_strbuf_addf(out, "{\"r\":1,\"n\":%zu,\"src\":", rec->number);
	view_json_string(out, rec->source ? rec->source : "");
	lk_strbuf_addstr(out, ",\"t\":");
	view_json_string(out, view_record_title(rec, &text));
	lk_strbuf_addstr(out, ",\"g\":");
	view_json_string(out, lk_record_game(rec));
	lk_strbuf_addch(out, ',');
	fields_and_comments(rec, out);
	lk_strbuf_reset(&text);
	for (size_t i = 0; i < rows; i++) {
		if (i)
			lk_strbuf_addch(&text, '\n');
		lk_strbuf_addstr(&text, rec->lines[first + i].text);
	}
	lk_strbuf_addstr(out, ",\"grid\":");
	view_json_string(out, text.buf);
	if (f->drawn) {
		lk_strbuf_addf(out, ",\"drawn\":true,\"w\":%d,\"h\":%d,\"k\":%d,\"nf\":%zu,\"a\":", f->width,
			       f->height, f->id_width, f->nframes);
		view_json_string(out, f->atlas.buf);
		lk_strbuf_addstr(out, ",\"z\":");
		view_json_string(out, f->first.buf);
		lk_strbuf_addstr(out, ",\"d\":");
		view_json_string(out, f->steps.buf);
		lk_strbuf_addstr(out, ",\"lg\":[");
		for (size_t i = 0; i < f->nlegend; i++)
			lk_strbuf_addf(out, "%s%zu", i ? "," : "", f->legend[i]);
		lk_strbuf_addch(out, ']');
	} else {
		lk_strbuf_addstr(out, ",\"drawn\":false,\"nf\":1");
	}
	lk_strbuf_addf(out, ",\"sol\":\"%s\"", solution_names[f->solution]);
	if (f->note.len) {
		lk_strbuf_addstr(out, ",\"note\":");
		view_json_string(out, f->note.buf);
	}
	lk_strbuf_addstr(out, "}\n");
	lk_strbuf_release(&text);
}
