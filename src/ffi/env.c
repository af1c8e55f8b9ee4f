/* env.c -- (being written) */
#include "internal.h"

int tether__env_init(void) { return 0; }
void tether__env_fini(void) {}
