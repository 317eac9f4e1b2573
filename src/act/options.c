/*
 * options.c - the commands' option table parser, their messages and the
 * value parsers (see options.h).  The tables themselves are the commands'
 * (src/cli); the parser is the library's, as git's parse-options is
 * libgit's, so that a test reaches it without a process.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "levelkit/game.h"
#include "levelkit/strbuf.h"

/* --help: descriptions start at this column, lines end before the width */
#define HELP_COLUMN 30
#define HELP_WIDTH 80

const char *lk_prog = "levelkit";
static const char *usage_line;

/* The tables of the parse under way.  They are held here, not only in
 * locals, because --help, --version and a usage error exit in the middle
 * of the parse: held here they are still reachable then, which the leak
 * checker accepts, and released at the end of a parse that returns. */
static struct {
	struct lk_option *opts;
	struct option *longs;
	struct lk_strbuf shorts;
} parsing = { NULL, NULL, LK_STRBUF_INIT };

static void parsing_release(void)
{
	free(parsing.opts);
	free(parsing.longs);
	lk_strbuf_release(&parsing.shorts);
	parsing.opts = NULL;
	parsing.longs = NULL;
}
/* The options given, by long name, and how each was typed ("-n" or
 * "--count"), for lk_option_given and messages. */
static struct given {
	const char *name;
	char typed[64];
	char *list;   /* LK_OPT_LIST: the values given so far, joined (owned) */
} *given;
static size_t ngiven, given_alloc;

static const struct given *find_given(const char *long_name)
{
	for (size_t i = 0; i < ngiven; i++)
		if (strcmp(given[i].name, long_name) == 0)
			return &given[i];
	return NULL;
}

bool lk_option_given(const char *long_name)
{
	return find_given(long_name) != NULL;
}

const char *lk_option_typed(const char *long_name)
{
	const struct given *g = find_given(long_name);
	return g ? g->typed : NULL;
}

void lk_message_format(struct lk_strbuf *out, const char *file, size_t line, const char *text)
{
	lk_strbuf_addf(out, "%s: ", lk_prog);
	if (file) {
		lk_strbuf_add_escaped(out, file, strlen(file));
		if (line)
			lk_strbuf_addf(out, ":%zu", line);
		lk_strbuf_addstr(out, ": ");
	}
	lk_strbuf_add_escaped(out, text, strlen(text));
	lk_strbuf_addch(out, '\n');
}

/* The usage text with the command's name as it was run (levelkit-solve
 * when installed, solve in the build tree): every word that opens a usage
 * line ("solve [options]", "   or: solve ...") is replaced by lk_prog. */
static void print_usage(FILE *fp, const char *prefix)
{
	size_t name_len = strcspn(usage_line, " ");
	const char *s = usage_line;
	fputs(prefix, fp);
	while (*s) {
		if (strncmp(s, usage_line, name_len) == 0 &&
		    (s == usage_line || (s >= usage_line + 4 && strncmp(s - 4, "or: ", 4) == 0))) {
			fputs(lk_prog, fp);
			s += name_len;
		} else {
			fputc(*s++, fp);
		}
	}
	fputc('\n', fp);
}

static void vmessage(const char *file, size_t line, const char *fmt, va_list ap)
{
	struct lk_strbuf text = LK_STRBUF_INIT, out = LK_STRBUF_INIT;
	lk_strbuf_vaddf(&text, fmt, ap);
	lk_message_format(&out, file, line, text.buf);
	fputs(out.buf, stderr);
	lk_strbuf_release(&text);
	lk_strbuf_release(&out);
}

void lk_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(NULL, 0, fmt, ap);
	va_end(ap);
}

void lk_error_at(const char *file, size_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(file ? file : "<stdin>", line, fmt, ap);
	va_end(ap);
}

void lk_error_lines(struct lk_strbuf *err)
{
	char *line = err->buf;
	while (line && *line) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		lk_error("%s", line);
		line = nl ? nl + 1 : NULL;
	}
	lk_strbuf_release(err);
}

/* The library's notices (game.h), said as messages are. */
static void print_notice(const char *file, size_t line, const char *message)
{
	lk_error_at(file, line, "%s", message);
}

_Noreturn void lk_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(NULL, 0, fmt, ap);
	va_end(ap);
	if (usage_line) {
		print_usage(stderr, "usage: ");
		fprintf(stderr, "try '%s --help' for more information\n", lk_prog);
	}
	exit(2);
}

int lk_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	/* strtoull skips blanks and accepts a sign; only digits are a count */
	if (!(*s >= '0' && *s <= '9'))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

int lk_parse_number(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	/* strtod also reads "nan", "inf" and hexadecimal floats; none of them
	 * is a threshold or a bound a user means */
	if (errno || end == s || *end || !isfinite(v))
		return -1;
	for (const char *p = s; p < end; p++)
		if (*p == 'x' || *p == 'X')
			return -1;
	*out = v;
	return 0;
}

/* The leading decimal number of s (no sign, no nan/inf/hex), or -1. */
static int leading_number(const char *s, double *v, char **end)
{
	if (!((*s >= '0' && *s <= '9') || *s == '.'))
		return -1;
	errno = 0;
	*v = strtod(s, end);
	if (errno || *end == s || !isfinite(*v))
		return -1;
	for (const char *p = s; p < *end; p++)
		if (*p == 'x' || *p == 'X')
			return -1;
	return 0;
}

int lk_parse_size(const char *s, size_t *out)
{
	char *end;
	double v;
	if (leading_number(s, &v, &end) < 0)
		return -1;
	double mult = 1;
	switch (*end) {
	case 'k': case 'K': mult = 1024.0; end++; break;
	case 'm': case 'M': mult = 1024.0 * 1024; end++; break;
	case 'g': case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
	case 't': case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
	default: break;
	}
	if (*end == 'i' && mult > 1)
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -1;
	/* converting a double beyond SIZE_MAX to size_t is undefined */
	v *= mult;
	if (!(v < (double)SIZE_MAX))
		return -1;
	*out = (size_t)v;
	return 0;
}

int lk_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;
	if (leading_number(s, &v, &end) < 0)
		return -1;
	if (*end == 's')
		end++;
	else if (*end == 'm' && !end[1])
		v *= 60, end++;
	else if (*end == 'h' && !end[1])
		v *= 3600, end++;
	if (*end || !isfinite(v) || v > 1e9)
		return -1;
	*out = v;
	return 0;
}

void lk_wrap(struct lk_strbuf *out, const char *text, size_t col, size_t indent, size_t width)
{
	const char *p = text;
	bool first = true;
	for (;;) {
		/* the blanks between two words are kept (two after a full
		 * stop), unless the line breaks there */
		size_t gap = 0;
		bool newline = false;
		for (; *p == ' ' || *p == '\n'; p++) {
			newline |= *p == '\n';
			gap++;
		}
		if (newline)
			gap = 1;
		if (!*p)
			break;
		size_t n = strcspn(p, " \n");
		if (!first && col + gap + n > width) {
			lk_strbuf_addch(out, '\n');
			for (size_t i = 0; i < indent; i++)
				lk_strbuf_addch(out, ' ');
			col = indent;
		} else if (!first) {
			for (size_t i = 0; i < gap; i++)
				lk_strbuf_addch(out, ' ');
			col += gap;
		}
		lk_strbuf_add(out, p, n);
		col += n;
		p += n;
		first = false;
	}
}

static void print_help(const struct lk_option *opts, const char *description)
{
	print_usage(stdout, "usage: ");
	putchar('\n');
	if (description)
		printf("%s\n\n", description);
	for (const struct lk_option *o = opts; o->type != LK_OPT_END; o++) {
		if (o->type == LK_OPT_GROUP) {
			printf("%s%s\n", o == opts ? "" : "\n", o->help);
			continue;
		}
		if (!o->help)
			continue;   /* parsed, not listed (refused with a reason) */
		struct lk_strbuf left = LK_STRBUF_INIT;
		lk_strbuf_addstr(&left, "    ");
		if (o->short_name)
			lk_strbuf_addf(&left, "-%c, ", o->short_name);
		else
			lk_strbuf_addstr(&left, "    ");
		lk_strbuf_addf(&left, "--%s", o->long_name);
		if (o->argh)
			lk_strbuf_addf(&left, " <%s>", o->argh);
		/* long descriptions go on under their start (a hanging indent) */
		if (left.len < HELP_COLUMN)
			lk_strbuf_addf(&left, "%*s", (int)(HELP_COLUMN - left.len), "");
		else
			lk_strbuf_addf(&left, "\n%*s", HELP_COLUMN, "");
		lk_wrap(&left, o->help, HELP_COLUMN, HELP_COLUMN, HELP_WIDTH);
		puts(left.buf);
		lk_strbuf_release(&left);
	}
	printf("\n    -h, --help                show this help\n");
	printf("        --version             show the version\n");
}

static void store(const struct lk_option *o, const char *arg)
{
	switch (o->type) {
	case LK_OPT_FLAG:
		*(bool *)o->value = true;
		break;
	case LK_OPT_STRING:
		*(const char **)o->value = arg;
		break;
	case LK_OPT_LIST: {
		/* a repeat adds to the list (--with a --with b is --with a,b):
		 * taking only the last one silently dropped the first */
		const char *prev = *(const char **)o->value;
		struct given *g = NULL;
		for (size_t i = 0; i < ngiven && !g; i++)
			if (strcmp(given[i].name, o->long_name) == 0)
				g = &given[i];
		if (!g || !prev) {
			*(const char **)o->value = arg;
			break;
		}
		size_t len = strlen(prev) + strlen(arg) + 2;
		char *joined = lk_xmalloc(len);
		snprintf(joined, len, "%s,%s", prev, arg);
		free(g->list);
		g->list = joined;
		*(const char **)o->value = joined;
		break;
	}
	case LK_OPT_UINT: {
		uint64_t v;
		if (lk_parse_u64(arg, &v) < 0 || v > 0xffffffffu)
			lk_usage_error("--%s: '%s' is not a non-negative integer", o->long_name, arg);
		*(unsigned long *)o->value = (unsigned long)v;
		break;
	}
	case LK_OPT_U64:
		if (lk_parse_u64(arg, (uint64_t *)o->value) < 0)
			lk_usage_error("--%s: '%s' is not a non-negative integer", o->long_name, arg);
		break;
	case LK_OPT_SIZE:
		if (lk_parse_size(arg, (size_t *)o->value) < 0)
			lk_usage_error("--%s: '%s' is not a size (e.g. 512M, 2G)", o->long_name, arg);
		break;
	case LK_OPT_SECONDS:
		if (lk_parse_seconds(arg, (double *)o->value) < 0)
			lk_usage_error("--%s: '%s' is not a duration (e.g. 30, 2.5s, 10m)", o->long_name, arg);
		break;
	case LK_OPT_CALLBACK:
		if (o->callback(o, arg) < 0)
			exit(2);
		break;
	default:
		break;
	}
}

/* The table with every LK_OPT_TABLE entry replaced by its options. */
static size_t flatten(const struct lk_option *opts, struct lk_option *out)
{
	size_t n = 0;
	for (const struct lk_option *o = opts; o->type != LK_OPT_END; o++) {
		if (o->type == LK_OPT_TABLE) {
			n += flatten(o->value, out ? out + n : NULL);
			continue;
		}
		if (out)
			out[n] = *o;
		n++;
	}
	return n;
}

int lk_parse_options(int argc, char **argv, const struct lk_option *table,
		     const char *usage, const char *description)
{
	size_t nflat = flatten(table, NULL);
	struct lk_option *opts = lk_xcalloc(nflat + 1, sizeof *opts);
	parsing.opts = opts;
	flatten(table, opts);
	opts[nflat] = (struct lk_option)LK_OPT_END_();
	const char *slash = argv[0] ? strrchr(argv[0], '/') : NULL;
	lk_prog = slash ? slash + 1 : (argv[0] ? argv[0] : lk_prog);
	lk_set_program_name(lk_prog);
	usage_line = usage;
	lk_set_notice_handler(print_notice);

	size_t n = 0;
	while (opts[n].type != LK_OPT_END)
		n++;
	struct option *longs = lk_xcalloc(n + 3, sizeof *longs);
	parsing.longs = longs;
	size_t k = 0;
	lk_strbuf_addstr(&parsing.shorts, "h");
	for (size_t i = 0; i < n; i++) {
		const struct lk_option *o = &opts[i];
		if (o->type == LK_OPT_GROUP)
			continue;
		bool has_arg = o->type != LK_OPT_FLAG && !(o->type == LK_OPT_CALLBACK && !o->argh);
		longs[k].name = o->long_name;
		longs[k].has_arg = has_arg ? required_argument : no_argument;
		longs[k].flag = NULL;
		longs[k].val = 256 + (int)i;
		k++;
		if (o->short_name) {
			lk_strbuf_addch(&parsing.shorts, (char)o->short_name);
			if (has_arg)
				lk_strbuf_addch(&parsing.shorts, ':');
		}
	}
	longs[k++] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[k++] = (struct option){ "version", no_argument, NULL, 1 };

	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, parsing.shorts.buf, longs, NULL)) != -1) {
		if (c == 'h') {
			print_help(opts, description);
			exit(0);
		}
		if (c == 1) {
			printf("%s (levelkit) %s\n", lk_prog, LEVELKIT_VERSION);
			exit(0);
		}
		if (c == '?' || c == ':') {
			if (optopt)
				lk_usage_error("unknown option or missing value: -%c", optopt);
			lk_usage_error("unknown option or missing value: %s", argv[optind - 1]);
		}
		const struct lk_option *o = NULL;
		if (c >= 256)
			o = &opts[c - 256];
		else
			for (size_t i = 0; i < n && !o; i++)
				if (opts[i].short_name == c)
					o = &opts[i];
		if (o) {
			store(o, optarg);
			if (o->long_name && !lk_option_given(o->long_name)) {
				LK_ALLOC_GROW(given, ngiven + 1, given_alloc);
				struct given *g = &given[ngiven++];
				g->name = o->long_name;
				g->list = NULL;
				if (c < 256)
					snprintf(g->typed, sizeof g->typed, "-%c", c);
				else
					snprintf(g->typed, sizeof g->typed, "--%s", o->long_name);
			}
		}
	}
	parsing_release();
	return optind;
}
