/*
 * assign.h - the assignment problem: give each row of a cost matrix a
 * distinct column at the least total cost (the Hungarian algorithm).
 *
 * Lower bounds that match pieces to places use it: Sokoban's boxes to
 * goals, a PuzzleScript win condition's objects to the cells they must
 * reach.  It allocates nothing; the caller gives it working memory.
 */
#ifndef LEVELKIT_ASSIGN_H
#define LEVELKIT_ASSIGN_H

#include <stddef.h>

/* A cost no assignment should use (a pair that can never be matched):
 * any total at or above it means no assignment avoids such a pair. */
#define LK_ASSIGN_NONE (1 << 20)

/* The ints of working memory lk_assign needs for n rows and m columns. */
static inline size_t lk_assign_work(int n, int m)
{
	return (size_t)(n + 1) + 5 * (size_t)(m + 1);
}

/*
 * The least total cost of assigning each of n rows a distinct one of m
 * columns (n <= m), cost[i * m + j] being row i's cost in column j: every
 * cost between 0 and LK_ASSIGN_NONE, n at most 2000 (the potentials stay
 * within an int).  work holds lk_assign_work(n, m) ints.  Shortest
 * augmenting paths with potentials, O(n^2 m).
 */
long lk_assign(const int *cost, int n, int m, int *work);

/* One step of lk_assign: add row i (1-based) to the partial assignment held
 * in work (lk_assign's layout for n rows and m columns: potentials that keep
 * every reduced cost non-negative, the rows placed so far on tight columns)
 * by one shortest augmenting path over reduced costs, O(n m).  A caller that
 * keeps an earlier solution (Sokoban's warm-started matching) re-adds only
 * the rows that changed. */
void lk_assign_augment(const int *cost, int n, int m, int i, int *work);

/* After lk_assign: the assignment itself, h[j] for j = 1 .. m being the
 * row (1-based) given column j (0-based j - 1), or 0 for a column no row
 * took.  It lives in work. */
static inline const int *lk_assign_holders(const int *work, int n, int m)
{
	return work + (n + 1) + (m + 1);
}

#endif
