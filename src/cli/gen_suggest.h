/*
 * gen_suggest.h - gen --suggest K: MixedAim's suggestions for a designer,
 * shown as they change and kept live on the terminal and the HTML page
 * (transform.h: lk_transform_suggest).  gen.c parses the options; this
 * runs the suggestions and shows them.
 */
#ifndef LEVELKIT_CLI_GEN_SUGGEST_H
#define LEVELKIT_CLI_GEN_SUGGEST_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/generate.h"
#include "levelkit/record.h"
#include "levelkit/view.h"

struct gen_suggest_options {
	const struct lk_generator *gen;
	const struct lk_gen_options *opt;
	const struct lk_record *from;     /* --from's level, or NULL */
	const char *from_path;
	const char *output;               /* -o FILE or NULL */
	const char *title;                /* --title, or NULL */
	enum lk_view_format view;
	uint64_t seed;
	unsigned k;
	uint64_t candidates;              /* --candidates, 0: none */
	double time_limit, timeout;
	unsigned within;                  /* --within, 0: 1 */
	long max_changes;                 /* --max-changes, -1: any */
	bool climb;
	const char *by;                   /* --by, NULL: difficulty-min */
	double interesting;               /* --interesting, NaN: the base level's */
};

/* Check the suggestion options (a usage error exits). */
void gen_suggest_check(const struct gen_suggest_options *so);
/* Run; returns the exit status (0, 1 no suggestion, 2, 130). */
int gen_suggest(const struct gen_suggest_options *so);

#endif
