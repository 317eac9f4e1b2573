/*
 * laser_driver.h - shared by the laser benchmark driver's files.
 */
#ifndef LASER_DRIVER_H
#define LASER_DRIVER_H

#include "levelkit/expr.h"
#include "laser.h"   /* src/games/laser: the game's own API */

double driver_now(void);
/* Every level of a file as the commands read it (records, .lvl, Refraction's
 * JSON); a level that does not load is reported and skipped. */
int driver_levels(const char *path, struct lk_laser ***out);
/* A concept (expression or preset name); exits on an error. */
struct lk_expr *driver_concept(const char *text);

#endif
