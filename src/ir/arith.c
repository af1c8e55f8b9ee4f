/* arith.c -- (being written) */
#include "internal.h"

int trx__arith_init(void) { return 0; }
void trx__arith_fini(void) {}
