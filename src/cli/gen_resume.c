/*
 * gen_resume.c - reading back an earlier run's output (see gen_resume.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "gen_resume.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!a || !b || strcmp(b, "-") == 0)
		return false;
	if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
		return strcmp(a, b) == 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static bool field_u64(const struct lk_record *rec, const char *name, uint64_t *v)
{
	const char *s = lk_record_get(rec, name);
	return s && lk_parse_u64(s, v) == 0;
}

/* Replace path by the given text (the good records). */
static int rewrite(const char *path, const struct lk_strbuf *text)
{
	size_t n = strlen(path) + 32;
	char *tmp = lk_xmalloc(n);
	snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
	FILE *fp = fopen(tmp, "w");
	int rc = -1;
	if (fp && fwrite(text->buf, 1, text->len, fp) == text->len && fclose(fp) == 0 &&
	    rename(tmp, path) == 0)
		rc = 0;
	else if (fp)
		remove(tmp);
	if (rc < 0)
		fprintf(stderr, "%s: %s: cannot rewrite: %s\n", lk_prog, path, strerror(errno));
	free(tmp);
	return rc;
}

/* gen writes every record followed by a blank line in one go; a file that
 * does not end so was cut off in the middle of its last record. */
static bool ends_cleanly(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char tail[2] = { 0, 0 };
	bool clean = true;
	if (!fp)
		return true;
	if (fseek(fp, -2, SEEK_END) == 0)
		clean = fread(tail, 1, 2, fp) == 2 && tail[0] == '\n' && tail[1] == '\n';
	else
		clean = ftell(fp) == 0;   /* shorter than two bytes: only empty is clean */
	fclose(fp);
	return clean;
}

int gen_resume_load(struct gen_resume *r, const char *path, const struct lk_generator *gen,
		    uint64_t seed, uint64_t shard, uint64_t shards, struct lk_dedupe *seen,
		    const char *output)
{
	memset(r, 0, sizeof *r);
	r->output_is_resume_file = same_file(path, output);
	if (access(path, F_OK) != 0)
		return 0;

	struct lk_reader reader;
	struct lk_strbuf err = LK_STRBUF_INIT, good = LK_STRBUF_INIT;
	struct lk_record rec = LK_RECORD_INIT;
	if (lk_reader_open(&reader, path, &err) < 0) {
		fprintf(stderr, "%s: %s\n", lk_prog, err.buf);
		lk_reader_close(&reader);
		lk_strbuf_release(&err);
		return -1;
	}
	int rc = 0, got;
	bool bad_tail = false, cut = !ends_cleanly(path);
	size_t line = 0;
	lk_record_init(&rec);
	while ((got = lk_reader_next(&reader, &rec, &err, &line)) != 0) {
		if (got == -2) {
			fprintf(stderr, "%s: %s: %s\n", lk_prog, path, err.buf);
			rc = -1;
			break;
		}
		size_t first;
		bool level = got == 1 && lk_record_grid(&rec, &first) > 0;
		uint64_t index = 0, s = 0;
		const char *g = lk_record_get(&rec, "generator");
		bool complete = got == 1 && (!level || (g && field_u64(&rec, "seed", &s) &&
							field_u64(&rec, "index", &index) &&
							lk_record_get(&rec, "solvable")));
		if (cut && reader.eof)
			complete = false;   /* the last record, and the file ends mid-record */
		if (!complete) {
			/* Only the last record may be cut short. */
			bad_tail = true;
			line = rec.first_lineno;
			continue;
		}
		if (bad_tail) {
			fprintf(stderr, "%s: %s:%zu: an incomplete or malformed record comes before this "
				"one; the file was not written by one gen run\n", lk_prog, path, rec.first_lineno);
			rc = -1;
			break;
		}
		if (level) {
			if (strcmp(g, gen->name) != 0 || s != seed) {
				fprintf(stderr, "%s: %s:%zu: level made by generator %s with seed %llu, "
					"not %s with seed %llu\n", lk_prog, path, rec.first_lineno, g,
					(unsigned long long)s, gen->name, (unsigned long long)seed);
				rc = -1;
				break;
			}
			if (index % shards != shard) {
				fprintf(stderr, "%s: %s:%zu: index %llu is not in shard %llu/%llu\n", lk_prog,
					path, rec.first_lineno, (unsigned long long)index,
					(unsigned long long)shard, (unsigned long long)shards);
				rc = -1;
				break;
			}
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
			uint64_t seq = index / shards + 1;
			if (seq > r->next_seq)
				r->next_seq = seq;
		}
		lk_record_write(&rec, &good);
		lk_strbuf_addch(&good, '\n');
	}
	lk_reader_close(&reader);
	if (rc == 0 && bad_tail) {
		fprintf(stderr, "%s: %s:%zu: dropping a record cut short at the end of the file\n",
			lk_prog, path, line);
		if (r->output_is_resume_file)
			rc = rewrite(path, &good);
	}
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	lk_strbuf_release(&good);
	return rc;
}
