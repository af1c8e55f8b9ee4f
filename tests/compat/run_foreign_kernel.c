/*
 * run_foreign_kernel.c -- runs a kernel that was compiled against apache-tvm-ffi's headers
 * and linked to its libtvm_ffi.so, under libtether, and shows that every ABI call the
 * kernel makes lands in libtether:
 *
 *   run_foreign_kernel <kernel.so> <tether's libtvm_ffi.so alias> <tvm-ffi's lib dir>
 *
 * - the kernel's DT_NEEDED libtvm_ffi.so resolved to tether's alias, and nothing from
 *   tvm-ffi's lib dir is mapped;
 * - the doc string the kernel makes with TVMFFIStringFromByteArray is a tether object
 *   (tether_object_live_count, which only libtether has, counts it);
 * - the error the kernel raises with TVMFFIErrorSetRaisedFromCStr is in libtether's
 *   per-thread slot.
 */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tether/tether.h>

static int failures;

#define EXPECT(cond, ...)                                   \
  do {                                                      \
    if (cond) {                                             \
      printf("ok: " __VA_ARGS__);                           \
    } else {                                                \
      printf("FAILED (%s): ", #cond);                       \
      printf(__VA_ARGS__);                                  \
      failures++;                                           \
    }                                                       \
    printf("\n");                                           \
  } while (0)

static void print_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return;
  TVMFFIByteArray kind = tether_error_kind(err), msg = tether_error_message(err);
  printf("error: %.*s: %.*s\n", (int)kind.size, kind.data, (int)msg.size, msg.data);
  TVMFFIObjectDecRef(err);
}

/* Calls global `name`; NULL result on failure (printed). */
static int call(const char* name, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObjectHandle f = tether_func_get(name);
  int rc = f != NULL ? tether_func_call(f, args, n, result) : -1;
  TVMFFIObjectDecRef(f);
  return rc;
}

typedef struct {
  const char* foreign_dir;
  int foreign_mapped;
  char alias[PATH_MAX];
  int alias_mapped;
} scan_t;

static int scan_object(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  scan_t* s = data;
  char real[PATH_MAX];
  if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0') return 0;
  if (strncmp(info->dlpi_name, s->foreign_dir, strlen(s->foreign_dir)) == 0) s->foreign_mapped++;
  if (realpath(info->dlpi_name, real) != NULL && strcmp(real, s->alias) == 0) s->alias_mapped++;
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s <kernel.so> <alias libtvm_ffi.so> <tvm-ffi lib dir>\n", argv[0]);
    return 2;
  }
  int64_t live_at_start = tether_object_live_count();
  TVMFFIAny mod = tether_any_none(), fn = tether_any_none(), doc = tether_any_none();
  TVMFFIAny ret = tether_any_none();

  TVMFFIAny load_args[2] = {tether_any_raw_str(argv[1]), tether_any_raw_str("so")};
  int rc = call("ffi.Module.load_from_file.so", load_args, 2, &mod);
  if (rc != 0) print_error();
  EXPECT(rc == 0, "loaded %s", argv[1]);
  if (rc != 0) return 1;

  scan_t scan = {argv[3], 0, "", 0};
  if (realpath(argv[2], scan.alias) == NULL) snprintf(scan.alias, sizeof(scan.alias), "%s", argv[2]);
  dl_iterate_phdr(scan_object, &scan);
  EXPECT(scan.foreign_mapped == 0, "nothing from %s is mapped", argv[3]);
  EXPECT(scan.alias_mapped == 1, "tether's alias %s is mapped", scan.alias);

  TVMFFIAny get_args[3] = {mod, tether_any_raw_str("add_one_cpu"), tether_any_bool(false)};
  rc = call("ffi.ModuleGetFunction", get_args, 3, &fn);
  EXPECT(rc == 0 && fn.type_index == kTVMFFIFunction, "found add_one_cpu");
  if (fn.type_index != kTVMFFIFunction) return 1;

  float x_data[3] = {1.5f, -1, 41}, y_data[3] = {0, 0, 0};
  int64_t shape[1] = {3};
  DLTensor x = {x_data, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0};
  DLTensor y = {y_data, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0};
  TVMFFIAny args[2] = {tether_any_none(), tether_any_none()};
  args[0].type_index = args[1].type_index = kTVMFFIDLTensorPtr;
  args[0].v_ptr = &x;
  args[1].v_ptr = &y;
  rc = tether_func_call(fn.v_obj, args, 2, &ret);
  EXPECT(rc == 0 && y_data[0] == 2.5f && y_data[1] == 0 && y_data[2] == 42,
         "add_one_cpu([1.5, -1, 41]) = [%g, %g, %g]", y_data[0], y_data[1], y_data[2]);

  int64_t live_before_doc = tether_object_live_count();
  get_args[2] = tether_any_bool(false);
  rc = call("ffi.ModuleGetFunctionDoc", get_args, 3, &doc);
  TVMFFIByteArray text = {"", 0};
  EXPECT(rc == 0 && tether_any_get_str(&doc, &text) && doc.type_index == kTVMFFIStr &&
             tether_object_live_count() == live_before_doc + 1,
         "the kernel's doc string \"%.*s\" is a libtether object", (int)text.size, text.data);

  args[0] = tether_any_int(7);
  rc = tether_func_call(fn.v_obj, args, 2, &ret);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIByteArray kind = err != NULL ? tether_error_kind(err) : (TVMFFIByteArray){"", 0};
  EXPECT(rc == -1 && err != NULL && kind.size == 9 && memcmp(kind.data, "TypeError", 9) == 0,
         "the kernel's TypeError was raised into libtether's error slot");
  TVMFFIObjectDecRef(err);

  tether_any_release(&doc);
  tether_any_release(&ret);
  tether_any_release(&fn);
  tether_any_release(&mod);
  EXPECT(tether_object_live_count() == live_at_start, "no tether object left alive");
  printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
