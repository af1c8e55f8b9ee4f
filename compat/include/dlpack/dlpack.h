/* Compatibility shim: `#include <dlpack/dlpack.h>` resolves to tether's DLPack header
 * (same type names and include guard as upstream). */
#include <tether/dlpack.h>
