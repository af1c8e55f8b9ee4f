/*
 * printer.h -- internal to libtether_ir: the TVMScript printer's entry points for the IR's
 * other source files (error texts that embed a node's script form).  The public entry point
 * is trx_print in <tether/ir/ir.h>; Python reaches the printer through "ir.Print" and the
 * `__ffi_repr__` type attribute registered for every IR node type.
 */
#ifndef TETHER_SRC_IR_PRINTER_H_
#define TETHER_SRC_IR_PRINTER_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/printer.h is private to libtether_ir"
#endif

#include <stddef.h>

#include "internal.h"

/*
 * The default print (verbose_expr=false, show_all_ty=true) of `node` as a malloc'd
 * NUL-terminated string the caller frees, or NULL with an error raised (MemoryError;
 * TypeError when `node` is not an IR object).  `node` is borrowed; *len (may be NULL)
 * receives the length.  Thread-safe (no shared state).
 */
char* trx__print_cstr(TVMFFIObject* node, size_t* len);

#endif /* TETHER_SRC_IR_PRINTER_H_ */
