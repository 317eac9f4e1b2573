/*
 * lk_help2man.c - turn a levelkit command's --help into a man page, at
 * build time, so the pages cannot drift from the options (help2man's idea,
 * for the one layout that src/cli/options.c and src/cli/levelkit.c print).
 *
 * usage: lk_help2man -n NAME -v VERSION -l COMMANDS -o OUT [-d SUMMARY]
 *                    [-x EXTRA [-L LEVELS]] [-D DOCROOT -I DOCDIR] HELP [DOC...]
 *
 *   NAME      the page: "levelkit" or "levelkit-CMD"
 *   COMMANDS  the output of `levelkit --list-commands` (name TAB summary),
 *             for the NAME line and SEE ALSO
 *   SUMMARY   the NAME line's summary when NAME is not a command (the front)
 *   HELP      the output of `CMD --help`
 *   DOC...    documents (relative to DOCROOT) listed under DOCUMENTATION
 *             with their first "# " heading, as installed under DOCDIR
 *             (next to README.md)
 *   EXTRA     the sections --help has no place for (docs/man/NAME.txt: EXIT
 *             STATUS, ENVIRONMENT, FILES, EXAMPLES), put after OPTIONS: a
 *             line in capitals is a section's heading, a line indented by
 *             four spaces an item "TERM  DESCRIPTION", a line "$ command"
 *             an example's command (continued by lines "> more", shown
 *             indented under it: break it where the shell goes on, after
 *             a '|' or a '\', so that it fits 80 columns), other lines
 *             text (a blank line makes a paragraph); @LEVELS@ becomes
 *             LEVELS, where the sample packs are installed
 *
 * The help layout: "usage: PROG ..." and "   or: PROG ..." lines, a blank
 * line, the description (filled text, and lines indented by a few spaces
 * that are kept as they are), then groups: a heading line followed by
 * items "    TERM   DESCRIPTION" (TERM ending at two spaces, or alone on
 * its line with the description on the next).  Items after a blank line
 * without a heading form a group of their own.  A group whose terms are
 * not options becomes a section of its own (COMMANDS); the others are
 * subsections of OPTIONS.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lines {
	char **v;
	size_t n;
};

static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;
	fputs("lk_help2man: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

/* Read a whole file as lines without their newlines. */
static struct lines read_lines(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		die("%s: cannot open", path);
	struct lines l = { NULL, 0 };
	char *buf = NULL;
	size_t cap = 0, len = 0;
	int c;
	for (;;) {
		c = getc(fp);
		if (c == EOF && len == 0)
			break;
		if (len + 1 >= cap) {
			cap = cap ? 2 * cap : 128;
			buf = xrealloc(buf, cap);
		}
		if (c == '\n' || c == EOF) {
			buf[len] = '\0';
			l.v = xrealloc(l.v, (l.n + 1) * sizeof *l.v);
			l.v[l.n++] = xstrdup(buf);
			len = 0;
			if (c == EOF)
				break;
			continue;
		}
		buf[len++] = (char)c;
	}
	if (ferror(fp))
		die("%s: read error", path);
	fclose(fp);
	free(buf);
	return l;
}

static FILE *out;

/* Text for roff: backslashes and hyphens escaped (a '-' would print as a
 * hyphen, and options copied from the page would not work), and a line
 * that would start with a control character made safe. */
static void put_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		if (i == 0 && (s[i] == '.' || s[i] == '\''))
			fputs("\\&", out);
		if (s[i] == '\\')
			fputs("\\e", out);
		else if (s[i] == '-')
			fputs("\\-", out);
		else
			fputc(s[i], out);
	}
}

static void put_str(const char *s)
{
	put_text(s, strlen(s));
}

static bool blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return !*s;
}

static size_t indent(const char *s)
{
	size_t n = 0;
	while (s[n] == ' ')
		n++;
	return n;
}

/* An item line: four or more spaces, then a term. */
static bool is_item(const char *s)
{
	size_t n = indent(s);
	return n >= 4 && n < 20 && s[n];
}

/* Split an item into term and description (the description starts after
 * the first run of two or more spaces; it may be empty). */
static void split_item(const char *s, char **term, const char **desc)
{
	const char *t = s + indent(s);
	const char *gap = strstr(t, "  ");
	size_t tlen = gap ? (size_t)(gap - t) : strlen(t);
	*term = xrealloc(NULL, tlen + 1);
	memcpy(*term, t, tlen);
	(*term)[tlen] = '\0';
	*desc = gap ? gap + indent(gap) : "";
}

/* A term: options and command names in bold, <arg> in italics. */
static void put_term(const char *term)
{
	const char *p = term;
	while (*p) {
		if (*p == ' ' || *p == ',') {
			fputc(*p++, out);
			continue;
		}
		size_t n = strcspn(p, " ,");
		if (*p == '<' && n > 2 && p[n - 1] == '>') {
			fputs("\\fI", out);
			put_text(p + 1, n - 2);
			fputs("\\fR", out);
		} else {
			fputs("\\fB", out);
			put_text(p, n);
			fputs("\\fR", out);
		}
		p += n;
	}
}

struct command {
	char *name, *summary;
};

static struct command *commands;
static size_t ncommands;

static void read_commands(const char *path)
{
	struct lines l = read_lines(path);
	for (size_t i = 0; i < l.n; i++) {
		char *tab = strchr(l.v[i], '\t');
		if (!tab)
			die("%s:%zu: expected NAME<tab>SUMMARY", path, i + 1);
		*tab = '\0';
		commands = xrealloc(commands, (ncommands + 1) * sizeof *commands);
		commands[ncommands].name = l.v[i];
		commands[ncommands].summary = tab + 1;
		ncommands++;
	}
	if (!ncommands)
		die("%s: no commands", path);
	free(l.v);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < ncommands; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* The description: runs of unindented lines are filled text, runs of
 * indented lines are kept as they are, blank lines separate paragraphs. */
static void put_description(struct lines *h, size_t from, size_t to)
{
	bool nofill = false, para = false;
	for (size_t i = from; i < to; i++) {
		const char *s = h->v[i];
		if (blank(s)) {
			para = true;
			continue;
		}
		bool pre = indent(s) > 0;
		if (pre != nofill) {
			fputs(pre ? ".nf\n" : ".fi\n", out);
			nofill = pre;
		}
		if (para) {
			fputs(".PP\n", out);
			para = false;
		}
		put_str(s);
		fputc('\n', out);
	}
	if (nofill)
		fputs(".fi\n", out);
}

/* Text with @LEVELS@ replaced. */
static void put_subst(const char *s, const char *levels)
{
	const char *at;
	while ((at = strstr(s, "@LEVELS@")) != NULL) {
		put_text(s, (size_t)(at - s));
		put_str(levels ? levels : "share/levelkit/levels");
		s = at + 8;
	}
	put_str(s);
}

static bool is_heading(const char *s)
{
	if (!*s || indent(s) > 0)
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || *s == ' '))
			return false;
	return true;
}

/* The extra sections (see the top of the file). */
static void put_extra(const char *path, const char *levels)
{
	struct lines x = read_lines(path);
	bool para = false;
	for (size_t i = 0; i < x.n; i++) {
		const char *s = x.v[i];
		if (blank(s)) {
			para = true;
			continue;
		}
		if (is_heading(s)) {
			fputs(".SH ", out);
			put_str(s);
			fputc('\n', out);
			para = false;
			continue;
		}
		if (i == 0)
			die("%s:1: expected a section heading in capitals", path);
		if (strncmp(s, "$ ", 2) == 0) {
			/* an example: the command as it is typed, in bold, one
			 * line of the page per line of the command */
			fputs(".PP\n.RS 4\n.nf\n\\fB", out);
			put_subst(s + 2, levels);
			fputs("\\fR\n", out);
			while (i + 1 < x.n && strncmp(x.v[i + 1], "> ", 2) == 0) {
				fputs("\\fB  ", out);
				put_subst(x.v[++i] + 2, levels);
				fputs("\\fR\n", out);
			}
			fputs(".fi\n.RE\n", out);
			para = true;
			continue;
		}
		if (indent(s) >= 4) {
			char *term;
			const char *desc;
			split_item(s, &term, &desc);
			fputs(".TP\n\\fB", out);
			put_str(term);
			fputs("\\fR\n", out);
			put_subst(desc, levels);
			fputc('\n', out);
			free(term);
			para = false;
			continue;
		}
		if (para)
			fputs(".PP\n", out);
		para = false;
		put_subst(s, levels);
		fputc('\n', out);
	}
	for (size_t j = 0; j < x.n; j++)
		free(x.v[j]);
	free(x.v);
}

static void put_upper(const char *s)
{
	for (; *s; s++)
		fputc(toupper((unsigned char)*s), out);
}

int main(int argc, char **argv)
{
	const char *name = NULL, *version = NULL, *list = NULL, *outpath = NULL;
	const char *summary = NULL, *docroot = NULL, *docdir = "share/doc/levelkit";
	const char *extra = NULL, *levels = NULL;
	int i = 1;
	for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] && !argv[i][2]; i += 2) {
		switch (argv[i][1]) {
		case 'n': name = argv[i + 1]; break;
		case 'v': version = argv[i + 1]; break;
		case 'l': list = argv[i + 1]; break;
		case 'o': outpath = argv[i + 1]; break;
		case 'd': summary = argv[i + 1]; break;
		case 'D': docroot = argv[i + 1]; break;
		case 'I': docdir = argv[i + 1]; break;
		case 'x': extra = argv[i + 1]; break;
		case 'L': levels = argv[i + 1]; break;
		default: die("unknown option %s", argv[i]);
		}
	}
	if (!name || !version || !list || !outpath || i >= argc)
		die("usage: lk_help2man -n NAME -v VERSION -l COMMANDS -o OUT [-d SUMMARY] "
		    "[-x EXTRA [-L LEVELS]] [-D DOCROOT -I DOCDIR] HELP [DOC...]");
	const char *helppath = argv[i++];
	read_commands(list);

	/* levelkit-CMD is run as "levelkit CMD" */
	const char *cmd = strncmp(name, "levelkit-", 9) == 0 ? name + 9 : NULL;
	if (cmd) {
		const struct command *c = find_command(cmd);
		if (!c)
			die("%s is not in %s", cmd, list);
		summary = c->summary;
	}
	if (!summary)
		die("no summary for %s (-d)", name);

	struct lines h = read_lines(helppath);
	size_t k = 0;
	if (h.n == 0 || strncmp(h.v[0], "usage: ", 7) != 0)
		die("%s: the help does not start with 'usage: '", helppath);

	out = fopen(outpath, "w");
	if (!out)
		die("%s: cannot write", outpath);
	fputs(".\\\" Made by lk_help2man from the output of --help; do not edit.\n", out);
	fputs(".TH \"", out);
	put_upper(name);
	fputs("\" 1 \"\" \"levelkit ", out);
	put_str(version);
	/* no hyphenation, ragged right: options must stay whole */
	fputs("\" \"levelkit manual\"\n.nh\n.ad l\n.SH NAME\n", out);
	put_str(name);
	fputs(" \\- ", out);
	put_str(summary);
	/* each form filled, with a hanging indent: a long one wraps under
	 * itself instead of running past 80 columns */
	fputs("\n.SH SYNOPSIS\n.in +4\n", out);
	for (; k < h.n && (strncmp(h.v[k], "usage: ", 7) == 0 ||
			   strncmp(h.v[k], "   or: ", 7) == 0); k++) {
		const char *u = h.v[k] + 7;
		size_t prog = strcspn(u, " ");
		fputs(".ti -4\n\\fB", out);
		if (cmd) {
			fputs("levelkit ", out);
			put_str(cmd);
		} else {
			put_text(u, prog);
		}
		fputs("\\fR", out);
		put_str(u + prog);
		fputs("\n.br\n", out);
	}
	fputs(".in -4\n", out);

	/* The groups start at the first heading followed by an item. */
	size_t groups = k;
	while (groups < h.n && !(indent(h.v[groups]) == 0 && !blank(h.v[groups]) &&
				 groups + 1 < h.n && is_item(h.v[groups + 1])))
		groups++;
	if (groups == h.n)
		die("%s: no option groups found", helppath);

	fputs(".SH DESCRIPTION\n", out);
	put_description(&h, k, groups);
	if (cmd) {
		fputs(".PP\n\\fB", out);
		put_str(name);
		fputs("\\fR is also run as \\fBlevelkit ", out);
		put_str(cmd);
		fputs("\\fR.\n", out);
	}

	bool options_open = false, any_heading = false;
	const char *heading = NULL;
	size_t nitems = 0;
	for (k = groups; k < h.n; k++) {
		const char *s = h.v[k];
		if (blank(s)) {
			heading = NULL;
			continue;
		}
		if (!is_item(s)) {
			if (indent(s) == 0 && k + 1 < h.n && is_item(h.v[k + 1])) {
				heading = s;
				/* the group's kind is told by its first term */
				bool opts = h.v[k + 1][indent(h.v[k + 1])] == '-';
				if (!opts) {
					fputs(".SH ", out);
					put_upper(heading);
					fputc('\n', out);
					options_open = false;
				} else {
					if (!options_open)
						fputs(".SH OPTIONS\n", out);
					options_open = true;
					if (strcmp(heading, "Options") != 0) {
						fputs(".SS ", out);
						put_str(heading);
						fputc('\n', out);
						any_heading = true;
					}
				}
				continue;
			}
			/* a continuation of the previous item's description */
			put_str(s + indent(s));
			fputc('\n', out);
			continue;
		}
		if (!heading) {
			/* items after a blank line and no heading */
			if (!options_open)
				fputs(".SH OPTIONS\n", out);
			options_open = true;
			if (any_heading)
				fputs(".SS Other options\n", out);
			heading = "";
		}
		char *term;
		const char *desc;
		split_item(s, &term, &desc);
		fputs(".TP\n", out);
		put_term(term);
		fputc('\n', out);
		if (!*desc && k + 1 < h.n && indent(h.v[k + 1]) >= 20) {
			desc = h.v[k + 1] + indent(h.v[k + 1]);
			k++;
		}
		put_str(desc);
		fputc('\n', out);
		if (!cmd && term[0] != '-' && find_command(term)) {
			fputs("(\\fBlevelkit\\-", out);
			put_str(term);
			fputs("\\fR(1))\n", out);
		}
		free(term);
		nitems++;
	}
	if (!nitems)
		die("%s: no items", helppath);
	if (extra)
		put_extra(extra, levels);

	if (docroot && i < argc) {
		fputs(".SH DOCUMENTATION\nThe overview, \\fIREADME.md\\fR, and these documents are "
		      "installed in \\fI", out);
		put_str(docdir);
		fputs("\\fR under the installation prefix.\n", out);
		for (; i < argc; i++) {
			size_t plen = strlen(docroot) + strlen(argv[i]) + 2;
			char *path = xrealloc(NULL, plen);
			snprintf(path, plen, "%s/%s", docroot, argv[i]);
			struct lines d = read_lines(path);
			const char *title = NULL;
			for (size_t j = 0; j < d.n && !title; j++)
				if (strncmp(d.v[j], "# ", 2) == 0)
					title = d.v[j] + 2;
			fputs(".TP\n\\fI", out);
			put_str(argv[i]);
			fputs("\\fR\n", out);
			/* the title without Markdown's code quotes */
			char *plain = xstrdup(title ? title : "");
			size_t n = 0;
			for (const char *t = plain; *t; t++)
				if (*t != '`')
					plain[n++] = *t;
			plain[n] = '\0';
			put_str(plain);
			fputc('\n', out);
			free(plain);
			for (size_t j = 0; j < d.n; j++)
				free(d.v[j]);
			free(d.v);
			free(path);
		}
	}

	fputs(".SH SEE ALSO\n", out);
	bool first = true;
	if (cmd) {
		fputs("\\fBlevelkit\\fR(1)", out);
		first = false;
	}
	for (size_t c = 0; c < ncommands; c++) {
		if (cmd && strcmp(commands[c].name, cmd) == 0)
			continue;
		fputs(first ? "" : ",\n", out);
		fputs("\\fBlevelkit\\-", out);
		put_str(commands[c].name);
		fputs("\\fR(1)", out);
		first = false;
	}
	fputs("\n", out);
	if (fclose(out) != 0)
		die("%s: write error", outpath);
	for (size_t j = 0; j < h.n; j++)
		free(h.v[j]);
	free(h.v);
	return 0;
}
