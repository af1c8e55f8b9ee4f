/* reflection.c -- (being written) */
#include "internal.h"

int tether__reflection_init(void) { return 0; }
void tether__reflection_fini(void) {}
