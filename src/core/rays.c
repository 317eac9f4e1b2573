/*
 * rays.c - ray tables for line-of-sight games (see rays.h).
 */
#include "levelkit/rays.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/grid.h"
#include "levelkit/strbuf.h"

static int in_set(const char *set, char c)
{
	return set && c && strchr(set, c) != NULL;
}

void lk_rays_build(struct lk_rays *r, const struct lk_ray_board *b, const int *origins,
		   int norigins, int ndirs)
{
	size_t n = (size_t)norigins * (size_t)ndirs;
	size_t alloc = 64, used = 0;
	memset(r, 0, sizeof *r);
	r->ndirs = ndirs;
	r->norigins = norigins;
	r->at = lk_xmalloc((n ? n : 1) * sizeof *r->at);
	r->len = lk_xmalloc((n ? n : 1) * sizeof *r->len);
	r->stop = lk_xmalloc((n ? n : 1) * sizeof *r->stop);
	r->squares = lk_xmalloc(alloc * sizeof *r->squares);
	for (int o = 0; o < norigins; o++) {
		int cx = origins[o] % b->width, cy = origins[o] / b->width;
		for (int d = 0; d < ndirs; d++) {
			size_t i = (size_t)o * (size_t)ndirs + (size_t)d;
			int x = cx + lk_dir_dx[d], y = cy + lk_dir_dy[d];
			r->at[i] = (int)used;
			r->stop[i] = -1;
			while (x >= 0 && y >= 0 && x < b->width && y < b->height) {
				int cell = y * b->width + x;
				char c = b->cells[cell];
				if (in_set(b->squares, c)) {
					LK_ALLOC_GROW(r->squares, used + 1, alloc);
					r->squares[used++] = b->square_number ? b->square_number[cell] : cell;
				} else if (!in_set(b->passes, c)) {
					r->stop[i] = cell;
					break;
				}
				x += lk_dir_dx[d];
				y += lk_dir_dy[d];
			}
			r->len[i] = (int)used - r->at[i];
		}
	}
}

void lk_rays_release(struct lk_rays *r)
{
	free(r->at);
	free(r->len);
	free(r->squares);
	free(r->stop);
	memset(r, 0, sizeof *r);
}
