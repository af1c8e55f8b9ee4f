/* container.c -- (being written) */
#include "internal.h"

int tether__container_init(void) { return 0; }
void tether__container_fini(void) {}
