/*
 * test_type.c -- the runtime type table (spec 1.1, 1.8, 1.10, 1.11): pre-registered types,
 * index allocation, subclass checks, fields/methods/metadata/attribute columns, errors, and
 * concurrent registration.  Allocation results marked "observed" were checked against
 * tvm-ffi 0.1.14's libtvm_ffi.so.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tether/reflection.h>

#include "test.h"

static TVMFFIByteArray bytes_of(const char* s) { return (TVMFFIByteArray){s, strlen(s)}; }

static int32_t alloc_index(const char* key, int32_t static_index, int32_t depth, int32_t slots,
                           int32_t can_overflow, int32_t parent) {
  TVMFFIByteArray k = bytes_of(key);
  return TVMFFITypeGetOrAllocIndex(&k, static_index, depth, slots, can_overflow, parent);
}

/* Dynamic object type `key` under `parent` (depth from the parent's TypeInfo). */
static int32_t derive(const char* key, int32_t parent, int32_t slots, int32_t can_overflow) {
  return alloc_index(key, -1, TVMFFIGetTypeInfo(parent)->type_depth + 1, slots, can_overflow,
                     parent);
}

static int32_t key_to_index(const char* key) {
  TVMFFIByteArray k = bytes_of(key);
  int32_t out = -100;
  CHECK_OK(TVMFFITypeKeyToIndex(&k, &out));
  return out;
}

/* Query mode (parent -2): the index, or -2 when the key is not registered. */
static int32_t query(const char* key) { return alloc_index(key, -1, 0, 0, 0, -2); }

/* ---- stderr capture -------------------------------------------------------------------- */

static FILE* capture_file;
static int capture_saved_fd = -1;

static void capture_stderr_begin(void) {
  fflush(stderr);
  capture_file = tmpfile();
  capture_saved_fd = dup(2);
  dup2(fileno(capture_file), 2);
}

/* Ends the capture; returns what was written (static buffer). */
static const char* capture_stderr_end(void) {
  static char text[4096];
  fflush(stderr);
  dup2(capture_saved_fd, 2);
  close(capture_saved_fd);
  rewind(capture_file);
  size_t n = fread(text, 1, sizeof(text) - 1, capture_file);
  text[n] = '\0';
  fclose(capture_file);
  return text;
}

/* ---- a statically allocated object: retained by the table, never counted as live ----------- */

static TVMFFIObject fake_object = {.combined_ref_count = UINT64_C(1) | (UINT64_C(1) << 32),
                                   .type_index = kTVMFFIObject};

static TVMFFIAny fake_object_view(void) { return tether_any_object(&fake_object); }

/* ---- tests ------------------------------------------------------------------------------- */

/* libstdc++'s std::hash of a string_view (64-bit _Hash_bytes, seed 0xc70f6907): the
 * type_key_hash of tvm-ffi's reference build. */
static uint64_t std_hash(const char* s) {
  const uint64_t mul = (UINT64_C(0xc6a4a793) << 32) + UINT64_C(0x5bd1e995);
  size_t len = strlen(s), aligned = len & ~(size_t)7;
  uint64_t h = UINT64_C(0xc70f6907) ^ ((uint64_t)len * mul);
  for (size_t i = 0; i < aligned; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    w *= mul;
    h = (h ^ ((w ^ (w >> 47)) * mul)) * mul;
  }
  if (len & 7) {
    uint64_t t = 0;
    for (size_t n = len & 7; n-- > 0;) t = (t << 8) + (unsigned char)s[aligned + n];
    h = (h ^ t) * mul;
  }
  h = (h ^ (h >> 47)) * mul;
  return h ^ (h >> 47);
}

static void test_pod_types_preregistered(void) {
  static const char* const keys[] = {"None",  "int",          "bool",
                                     "float", "void*",        "DataType",
                                     "Device", "DLTensor*",   "const char*",
                                     "TVMFFIByteArray*", "ObjectRValueRef", "ffi.SmallStr",
                                     "ffi.SmallBytes"};
  for (int32_t i = 0; i <= kTVMFFISmallBytes; ++i) {
    CHECK_EQ_INT(key_to_index(keys[i]), i);
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(i);
    CHECK_EQ_INT(info->type_index, i);
    CHECK_EQ_INT(info->type_depth, 0);
    CHECK_BYTES(info->type_key, keys[i]);
    CHECK(info->type_key_hash == std_hash(keys[i]));
    CHECK_EQ_STR(tether_type_key(i), keys[i]);
    /* Re-registering a known key returns its index, whatever the other arguments say. */
    CHECK_EQ_INT(alloc_index(keys[i], -1, 5, 0, 0, 12345), i);
  }
  /* the value a C++ build of tvm-ffi prints for std::hash<std::string_view>("ffi.Array") */
  CHECK(TVMFFIGetTypeInfo(kTVMFFIArray)->type_key_hash == UINT64_C(9300778484448642049));
  CHECK_EQ_INT(query("Any"), -2);
  CHECK_EQ_STR(tether_type_key(13), "<unknown>");
  CHECK_EQ_STR(tether_type_key(-1), "<unknown>");
  CHECK_EQ_STR(tether_type_key(1 << 30), "<unknown>");
}

static void test_object_types_preregistered(void) {
  static const char* const keys[] = {"ffi.String", "ffi.Bytes",  "ffi.Error",
                                     "ffi.Function", "ffi.Shape", "ffi.Tensor",
                                     "ffi.Array",  "ffi.Map",    "ffi.Module",
                                     "ffi.OpaquePyObject", "ffi.List", "ffi.Dict"};
  const TVMFFITypeInfo* object = TVMFFIGetTypeInfo(kTVMFFIObject);
  CHECK_EQ_INT(key_to_index("ffi.Object"), kTVMFFIObject);
  CHECK_EQ_INT(object->type_depth, 0);
  CHECK_BYTES(object->type_key, "ffi.Object");
  for (int32_t i = kTVMFFIStr; i <= kTVMFFIDict; ++i) {
    const char* key = keys[i - kTVMFFIStr];
    CHECK_EQ_INT(key_to_index(key), i);
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(i);
    CHECK_EQ_INT(info->type_index, i);
    CHECK_EQ_INT(info->type_depth, 1);
    CHECK(info->type_ancestors[0] == object);
    CHECK_BYTES(info->type_key, key);
    CHECK_EQ_STR(tether_type_key(i), key);
    CHECK(TVMFFIGetTypeInfo(i) == info); /* stable */
  }
  /* Static object types have no child slots and do not overflow (observed). */
  CHECK_RAISED(derive("test.type.StringChild", kTVMFFIStr, 0, 1), "RuntimeError",
               "Reach maximum number of sub-classes for `ffi.String`");
  CHECK_EQ_INT(query("test.type.StringChild"), -2);
}

static void test_visit_interrupt_claimed_lazily(void) {
  int32_t before = query("ffi.VisitInterrupt");
  CHECK(before == -2 || before == kTVMFFIVisitInterrupt);
  CHECK_EQ_INT(alloc_index("ffi.VisitInterrupt", kTVMFFIVisitInterrupt, 1, 0, 0, kTVMFFIObject),
               kTVMFFIVisitInterrupt);
  CHECK_EQ_INT(key_to_index("ffi.VisitInterrupt"), kTVMFFIVisitInterrupt);
  CHECK(TVMFFIGetTypeInfo(kTVMFFIVisitInterrupt)->type_ancestors[0]->type_index == kTVMFFIObject);
}

static void test_dynamic_allocation_with_child_slots(void) {
  /* Observed: P(2 slots); C1(2 slots) does not fit P's remaining slots and goes to the global
   * counter; C2, C3 take P's slots; C4 overflows to the counter after C1's range. */
  int32_t p = derive("test.type.P", kTVMFFIObject, 2, 1);
  CHECK(p >= kTVMFFIDynObjectBegin);
  int32_t c1 = derive("test.type.C1", p, 2, 1);
  int32_t c2 = derive("test.type.C2", p, 0, 1);
  int32_t c3 = derive("test.type.C3", p, 0, 1);
  int32_t c4 = derive("test.type.C4", p, 0, 1);
  CHECK(c1 >= p + 3);
  CHECK_EQ_INT(c2, p + 1);
  CHECK_EQ_INT(c3, p + 2);
  CHECK(c4 >= c1 + 3);
  /* C1's own reserved slots. */
  CHECK_EQ_INT(derive("test.type.C1a", c1, 0, 0), c1 + 1);
  CHECK_EQ_INT(derive("test.type.C1b", c1, 0, 0), c1 + 2);

  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(c2);
  CHECK_EQ_INT(info->type_depth, 2);
  CHECK_EQ_INT(info->type_ancestors[0]->type_index, kTVMFFIObject);
  CHECK_EQ_INT(info->type_ancestors[1]->type_index, p);
  CHECK(info->type_ancestors[1] == TVMFFIGetTypeInfo(p));
  const TVMFFITypeInfo* leaf = TVMFFIGetTypeInfo(key_to_index("test.type.C1b"));
  CHECK_EQ_INT(leaf->type_depth, 3);
  CHECK_EQ_INT(leaf->type_ancestors[2]->type_index, c1);
  CHECK_EQ_INT(leaf->type_ancestors[1]->type_index, p);

  /* Re-registration and query mode. */
  CHECK_EQ_INT(derive("test.type.C2", p, 7, 0), c2);
  CHECK_EQ_INT(query("test.type.C3"), c3);
  CHECK_EQ_INT(query("test.type.Missing"), -2);
  CHECK_EQ_INT(query("test.type.Missing"), -2);
}

static void test_non_overflowable_parents(void) {
  int32_t p = derive("test.type.Closed", kTVMFFIObject, 1, 0);
  CHECK_EQ_INT(derive("test.type.Closed1", p, 0, 1), p + 1);
  CHECK_RAISED(derive("test.type.Closed2", p, 0, 1), "RuntimeError",
               "Reach maximum number of sub-classes for `test.type.Closed`");
  CHECK_EQ_INT(query("test.type.Closed2"), -2);
  /* A child of a non-overflowable parent is non-overflowable even if it asks otherwise. */
  int32_t q = derive("test.type.Closed3", kTVMFFIObject, 3, 0);
  int32_t child = derive("test.type.Closed3a", q, 0, 1);
  CHECK_EQ_INT(child, q + 1);
  CHECK_RAISED(derive("test.type.Closed3aa", child, 0, 1), "RuntimeError",
               "Reach maximum number of sub-classes for `test.type.Closed3a`");
}

static void test_static_index_inside_parent_slots_stays_unique(void) {
  int32_t p = derive("test.type.Host", kTVMFFIObject, 3, 1);
  CHECK_EQ_INT(alloc_index("test.type.HostStatic", p + 1, 2, 0, 0, p), p + 1);
  int32_t dyn = derive("test.type.HostDyn", p, 0, 0);
  CHECK(dyn != p + 1); /* the reference would hand out p + 1 again */
  CHECK_EQ_INT(dyn, p + 2);
  CHECK_EQ_INT(key_to_index("test.type.HostStatic"), p + 1);
  /* A static root (no parent) at a free index. */
  CHECK_EQ_INT(alloc_index("test.type.StaticRoot", 40, 0, 0, 0, -1), 40);
  CHECK_EQ_INT(TVMFFIGetTypeInfo(40)->type_depth, 0);
  CHECK(TVMFFIGetTypeInfo(40)->type_ancestors == NULL);
}

static void test_bad_allocation_arguments(void) {
  capture_stderr_begin();
  int rc = alloc_index("test.type.BadDepth", -1, 2, 0, 1, kTVMFFIObject);
  const char* printed = capture_stderr_end();
  CHECK_RAISED(rc, "ValueError",
               "TVMFFITypeGetOrAllocIndex: type_depth of `test.type.BadDepth` must be its parent "
               "`ffi.Object`'s depth + 1 = 1, got 2");
  CHECK_EQ_STR(printed, ""); /* deviation from the reference: no print, no exit */

  CHECK_RAISED(alloc_index("test.type.BadParent", -1, 1, 0, 1, 1000), "ValueError",
               "TVMFFITypeGetOrAllocIndex: parent_type_index 1000 of `test.type.BadParent` is "
               "not a registered type");
  CHECK_RAISED(alloc_index("test.type.NoParent", -1, 0, 0, 1, -1), "ValueError",
               "needs a static_type_index >= 0");
  CHECK_RAISED(alloc_index("test.type.RootDepth", 41, 1, 0, 1, -1), "ValueError",
               "its type_depth must be 0, got 1");
  CHECK_RAISED(alloc_index("test.type.Taken", kTVMFFIStr, 1, 0, 0, kTVMFFIObject), "RuntimeError",
               "Conflicting static index 65 between `ffi.String` and `test.type.Taken`");
  CHECK_RAISED(alloc_index("test.type.Huge", 1 << 30, 1, 0, 0, kTVMFFIObject), "ValueError",
               "beyond the type table's limit");
  CHECK_RAISED(alloc_index("test.type.NegSlots", -1, 1, -3, 0, kTVMFFIObject), "ValueError",
               "num_child_slots of `test.type.NegSlots` must be >= 0, got -3");
  CHECK_RAISED(TVMFFITypeGetOrAllocIndex(NULL, -1, 1, 0, 0, kTVMFFIObject), "ValueError",
               "argument `type_key`");
  static const char* const failed[] = {"test.type.BadDepth", "test.type.BadParent",
                                       "test.type.NoParent", "test.type.RootDepth",
                                       "test.type.Taken", "test.type.Huge", "test.type.NegSlots"};
  for (size_t i = 0; i < sizeof(failed) / sizeof(failed[0]); ++i) {
    CHECK_EQ_INT(query(failed[i]), -2);
  }
}

static void test_subclass(void) {
  int32_t a = derive("test.type.SubA", kTVMFFIObject, 4, 1);
  int32_t b = derive("test.type.SubB", a, 1, 1);
  int32_t c = derive("test.type.SubC", b, 0, 1);
  int32_t sibling = derive("test.type.SubSibling", a, 0, 1);
  CHECK(tether_type_is_subclass(c, c));
  CHECK(tether_type_is_subclass(c, b));
  CHECK(tether_type_is_subclass(c, a));
  CHECK(tether_type_is_subclass(c, kTVMFFIObject));
  CHECK(!tether_type_is_subclass(a, c));
  CHECK(!tether_type_is_subclass(sibling, b));
  CHECK(!tether_type_is_subclass(c, sibling));
  CHECK(tether_type_is_subclass(kTVMFFIStr, kTVMFFIObject));
  CHECK(!tether_type_is_subclass(kTVMFFIStr, kTVMFFIBytes));
  CHECK(!tether_type_is_subclass(kTVMFFIInt, kTVMFFIObject));
  CHECK(!tether_type_is_subclass(kTVMFFIInt, kTVMFFIFloat));
  CHECK(tether_type_is_subclass(kTVMFFIInt, kTVMFFIInt));
  /* Every index >= 64 is an instance of ffi.Object, registered or not. */
  CHECK(tether_type_is_subclass(100000, kTVMFFIObject));
  CHECK(!tether_type_is_subclass(100000, a));
}

static void test_key_to_index_errors(void) {
  TVMFFIByteArray k = bytes_of("no.such.type");
  int32_t out = 7;
  CHECK_RAISED(TVMFFITypeKeyToIndex(&k, &out), "InternalError", "Cannot find type `no.such.type`");
  CHECK_EQ_INT(out, 7);
  CHECK_RAISED(TVMFFITypeKeyToIndex(NULL, &out), "ValueError",
               "TVMFFITypeKeyToIndex: argument `type_key`");
  CHECK_RAISED(TVMFFITypeKeyToIndex(&k, NULL), "ValueError",
               "argument `out_tindex` must not be NULL");
  /* Keys are byte strings: a prefix of a key is another key. */
  TVMFFIByteArray prefix = {"ffi.Stringly", 10};
  CHECK_OK(TVMFFITypeKeyToIndex(&prefix, &out));
  CHECK_EQ_INT(out, kTVMFFIStr);
}

static void test_get_type_info_unknown_exits(void) {
  int fds[2];
  CHECK_EQ_INT(pipe(fds), 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    /* The call is `pure`: use its result so that it is not optimised away. */
    const TVMFFITypeInfo* volatile info = TVMFFIGetTypeInfo(13);
    _exit(info != NULL ? 0 : 1); /* not reached */
  }
  close(fds[1]);
  char text[256] = {0};
  size_t got = 0;
  ssize_t n;
  while (got < sizeof(text) - 1 && (n = read(fds[0], text + got, sizeof(text) - 1 - got)) > 0) {
    got += (size_t)n;
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK_EQ_INT(WEXITSTATUS(status), 255);
  CHECK(strstr(text, "TVMFFIGetTypeInfo: unknown type index 13") != NULL);
}

static TVMFFIFieldInfo make_field(const char* name, int64_t offset) {
  TVMFFIFieldInfo f;
  memset(&f, 0, sizeof(f));
  f.name = bytes_of(name);
  f.doc = bytes_of("");
  f.metadata = bytes_of("{}");
  f.size = 8;
  f.alignment = 8;
  f.offset = offset;
  f.default_value_or_factory = tether_any_none();
  f.field_static_type_index = kTVMFFIInt;
  return f;
}

static void test_fields(void) {
  int32_t t = derive("test.type.WithFields", kTVMFFIObject, 1, 1);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  CHECK_EQ_INT(info->num_fields, 0);

  char name[] = "x";
  char doc[] = "the x";
  TVMFFIFieldInfo f = make_field(name, 24);
  f.doc = bytes_of(doc);
  f.flags = kTVMFFIFieldFlagBitMaskHasDefault | kTVMFFIFieldFlagBitSetterIsFunctionObj;
  f.default_value_or_factory = fake_object_view();
  f.setter = &fake_object;
  uint32_t uses = tether_object_use_count(&fake_object);
  CHECK_OK(TVMFFITypeRegisterField(t, &f));
  CHECK_EQ_INT(tether_object_use_count(&fake_object), uses + 2); /* default + setter retained */
  name[0] = 'z'; /* strings were copied */
  doc[0] = 'T';
  CHECK_EQ_INT(info->num_fields, 1);
  CHECK_BYTES(info->fields[0].name, "x");
  CHECK_BYTES(info->fields[0].doc, "the x");
  CHECK_BYTES(info->fields[0].metadata, "{}");
  CHECK_EQ_INT(info->fields[0].offset, 24);
  CHECK_EQ_INT(info->fields[0].field_static_type_index, kTVMFFIInt);
  CHECK(info->fields[0].default_value_or_factory.v_obj == &fake_object);

  TVMFFIFieldInfo dup = make_field("x", 32);
  CHECK_RAISED(TVMFFITypeRegisterField(t, &dup), "ValueError",
               "TVMFFITypeRegisterField: Duplicate field name \"x\" in type "
               "\"test.type.WithFields\"");
  CHECK_EQ_INT(info->num_fields, 1);

  /* Growth: the TypeInfo stays put while `fields` is replaced. */
  char names[40][16];
  for (int i = 0; i < 40; ++i) {
    snprintf(names[i], sizeof(names[i]), "f%d", i);
    TVMFFIFieldInfo g = make_field(names[i], 32 + 8 * i);
    g.default_value_or_factory = tether_any_int(i);
    CHECK_OK(TVMFFITypeRegisterField(t, &g));
  }
  CHECK(TVMFFIGetTypeInfo(t) == info);
  CHECK_EQ_INT(info->num_fields, 41);
  CHECK_BYTES(info->fields[0].name, "x");
  CHECK_BYTES(info->fields[40].name, "f39");
  CHECK_EQ_INT(info->fields[40].default_value_or_factory.v_int64, 39);

  /* Shadowing an ancestor's field is allowed with a warning (text observed). */
  int32_t child = derive("test.type.WithFieldsChild", t, 0, 0);
  TVMFFIFieldInfo shadow = make_field("f3", 200);
  capture_stderr_begin();
  int rc = TVMFFITypeRegisterField(child, &shadow);
  const char* printed = capture_stderr_end();
  CHECK_OK(rc);
  CHECK(strstr(printed, "[WARNING] Field \"f3\" in type \"test.type.WithFieldsChild\" duplicates "
                        "an ancestor field in \"test.type.WithFields\"") != NULL);
  CHECK_EQ_INT(TVMFFIGetTypeInfo(child)->num_fields, 1);

  TVMFFIFieldInfo any = make_field("y", 8);
  CHECK_RAISED(TVMFFITypeRegisterField(13, &any), "ValueError",
               "TVMFFITypeRegisterField: Cannot find type info for type_index=13");
  CHECK_RAISED(TVMFFITypeRegisterField(t, NULL), "ValueError", "argument `info`");
}

static void test_methods(void) {
  int32_t t = derive("test.type.WithMethods", kTVMFFIObject, 0, 1);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  char name[] = "run";
  TVMFFIMethodInfo m;
  memset(&m, 0, sizeof(m));
  m.name = bytes_of(name);
  m.doc = bytes_of("runs");
  m.metadata = bytes_of("{\"type_schema\": \"x\"}");
  m.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  m.method = fake_object_view();
  uint32_t uses = tether_object_use_count(&fake_object);
  CHECK_OK(TVMFFITypeRegisterMethod(t, &m));
  CHECK_EQ_INT(tether_object_use_count(&fake_object), uses + 1);
  name[0] = 'f';
  CHECK_EQ_INT(info->num_methods, 1);
  CHECK_BYTES(info->methods[0].name, "run");
  CHECK_BYTES(info->methods[0].doc, "runs");
  CHECK_BYTES(info->methods[0].metadata, "{\"type_schema\": \"x\"}");
  CHECK_EQ_INT(info->methods[0].flags, kTVMFFIFieldFlagBitMaskIsStaticMethod);
  CHECK(info->methods[0].method.v_obj == &fake_object);
  for (int i = 0; i < 20; ++i) {
    m.name = bytes_of("again"); /* method names are not checked for duplicates */
    m.method = tether_any_int(i);
    CHECK_OK(TVMFFITypeRegisterMethod(t, &m));
  }
  CHECK(TVMFFIGetTypeInfo(t) == info);
  CHECK_EQ_INT(info->num_methods, 21);
  CHECK_EQ_INT(info->methods[20].method.v_int64, 19);
  CHECK_BYTES(info->methods[0].name, "run");
  CHECK_RAISED(TVMFFITypeRegisterMethod(-4, &m), "ValueError",
               "TVMFFITypeRegisterMethod: Cannot find type info for type_index=-4");
  CHECK_RAISED(TVMFFITypeRegisterMethod(t, NULL), "ValueError", "argument `info`");
}

static int create_nothing(TVMFFIObjectHandle* out) {
  *out = NULL;
  return 0;
}

static void test_metadata(void) {
  int32_t t = derive("test.type.WithMeta", kTVMFFIObject, 0, 1);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  CHECK(info->metadata == NULL);
  char doc[] = "a documented type";
  TVMFFITypeMetadata md = {bytes_of(doc), create_nothing, 48, kTVMFFISEqHashKindTreeNode};
  CHECK_OK(TVMFFITypeRegisterMetadata(t, &md));
  doc[0] = 'A';
  CHECK(info->metadata != NULL);
  CHECK_BYTES(info->metadata->doc, "a documented type");
  CHECK(info->metadata->creator == create_nothing);
  CHECK_EQ_INT(info->metadata->total_size, 48);
  CHECK_EQ_INT(info->metadata->structural_eq_hash_kind, kTVMFFISEqHashKindTreeNode);
  const TVMFFITypeMetadata* first = info->metadata;
  md.total_size = 64;
  CHECK_RAISED(TVMFFITypeRegisterMetadata(t, &md), "RuntimeError",
               "Overriding test.type.WithMeta, possible causes:\n- two ObjectDef<T>() calls");
  CHECK(info->metadata == first);
  CHECK_EQ_INT(info->metadata->total_size, 48);
  CHECK_RAISED(TVMFFITypeRegisterMetadata(99, &md), "ValueError",
               "TVMFFITypeRegisterMetadata: Cannot find type info for type_index=99");
  CHECK_RAISED(TVMFFITypeRegisterMetadata(t, NULL), "ValueError", "argument `metadata`");
}

/* ffi.Object carries metadata from load, as tvm-ffi's table does (observed): the header's
 * size, no creator, no doc, structural equality unsupported.  Its other static children
 * without a reflected layout carry none. */
static void test_root_metadata(void) {
  const TVMFFITypeMetadata* md = TVMFFIGetTypeInfo(kTVMFFIObject)->metadata;
  CHECK(md != NULL);
  if (md == NULL) return;
  CHECK_EQ_INT(md->total_size, (int64_t)sizeof(TVMFFIObject));
  CHECK_EQ_INT(md->total_size, 24);
  CHECK(md->creator == NULL);
  CHECK_EQ_INT((int64_t)md->doc.size, 0);
  CHECK_EQ_INT(md->structural_eq_hash_kind, kTVMFFISEqHashKindUnsupported);
  static const int32_t bare[] = {kTVMFFIStr,   kTVMFFIBytes, kTVMFFIError, kTVMFFIFunction,
                                 kTVMFFIShape, kTVMFFITensor, kTVMFFIArray, kTVMFFIMap,
                                 kTVMFFIList,  kTVMFFIDict};
  for (size_t i = 0; i < sizeof(bare) / sizeof(bare[0]); ++i) {
    CHECK(TVMFFIGetTypeInfo(bare[i])->metadata == NULL);
  }
  /* Registered once, like any type's. */
  TVMFFITypeMetadata again = {bytes_of(""), NULL, 32, kTVMFFISEqHashKindTreeNode};
  CHECK_RAISED(TVMFFITypeRegisterMetadata(kTVMFFIObject, &again), "RuntimeError",
               "Overriding ffi.Object");
  CHECK_EQ_INT(TVMFFIGetTypeInfo(kTVMFFIObject)->metadata->total_size, 24);
  /* Its size is no recipe for making one: a bare header is not an object anyone uses. */
  TVMFFIObjectHandle obj = NULL;
  CHECK_RAISED(tether_object_new_reflected(kTVMFFIObject, &obj), "TypeError",
               "type `ffi.Object` (index 64) has no reflected layout");
  CHECK(obj == NULL);
  TVMFFIAny key = tether_any_none(), out;
  CHECK_OK(tether_any_str("ffi.Object", 10, &key));
  CHECK_RAISED(call_global("ffi.MakeObjectFromPackedArgs", &key, 1, &out), "TypeError",
               "no reflected layout");
  tether_any_release(&key);
}

static const TVMFFITypeAttrColumn* column(const char* name) {
  TVMFFIByteArray n = bytes_of(name);
  return TVMFFIGetTypeAttrColumn(&n);
}

static int register_attr(int32_t t, const char* name, TVMFFIAny value) {
  TVMFFIByteArray n = bytes_of(name);
  return TVMFFITypeRegisterAttr(t, &n, &value);
}

static void test_attr_columns(void) {
  static const char* const at_load[] = {"__any_hash__", "__any_equal__", "__ffi_init__",
                                        "__ffi_enum__", "__ffi_repr__"};
  for (size_t i = 0; i < sizeof(at_load) / sizeof(at_load[0]); ++i) {
    const TVMFFITypeAttrColumn* c = column(at_load[i]);
    CHECK(c != NULL);
    if (c != NULL) CHECK_EQ_INT(c->begin_index, 0);
  }
  CHECK(column("__test_type_never__") == NULL);
  CHECK(TVMFFIGetTypeAttrColumn(NULL) == NULL);

  /* Type 0 only creates the column. */
  CHECK_OK(register_attr(kTVMFFINone, "__test_type_sentinel__", tether_any_int(1)));
  const TVMFFITypeAttrColumn* sentinel = column("__test_type_sentinel__");
  CHECK(sentinel != NULL);
  CHECK_EQ_INT(sentinel->size, 0);
  TVMFFIByteArray sentinel_name = bytes_of("__test_type_sentinel__");
  CHECK_OK(TVMFFITypeRegisterAttr(kTVMFFINone, &sentinel_name, NULL));

  int32_t t = derive("test.type.WithAttr", kTVMFFIObject, 0, 1);
  CHECK_OK(register_attr(t, "__test_type_attr__", tether_any_int(5)));
  const TVMFFITypeAttrColumn* c = column("__test_type_attr__");
  CHECK(c != NULL);
  CHECK_EQ_INT(c->size, t + 1);
  CHECK_EQ_INT(c->begin_index, 0);
  CHECK_EQ_INT(c->data[t].type_index, kTVMFFIInt);
  CHECK_EQ_INT(c->data[t].v_int64, 5);
  CHECK_EQ_INT(c->data[kTVMFFIStr].type_index, kTVMFFINone); /* absent entries are None */

  /* Text observed. */
  CHECK_RAISED(register_attr(t, "__test_type_attr__", tether_any_int(6)), "RuntimeError",
               "is already registered for type index");
  char expected[256];
  snprintf(expected, sizeof(expected),
           "TypeAttr `__test_type_attr__` is already registered for type index %d. To update the "
           "stored value, register a mutable container (e.g., Dict/List) once and mutate it in "
           "place on subsequent calls.",
           (int)t);
  CHECK_RAISED(register_attr(t, "__test_type_attr__", tether_any_int(6)), "RuntimeError", expected);
  CHECK_EQ_INT(c->data[t].v_int64, 5);

  /* Growth keeps the column's address and its entries; other types (even unregistered
   * ones, as in the reference) get their own entries. */
  uint32_t uses = tether_object_use_count(&fake_object);
  CHECK_OK(register_attr(kTVMFFIStr, "__test_type_attr__", fake_object_view()));
  CHECK_EQ_INT(tether_object_use_count(&fake_object), uses + 1);
  CHECK_OK(register_attr(5000, "__test_type_attr__", tether_any_float(2.5)));
  CHECK(column("__test_type_attr__") == c);
  CHECK_EQ_INT(c->size, 5001);
  CHECK_EQ_INT(c->data[t].v_int64, 5);
  CHECK(c->data[kTVMFFIStr].v_obj == &fake_object);
  CHECK(c->data[5000].v_float64 == 2.5);
  CHECK_EQ_INT(c->data[4999].type_index, kTVMFFINone);

  /* A None registration leaves the slot free (observed: a later value is accepted). */
  CHECK_OK(register_attr(300, "__test_type_attr__", tether_any_none()));
  CHECK_OK(register_attr(300, "__test_type_attr__", tether_any_bool(true)));
  CHECK_EQ_INT(c->data[300].type_index, kTVMFFIBool);

  /* Values are views converted to owned values: a raw string becomes a string. */
  int64_t live = tether_object_live_count();
  CHECK_OK(register_attr(301, "__test_type_attr__", tether_any_raw_str("hi")));
  CHECK_EQ_INT(c->data[301].type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(tether_object_live_count(), live);

  CHECK_RAISED(register_attr(-3, "__test_type_attr__", tether_any_int(1)), "ValueError",
               "TVMFFITypeRegisterAttr: type_index -3 for attribute `__test_type_attr__` is out "
               "of range");
  CHECK_RAISED(TVMFFITypeRegisterAttr(t, NULL, NULL), "ValueError", "argument `attr_name`");
  CHECK_RAISED(TVMFFITypeRegisterAttr(t, &(TVMFFIByteArray){"__test_type_attr2__", 19}, NULL),
               "ValueError", "argument `attr_value` must not be NULL");
}

typedef struct {
  int seen;
  int32_t last;
  bool ordered;
  bool saw_object;
} for_each_ctx_t;

static void count_type(const TVMFFITypeInfo* info, void* ctx_ptr) {
  for_each_ctx_t* ctx = ctx_ptr;
  if (info->type_index <= ctx->last) ctx->ordered = false;
  ctx->last = info->type_index;
  ctx->seen++;
  if (info->type_index == kTVMFFIObject) ctx->saw_object = true;
}

/* tether__type_for_each is internal; reach it through ffi.GetRegisteredTypeKeys when that
 * exists.  Here: every registered index is visible through TVMFFIGetTypeInfo. */
static void test_indices_listed_by_key_are_consistent(void) {
  for_each_ctx_t ctx = {0, -1, true, false};
  for (int32_t i = 0; i < 20000; ++i) {
    TVMFFIByteArray k = bytes_of(tether_type_key(i));
    if (strcmp(k.data, "<unknown>") == 0) continue;
    int32_t back = -1;
    CHECK_OK(TVMFFITypeKeyToIndex(&k, &back));
    CHECK_EQ_INT(back, i);
    count_type(TVMFFIGetTypeInfo(i), &ctx);
  }
  CHECK(ctx.ordered);
  CHECK(ctx.saw_object);
  CHECK(ctx.seen >= 13 + 13);
}

#define THREADS 8
#define KEYS_PER_THREAD 100

typedef struct {
  int id;
  int32_t indices[KEYS_PER_THREAD];
  int32_t shared_index;
  int failures;
} thread_job_t;

static void* register_many(void* arg) {
  thread_job_t* job = arg;
  char key[64];
  for (int i = 0; i < KEYS_PER_THREAD; ++i) {
    snprintf(key, sizeof(key), "test.type.thread%d.k%d", job->id, i);
    /* Mix global-counter children and children in a shared parent's reserved slots. */
    int32_t parent = i % 3 == 0 ? key_to_index("test.type.SharedParent") : kTVMFFIObject;
    int32_t idx = derive(key, parent, i % 4, 1);
    job->indices[i] = idx;
    if (idx < 0) {
      job->failures++;
      continue;
    }
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(idx);
    if (info->type_index != idx || strcmp(info->type_key.data, key) != 0) job->failures++;
    /* Readers of other entries race with the writers. */
    if (TVMFFIGetTypeInfo(kTVMFFIStr)->type_depth != 1) job->failures++;
  }
  job->shared_index = derive("test.type.SharedByAll", kTVMFFIObject, 0, 1);
  return NULL;
}

static void test_threads_register_distinct_keys(void) {
  derive("test.type.SharedParent", kTVMFFIObject, 40, 1);
  pthread_t threads[THREADS];
  static thread_job_t jobs[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    jobs[t] = (thread_job_t){.id = t};
    CHECK_EQ_INT(pthread_create(&threads[t], NULL, register_many, &jobs[t]), 0);
  }
  for (int t = 0; t < THREADS; ++t) pthread_join(threads[t], NULL);
  static int32_t all[THREADS * KEYS_PER_THREAD];
  int n = 0;
  for (int t = 0; t < THREADS; ++t) {
    CHECK_EQ_INT(jobs[t].failures, 0);
    CHECK_EQ_INT(jobs[t].shared_index, jobs[0].shared_index);
    for (int i = 0; i < KEYS_PER_THREAD; ++i) {
      CHECK(jobs[t].indices[i] >= kTVMFFIDynObjectBegin);
      all[n++] = jobs[t].indices[i];
      char key[64];
      snprintf(key, sizeof(key), "test.type.thread%d.k%d", t, i);
      CHECK_EQ_INT(key_to_index(key), jobs[t].indices[i]);
    }
  }
  int duplicates = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) duplicates += all[i] == all[j];
  }
  CHECK_EQ_INT(duplicates, 0);
}

/* ---- finishing a reflected type with a creator ---------------------------------------- */

typedef struct {
  TVMFFIObject header;
  int64_t a;    /* passed to __ffi_init__ */
  int64_t b;    /* init off, reflected default 9 */
  int64_t c;    /* init off, no default: keeps the creator's value */
  TVMFFIObject* peer; /* init off, optional object of this very type */
} counter_t;

static int32_t g_counter_type = -1;

/* The creator of test.type.Counter: b and c start at 5 and 1234. */
static int counter_create(TVMFFIObjectHandle* out) {
  if (tether_object_new_reflected(g_counter_type, out) != 0) return -1;
  ((counter_t*)*out)->b = 5;
  ((counter_t*)*out)->c = 1234;
  return 0;
}

/* Breaks the creator contract: an object of another type. */
static int wrong_type_create(TVMFFIObjectHandle* out) {
  return tether_object_new_reflected(g_counter_type, out);
}

static int failing_create(TVMFFIObjectHandle* out) {
  return tether_raise("ValueError", "no objects today");
}

static TVMFFIObject* type_attr(int32_t t, const char* name) {
  const TVMFFITypeAttrColumn* col = column(name);
  if (col == NULL || t < col->begin_index || t - col->begin_index >= col->size) return NULL;
  const TVMFFIAny* v = &col->data[t - col->begin_index];
  return v->type_index >= kTVMFFIStaticObjectBegin ? v->v_obj : NULL;
}

static int32_t define_counter_like(const char* key, TVMFFIObjectCreator creator, bool no_init) {
  int32_t t = derive(key, kTVMFFIObject, 0, 1);
  TVMFFIAny nine = tether_any_int(9);
  tether_field_def_t fields[] = {
      {"a", TETHER_FIELD_INT64, offsetof(counter_t, a), kTVMFFIFieldFlagBitMaskWritable, 0, NULL,
       NULL, NULL, NULL},
      {"b", TETHER_FIELD_INT64, offsetof(counter_t, b),
       kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskInitOff, 0, &nine, NULL, NULL,
       NULL},
      {"c", TETHER_FIELD_INT64, offsetof(counter_t, c),
       kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskInitOff, 0, NULL, NULL, NULL,
       NULL},
      {"peer", TETHER_FIELD_OPT_OBJECT, offsetof(counter_t, peer),
       kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskInitOff, t, NULL, NULL, NULL,
       NULL},
  };
  for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); ++i) {
    CHECK_OK(tether_type_def_field(t, &fields[i]));
  }
  tether_type_finish_t def = {sizeof(counter_t), creator, no_init, "a counter"};
  CHECK_OK(tether_type_def_finish_ex(t, &def));
  return t;
}

static int32_t g_wrong_creator_type = -1, g_failing_creator_type = -1, g_no_init_type = -1;
static int32_t g_bad_default_type = -1;

/* A default that the field's setter refuses. */
static void define_bad_default_type(void) {
  g_bad_default_type = derive("test.type.BadDefault", kTVMFFIObject, 0, 1);
  TVMFFIAny text = tether_any_raw_str("seven");
  tether_field_def_t n = {"n", TETHER_FIELD_INT64, 24, kTVMFFIFieldFlagBitMaskWritable, 0, &text,
                          NULL, NULL, NULL};
  CHECK_OK(tether_type_def_field(g_bad_default_type, &n));
  CHECK_OK(tether_type_def_finish(g_bad_default_type, 32, NULL));
}

/* The types are defined before the tests run: what the type table retains (their
 * `__ffi_init__` and `__ffi_shallow_copy__` functions) lives until unload. */
__attribute__((constructor)) static void define_finished_types(void) {
  g_counter_type = define_counter_like("test.type.Counter", counter_create, false);
  g_wrong_creator_type =
      define_counter_like("test.type.CounterWrongCreator", wrong_type_create, false);
  g_failing_creator_type =
      define_counter_like("test.type.CounterFailingCreator", failing_create, false);
  g_no_init_type = define_counter_like("test.type.CounterNoInit", NULL, true);
  define_bad_default_type();
}

/* Fields without a value passed or a reflected default keep what the creator wrote; the
 * creator's contract is checked. */
static void test_finish_with_creator(void) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(g_counter_type);
  CHECK(info->metadata != NULL && info->metadata->creator == counter_create);
  CHECK_BYTES(info->metadata->doc, "a counter");
  CHECK_EQ_INT(info->metadata->total_size, (int64_t)sizeof(counter_t));
  CHECK(type_attr(g_counter_type, "__ffi_shallow_copy__") != NULL);
  TVMFFIObject* init = type_attr(g_counter_type, "__ffi_init__");
  CHECK(init != NULL);
  if (init == NULL) return;

  TVMFFIAny arg = tether_any_int(3), out = tether_any_none();
  CHECK_OK(TVMFFIFunctionCall(init, &arg, 1, &out));
  if (out.type_index != g_counter_type) return;
  counter_t* c = (counter_t*)out.v_obj;
  CHECK_EQ_INT(c->a, 3);
  CHECK_EQ_INT(c->b, 9); /* the reflected default wins over the creator's 5 */
  CHECK_EQ_INT(c->c, 1234);
  CHECK(c->peer == NULL);

  /* Setting a non-object into a field of a particular object type names that type. */
  const TVMFFIFieldInfo* peer = tether_type_find_field(g_counter_type, "peer", 4);
  TVMFFIAny seven = tether_any_int(7), none = tether_any_none();
  CHECK_RAISED(tether_field_set(out.v_obj, peer, &seven), "TypeError",
               "Cannot convert from type `int` to `test.type.Counter`");
  CHECK_OK(tether_field_set(out.v_obj, peer, &none));
  tether_any_release(&out);

  /* A creator that fails, or returns an object of another type, fails the construction. */
  CHECK_RAISED(TVMFFIFunctionCall(type_attr(g_wrong_creator_type, "__ffi_init__"), &arg, 1, &out),
               "TypeError", "the creator of type `test.type.CounterWrongCreator` returned "
               "`test.type.Counter`, not an object of that type");
  CHECK_RAISED(
      TVMFFIFunctionCall(type_attr(g_failing_creator_type, "__ffi_init__"), &arg, 1, &out),
      "ValueError", "no objects today");

  /* no_init: no constructor from the fields, the shallow copy all the same. */
  CHECK(type_attr(g_no_init_type, "__ffi_init__") == NULL);
  CHECK(type_attr(g_no_init_type, "__ffi_shallow_copy__") != NULL);
  CHECK(TVMFFIGetTypeInfo(g_no_init_type)->metadata->creator == NULL);

  CHECK_RAISED(tether_type_def_finish_ex(g_no_init_type, NULL), "ValueError", "argument `def`");
  tether_type_finish_t again = {sizeof(counter_t), NULL, false, NULL};
  CHECK_RAISED(tether_type_def_finish_ex(g_no_init_type, &again), "RuntimeError", "Overriding");
}

/* A default that the field's setter refuses: the constructor says it was the default. */
static void test_unconvertible_default_names_the_field(void) {
  TVMFFIObject* init = type_attr(g_bad_default_type, "__ffi_init__");
  TVMFFIAny out = tether_any_none(), arg = tether_any_int(1);
  CHECK_RAISED(TVMFFIFunctionCall(init, NULL, 0, &out), "TypeError",
               "test.type.BadDefault.__ffi_init__() default for field 'n':\n"
               "  Cannot convert from type `ffi.SmallStr` to `int`");
  CHECK_OK(TVMFFIFunctionCall(init, &arg, 1, &out));
  tether_any_release(&out);
}

TEST_MAIN(TEST_CASE(test_pod_types_preregistered), TEST_CASE(test_object_types_preregistered),
          TEST_CASE(test_visit_interrupt_claimed_lazily),
          TEST_CASE(test_dynamic_allocation_with_child_slots),
          TEST_CASE(test_non_overflowable_parents),
          TEST_CASE(test_static_index_inside_parent_slots_stays_unique),
          TEST_CASE(test_bad_allocation_arguments), TEST_CASE(test_subclass),
          TEST_CASE(test_key_to_index_errors), TEST_CASE(test_get_type_info_unknown_exits),
          TEST_CASE(test_fields), TEST_CASE(test_methods), TEST_CASE(test_metadata),
          TEST_CASE(test_root_metadata),
          TEST_CASE(test_attr_columns), TEST_CASE(test_indices_listed_by_key_are_consistent),
          TEST_CASE(test_threads_register_distinct_keys), TEST_CASE(test_finish_with_creator),
          TEST_CASE(test_unconvertible_default_names_the_field))
