/*
 * ps_session.h - playing a PuzzleScript game as the reference engine's
 * test harness does: an undo stack of state keys, restart and
 * checkpoints, winning into the next level (or onto a message screen,
 * where the last level's grid stays and is still simulated but can no
 * longer be won), the again loop after every input, and the history of
 * sounds played.  Kept out of the solvers' inner loop.
 */
#ifndef LEVELKIT_PS_SESSION_H
#define LEVELKIT_PS_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "ps.h"

struct ps_session;

/* Start at a level (a map), with the random seed the reference's
 * recorder used (NULL: "0").  Runs the level's start rules and, as the
 * harness does, any again turns they cause. */
struct ps_session *ps_session_new(const struct ps_game *g, int level, const char *seed);
void ps_session_free(struct ps_session *s);

/* One input (PS_UP .. PS_ACTION, or PS_TICK), then again turns until none
 * is pending (bounded by PS_MAX_AGAIN; returns false if that bound hit). */
bool ps_session_input(struct ps_session *s, int input);
/* Undo to the last state that differs from the current one (noundo: nothing). */
void ps_session_undo(struct ps_session *s);
/* Restart the level (to its last checkpoint); norestart: nothing. */
bool ps_session_restart(struct ps_session *s);

int ps_session_level(const struct ps_session *s);
bool ps_session_text_mode(const struct ps_session *s);
struct ps_runtime *ps_session_runtime(struct ps_session *s);
/* Sounds played since the session started, as seeds. */
size_t ps_session_sound_count(const struct ps_session *s);
const char *ps_session_sound(const struct ps_session *s, size_t i);
void ps_session_debug_string(const struct ps_session *s, struct lk_strbuf *out);

#endif
