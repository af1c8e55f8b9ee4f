/* printer.c -- (being written) */
#include "internal.h"

int trx__printer_init(void) { return 0; }
void trx__printer_fini(void) {}
