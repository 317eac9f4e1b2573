/*
 * gen_run.h - a gen run on the ordered pool: indices of the run (or of its
 * shard) are generated on worker threads and written in index order,
 * duplicates dropped, until -n levels are in the output; --resume
 * continues a run's own file.  gen.c parses the options; this is the run.
 */
#ifndef LEVELKIT_CLI_GEN_RUN_H
#define LEVELKIT_CLI_GEN_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/generate.h"
#include "levelkit/record.h"
#include "levelkit/view.h"

struct gen_run_options {
	const struct lk_generator *gen;
	const struct lk_gen_options *opt;
	uint64_t seed, count;
	const char *shard;        /* "K/N" or NULL */
	const char *resume;       /* --resume FILE or NULL */
	const char *output;       /* -o FILE or NULL */
	bool force;
	enum lk_format format;
	const char *format_name;  /* for messages */
	const char *fields;       /* --fields or NULL */
	unsigned jobs;
	enum lk_view_format view;   /* a picture instead of records (view.h) */
	const char *title;          /* --title: the page's, or NULL */
};

/* Run; returns the exit status (0, 1 fewer levels than asked, 2, 130). */
int gen_run(const struct gen_run_options *o);

#endif
