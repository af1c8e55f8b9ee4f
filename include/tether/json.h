/*
 * json.h -- JSON text and tvm-ffi's JSON object graph, from C.
 *
 * JSON values are ordinary Any values: None, bool, int (int64), float (double), strings,
 * ffi.Array for arrays and ffi.Map (insertion-ordered, string keys) for objects.  A JSON
 * number without '.', 'e' or 'E' that fits int64 is an int; every other number is a float;
 * NaN, Infinity and -Infinity are accepted and written as such.
 *
 * The JSON graph (ffi.ToJSONGraph) is {"root_index": i, "nodes": [...], "metadata": m}:
 * every distinct value becomes one node {"type": <type key>, "data": <payload>}, children
 * before parents; a value met again (the same object, or an equal int, float, bool, string
 * or bytes) is a reference to its first node.  Reflected objects are written field by
 * field: a field declared None, bool, int, float or DataType inline, any other field as
 * the index of its value's node.  A type that registers the type attributes
 * `__data_to_json__` (a Function value -> JSON value) and `__data_from_json__` (JSON value
 * -> value) is written and read through them instead; libtether registers them for
 * ffi.Tensor (CPU tensors, as base64 of a binary header and the raw data).
 *
 * The same operations are the globals ffi.json.Parse, ffi.json.Stringify, ffi.ToJSONGraph,
 * ffi.ToJSONGraphString, ffi.FromJSONGraph and ffi.FromJSONGraphString.
 *
 * Errors: -1 with an error raised (TVMFFIErrorMoveFromRaised): ValueError for malformed
 * text (the message ends in "line L column C (char P)"), for graphs that are not well
 * formed (naming the node) and for values JSON cannot hold; TypeError for a field value
 * of the wrong type or a required field that is missing; MemoryError.  Nesting depth is
 * limited only by memory.  Thread-safe (no shared state).
 */
#ifndef TETHER_JSON_H_
#define TETHER_JSON_H_

#include <stddef.h>

#include "c_api.h"
#include "tether.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Parses `len` bytes of JSON text into *out (an owning value; None on failure).
 * error_msg == NULL: a syntax error raises ValueError "ffi.json.Parse: <reason>: line L
 * column C (char P)".  error_msg != NULL: a syntax error returns 0 with *out None and
 * *error_msg an owning string "<reason>: line L column C (char P)"; on success *error_msg
 * is the empty string.  Out of memory always returns -1 (MemoryError).
 */
TETHER_API int tether_json_parse(const char* text, size_t len, TVMFFIAny* out,
                                 TVMFFIAny* error_msg);

/*
 * Writes the JSON value `value` (a view) as text into *out (an owning string).  indent 0:
 * compact; indent > 0: one item per line, nested by `indent` spaces.  ValueError for a
 * value JSON cannot hold (a Dict, a non-string Map key, a container that contains itself).
 */
TETHER_API int tether_json_stringify(const TVMFFIAny* value, int indent, TVMFFIAny* out);

/*
 * The JSON graph of `value` as a JSON value (*out, owning).  `metadata` (a view, may be
 * NULL or None) is stored under "metadata" when it is not None.
 * TypeError for an object type that has neither a creator nor `__data_to_json__`;
 * RuntimeError for a value that is not an object and has no JSON form (an opaque pointer);
 * ValueError for a cycle.
 */
TETHER_API int tether_to_json_graph(const TVMFFIAny* value, const TVMFFIAny* metadata,
                                    TVMFFIAny* out);

/* The value a JSON graph (a JSON value, view) describes, into *out (owning). */
TETHER_API int tether_from_json_graph(const TVMFFIAny* graph, TVMFFIAny* out);

#ifdef __cplusplus
}
#endif
#endif /* TETHER_JSON_H_ */
