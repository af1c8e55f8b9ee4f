/*
 * testing.h -- what the sources of libtether_testing share (not installed, not API).
 */
#ifndef TETHER_TESTING_H_
#define TETHER_TESTING_H_

#include <tether/c_api.h>
#include <tether/tether.h>

/* Registers the typed globals (testing.schema_*) and testing.SchemaAllTypes (typed.c).
 * 0, or -1 with the error raised. */
int testing__register_typed(void);

/* Registers the remaining reflected test types of types.c.  0, or -1 with the error raised. */
int testing__register_types(void);

/* Registers the enum fixtures and testing.enum_variant_get (enums.c).  0, or -1 with the
 * error raised. */
int testing__register_enums(void);

/* Registers the def-region traversal fixtures and testing.make_visit_region_graph
 * (visit_regions.c).  0, or -1 with the error raised. */
int testing__register_visit_regions(void);

/* {"type_schema": "<schema, as a JSON string>"[, extra]}: the metadata JSON of a function
 * whose type schema is the JSON text `schema`; `extra` (or NULL) holds more members.  New
 * malloc'd text, or NULL with MemoryError raised. */
char* testing__metadata_json(const char* schema, const char* extra);

/* Registers the type's `__ffi_init__` attribute also as its static method `__ffi_init__`
 * (how a type with a declared constructor shows it).  0, or -1 with the error raised. */
int testing__init_as_method(int32_t type_index);

/* child_slots of a final type (tvm-ffi's _type_final): no slots, and no type may derive from
 * it, so tether_type_def_final publishes it as final. */
#define TESTING_FINAL (-1)

/* The type index of the type named `key` whose parent is `parent` (allocated on first use)
 * with `child_slots` reserved child indices that may overflow, or final (TESTING_FINAL). */
int32_t testing__alloc_type(const char* key, int32_t parent, int32_t child_slots);

#endif /* TETHER_TESTING_H_ */
