/* Compatibility shim: tether's c_api.h also declares everything of tvm-ffi's
 * extra/c_env_api.h. */
#include <tether/c_api.h>
