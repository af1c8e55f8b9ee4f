/* registry.c -- (being written) */
#include "internal.h"

int tether__registry_init(void) { return 0; }
void tether__registry_fini(void) {}
