/*
 * fuzz_util.h - what the fuzz targets share: reading the fuzzer's bytes as
 * a stream of records, and stopping on a broken invariant.
 *
 * Each target is one file with LLVMFuzzerTestOneInput; see docs/fuzzing.md.
 */
#ifndef LEVELKIT_FUZZ_UTIL_H
#define LEVELKIT_FUZZ_UTIL_H

#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "levelkit/record.h"

/* A broken invariant is a crash the fuzzer keeps, with the reason on
 * stderr (abort() alone would not say which check failed). */
#define FUZZ_CHECK(cond)                                                             \
	do {                                                                        \
		if (!(cond)) {                                                      \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, \
				#cond);                                             \
			abort();                                                    \
		}                                                                   \
	} while (0)

/* The input as a read-only stream (NULL for no bytes: a reader on NULL is
 * at end of input, and fmemopen may refuse a size of 0). */
static inline FILE *fuzz_open(const uint8_t *data, size_t size)
{
	if (size == 0)
		return NULL;
	FILE *fp = fmemopen((void *)(uintptr_t)data, size, "rb");
	FUZZ_CHECK(fp != NULL);
	return fp;
}

/* A copy of the input with a terminating NUL (inputs are not strings). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	FUZZ_CHECK(s != NULL);
	for (size_t i = 0; i < size; i++)
		s[i] = (char)data[i];
	s[size] = '\0';
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
