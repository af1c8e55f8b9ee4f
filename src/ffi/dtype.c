/*
 * dtype.c -- DLDataType <-> string (TVMFFIDataTypeFromString / TVMFFIDataTypeToString),
 * the grammar at the end of spec section 2:
 *
 *   dtype  := "" | "void" | base [bits] [lanes]
 *   base   := a name of tether__dtype_names (after alias expansion) | "custom[" name "]"
 *   bits   := decimal digits; 0 or absent means the name's default; at most 255
 *             (names with fixed bits, the float8/6/4 families, take no digits)
 *   lanes  := "x" N | "xvscalex" N  (1 <= N <= 65535; scalable lanes are stored as -N
 *             in the uint16 field; not for the fixed-width families); float4_e2m1fn also
 *             accepts "_x" N
 *   aliases: iN uN fN bfN (a digit must follow), fp8_/f8_, fp6_/f6_, fp4_/f4_
 *
 * Invariant: every string the parser accepts prints back to a string that parses to the
 * same DLDataType.  Where tvm-ffi 0.1.14's printer loses information we print more:
 * handle bits other than 64 and handle lanes, custom bits other than 32, and lanes
 * 65535 (scalable vscale x 1) as "xvscalex1".  Accepted by tvm-ffi but rejected here:
 * "<t>xvscale" without a count and a trailing "_" on float4_e2m1fn.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>

#include "internal.h"
#include "dtype.h"

/* How a name's bit width is read and printed. */
typedef enum {
  TETHER_BITS_ALWAYS,         /* digits optional; always printed (int32, float16) */
  TETHER_BITS_UNLESS_DEFAULT, /* digits optional; printed only when not the default (bool) */
  TETHER_BITS_FIXED,          /* no digits, no scalable lanes; never printed (float8_e4m3fn) */
} tether_bits_rule_t;

typedef struct {
  const char* name;
  uint8_t code;
  uint8_t default_bits;
  tether_bits_rule_t bits_rule;
  const char* alt_lanes_sep; /* a second spelling of the "x" lanes separator, or NULL */
} tether_dtype_name_t;

/* The one table of named type codes, used by both the parser and the printer.  A code
 * prints with its first row.  Complex (5) is deliberately absent: it is rejected. */
static const tether_dtype_name_t tether__dtype_names[] = {
    {"int", kDLInt, 32, TETHER_BITS_ALWAYS, NULL},
    {"uint", kDLUInt, 32, TETHER_BITS_ALWAYS, NULL},
    {"float", kDLFloat, 32, TETHER_BITS_ALWAYS, NULL},
    {"handle", kDLOpaqueHandle, 64, TETHER_BITS_UNLESS_DEFAULT, NULL},
    {"bfloat", kDLBfloat, 16, TETHER_BITS_ALWAYS, NULL},
    {"bool", kDLBool, 8, TETHER_BITS_UNLESS_DEFAULT, NULL},
    {"float8_e3m4", kDLFloat8_e3m4, 8, TETHER_BITS_FIXED, NULL},
    {"float8_e4m3", kDLFloat8_e4m3, 8, TETHER_BITS_FIXED, NULL},
    {"float8_e4m3b11fnuz", kDLFloat8_e4m3b11fnuz, 8, TETHER_BITS_FIXED, NULL},
    {"float8_e4m3fn", kDLFloat8_e4m3fn, 8, TETHER_BITS_FIXED, NULL},
    {"float8_e4m3fnuz", kDLFloat8_e4m3fnuz, 8, TETHER_BITS_FIXED, NULL},
    {"float8_e5m2", kDLFloat8_e5m2, 8, TETHER_BITS_FIXED, NULL},
    {"float8_e5m2fnuz", kDLFloat8_e5m2fnuz, 8, TETHER_BITS_FIXED, NULL},
    {"float8_e8m0fnu", kDLFloat8_e8m0fnu, 8, TETHER_BITS_FIXED, NULL},
    {"float6_e2m3fn", kDLFloat6_e2m3fn, 6, TETHER_BITS_FIXED, NULL},
    {"float6_e3m2fn", kDLFloat6_e3m2fn, 6, TETHER_BITS_FIXED, NULL},
    {"float4_e2m1fn", kDLFloat4_e2m1fn, 4, TETHER_BITS_FIXED, "_x"},
};
#define TETHER_DTYPE_NUM_NAMES (sizeof(tether__dtype_names) / sizeof(tether__dtype_names[0]))

/* Alternative spellings: `alias` at the start of the string stands for `expansion`.
 * With `digit_follows`, the alias applies only when a digit comes right after it. */
typedef struct {
  const char* alias;
  const char* expansion;
  bool digit_follows;
} tether_dtype_alias_t;

static const tether_dtype_alias_t tether__dtype_aliases[] = {
    {"fp8_", "float8_", false}, {"f8_", "float8_", false}, {"fp6_", "float6_", false},
    {"f6_", "float6_", false},  {"fp4_", "float4_", false}, {"f4_", "float4_", false},
    {"bf", "bfloat", true},     {"i", "int", true},         {"u", "uint", true},
    {"f", "float", true},
};

/* Prefixes of the families whose members all have fixed bits, and the family names used
 * in messages ("unknown float8 type ..."). */
static const char* const tether__dtype_families[][2] = {
    {"float8_", "float8"}, {"float6_", "float6"}, {"float4_", "float4"}};

static const char tether__scalable_sep[] = "xvscalex";

/* ---- parsing --------------------------------------------------------------------------- */

/* The input after alias expansion, kept as two pieces to avoid a copy: `prefix` (the
 * expansion, or "") followed by `rest` (the remaining input bytes). */
typedef struct {
  const char* prefix;
  size_t prefix_len;
  const char* rest;
  size_t rest_len;
  const char* text; /* the whole input, for messages */
  size_t text_len;
  const char* family; /* "float8" etc. when the input names a fixed-width family, else NULL */
} tether_dtype_input_t;

static bool tether__starts_with(const char* s, size_t n, const char* lit) {
  size_t m = strlen(lit);
  return n >= m && memcmp(s, lit, m) == 0;
}

/* A length usable as printf's %.*s precision. */
static int tether__prec(size_t n) { return n > INT_MAX ? INT_MAX : (int)n; }

static bool tether__is_digit(char c) { return c >= '0' && c <= '9'; }

/* If `name` is a prefix of prefix+rest, the number of `rest` bytes it covers, else -1. */
static ptrdiff_t tether__match_name(const tether_dtype_input_t* in, const char* name) {
  size_t n = strlen(name);
  if (n < in->prefix_len || memcmp(name, in->prefix, in->prefix_len) != 0) return -1;
  size_t tail = n - in->prefix_len;
  if (tail > in->rest_len || memcmp(name + in->prefix_len, in->rest, tail) != 0) return -1;
  return (ptrdiff_t)tail;
}

static int tether__raise_unknown(const tether_dtype_input_t* in) {
  if (in->family != NULL) {
    return tether_raise("ValueError", "unknown %s type `%.*s`", in->family, tether__prec(in->text_len),
                        in->text);
  }
  return tether_raise("ValueError", "unknown dtype `%.*s`", tether__prec(in->text_len), in->text);
}

/* Reads decimal digits s[0..n) (n >= 1, all digits) into *out, at most UINT32_MAX. */
static int tether__parse_u32(const char* s, size_t n, uint32_t* out) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    v = v * 10 + (uint64_t)(s[i] - '0');
    if (v > UINT32_MAX) {
      return tether_raise("ValueError",
                          "Integer value in dtype string '%.*s' is out of range for uint32_t",
                          tether__prec(n), s);
    }
  }
  *out = (uint32_t)v;
  return 0;
}

/* Parses the optional lanes suffix s[0..n), which must be all of the remaining input. */
static int tether__parse_lanes(const tether_dtype_input_t* in, const char* s, size_t n,
                               bool allow_scalable, const char* alt_sep, uint16_t* lanes) {
  *lanes = 1;
  if (n == 0) return 0;
  bool scalable = false;
  size_t skip;
  if (allow_scalable && tether__starts_with(s, n, tether__scalable_sep)) {
    scalable = true;
    skip = sizeof(tether__scalable_sep) - 1;
  } else if (s[0] == 'x') {
    skip = 1;
  } else if (alt_sep != NULL && tether__starts_with(s, n, alt_sep)) {
    skip = strlen(alt_sep);
  } else {
    return tether__raise_unknown(in);
  }
  s += skip;
  n -= skip;
  bool digits = n != 0;
  for (size_t i = 0; i < n && digits; ++i) digits = tether__is_digit(s[i]);
  uint32_t value = 0;
  if (digits && tether__parse_u32(s, n, &value) != 0) return -1;
  if (!digits || value == 0) {
    return tether_raise("ValueError",
                        "Invalid lanes specification in dtype '%.*s'. Lanes must be a positive "
                        "integer.",
                        tether__prec(in->text_len), in->text);
  }
  if (value > UINT16_MAX) {
    return tether_raise("ValueError", "Lanes value %" PRIu32
                        " is out of range for uint16_t in dtype '%.*s'",
                        value, tether__prec(in->text_len), in->text);
  }
  /* Scalable lanes -N, stored in two's complement in the uint16 field. */
  *lanes = scalable ? (uint16_t)(UINT32_C(65536) - value) : (uint16_t)value;
  return 0;
}

/* Parses "[bits][lanes]" from s[0..n) with the given default and rule. */
static int tether__parse_bits_lanes(const tether_dtype_input_t* in, const char* s, size_t n,
                                    const tether_dtype_name_t* row, uint8_t default_bits,
                                    tether_bits_rule_t rule, DLDataType* out) {
  size_t ndigits = 0;
  while (ndigits < n && tether__is_digit(s[ndigits])) ++ndigits;
  uint32_t bits = 0;
  if (ndigits != 0) {
    if (rule == TETHER_BITS_FIXED) return tether__raise_unknown(in);
    if (tether__parse_u32(s, ndigits, &bits) != 0) return -1;
    if (bits > UINT8_MAX) {
      return tether_raise("ValueError",
                          "Bits value %" PRIu32 " is out of range for uint8_t in dtype '%.*s'", bits,
                          tether__prec(in->text_len), in->text);
    }
  }
  uint16_t lanes;
  /* As in tvm-ffi, the fixed-width families have no scalable vectors. */
  if (tether__parse_lanes(in, s + ndigits, n - ndigits, rule != TETHER_BITS_FIXED,
                          row != NULL ? row->alt_lanes_sep : NULL, &lanes) != 0) {
    return -1;
  }
  out->bits = bits != 0 ? (uint8_t)bits : default_bits;
  out->lanes = lanes;
  return 0;
}

/* Calls global `fname` with one argument; *result receives an owning value.  ValueError if
 * the global is not registered (text as in tvm-ffi). */
static int tether__call_global(const char* fname, const TVMFFIAny* arg, TVMFFIAny* result) {
  TVMFFIByteArray name = {fname, strlen(fname)};
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionGetGlobal(&name, &f) != 0) return -1;
  if (f == NULL) return tether_raise("ValueError", "Function %s not found", fname);
  *result = tether_any_none();
  int rc = tether_func_call(f, arg, 1, result);
  TVMFFIObjectDecRef(f);
  return rc;
}

/* "custom[name]" followed by bits and lanes. */
static int tether__parse_custom(const tether_dtype_input_t* in, DLDataType* out) {
  const char* s = in->text + 6; /* after "custom" */
  size_t n = in->text_len - 6;
  if (n == 0 || s[0] != '[') {
    return tether_raise("ValueError", "expected opening brace after 'custom' type in %.*s",
                        tether__prec(in->text_len), in->text);
  }
  const char* close = memchr(s, ']', n);
  if (close == NULL) {
    return tether_raise("ValueError", "expected closing brace after 'custom' type in %.*s",
                        tether__prec(in->text_len), in->text);
  }
  TVMFFIAny name = tether_any_none();
  TVMFFIAny code = tether_any_none();
  int rc = -1;
  if (tether_any_str(s + 1, (size_t)(close - s - 1), &name) != 0) goto fail;
  if (tether__call_global("dtype.get_custom_type_code", &name, &code) != 0) goto fail;
  if (code.type_index != kTVMFFIInt) {
    tether_raise("TypeError", "dtype.get_custom_type_code must return an int, got `%s` for `%.*s`",
                 tether_any_type_key(&code), tether__prec(in->text_len), in->text);
    goto fail;
  }
  if (code.v_int64 < TETHER_DTYPE_CUSTOM_BEGIN || code.v_int64 > UINT8_MAX) {
    tether_raise("ValueError",
                 "dtype.get_custom_type_code returned %" PRId64 " for `%.*s`; custom type codes "
                 "are in [%d, 255]",
                 code.v_int64, tether__prec(in->text_len), in->text, TETHER_DTYPE_CUSTOM_BEGIN);
    goto fail;
  }
  out->code = (uint8_t)code.v_int64;
  const char* tail = close + 1;
  rc = tether__parse_bits_lanes(in, tail, (size_t)(in->text + in->text_len - tail), NULL,
                                TETHER_DTYPE_CUSTOM_DEFAULT_BITS, TETHER_BITS_UNLESS_DEFAULT, out);
fail:
  tether_any_release(&name);
  tether_any_release(&code);
  return rc;
}

int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) {
  if (str == NULL || out == NULL || (str->data == NULL && str->size != 0)) {
    return tether_raise("ValueError", "TVMFFIDataTypeFromString: argument `%s` must not be NULL",
                        out == NULL ? "out" : "str");
  }
  tether_dtype_input_t in = {"", 0, str->data, str->size, str->data, str->size, NULL};
  if (in.text_len == 0 || (in.text_len == 4 && memcmp(in.text, "void", 4) == 0)) {
    *out = (DLDataType){kDLOpaqueHandle, 0, 0};
    return 0;
  }
  DLDataType result = {0, 0, 1};
  if (tether__starts_with(in.text, in.text_len, "custom")) {
    if (tether__parse_custom(&in, &result) != 0) return -1;
    *out = result;
    return 0;
  }
  for (size_t i = 0; i < sizeof(tether__dtype_aliases) / sizeof(tether__dtype_aliases[0]); ++i) {
    const tether_dtype_alias_t* a = &tether__dtype_aliases[i];
    size_t m = strlen(a->alias);
    if (!tether__starts_with(in.text, in.text_len, a->alias)) continue;
    if (a->digit_follows && (m >= in.text_len || !tether__is_digit(in.text[m]))) continue;
    in.prefix = a->expansion;
    in.prefix_len = strlen(a->expansion);
    in.rest = in.text + m;
    in.rest_len = in.text_len - m;
    break;
  }
  /* Longest matching name wins: float8_e4m3fnuz over float8_e4m3fn over float8_e4m3. */
  const tether_dtype_name_t* row = NULL;
  ptrdiff_t used = -1;
  for (size_t i = 0; i < TETHER_DTYPE_NUM_NAMES; ++i) {
    ptrdiff_t u = tether__match_name(&in, tether__dtype_names[i].name);
    if (u >= 0 && (row == NULL || strlen(tether__dtype_names[i].name) > strlen(row->name))) {
      row = &tether__dtype_names[i];
      used = u;
    }
  }
  /* Inside a fixed-width family only the family's members are acceptable. */
  for (size_t i = 0; i < sizeof(tether__dtype_families) / sizeof(tether__dtype_families[0]); ++i) {
    if (tether__match_name(&in, tether__dtype_families[i][0]) >= 0) {
      in.family = tether__dtype_families[i][1];
    }
  }
  if (in.family != NULL && row != NULL && row->bits_rule != TETHER_BITS_FIXED) row = NULL;
  if (row == NULL) return tether__raise_unknown(&in);
  result.code = row->code;
  if (tether__parse_bits_lanes(&in, in.rest + used, in.rest_len - (size_t)used, row,
                               row->default_bits, row->bits_rule, &result) != 0) {
    return -1;
  }
  *out = result;
  return 0;
}

/* ---- printing --------------------------------------------------------------------------- */

static const tether_dtype_name_t* tether__dtype_row_of_code(uint8_t code) {
  for (size_t i = 0; i < TETHER_DTYPE_NUM_NAMES; ++i) {
    if (tether__dtype_names[i].code == code) return &tether__dtype_names[i];
  }
  return NULL;
}

/* Writes "<bits><lanes>" for `t` into buf (at least 32 bytes); returns the length. */
static int tether__format_bits_lanes(const DLDataType* t, uint8_t default_bits,
                                     tether_bits_rule_t rule, char* buf, size_t cap) {
  int n = 0;
  bool print_bits = rule == TETHER_BITS_ALWAYS ||
                    (rule == TETHER_BITS_UNLESS_DEFAULT && t->bits != default_bits);
  if (print_bits) n += snprintf(buf + n, cap - (size_t)n, "%u", (unsigned)t->bits);
  /* lanes is read as int16: negative values are scalable vectors of -lanes x vscale.  The
   * fixed-width families have no scalable form, so there every count prints as "x" N (a
   * parsed "float4_e2m1fn_x58102" must print to something that parses back). */
  int lanes = t->lanes >= 32768 && rule != TETHER_BITS_FIXED ? (int)t->lanes - 65536
                                                            : (int)t->lanes;
  if (lanes > 1) {
    n += snprintf(buf + n, cap - (size_t)n, "x%d", lanes);
  } else if (lanes < 0) {
    n += snprintf(buf + n, cap - (size_t)n, "%s%d", tether__scalable_sep, -lanes);
  }
  return n;
}

/* "custom[<name>]" via the global dtype.get_custom_type_name; *out owning string. */
static int tether__format_custom(const DLDataType* t, TVMFFIAny* out) {
  TVMFFIAny code = tether_any_int(t->code);
  TVMFFIAny name = tether_any_none();
  char* buf = NULL;
  int rc = -1;
  TVMFFIByteArray chars;
  if (tether__call_global("dtype.get_custom_type_name", &code, &name) != 0) goto fail;
  if (!tether_any_get_str(&name, &chars)) {
    tether_raise("TypeError", "dtype.get_custom_type_name must return a str, got `%s` for code %u",
                 tether_any_type_key(&name), (unsigned)t->code);
    goto fail;
  }
  size_t cap = chars.size + 48;
  buf = malloc(cap);
  if (buf == NULL) {
    tether_raise("MemoryError", "TVMFFIDataTypeToString: out of memory");
    goto fail;
  }
  memcpy(buf, "custom[", 7);
  memcpy(buf + 7, chars.data, chars.size);
  size_t n = 7 + chars.size;
  buf[n++] = ']';
  n += (size_t)tether__format_bits_lanes(t, TETHER_DTYPE_CUSTOM_DEFAULT_BITS,
                                         TETHER_BITS_UNLESS_DEFAULT, buf + n, cap - n);
  rc = tether_any_str(buf, n, out);
fail:
  free(buf);
  tether_any_release(&name);
  return rc;
}

int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) {
  if (dtype == NULL || out == NULL) {
    return tether_raise("ValueError", "TVMFFIDataTypeToString: argument `%s` must not be NULL",
                        dtype == NULL ? "dtype" : "out");
  }
  DLDataType t = *dtype;
  if (t.code == kDLOpaqueHandle && t.bits == 0 && t.lanes == 0) return tether_any_str("", 0, out);
  if (t.code >= TETHER_DTYPE_CUSTOM_BEGIN) return tether__format_custom(&t, out);
  const tether_dtype_name_t* row = tether__dtype_row_of_code(t.code);
  if (row == NULL) {
    return tether_raise("ValueError", "DLDataType contains unknown type_code=%u", (unsigned)t.code);
  }
  char buf[64];
  size_t n = strlen(row->name);
  memcpy(buf, row->name, n);
  n += (size_t)tether__format_bits_lanes(&t, row->default_bits, row->bits_rule, buf + n,
                                         sizeof(buf) - n);
  return tether_any_str(buf, n, out);
}
