/*
 * bench_containers.c -- container throughput of libtether: Array build and indexing of
 * 1M ints, Map/Dict insert and lookup of 1M string keys, directly through the C API
 * (<tether/container.h>) and through the ffi.* globals that code built against tvm-ffi
 * uses.  bench_containers.py runs this binary next to CPython list/dict and numpy doing
 * the same work and writes the combined table to bench/results/containers.md.
 *
 * Usage: bench_bench_containers [--n N] [--repeat R] [--machine]
 *   --machine prints one "RESULT <case> <ns per element>" line per case (for the script).
 * Each case is timed R times (default 5); the best run is reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tether/container.h>
#include <tether/tether.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char* what) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) {
    TVMFFIByteArray msg = tether_error_message(err);
    fprintf(stderr, "bench_containers: %s failed: %.*s\n", what, (int)msg.size, msg.data);
  } else {
    fprintf(stderr, "bench_containers: %s failed\n", what);
  }
  exit(1);
}

typedef struct {
  int64_t n;
  TVMFFIAny* ints;       /* views 0..n-1 */
  TVMFFIAny* keys;       /* owned strings "key-0000000".. (heap Str, 11 bytes) */
  TVMFFIAny* probes;     /* equal but distinct string objects, shuffled */
  TVMFFIObjectHandle array;
  TVMFFIObjectHandle dict;
  TVMFFIObjectHandle f_get_item, f_map_get_item;
  int64_t checksum;
} bench_t;

/* ---- cases: each runs once over n elements ------------------------------------------ */

static void case_array_append(bench_t* b) {
  TVMFFIObjectHandle arr = NULL;
  if (tether_array_new(NULL, 0, &arr) != 0) die("tether_array_new");
  for (int64_t i = 0; i < b->n; ++i) {
    if (tether_array_append(&arr, &b->ints[i]) != 0) die("tether_array_append");
  }
  b->checksum += tether_array_size(arr);
  TVMFFIObjectDecRef(arr);
}

static void case_array_new_bulk(bench_t* b) {
  TVMFFIObjectHandle arr = NULL;
  if (tether_array_new(b->ints, b->n, &arr) != 0) die("tether_array_new");
  b->checksum += tether_array_size(arr);
  TVMFFIObjectDecRef(arr);
}

static void case_array_index(bench_t* b) {
  int64_t sum = 0;
  for (int64_t i = 0; i < b->n; ++i) sum += tether_array_at(b->array, i)->v_int64;
  b->checksum += sum;
}

static void case_array_index_seqcell(bench_t* b) {
  /* What a C kernel compiled against c_api.h does: read the SeqCell directly. */
  const TVMFFISeqCell* cell = (const TVMFFISeqCell*)((char*)b->array + sizeof(TVMFFIObject));
  const TVMFFIAny* items = cell->data;
  int64_t sum = 0;
  for (int64_t i = 0; i < cell->size; ++i) sum += items[i].v_int64;
  b->checksum += sum;
}

static void case_array_getitem_ffi(bench_t* b) {
  TVMFFIAny args[2] = {tether_any_object(b->array), tether_any_none()};
  int64_t sum = 0;
  for (int64_t i = 0; i < b->n; ++i) {
    TVMFFIAny r = tether_any_none();
    args[1] = tether_any_int(i);
    if (TVMFFIFunctionCall(b->f_get_item, args, 2, &r) != 0) die("ffi.ArrayGetItem");
    sum += r.v_int64;
  }
  b->checksum += sum;
}

static void case_dict_insert(bench_t* b) {
  TVMFFIObjectHandle d = NULL;
  if (tether_dict_new(NULL, 0, &d) != 0) die("tether_dict_new");
  for (int64_t i = 0; i < b->n; ++i) {
    if (tether_dict_set(d, &b->keys[i], &b->ints[i]) != 0) die("tether_dict_set");
  }
  b->checksum += tether_map_size(d);
  TVMFFIObjectDecRef(d);
}

static void case_map_insert_cow(bench_t* b) {
  /* A Map held by one owner: tether_map_set writes in place (no copies). */
  TVMFFIObjectHandle m = NULL;
  if (tether_map_new(NULL, 0, &m) != 0) die("tether_map_new");
  for (int64_t i = 0; i < b->n; ++i) {
    if (tether_map_set(&m, &b->keys[i], &b->ints[i]) != 0) die("tether_map_set");
  }
  b->checksum += tether_map_size(m);
  TVMFFIObjectDecRef(m);
}

static void case_map_lookup(bench_t* b) {
  int64_t sum = 0;
  for (int64_t i = 0; i < b->n; ++i) {
    const TVMFFIAny* v = tether_map_find(b->dict, &b->probes[i]);
    if (v == NULL) die("tether_map_find");
    sum += v->v_int64;
  }
  b->checksum += sum;
}

static void case_map_getitem_ffi(bench_t* b) {
  TVMFFIAny args[2] = {tether_any_object(b->dict), tether_any_none()};
  int64_t sum = 0;
  for (int64_t i = 0; i < b->n; ++i) {
    TVMFFIAny r = tether_any_none();
    args[1] = b->probes[i];
    if (TVMFFIFunctionCall(b->f_map_get_item, args, 2, &r) != 0) die("ffi.DictGetItem");
    sum += r.v_int64;
  }
  b->checksum += sum;
}

typedef struct {
  const char* name;
  const char* what;
  void (*run)(bench_t*);
  double ns;
} bench_case_t;

static bench_case_t g_cases[] = {
    {"array_append", "build: tether_array_append x N (copy-on-write, sole owner)",
     case_array_append, 0},
    {"array_new_bulk", "build: tether_array_new from N int views", case_array_new_bulk, 0},
    {"array_index", "index: tether_array_at, sum of N ints", case_array_index, 0},
    {"array_index_seqcell", "index: TVMFFISeqCell read, sum of N ints",
     case_array_index_seqcell, 0},
    {"array_getitem_ffi", "index: ffi.ArrayGetItem via TVMFFIFunctionCall",
     case_array_getitem_ffi, 0},
    {"dict_insert", "insert: tether_dict_set, N string keys", case_dict_insert, 0},
    {"map_insert_cow", "insert: tether_map_set, N string keys", case_map_insert_cow, 0},
    {"map_lookup", "lookup: tether_map_find, N equal-not-identical keys", case_map_lookup, 0},
    {"map_getitem_ffi", "lookup: ffi.DictGetItem via TVMFFIFunctionCall", case_map_getitem_ffi, 0},
};

int main(int argc, char** argv) {
  int64_t n = 1000000;
  int repeat = 5;
  int machine = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
      n = atoll(argv[++i]);
    } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--machine") == 0) {
      machine = 1;
    } else {
      fprintf(stderr, "usage: %s [--n N] [--repeat R] [--machine]\n", argv[0]);
      return 2;
    }
  }
  if (n <= 0 || repeat <= 0) return 2;

  bench_t b = {0};
  b.n = n;
  b.ints = malloc((size_t)n * sizeof(TVMFFIAny));
  b.keys = malloc((size_t)n * sizeof(TVMFFIAny));
  b.probes = malloc((size_t)n * sizeof(TVMFFIAny));
  if (b.ints == NULL || b.keys == NULL || b.probes == NULL) die("malloc");
  char buf[32];
  for (int64_t i = 0; i < n; ++i) {
    b.ints[i] = tether_any_int(i);
    int len = snprintf(buf, sizeof(buf), "key-%07lld", (long long)i);
    if (tether_any_str(buf, (size_t)len, &b.keys[i]) != 0) die("tether_any_str");
  }
  /* Probes: fresh string objects in a shuffled order (xorshift, fixed seed). */
  uint64_t state = 88172645463325252ull;
  int64_t* order = malloc((size_t)n * sizeof(int64_t));
  if (order == NULL) die("malloc");
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  for (int64_t i = n - 1; i > 0; --i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    int64_t j = (int64_t)(state % (uint64_t)(i + 1));
    int64_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (int64_t i = 0; i < n; ++i) {
    int len = snprintf(buf, sizeof(buf), "key-%07lld", (long long)order[i]);
    if (tether_any_str(buf, (size_t)len, &b.probes[i]) != 0) die("tether_any_str");
  }
  free(order);
  if (tether_array_new(b.ints, n, &b.array) != 0) die("tether_array_new");
  if (tether_dict_new(NULL, 0, &b.dict) != 0) die("tether_dict_new");
  for (int64_t i = 0; i < n; ++i) {
    if (tether_dict_set(b.dict, &b.keys[i], &b.ints[i]) != 0) die("tether_dict_set");
  }
  b.f_get_item = tether_func_get("ffi.ArrayGetItem");
  b.f_map_get_item = tether_func_get("ffi.DictGetItem");
  if (b.f_get_item == NULL || b.f_map_get_item == NULL) die("tether_func_get");

  size_t ncases = sizeof(g_cases) / sizeof(g_cases[0]);
  for (size_t c = 0; c < ncases; ++c) {
    double best = 1e30;
    for (int r = 0; r < repeat; ++r) {
      double t0 = now_s();
      g_cases[c].run(&b);
      double dt = now_s() - t0;
      if (dt < best) best = dt;
    }
    g_cases[c].ns = best / (double)n * 1e9;
  }

  if (machine) {
    for (size_t c = 0; c < ncases; ++c) printf("RESULT %s %.3f\n", g_cases[c].name, g_cases[c].ns);
    printf("N %lld\nREPEAT %d\nCHECKSUM %lld\n", (long long)n, repeat, (long long)b.checksum);
  } else {
    printf("%-20s %10s   %s (N = %lld, best of %d)\n", "case", "ns/elem", "what", (long long)n,
           repeat);
    for (size_t c = 0; c < ncases; ++c) {
      printf("%-20s %10.2f   %s\n", g_cases[c].name, g_cases[c].ns, g_cases[c].what);
    }
  }

  for (int64_t i = 0; i < n; ++i) {
    tether_any_release(&b.keys[i]);
    tether_any_release(&b.probes[i]);
  }
  TVMFFIObjectDecRef(b.f_get_item);
  TVMFFIObjectDecRef(b.f_map_get_item);
  TVMFFIObjectDecRef(b.array);
  TVMFFIObjectDecRef(b.dict);
  free(b.ints);
  free(b.keys);
  free(b.probes);
  return 0;
}
