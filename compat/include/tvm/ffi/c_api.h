/* Compatibility shim: C code written for tvm-ffi (`#include <tvm/ffi/c_api.h>`) builds
 * unchanged against tether. */
#include <tether/c_api.h>
