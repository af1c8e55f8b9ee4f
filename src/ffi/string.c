/* string.c -- (being written) */
#include "internal.h"

int tether__string_init(void) { return 0; }
void tether__string_fini(void) {}
