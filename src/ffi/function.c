/* function.c -- (being written) */
#include "internal.h"

int tether__function_init(void) { return 0; }
void tether__function_fini(void) {}
