/*
 * gen_resume.h - reading back what an earlier `gen` run wrote, so that
 * --resume continues after its last index and never repeats its levels.
 *
 * The file is the user's: resume accepts it only when every record in it
 * is a level this run would have written (same game, generator, seed,
 * shard and settings), and changes nothing else in it.  The one exception
 * is a record cut short at the very end (a run killed while writing): it
 * is not dropped when the file is read, but replaced when the resumed run
 * writes its first level, and only if the cut-off text is the beginning of
 * that level's text, so no byte is removed that is not written again.
 */
#ifndef LEVELKIT_CLI_GEN_RESUME_H
#define LEVELKIT_CLI_GEN_RESUME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "levelkit/dedupe.h"
#include "levelkit/generate.h"

/* What a record must carry to belong to this run. */
struct gen_resume_run {
	const struct lk_generator *gen;
	uint64_t seed, shard, shards;
	const char *settings;         /* lk_gen_settings of this run */
};

struct gen_resume {
	uint64_t levels;              /* levels already in the file */
	uint64_t next_seq;            /* first position of the shard's index sequence to make */
	bool output_is_resume_file;   /* -o names the same file: append to it */
	/* The cut-off record at the end of the file, if any. */
	char *torn;
	size_t torn_len;
	long torn_offset;             /* where it starts in the file */
	size_t torn_line;
};

/*
 * Read path (a missing file is an empty run) and put the canonical forms
 * of its levels into seen.  Returns 0, or -1 after printing
 * "gen: file:line: message"; the file is never changed here.
 */
int gen_resume_load(struct gen_resume *r, const char *path, const struct gen_resume_run *run,
		    struct lk_dedupe *seen, const char *output);

/*
 * Before the first new level is appended to the resume file (out, opened
 * for appending): if the file ends with a cut-off record, remove it when
 * its text is a prefix of the new level's text (which is written next),
 * else print why and return -1 (the file is left as it is).
 */
int gen_resume_replace_torn(struct gen_resume *r, const char *path, FILE *out,
			    const char *text, size_t len);

void gen_resume_release(struct gen_resume *r);

#endif
