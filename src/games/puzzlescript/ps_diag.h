/*
 * ps_diag.h - the list of diagnostics a PuzzleScript script's compilation
 * collects (errors and warnings, each once, with its source line).
 */
#ifndef LEVELKIT_PS_DIAG_H
#define LEVELKIT_PS_DIAG_H

#include <stdbool.h>
#include <stddef.h>

/* ---- diagnostics ---- */

struct ps_diag {
	int line;        /* 1-based source line, 0 when the fault has none */
	bool is_error;
	char *msg;       /* lower-case, no full stop */
};

struct ps_diags {
	struct ps_diag *v;
	size_t n, alloc;
	size_t nerrors;
};

void ps_diags_init(struct ps_diags *d);
void ps_diags_release(struct ps_diags *d);
/* Record a message unless the very same one is already recorded. */
void ps_diag_add(struct ps_diags *d, bool is_error, int line, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

#endif
