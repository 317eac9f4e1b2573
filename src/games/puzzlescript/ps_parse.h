/*
 * ps_parse.h - the PuzzleScript tokenizer's output and its internals.
 *
 * The reference compiler reads a game with an editor tokenizer, a state
 * machine called once per token that fills lists as it goes (objects,
 * legend entries, sound rows, collision layers, rule lines, win
 * conditions, levels, prelude flags).  Games depend on its quirks (what a
 * comment cuts, which characters make a name, how blank lines split
 * levels), so ps_lexer.c and ps_lexer_legend.c follow it token by token.
 * Names are interned (ps_arena.h) in lower case, as the reference
 * lower-cases every line before reading it.
 */
#ifndef LEVELKIT_PS_PARSE_H
#define LEVELKIT_PS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ps_arena.h"
#include "ps_diag.h"
#include "levelkit/strbuf.h"

enum ps_section {
	PS_SEC_NONE = -1,
	PS_SEC_OBJECTS,
	PS_SEC_LEGEND,
	PS_SEC_SOUNDS,
	PS_SEC_COLLISIONLAYERS,
	PS_SEC_RULES,
	PS_SEC_WINCONDITIONS,
	PS_SEC_LEVELS,
	PS_NSECTIONS
};

struct ps_pobject {
	int sym;
	int line;
	bool defined;            /* false for a name seen only as a duplicate */
	char **colors;           /* as written, lower case */
	size_t ncolors, colors_alloc;
	char **sprite;           /* rows of '.' and digits */
	size_t nsprite, sprite_alloc;
	char *display;           /* the name as first written */
};

/* A legend line: name = item (synonym), name = a and b (aggregate),
 * name = a or b (property); items are already flattened as the reference
 * flattens them while reading. */
struct ps_plegend {
	int sym;
	char *display;           /* the name as written */
	int *items;
	size_t nitems, items_alloc;
	int line;
};

enum ps_sound_tok { PS_ST_EVENT, PS_ST_NAME, PS_ST_VERB, PS_ST_DIRECTION, PS_ST_SEED, PS_ST_ERROR };

struct ps_psound {
	char **tok;
	enum ps_sound_tok *kind;
	size_t n, alloc;
	int line;
};

struct ps_player {
	int *syms;
	size_t n, alloc;
};

struct ps_prule {
	char *text;      /* lower case, up to the first '(' */
	char *mixed;     /* the whole line as written (for message text) */
	int line;
};

struct ps_pwin {
	char **words;
	size_t n;
	int line;
};

struct ps_plevel {
	bool is_message;
	char *message;   /* is_message */
	int line;        /* the message's line, or the map's first row */
	uint32_t **rows; /* code points, lower case, trimmed */
	size_t *rowlen;
	size_t nrows, rows_alloc;
};

struct ps_pmeta {
	char *key;
	char *value;
	int line;
};

struct ps_parse {
	struct ps_arena *arena;
	struct ps_symtab *syms;
	struct ps_diags *diags;

	struct ps_pobject *objects;          /* in order of definition */
	size_t nobjects, objects_alloc;
	int *obj_of_sym;                     /* sym -> index into objects, or -1 */
	size_t obj_of_sym_alloc;

	struct ps_plegend *synonyms, *aggregates, *properties;
	size_t nsynonyms, naggregates, nproperties;
	size_t synonyms_alloc, aggregates_alloc, properties_alloc;

	struct ps_psound *sounds;
	size_t nsounds, sounds_alloc;

	struct ps_player *layers;            /* collision layers */
	size_t nlayers, layers_alloc;

	struct ps_prule *rules;
	size_t nrules, rules_alloc;

	struct ps_pwin *wins;
	size_t nwins, wins_alloc;

	struct ps_plevel *levels;
	size_t nlevels, levels_alloc;

	struct ps_pmeta *meta;
	size_t nmeta, meta_alloc;

	/* names known when SOUNDS starts (objects and legend) and the
	 * one-character names usable in maps, as flags by symbol */
	bool *is_name, *is_abbrev;
	size_t name_flags_alloc;

	/* tokenizer state */
	int line;
	int comment_level;
	enum ps_section section;
	bool visited[PS_NSECTIONS];
	int nvisited;
	bool line_should_end;
	const char *line_should_end_because;
	bool sol_after_comment;
	int token_index;
	int objects_section;
	int objects_candidate;               /* index into objects, or -1 */
	/* the legend, sound and layer lines being read */
	char **wip;
	enum ps_sound_tok *wip_kind;
	size_t nwip, wip_alloc, wip_kind_alloc;
	bool wip_error;                      /* a sound row already went wrong */
	char *legend_display;                /* legend: the name being defined, as written */
};

/* A line being tokenized: code points, lower-cased from the start, the
 * original line kept for the few places that want its case. */
struct ps_stream {
	uint32_t *s;        /* lower case */
	uint32_t *orig;
	size_t len, pos;
};

void ps_parse_init(struct ps_parse *p, struct ps_arena *a, struct ps_symtab *syms,
		   struct ps_diags *diags);
/* Tokenize the whole source; errors go to p->diags. */
void ps_parse_source(struct ps_parse *p, const char *src, size_t len);

/* ---- shared by the tokenizer files ---- */

/* Look up what the legend knows about a symbol, following synonyms. */
enum ps_kind { PS_K_UNDECLARED, PS_K_OBJECT, PS_K_AGGREGATE, PS_K_PROPERTY };
enum ps_kind ps_parse_lookup(const struct ps_parse *p, int sym, int *end_sym,
			     const struct ps_plegend **entry);
bool ps_parse_declared(const struct ps_parse *p, int sym, int *line);
/* The name as first written (its case kept), or NULL. */
const char *ps_parse_display(const struct ps_parse *p, int sym);
bool ps_parse_is_object(const struct ps_parse *p, int sym);
void ps_parse_name_flags(struct ps_parse *p, int sym, bool name, bool abbrev);

/* Stream helpers. */
bool ps_st_eol(const struct ps_stream *st);
void ps_st_eat_space(struct ps_stream *st);
/* Match [\p{L}\p{N}_]+ then spaces at pos; on success consume and store
 * the trimmed word (UTF-8) in out. */
bool ps_st_match_name(struct ps_stream *st, struct lk_strbuf *out);
/* [^\p{Z}\s\()]+ then spaces: an error token or a name in the middle of
 * a line. */
bool ps_st_match_until_space(struct ps_stream *st, struct lk_strbuf *out);
/* A literal keyword at pos not followed by a name character. */
bool ps_st_match_word(struct ps_stream *st, const char *word, bool consume);
void ps_st_text(const struct ps_stream *st, size_t from, size_t to, bool orig,
		struct lk_strbuf *out);
/* The text between from and to with JavaScript's trim() applied. */
void ps_st_text_trim(const struct ps_stream *st, size_t from, size_t to, bool orig,
		     struct lk_strbuf *out);
/* [^(]+ : the rest of the line up to a comment; false at a '('. */
bool ps_st_match_not_comment(struct ps_stream *st, bool consume, size_t *end);
void ps_st_eat_spaces_only(struct ps_stream *st);

void ps_lex_prelude(struct ps_parse *p, struct ps_stream *st, bool sol);
void ps_lex_objects(struct ps_parse *p, struct ps_stream *st, bool sol);
void ps_lex_rules(struct ps_parse *p, struct ps_stream *st, bool sol, uint32_t ch);
void ps_lex_wins(struct ps_parse *p, struct ps_stream *st, bool sol);
void ps_lex_levels(struct ps_parse *p, struct ps_stream *st, bool sol);
int ps_parse_object_index(struct ps_parse *p, int sym);

void ps_lex_legend(struct ps_parse *p, struct ps_stream *st, bool sol);
void ps_lex_legend_eol(struct ps_parse *p);
void ps_lex_sounds(struct ps_parse *p, struct ps_stream *st);
void ps_lex_sounds_eol(struct ps_parse *p);
void ps_lex_layers(struct ps_parse *p, struct ps_stream *st, bool sol);

#endif
