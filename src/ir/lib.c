/*
 * lib.c -- libtether_ir's load and unload: runs each IR subsystem's init in the order of
 * TRX_SUBSYSTEMS (internal.h) at load, and the finis in reverse at unload.
 */
#include <stdio.h>

#include "internal.h"

__attribute__((constructor)) static void trx__lib_load(void) {
#define TRX__INIT(name)                                                                 \
  if (trx__##name##_init() != 0) {                                                      \
    TVMFFIObjectHandle err = NULL;                                                      \
    TVMFFIErrorMoveFromRaised(&err);                                                    \
    TVMFFIByteArray msg = err ? tether_error_message(err) : (TVMFFIByteArray){"", 0};   \
    fprintf(stderr, "libtether_ir: initialisation of '%s' failed: %.*s\n", #name,      \
            (int)msg.size, msg.data);                                                   \
    abort();                                                                            \
  }
  TRX_SUBSYSTEMS(TRX__INIT)
#undef TRX__INIT
}

static void (*const trx__finis[])(void) = {
#define TRX__FINI(name) trx__##name##_fini,
    TRX_SUBSYSTEMS(TRX__FINI)
#undef TRX__FINI
};

__attribute__((destructor)) static void trx__lib_unload(void) {
  for (size_t i = sizeof(trx__finis) / sizeof(trx__finis[0]); i-- > 0;) trx__finis[i]();
}
