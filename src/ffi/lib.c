/*
 * lib.c -- libtether's load and unload: runs every subsystem's init in the order of
 * TETHER_SUBSYSTEMS (internal.h) when the library is loaded, and the finis in reverse
 * order when it is unloaded, so that a process exits with nothing of ours still
 * allocated (valgrind-clean).
 */
#include <stdio.h>

#include "internal.h"
#include "error.h"

__attribute__((constructor)) static void tether__lib_load(void) {
#define TETHER__INIT(name)                                                    \
  if (tether__##name##_init() != 0) {                                         \
    fprintf(stderr, "libtether: initialisation of subsystem '%s' failed\n", #name); \
    abort();                                                                  \
  }
  TETHER_SUBSYSTEMS(TETHER__INIT)
#undef TETHER__INIT
}

/* The fini calls, generated in forward order into a table and run backwards. */
static void (*const tether__finis[])(void) = {
#define TETHER__FINI(name) tether__##name##_fini,
    TETHER_SUBSYSTEMS(TETHER__FINI)
#undef TETHER__FINI
};

__attribute__((destructor)) static void tether__lib_unload(void) {
  for (size_t i = sizeof(tether__finis) / sizeof(tether__finis[0]); i-- > 0;) tether__finis[i]();
}
