/* module.c -- (being written) */
#include "internal.h"

int tether__module_init(void) { return 0; }
void tether__module_fini(void) {}
