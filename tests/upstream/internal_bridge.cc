// Two internal functions of upstream's library (declared in its src/ffi/object_internal.h, not
// in its C++ headers, and not part of the C ABI) that upstream's dataclass.cc calls.  The tether
// programs get them from here, written over the `ffi.GetInvalidObject` and `ffi.GetKwargsObject`
// globals, so the sentinels are libtether's own objects: the ones its containers and
// `__ffi_init__` functions hand out and compare against.
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>

namespace tvm {
namespace ffi {

namespace {
// The runtime's sentinel from a global; deliberately never released (static destructors may
// run after libtether has unloaded).
const ObjectRef& SentinelFromGlobal(const char* name) {
  return *new ObjectRef(Function::GetGlobalRequired(name)().cast<ObjectRef>());
}
}  // namespace

ObjectRef GetMissingObject() {
  static const ObjectRef& missing = SentinelFromGlobal("ffi.GetInvalidObject");
  return missing;
}

ObjectRef GetKwargsObject() {
  static const ObjectRef& kwargs = SentinelFromGlobal("ffi.GetKwargsObject");
  return kwargs;
}

}  // namespace ffi
}  // namespace tvm
