/*
 * ps_unicode.h - the few Unicode facts the reference tokenizer relies on:
 * decoding and writing UTF-8, what is a letter and a space, and the lower
 * case of a character.
 */
#ifndef LEVELKIT_PS_UNICODE_H
#define LEVELKIT_PS_UNICODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/strbuf.h"

/* ---- Unicode ---- */

/* Decode one UTF-8 sequence at s (of at most n bytes); bad bytes decode as
 * themselves.  *used receives the bytes consumed (>= 1). */
uint32_t ps_utf8_decode(const unsigned char *s, size_t n, size_t *used);
void ps_utf8_put(struct lk_strbuf *sb, uint32_t cp);
/* JavaScript's \s together with \p{Z}. */
bool ps_is_space(uint32_t cp);
/* \p{L} or \p{N}, or '_': the characters of an object name. */
bool ps_is_word(uint32_t cp);
/* String.prototype.toLowerCase for one character (common scripts). */
uint32_t ps_lower(uint32_t cp);

#endif
