/*
 * hello_ffi.c -- a tour of the tvm-ffi C ABI as libtether implements it.
 *
 * 1. A C function with the ABI's calling convention is wrapped in a Function object and
 *    registered as the global "hello.describe".
 * 2. The function is found again by name, as any other library or language would, and
 *    called with one value of every kind a TVMFFIAny can carry; it prints what it got.
 * 3. It is called wrongly, so it raises; the caller collects the error object and
 *    prints `Kind: message` and the backtrace.
 *
 * Everything here except the tether_* helpers from <tether/tether.h> is the stable ABI:
 * the same code compiles against tvm-ffi's <tvm/ffi/c_api.h>.
 *
 * Build and run: `make demo` (or link against libtether: see README.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/tether.h>

/* ---- the callee ------------------------------------------------------------------------ */

/* Prints one argument: its type key ("int", "ffi.String", ...), then its value. */
static void print_value(int32_t i, const TVMFFIAny* v) {
  TVMFFIByteArray s;
  printf("  [%2" PRId32 "] %-13s ", i, tether_any_type_key(v));
  switch (v->type_index) {
    case kTVMFFINone:
      printf("None\n");
      return;
    case kTVMFFIInt:
      printf("%" PRId64 "\n", v->v_int64);
      return;
    case kTVMFFIBool:
      printf("%s\n", v->v_int64 ? "true" : "false");
      return;
    case kTVMFFIFloat:
      printf("%g\n", v->v_float64);
      return;
    case kTVMFFIOpaquePtr:
      printf("%s pointer\n", v->v_ptr != NULL ? "a non-NULL" : "a NULL");
      return;
    case kTVMFFIDataType: {
      /* dtype -> its name, as an owning string Any that we must release. */
      TVMFFIAny name = tether_any_none();
      if (TVMFFIDataTypeToString(&v->v_dtype, &name) == 0 && tether_any_get_str(&name, &s)) {
        printf("%.*s (code %d, %d bits, %d lanes)\n", (int)s.size, s.data, v->v_dtype.code,
               v->v_dtype.bits, v->v_dtype.lanes);
      }
      tether_any_release(&name);
      return;
    }
    case kTVMFFIDevice:
      printf("device_type %d, device_id %" PRId32 "\n", (int)v->v_device.device_type,
             v->v_device.device_id);
      return;
    default:
      break;
  }
  /* Strings come as a raw C string (a view), inline (<= 7 bytes) or a String object;
   * tether_any_get_str reads all three.  Bytes likewise. */
  if (tether_any_get_str(v, &s)) {
    printf("\"%.*s\"\n", (int)s.size, s.data);
  } else if (tether_any_get_bytes(v, &s)) {
    printf("%zu bytes:", s.size);
    for (size_t k = 0; k < s.size; ++k) printf(" %02x", (unsigned char)s.data[k]);
    printf("\n");
  } else if (tether_any_is_object(v)) {
    /* Arguments are borrowed views: the callee holds no reference of its own. */
    printf("object with %" PRIu32 " reference(s)\n", tether_object_use_count(v->v_obj));
  } else {
    printf("(type index %" PRId32 ")\n", v->type_index);
  }
}

/*
 * hello.describe(*args) -> int: prints every argument and returns how many there were.
 * The ABI's calling convention (TVMFFISafeCallType): `args` are borrowed views, `*result`
 * arrives as None and receives an owning value; return 0, or -1 with an error raised.
 * `self` is the Function object itself (it was created without a closure).
 */
static int describe(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (num_args == 0) {
    return tether_raise("ValueError", "hello.describe: expected at least one argument, got 0");
  }
  for (int32_t i = 0; i < num_args; ++i) print_value(i, &args[i]);
  *result = tether_any_int(num_args);
  return 0;
}

/* ---- the caller ------------------------------------------------------------------------ */

/* Examples stop at the first unexpected error, after printing it. */
static void check(int rc, const char* what) {
  if (rc == 0) return;
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIByteArray kind = {"?", 1}, msg = {"", 0};
  if (err != NULL) {
    kind = tether_error_kind(err);
    msg = tether_error_message(err);
  }
  fprintf(stderr, "%s failed: %.*s: %.*s\n", what, (int)kind.size, kind.data, (int)msg.size,
          msg.data);
  exit(1);
}

static TVMFFIByteArray bytes_of(const char* s) { return (TVMFFIByteArray){s, strlen(s)}; }

int main(void) {
  /* 1. Register: wrap the C function in a Function object (a new reference), publish it
   *    under a global name (the registry takes its own reference), drop ours. */
  TVMFFIObjectHandle fn = NULL;
  TVMFFIByteArray name = bytes_of("hello.describe");
  check(TVMFFIFunctionCreate(NULL, describe, NULL, &fn), "TVMFFIFunctionCreate");
  check(TVMFFIFunctionSetGlobal(&name, fn, 0), "TVMFFIFunctionSetGlobal");
  TVMFFIObjectDecRef(fn);
  printf("registered global \"hello.describe\"\n");

  /* 2. Find it by name: a new reference, or NULL if nothing is registered under it. */
  TVMFFIObjectHandle describe_fn = NULL;
  check(TVMFFIFunctionGetGlobal(&name, &describe_fn), "TVMFFIFunctionGetGlobal");
  if (describe_fn == NULL) return 1;

  /* One value of every kind.  The tether_any_* constructors build views; strings, bytes
   * and objects built by the ABI below are owning values we release at the end. */
  TVMFFIAny small_str = tether_any_none(), heap_str = tether_any_none();
  TVMFFIAny bytes = tether_any_none(), array = tether_any_none();
  DLDataType f32x4 = {kDLFloat, 32, 4};
  static const char raw_bytes[] = {'\x00', '\x01', 'b', 'y', 't', 'e', 's', '\xff'};
  TVMFFIByteArray bytes_in = {raw_bytes, sizeof(raw_bytes)};
  TVMFFIByteArray tiny = bytes_of("tiny"), longer = bytes_of("a string longer than 7 bytes");
  check(TVMFFIStringFromByteArray(&tiny, &small_str), "TVMFFIStringFromByteArray");
  check(TVMFFIStringFromByteArray(&longer, &heap_str), "TVMFFIStringFromByteArray");
  check(TVMFFIBytesFromByteArray(&bytes_in, &bytes), "TVMFFIBytesFromByteArray");
  /* Objects usually come from constructors; ffi.Array(1, 2, 3) is a builtin global. */
  TVMFFIObjectHandle make_array = tether_func_get("ffi.Array");
  check(make_array != NULL ? 0 : -1, "tether_func_get(\"ffi.Array\")");
  TVMFFIAny items[3] = {tether_any_int(1), tether_any_int(2), tether_any_int(3)};
  check(TVMFFIFunctionCall(make_array, items, 3, &array), "ffi.Array");
  TVMFFIObjectDecRef(make_array);

  TVMFFIAny args[] = {
      tether_any_none(),
      tether_any_int(42),
      tether_any_bool(true),
      tether_any_float(2.5),
      tether_any_ptr(&f32x4),
      tether_any_dtype(f32x4),
      tether_any_device(kDLCUDA, 1),
      tether_any_raw_str("a raw C string"),
      small_str,
      heap_str,
      bytes,
      array,
  };
  int32_t n = (int32_t)(sizeof(args) / sizeof(args[0]));
  TVMFFIAny result = tether_any_none(); /* the result slot must start as None */
  printf("calling hello.describe with %" PRId32 " arguments:\n", n);
  check(TVMFFIFunctionCall(describe_fn, args, n, &result), "hello.describe");
  printf("hello.describe returned %" PRId64 "\n", result.v_int64);
  tether_any_release(&result);

  /* 3. A failing call returns -1 and parks the error in this thread's slot; moving it
   *    out gives us the Error object (a new reference) and clears the slot. */
  printf("calling hello.describe with no arguments:\n");
  if (TVMFFIFunctionCall(describe_fn, NULL, 0, &result) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIByteArray kind = tether_error_kind(err), msg = tether_error_message(err);
    TVMFFIByteArray bt = tether_error_backtrace(err);
    printf("%.*s: %.*s\n", (int)kind.size, kind.data, (int)msg.size, msg.data);
    printf("backtrace:\n%.*s", (int)bt.size, bt.data);
    TVMFFIObjectDecRef(err);
  }

  tether_any_release(&array);
  tether_any_release(&bytes);
  tether_any_release(&heap_str);
  tether_any_release(&small_str);
  TVMFFIObjectDecRef(describe_fn);
  return 0;
}
