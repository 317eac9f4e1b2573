/*
 * gen_resume.h - reading back what an earlier `gen` run wrote, so that
 * --resume continues after its last index and never repeats its levels.
 */
#ifndef LEVELKIT_CLI_GEN_RESUME_H
#define LEVELKIT_CLI_GEN_RESUME_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/dedupe.h"
#include "levelkit/generate.h"

struct gen_resume {
	uint64_t levels;              /* levels already in the file */
	uint64_t next_seq;            /* first position of the shard's index sequence to make */
	bool output_is_resume_file;   /* -o names the same file: append to it */
};

/*
 * Read path (a missing file is an empty run).  Every level must carry the
 * generator, seed and index of this run and shard; their canonical forms go
 * into seen.  A record cut short at the end of the file (a run killed while
 * writing) is dropped, and when output is the same file it is rewritten
 * without it.  Returns 0, or -1 after printing "gen: file:line: message".
 */
int gen_resume_load(struct gen_resume *r, const char *path, const struct lk_generator *gen,
		    uint64_t seed, uint64_t shard, uint64_t shards, struct lk_dedupe *seen,
		    const char *output);

#endif
