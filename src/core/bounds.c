/*
 * bounds.c - what completes a search's bounds (bounds.h): the memory
 * default every command shares, from the machine's RAM and the number of
 * searches run at once, and the machine's processors for -j 0.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/bounds.h"

#include <unistd.h>

void lk_bounds_finish(struct lk_bounds *b, unsigned long jobs,
		      const volatile sig_atomic_t *cancel)
{
	if (!b->max_memory) {
		size_t ram = lk_physical_memory();
		size_t cap = (size_t)4 << 30;
		b->max_memory = ram ? ram / (jobs + 1) : (size_t)1 << 30;
		if (b->max_memory > cap)
			b->max_memory = cap;
	}
	b->cancel = cancel;
}

unsigned lk_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

size_t lk_physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || size <= 0)
		return 0;
	return (size_t)pages * (size_t)size;
}
