/*
 * output.c - where a command's records go (actions.h: lk_output_*): the
 * one rule that protects a user's files, for every command.  No command
 * may delete or overwrite a record it did not write: -o creates its file,
 * replaces an existing one only with --force, continues only the run it
 * resumes, and replaces an input only by renaming a complete output over
 * it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "levelkit/actions.h"

static bool is_stdout(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

bool lk_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (is_stdout(a) || is_stdout(b))
		return false;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static bool replaces_input(const char *path, const struct lk_output_rule *rule)
{
	for (int i = 0; i < rule->ninputs; i++)
		if (lk_same_file(rule->inputs[i], path))
			return true;
	return false;
}

/* Does the file start like an SLC collection (after a BOM and blanks)? */
static bool is_xml_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char buf[64];
	size_t n = fp ? fread(buf, 1, sizeof buf, fp) : 0, i = 0;
	if (fp)
		fclose(fp);
	if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
		i++;
	return i < n && buf[i] == '<';
}

/* The refusal of an existing file (st: its status, or NULL when it
 * appeared after the check). */
static void refuse(const char *path, const struct stat *st, const struct lk_output_rule *rule,
		   struct lk_strbuf *err)
{
	if (rule->ninputs > 0 || !st) {
		lk_strbuf_addf(err, "%s: the file exists and is not an input; --force replaces it",
			       path);
		return;
	}
	lk_strbuf_addf(err, "%s: the file exists and holds %lld byte%s; ", path,
		       (long long)st->st_size, st->st_size == 1 ? "" : "s");
	if (rule->resumable)
		lk_strbuf_addf(err, "--resume %s continues it, ", path);
	lk_strbuf_addf(err, "--force replaces it");
}

int lk_output_check(const char *path, const struct lk_output_rule *rule, struct lk_strbuf *err)
{
	struct stat st;
	if (is_stdout(path) || rule->append)
		return 0;
	if (replaces_input(path, rule)) {
		if (rule->force)
			return 0;
		if (is_xml_file(path)) {
			lk_strbuf_addf(err, "%s: -o would replace this XML collection with text "
				       "records; write elsewhere or give --force", path);
			return -1;
		}
		if (rule->format != LK_FORMAT_TEXT) {
			lk_strbuf_addf(err, "%s: -o would replace this input with another format; "
				       "write elsewhere or give --force", path);
			return -1;
		}
		return 0;
	}
	/* Any file, even an empty one: a command replaces only a file it
	 * created itself (or any with --force).  Devices and pipes
	 * (/dev/null, a FIFO) hold nothing to lose. */
	if (!rule->force && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		refuse(path, &st, rule, err);
		return -1;
	}
	return 0;
}

int lk_output_open(struct lk_output *o, const char *path, const struct lk_output_rule *rule,
		   struct lk_strbuf *err)
{
	memset(o, 0, sizeof *o);
	o->fp = stdout;
	if (is_stdout(path))
		return 0;
	if (lk_output_check(path, rule, err) < 0)
		return -1;
	o->path = path;
	o->replaces_input = !rule->append && replaces_input(path, rule);
	struct stat st;
	if (rule->append) {
		o->fp = fopen(path, "a");
	} else if (o->replaces_input) {
		/* Reading and writing one file: write beside it and rename
		 * when everything has been read. */
		size_t n = strlen(path) + 32;
		o->tmp = lk_xmalloc(n);
		snprintf(o->tmp, n, "%s.tmp%ld", path, (long)getpid());
		o->fp = fopen(o->tmp, "w");
	} else if (stat(path, &st) == 0) {
		o->fp = fopen(path, "w");   /* --force, or a device or pipe */
	} else {
		/* O_EXCL: a file that appeared meanwhile is not taken over */
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
		if (fd < 0 && errno == EEXIST) {
			refuse(path, NULL, rule, err);
			return -1;
		}
		o->fp = fd < 0 ? NULL : fdopen(fd, "w");
		o->created = o->fp != NULL;
	}
	if (!o->fp) {
		lk_strbuf_addf(err, "%s: cannot open for writing: %s", o->tmp ? o->tmp : path,
			       strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

/* Another message in err, one a line. */
static void say(struct lk_strbuf *err, const char *fmt, const char *a, const char *b)
{
	if (err->len)
		lk_strbuf_addch(err, '\n');
	lk_strbuf_addf(err, fmt, a, b);
}

int lk_output_close(struct lk_output *o, bool replace, bool nothing_written,
		    struct lk_strbuf *err)
{
	int rc = 0;
	if (o->fp == stdout) {
		if (fflush(stdout) != 0) {
			say(err, "%s: write error: %s", "<stdout>", strerror(errno));
			rc = -1;
		}
		o->fp = NULL;
		return rc;
	}
	if (!o->fp)
		return 0;
	if (fclose(o->fp) != 0) {
		say(err, "%s: write error: %s", o->tmp ? o->tmp : o->path, strerror(errno));
		rc = -1;
		replace = false;
	}
	if (o->tmp) {
		if (nothing_written && !replace) {
			remove(o->tmp);
		} else if (!replace) {
			say(err, "%s: left as it was; the output is in %s", o->path, o->tmp);
		} else if (rename(o->tmp, o->path) != 0) {
			say(err, "%s: cannot replace: %s", o->path, strerror(errno));
			rc = -1;
		}
		free(o->tmp);
		o->tmp = NULL;
	} else if (nothing_written && o->created) {
		/* nothing written: no empty file left behind (which the next
		 * run could not replace without --force) */
		remove(o->path);
	}
	o->fp = NULL;
	return rc;
}
