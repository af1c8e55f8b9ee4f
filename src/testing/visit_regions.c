/*
 * visit_regions.c -- the structural-traversal fixtures of libtether_testing, which binding
 * tests walk to check how def regions reach callbacks:
 *   testing.TestVisitRegions  three int fields: `simple` (flag SEqHashDefSimple), `pattern`
 *                             (SEqHashDefPattern) and `ordinary` (no region);
 *   testing.TestVisitHook     one object field `child`, visited by its own `__s_visit__`
 *                             hook: the child inside a Simple def region, then the int 4
 *                             outside it;
 *   testing.make_visit_region_graph(with_hook)  TestVisitRegions(1, 2, 3), wrapped in a
 *                             TestVisitHook when `with_hook`.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/reflection.h>
#include <tether/structural.h>
#include <tether/tether.h>

#include "testing.h"

typedef struct {
  TVMFFIObject header;
  int64_t simple;
  int64_t pattern;
  int64_t ordinary;
} testing_visit_regions_t;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* child;
} testing_visit_hook_t;

static int32_t testing_regions_index = -1;
static int32_t testing_hook_index = -1;
static int32_t testing_visitor_index = -1;

/* An owning visit result (None, a VisitInterrupt or an Error) as a function result. */
static int testing_visit_return(TVMFFIAny* out, TVMFFIAny* result) {
  if (out->type_index == kTVMFFIError) {
    TVMFFIErrorSetRaised(out->v_obj);
    tether_any_release(out);
    return -1;
  }
  *result = *out;
  return 0;
}

/* TestVisitHook's `__s_visit__(visitor, value) -> Optional[VisitInterrupt]`. */
static int testing_visit_hook(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fname[] = "testing.TestVisitHook.__s_visit__";
  TVMFFIObject* obj = NULL;
  TVMFFIObject* hook = NULL;
  (void)self;
  if (tether_check_nargs(fname, "(0: ffi.StructuralVisitor, 1: testing.TestVisitHook) -> "
                         "Optional[ffi.VisitInterrupt]", n, 2) != 0 ||
      tether_arg_object(fname, args, 0, testing_visitor_index, &obj) != 0 ||
      tether_arg_object(fname, args, 1, testing_hook_index, &hook) != 0) {
    return -1;
  }
  tether_visitor* visitor = (tether_visitor*)obj;
  const testing_visit_hook_t* h = (const testing_visit_hook_t*)hook;
  /* A pattern region stays a pattern region inside (as WithDefRegionKind does). */
  int32_t saved = visitor->def_region_kind;
  if (saved != kTVMFFIDefRegionKindPattern) visitor->def_region_kind = kTVMFFIDefRegionKindSimple;
  TVMFFIAny out = visitor->vtable->visit(visitor, tether_any_object(h->child));
  visitor->def_region_kind = saved;
  if (out.type_index != kTVMFFINone) return testing_visit_return(&out, result);
  out = visitor->vtable->visit(visitor, tether_any_int(4));
  return testing_visit_return(&out, result);
}

/* testing.make_visit_region_graph(0: bool) -> Any */
static int testing_make_visit_region_graph(void* self, const TVMFFIAny* args, int32_t n,
                                           TVMFFIAny* result) {
  static const char fname[] = "testing.make_visit_region_graph";
  bool with_hook;
  TVMFFIObjectHandle regions = NULL;
  TVMFFIObjectHandle hook = NULL;
  (void)self;
  if (tether_check_nargs(fname, "(0: bool) -> Any", n, 1) != 0 ||
      tether_arg_bool(fname, args, 0, &with_hook) != 0 ||
      tether_object_new_reflected(testing_regions_index, &regions) != 0) {
    return -1;
  }
  testing_visit_regions_t* r = regions;
  r->simple = 1;
  r->pattern = 2;
  r->ordinary = 3;
  if (!with_hook) {
    *result = tether_any_object(regions);
    return 0;
  }
  if (tether_object_new_reflected(testing_hook_index, &hook) != 0) {
    TVMFFIObjectDecRef(regions);
    return -1;
  }
  ((testing_visit_hook_t*)hook)->child = regions; /* takes over the reference */
  *result = tether_any_object(hook);
  return 0;
}

int testing__register_visit_regions(void) {
  enum {
    SIMPLE = kTVMFFIFieldFlagBitMaskSEqHashDefSimple,
    PATTERN = kTVMFFIFieldFlagBitMaskSEqHashDefPattern,
  };
  const tether_field_def_t region_fields[] = {
      {"simple", TETHER_FIELD_INT64, offsetof(testing_visit_regions_t, simple), SIMPLE, 0, NULL,
       NULL, NULL, NULL},
      {"pattern", TETHER_FIELD_INT64, offsetof(testing_visit_regions_t, pattern), PATTERN, 0,
       NULL, NULL, NULL, NULL},
      {"ordinary", TETHER_FIELD_INT64, offsetof(testing_visit_regions_t, ordinary), 0, 0, NULL,
       NULL, NULL, NULL},
  };
  const tether_field_def_t hook_field = {"child", TETHER_FIELD_OBJECT,
                                         offsetof(testing_visit_hook_t, child), 0, kTVMFFIObject,
                                         NULL, NULL, NULL, NULL};
  TVMFFIByteArray visitor_key = {"ffi.StructuralVisitor", 21};
  if (TVMFFITypeKeyToIndex(&visitor_key, &testing_visitor_index) != 0) return -1;
  testing_regions_index = testing__alloc_type("testing.TestVisitRegions", kTVMFFIObject,
                                              TESTING_FINAL);
  testing_hook_index = testing__alloc_type("testing.TestVisitHook", kTVMFFIObject, TESTING_FINAL);
  if (testing_regions_index < 0 || testing_hook_index < 0) return -1;
  for (size_t i = 0; i < sizeof(region_fields) / sizeof(region_fields[0]); ++i) {
    if (tether_type_def_field(testing_regions_index, &region_fields[i]) != 0) return -1;
  }
  if (tether_type_def_finish(testing_regions_index, sizeof(testing_visit_regions_t), NULL) != 0 ||
      tether_type_def_field(testing_hook_index, &hook_field) != 0) {
    return -1;
  }
  /* TestVisitHook has no constructor: metadata alone, and its hook. */
  TVMFFITypeMetadata meta;
  memset(&meta, 0, sizeof(meta));
  meta.total_size = sizeof(testing_visit_hook_t);
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVMFFIObjectHandle fn = NULL;
  if (TVMFFITypeRegisterMetadata(testing_hook_index, &meta) != 0 ||
      tether_type_def_final(testing_hook_index) != 0 ||
      TVMFFIFunctionCreate(NULL, testing_visit_hook, NULL, &fn) != 0) {
    return -1;
  }
  TVMFFIByteArray attr = {"__s_visit__", 11};
  TVMFFIAny value = tether_any_object(fn);
  int rc = TVMFFITypeRegisterAttr(testing_hook_index, &attr, &value);
  TVMFFIObjectDecRef(fn);
  if (rc != 0) return -1;
  char* meta_json = testing__metadata_json(
      "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":\"Any\"}],"
      "\"params\":[{\"type\":\"bool\"}]}}",
      NULL);
  rc = meta_json != NULL ? tether_func_register("testing.make_visit_region_graph",
                                                testing_make_visit_region_graph, NULL, meta_json, 1)
                         : -1;
  free(meta_json);
  return rc;
}
