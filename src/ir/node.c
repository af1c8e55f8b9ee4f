/* node.c -- (being written) */
#include "internal.h"

int trx__node_init(void) { return 0; }
void trx__node_fini(void) {}
