/*
 * rays.h - ray tables for games whose pieces act along straight lines
 * (Combination's attacks, the laser game's beams).
 *
 * A ray leaves a cell in one of the lk_dir directions and crosses cells
 * until the first cell that stops it, or the edge.  What a game can change
 * along the way are its *squares*, the cells a piece may be put on: the
 * table lists, for every origin and direction, the squares the ray crosses
 * in order, and the cell that stops it for good (a wall, a fixed piece) or
 * -1 at the edge.  Cells that are neither squares nor stops (Combination's
 * holes) are crossed without being listed.  Which square actually stops a
 * ray depends on the pieces placed, so the game walks the list to the
 * first occupied square; the table only spares it the geometry.
 */
#ifndef LEVELKIT_RAYS_H
#define LEVELKIT_RAYS_H

/* The board the table is built from. */
struct lk_ray_board {
	int width, height;
	const char *cells;      /* width * height characters, row-major */
	const char *squares;    /* the characters that are squares (e.g. ".") */
	const char *passes;     /* characters crossed silently (e.g. "o"), may be NULL */
	/* Optional: the number written into the table for a square cell
	 * (Combination numbers its squares); NULL writes cell indices. */
	const int *square_number;
};

struct lk_rays {
	int ndirs;              /* directions per origin: lk_dir 0 .. ndirs-1 */
	int norigins;
	int *at, *len;          /* per origin * ndirs + dir: the squares are
				 * squares[at[i] .. at[i] + len[i]) */
	int *squares;
	int *stop;              /* per origin * ndirs + dir: the stopping cell, or -1 */
};

/*
 * Build the table for rays from the cells origins[0 .. norigins) (numbered
 * 0 .. norigins-1 in the table, in that order) in the directions 0 ..
 * ndirs-1 of lk_dir (4: orthogonal only; 8: with the diagonals).
 */
void lk_rays_build(struct lk_rays *r, const struct lk_ray_board *b, const int *origins,
		   int norigins, int ndirs);
void lk_rays_release(struct lk_rays *r);

/* The squares of the ray from origin number o in direction d, *len of them. */
static inline const int *lk_ray(const struct lk_rays *r, int o, int d, int *len)
{
	int i = o * r->ndirs + d;
	*len = r->len[i];
	return r->squares + r->at[i];
}

#endif
