/* tensor.c -- (being written) */
#include "internal.h"

int tether__tensor_init(void) { return 0; }
void tether__tensor_fini(void) {}
