/* builder.c -- (being written) */
#include "internal.h"

int trx__builder_init(void) { return 0; }
void trx__builder_fini(void) {}
