/*
 * resume.c - reading back what an earlier `gen` run wrote (actions.h:
 * lk_gen_resume_*), so that --resume continues after its last index and
 * never repeats its levels.
 *
 * gen writes each level as its text followed by one blank line, in a
 * single write.  So a file that gen wrote and that was not cut off ends
 * with "\n\n", and everything after the last "\n\n" of a file that does
 * not is the one record a killed run was writing.  That tail is the only
 * part resume may replace; every record before it must be one of this
 * run's levels, or the file is refused as it is.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "levelkit/actions.h"
#include "levelkit/dedupe.h"
#include "levelkit/registry.h"

/* A count: digits only (strtoull would skip blanks and take a sign). */
static bool field_u64(const struct lk_record *rec, const char *name, uint64_t *v)
{
	const char *s = lk_record_get(rec, name);
	if (!s || !(*s >= '0' && *s <= '9'))
		return false;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*v = (uint64_t)x;
	return true;
}

/* "path:line: " before a message about a place in the file. */
static void at(struct lk_strbuf *err, const char *path, size_t line)
{
	if (line)
		lk_strbuf_addf(err, "%s:%zu: ", path, line);
	else
		lk_strbuf_addf(err, "%s: ", path);
}

static int read_all(const char *path, struct lk_strbuf *out, bool *missing, struct lk_strbuf *err)
{
	*missing = false;
	if (lk_strbuf_read_file(out, path) == 0)
		return 0;
	if (errno == ENOENT && out->len == 0) {
		*missing = true;
		return 0;
	}
	lk_strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
	return -1;
}

/* Where the complete records end: the whole text when it ends cleanly,
 * else just after its last "\n\n". */
static size_t complete_end(const struct lk_strbuf *text)
{
	size_t n = text->len;
	if (n == 0 || (n >= 2 && text->buf[n - 2] == '\n' && text->buf[n - 1] == '\n'))
		return n;
	for (size_t i = n - 1; i > 0; i--)
		if (text->buf[i] == '\n' && text->buf[i - 1] == '\n')
			return i + 1;
	return 0;
}

/* Check one record of the file against the run; 0, or -1 with a message. */
static int check_record(const char *path, const struct lk_record *rec,
			const struct lk_gen_resume_run *run, uint64_t *index, struct lk_strbuf *err)
{
	size_t line = rec->first_lineno;
	uint64_t seed = 0;
	const char *g = lk_record_get(rec, "generator");
	if (!lk_record_grid(rec, NULL) || !g || !field_u64(rec, "seed", &seed) ||
	    !field_u64(rec, "index", index) || !lk_record_get(rec, "solvable")) {
		at(err, path, line);
		lk_strbuf_addf(err, "this record was not written by gen (a level with the fields "
			       "generator, seed, index and solvable); --resume continues only a file "
			       "that gen wrote, and leaves this one as it is");
		return -1;
	}
	const char *game = lk_record_game(rec);
	if (strcmp(game, run->gen->game) != 0 || strcmp(g, run->gen->name) != 0 || seed != run->seed) {
		at(err, path, line);
		lk_strbuf_addf(err, "level made by %s %s with seed %llu, not %s %s with seed %llu",
			       game, g, (unsigned long long)seed, run->gen->game, run->gen->name,
			       (unsigned long long)run->seed);
		return -1;
	}
	if (*index % run->shards != run->shard) {
		at(err, path, line);
		lk_strbuf_addf(err, "index %llu is not in shard %llu/%llu",
			       (unsigned long long)*index, (unsigned long long)run->shard,
			       (unsigned long long)run->shards);
		return -1;
	}
	const char *settings = lk_record_get(rec, "settings");
	if (!settings || strcmp(settings, run->settings) != 0) {
		at(err, path, line);
		lk_strbuf_addf(err, "level made with other settings (the file's: %s; this run's: "
			       "%s); resume with the options of the first run",
			       settings ? settings : "none", run->settings);
		return -1;
	}
	return 0;
}

int lk_gen_resume_load(struct lk_gen_resume *r, const char *path,
		       const struct lk_gen_resume_run *run, struct lk_dedupe *seen, const char *output,
		       struct lk_strbuf *err)
{
	memset(r, 0, sizeof *r);
	r->output_is_resume_file = lk_same_file(path, output);

	struct lk_strbuf text = LK_STRBUF_INIT;
	bool missing;
	if (read_all(path, &text, &missing, err) < 0) {
		lk_strbuf_release(&text);
		return -1;
	}
	/* gen's other formats say what they are at once (a tsv header, a
	 * JSON object per line): a message about its first record would not */
	size_t lead = 0;
	while (lead < text.len && (text.buf[lead] == ' ' || text.buf[lead] == '\n' ||
				   text.buf[lead] == '\r' || text.buf[lead] == '\t'))
		lead++;
	const char *kind = text.len - lead >= 7 && memcmp(text.buf + lead, "record\t", 7) == 0
			   ? "tsv" : lead < text.len && text.buf[lead] == '{' ? "json" : NULL;
	if (kind) {
		lk_strbuf_addf(err, "%s: this is %s, not gen's text output; --resume continues only "
			       "a run written as text (the default -f), and leaves this file as it is",
			       path, kind);
		lk_strbuf_release(&text);
		return -1;
	}
	size_t end = complete_end(&text);
	if (end < text.len) {
		r->torn_offset = (long)end;
		r->torn_len = text.len - end;
		r->torn = lk_xstrndup(text.buf + end, r->torn_len);
		r->torn_line = 1;
		for (size_t i = 0; i < end; i++)
			r->torn_line += text.buf[i] == '\n';
	}

	int rc = 0;
	if (r->torn) {
		/* Fail early when the tail cannot be this run's: a killed run
		 * was writing a level that starts with its title comment. */
		char title[256];
		snprintf(title, sizeof title, "; %s %s %llu-", run->gen->game, run->gen->name,
			 (unsigned long long)run->seed);
		size_t n = strlen(title) < r->torn_len ? strlen(title) : r->torn_len;
		if (memcmp(r->torn, title, n) != 0) {
			at(err, path, r->torn_line);
			lk_strbuf_addf(err, "the file does not end with a blank line after a "
				       "level of this run (%s...); --resume continues only a file that gen "
				       "wrote, and leaves this one as it is", title);
			rc = -1;
		}
	}
	if (rc == 0 && end > 0) {
		FILE *fp = fmemopen(text.buf, end, "r");
		if (!fp) {
			lk_strbuf_addf(err, "%s: %s", path, strerror(errno));
			lk_strbuf_release(&text);
			return -1;
		}
		struct lk_reader reader;
		struct lk_record rec = LK_RECORD_INIT;
		struct lk_strbuf rerr = LK_STRBUF_INIT;
		size_t line = 0;
		int got;
		lk_reader_init_fp(&reader, fp, path);
		lk_record_init(&rec);
		while (rc == 0 && (got = lk_reader_next(&reader, &rec, &rerr, &line)) != 0) {
			uint64_t index;
			if (got < 0) {
				at(err, path, line ? line : rec.first_lineno);
				lk_strbuf_addstr(err, rerr.buf);
				rc = -1;
			} else if ((rc = check_record(path, &rec, run, &index, err)) == 0) {
				struct lk_level_options lo = { 0 };
				struct lk_strbuf lerr = LK_STRBUF_INIT;
				size_t lline;
				struct lk_level *lv = lk_level_load(&rec, &lo, &lerr, &lline);
				if (lv) {
					lk_dedupe_add(seen, lv, &rec);
					lk_level_free(lv);
				}
				lk_strbuf_release(&lerr);
				r->levels++;
				uint64_t seq = index / run->shards + 1;
				if (seq > r->next_seq)
					r->next_seq = seq;
			}
			lk_strbuf_reset(&rerr);
		}
		lk_reader_close(&reader);
		fclose(fp);
		lk_record_release(&rec);
		lk_strbuf_release(&rerr);
	}
	lk_strbuf_release(&text);
	if (rc < 0)
		lk_gen_resume_release(r);
	return rc;
}

int lk_gen_resume_replace_torn(struct lk_gen_resume *r, const char *path, FILE *out,
			       const char *text, size_t len, struct lk_strbuf *err)
{
	if (!r->torn || !r->output_is_resume_file)
		return 0;
	if (r->torn_len > len || memcmp(r->torn, text, r->torn_len) != 0) {
		at(err, path, r->torn_line);
		lk_strbuf_addf(err, "the file ends with an incomplete record that is not "
			       "the beginning of the level this run writes next; it was left as it is "
			       "(remove it by hand to resume)");
		return -1;
	}
	if (fflush(out) != 0 || ftruncate(fileno(out), (off_t)r->torn_offset) != 0) {
		lk_strbuf_addf(err, "%s: cannot cut the incomplete record at line %zu: %s", path,
			       r->torn_line, strerror(errno));
		return -1;
	}
	at(err, path, r->torn_line);
	lk_strbuf_addf(err, "the record cut short at the end of the file (a stopped "
		       "run's) is written again in full");
	free(r->torn);
	r->torn = NULL;
	r->torn_len = 0;
	return 0;
}

void lk_gen_resume_release(struct lk_gen_resume *r)
{
	free(r->torn);
	r->torn = NULL;
	r->torn_len = 0;
}
