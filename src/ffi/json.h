/*
 * json.h -- libtether-internal API of json.c: JSON text <-> JSON values (see
 * <tether/json.h> for the value model), and base64.  Not exported.
 */
#ifndef TETHER_SRC_FFI_JSON_H_
#define TETHER_SRC_FFI_JSON_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/json.h is private to libtether; include <tether/json.h> instead"
#endif

#include "internal.h"

/* tether_json_parse with the name of the calling function (`who`) in raised messages. */
int tether__json_parse(const char* who, const char* text, size_t len, TVMFFIAny* out,
                       TVMFFIAny* error_msg);
/* tether_json_stringify with the name of the calling function in raised messages. */
int tether__json_stringify(const char* who, const TVMFFIAny* value, int indent, TVMFFIAny* out);

/* Grows the malloc'd array *items of *cap `elem`-byte records to hold at least `need`
 * (doubling); false when out of memory (nothing raised, *items unchanged).  The stacks of
 * the JSON reader, writer and graph code all grow this way. */
bool tether__json_grow(void** items, int64_t* cap, int64_t need, size_t elem);

/* Standard base64 (RFC 4648 alphabet, '=' padding) of n bytes: a new malloc'd, NUL-ended
 * text of *out_len characters, or NULL when out of memory (nothing raised). */
char* tether__base64_encode(const uint8_t* data, size_t n, size_t* out_len);
/* Decodes base64 text into a new malloc'd buffer of *out_len bytes (*out; non-NULL even
 * for 0 bytes).  Returns 0; 1 when the text is not valid padded base64 (length not a
 * multiple of 4, a character outside the alphabet, misplaced '='); -1 out of memory.
 * Nothing is raised. */
int tether__base64_decode(const char* text, size_t n, uint8_t** out, size_t* out_len);

#endif /* TETHER_SRC_FFI_JSON_H_ */
