/* op.c -- (being written) */
#include "internal.h"

int trx__op_init(void) { return 0; }
void trx__op_fini(void) {}
