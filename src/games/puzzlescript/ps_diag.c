/*
 * ps_diag.c - the diagnostics of a script's compilation (ps_diag.h).
 */
#include "ps_diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/strbuf.h"

/* ---- diagnostics ---- */

void ps_diags_init(struct ps_diags *d)
{
	memset(d, 0, sizeof *d);
}

void ps_diags_release(struct ps_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	memset(d, 0, sizeof *d);
}

void ps_diag_add(struct ps_diags *d, bool is_error, int line, const char *fmt, ...)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	lk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* the reference drops a message identical to one already logged */
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].line == line && d->v[i].is_error == is_error &&
		    !strcmp(d->v[i].msg, sb.buf)) {
			lk_strbuf_release(&sb);
			return;
		}
	LK_ALLOC_GROW(d->v, d->n + 1, d->alloc);
	d->v[d->n].line = line;
	d->v[d->n].is_error = is_error;
	d->v[d->n].msg = lk_strbuf_detach(&sb, NULL);
	d->n++;
	if (is_error)
		d->nerrors++;
}
