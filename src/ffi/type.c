/* type.c -- (being written) */
#include "internal.h"

int tether__type_init(void) { return 0; }
void tether__type_fini(void) {}

const char* tether_type_key(int32_t type_index) { return "<unknown>"; }
