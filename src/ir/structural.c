/* structural.c -- (being written) */
#include "internal.h"

int trx__structural_init(void) { return 0; }
void trx__structural_fini(void) {}
