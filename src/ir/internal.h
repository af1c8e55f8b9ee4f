/*
 * internal.h -- declarations shared between libtether_ir's source files (not API).
 * libtether_ir reaches libtether only through its public headers (the ABI, tether.h,
 * reflection.h, container.h, tensor.h).
 */
#ifndef TETHER_SRC_IR_INTERNAL_H_
#define TETHER_SRC_IR_INTERNAL_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/internal.h is private to libtether_ir; include <tether/ir/ir.h> instead"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/container.h>
#include <tether/ir/ir.h>
#include <tether/reflection.h>
#include <tether/tether.h>

#define TRX_CELL_AT(type, obj) ((type*)(obj))

/*
 * Subsystems in initialisation order (lib.c runs trx__<name>_init at load, fini in
 * reverse at unload).  node registers every type of TRX_NODE_KINDS first.
 */
#define TRX_SUBSYSTEMS(X) \
  X(node)                 \
  X(arith)                \
  X(op)                   \
  X(structural)           \
  X(printer)              \
  X(builder)

#define TRX__DECLARE_SUBSYSTEM(name) \
  int trx__##name##_init(void);      \
  void trx__##name##_fini(void);
TRX_SUBSYSTEMS(TRX__DECLARE_SUBSYSTEM)
#undef TRX__DECLARE_SUBSYSTEM

#endif /* TETHER_SRC_IR_INTERNAL_H_ */
