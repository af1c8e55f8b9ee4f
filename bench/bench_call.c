/*
 * bench_call.c -- the cost of a packed call and of a registry lookup.
 *
 *   TVMFFIFunctionCall on a C function with 0 and 3 int arguments, against a direct call
 *   through a volatile function pointer doing the same work; and TVMFFIFunctionGetGlobal
 *   (+ DecRef) by name among 10,000 registered names.  Each figure is the best of 5 runs
 *   (interleaved) of many iterations, timed with clock_gettime(CLOCK_THREAD_CPUTIME_ID)
 *   (CPU time of this thread: time spent preempted on a busy machine does not count).
 *
 * Usage: bench_call [--write [path]]   (default path bench/results/ffi_call.md, relative to
 * the working directory: run it from the repository root to update the checked-in table).
 * Targets: packed call within 1.5x of the indirect call; lookup under 50 ns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <tether/c_api.h>
#include <tether/tether.h>

enum { NUM_NAMES = 10000, RUNS = 5 };
static const long CALL_ITERS = 20000000;
static const long LOOKUP_ITERS = 4000000;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- the work, both ways ------------------------------------------------------------------- */

static int64_t direct0(void) { return 1; }
static int64_t direct3(int64_t a, int64_t b, int64_t c) { return a + b + c; }

static int packed0(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->v_int64 = 1;
  return 0;
}

static int packed3(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n != 3 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt ||
      args[2].type_index != kTVMFFIInt) {
    return tether_check_nargs("packed3", "(0: int, 1: int, 2: int) -> int", n, 3);
  }
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 + args[1].v_int64 + args[2].v_int64;
  return 0;
}

static int64_t (*volatile direct0_ptr)(void) = direct0;
static int64_t (*volatile direct3_ptr)(int64_t, int64_t, int64_t) = direct3;
static volatile int64_t sink;

/* ---- timed loops (each returns ns per operation) --------------------------------------------- */

static double time_direct0(void) {
  int64_t (*fn)(void) = direct0_ptr;
  int64_t acc = 0;
  double t0 = now_ns();
  for (long i = 0; i < CALL_ITERS; ++i) {
    acc += fn();
    fn = direct0_ptr;
  }
  double t1 = now_ns();
  sink = acc;
  return (t1 - t0) / (double)CALL_ITERS;
}

static double time_direct3(void) {
  int64_t acc = 0;
  double t0 = now_ns();
  for (long i = 0; i < CALL_ITERS; ++i) acc += direct3_ptr(i, 2, 3);
  double t1 = now_ns();
  sink = acc;
  return (t1 - t0) / (double)CALL_ITERS;
}

static TVMFFIObjectHandle f0, f3;

static double time_packed0(void) {
  int64_t acc = 0;
  double t0 = now_ns();
  for (long i = 0; i < CALL_ITERS; ++i) {
    TVMFFIAny result = tether_any_none();
    if (TVMFFIFunctionCall(f0, NULL, 0, &result) != 0) abort();
    acc += result.v_int64;
  }
  double t1 = now_ns();
  sink = acc;
  return (t1 - t0) / (double)CALL_ITERS;
}

static double time_packed3(void) {
  int64_t acc = 0;
  double t0 = now_ns();
  for (long i = 0; i < CALL_ITERS; ++i) {
    TVMFFIAny args[3] = {tether_any_int(i), tether_any_int(2), tether_any_int(3)};
    TVMFFIAny result = tether_any_none();
    if (TVMFFIFunctionCall(f3, args, 3, &result) != 0) abort();
    acc += result.v_int64;
  }
  double t1 = now_ns();
  sink = acc;
  return (t1 - t0) / (double)CALL_ITERS;
}

/* What C++ callers compile TVMFFIFunctionCall down to: the cell's safe_call, inlined
 * (no call into libtether).  The gap to time_packed3 is the exported call itself. */
static double time_cell3(void) {
  int64_t acc = 0;
  const TVMFFIFunctionCell* cell = (const TVMFFIFunctionCell*)((char*)f3 + sizeof(TVMFFIObject));
  double t0 = now_ns();
  for (long i = 0; i < CALL_ITERS; ++i) {
    TVMFFIAny args[3] = {tether_any_int(i), tether_any_int(2), tether_any_int(3)};
    TVMFFIAny result = tether_any_none();
    if (cell->safe_call(f3, args, 3, &result) != 0) abort();
    acc += result.v_int64;
  }
  double t1 = now_ns();
  sink = acc;
  return (t1 - t0) / (double)CALL_ITERS;
}

static char names[NUM_NAMES][32];
static TVMFFIByteArray keys[NUM_NAMES];
static int order[NUM_NAMES]; /* a shuffled visiting order, so the lookups are not sequential */

static double time_lookup_cycling(void) {
  int64_t acc = 0;
  double t0 = now_ns();
  for (long i = 0, j = 0; i < LOOKUP_ITERS; ++i) {
    TVMFFIObjectHandle f = NULL;
    if (TVMFFIFunctionGetGlobal(&keys[order[j]], &f) != 0 || f == NULL) abort();
    acc += (int64_t)(intptr_t)f;
    TVMFFIObjectDecRef(f);
    if (++j == NUM_NAMES) j = 0;
  }
  double t1 = now_ns();
  sink = acc;
  return (t1 - t0) / (double)LOOKUP_ITERS;
}

static double time_lookup_hot(void) {
  int64_t acc = 0;
  TVMFFIByteArray key = keys[NUM_NAMES / 2];
  double t0 = now_ns();
  for (long i = 0; i < LOOKUP_ITERS; ++i) {
    TVMFFIObjectHandle f = NULL;
    if (TVMFFIFunctionGetGlobal(&key, &f) != 0 || f == NULL) abort();
    acc += (int64_t)(intptr_t)f;
    TVMFFIObjectDecRef(f);
  }
  double t1 = now_ns();
  sink = acc;
  return (t1 - t0) / (double)LOOKUP_ITERS;
}

static double time_func_get(void) {
  int64_t acc = 0;
  double t0 = now_ns();
  for (long i = 0, j = 0; i < LOOKUP_ITERS; ++i) {
    TVMFFIObjectHandle f = tether_func_get(names[order[j]]);
    if (f == NULL) abort();
    acc += (int64_t)(intptr_t)f;
    TVMFFIObjectDecRef(f);
    if (++j == NUM_NAMES) j = 0;
  }
  double t1 = now_ns();
  sink = acc;
  return (t1 - t0) / (double)LOOKUP_ITERS;
}

/* Runs every benchmark RUNS times, interleaved (so a burst of load on the machine hits
 * all of them alike), keeping each one's best time. */
static void best_of_interleaved(double (*const fns[])(void), double* best, size_t n) {
  for (size_t i = 0; i < n; ++i) best[i] = 1e300;
  for (int r = 0; r < RUNS; ++r) {
    for (size_t i = 0; i < n; ++i) {
      double t = fns[i]();
      if (t < best[i]) best[i] = t;
    }
  }
}

/* ---- setup and report ------------------------------------------------------------------------ */

static int register_names(void) {
  uint64_t rng = 0x2545f4914f6cdd1dull;
  for (int i = 0; i < NUM_NAMES; ++i) {
    snprintf(names[i], sizeof(names[i]), "bench.registry.fn_%05d", i);
    keys[i] = (TVMFFIByteArray){names[i], strlen(names[i])};
    if (TVMFFIFunctionSetGlobal(&keys[i], f0, 0) != 0) return -1;
    order[i] = i;
  }
  for (int i = NUM_NAMES - 1; i > 0; --i) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    int j = (int)(rng % (uint64_t)(i + 1));
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  return 0;
}

static void unregister_names(void) {
  TVMFFIObjectHandle rm = tether_func_get("ffi.FunctionRemoveGlobal");
  if (rm == NULL) return;
  for (int i = 0; i < NUM_NAMES; ++i) {
    TVMFFIAny arg = tether_any_raw_str(names[i]);
    TVMFFIAny result;
    tether_func_call(rm, &arg, 1, &result);
  }
  TVMFFIObjectDecRef(rm);
}

typedef struct {
  const char* what;
  double ns;
  double baseline; /* 0: no ratio */
  const char* target;
} row_t;

static void print_table(FILE* out, const row_t* rows, size_t n) {
  fprintf(out, "| benchmark | ns/op | ratio | target |\n|---|---:|---:|---|\n");
  for (size_t i = 0; i < n; ++i) {
    if (rows[i].baseline > 0) {
      fprintf(out, "| %s | %.2f | %.2fx | %s |\n", rows[i].what, rows[i].ns,
              rows[i].ns / rows[i].baseline, rows[i].target);
    } else {
      fprintf(out, "| %s | %.2f | | %s |\n", rows[i].what, rows[i].ns, rows[i].target);
    }
  }
}

static int write_results(const char* path, const row_t* rows, size_t n) {
  char dir[512];
  snprintf(dir, sizeof(dir), "%s", path);
  char* slash = strrchr(dir, '/');
  if (slash != NULL) {
    *slash = '\0';
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
      fprintf(stderr, "bench_call: cannot create %s: %s\n", dir, strerror(errno));
      return -1;
    }
  }
  FILE* out = fopen(path, "w");
  if (out == NULL) {
    fprintf(stderr, "bench_call: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  fprintf(out, "# Packed call and registry lookup (bench/bench_call.c)\n\n"
               "Best of %d interleaved runs, CPU time of the benchmark thread; %ld calls / %ld "
               "lookups per run; the lookup table holds %d extra names.\n"
               "Ratios are against the indirect call doing the same work.\n\n",
          RUNS, CALL_ITERS, LOOKUP_ITERS, NUM_NAMES);
  print_table(out, rows, n);
  fclose(out);
  printf("wrote %s\n", path);
  return 0;
}

int main(int argc, char** argv) {
  const char* write_path = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--write") == 0) {
      write_path = "bench/results/ffi_call.md";
      if (i + 1 < argc && argv[i + 1][0] != '-') write_path = argv[++i];
    } else {
      fprintf(stderr, "usage: %s [--write [path]]\n", argv[0]);
      return 2;
    }
  }
  if (TVMFFIFunctionCreate(NULL, packed0, NULL, &f0) != 0 ||
      TVMFFIFunctionCreate(NULL, packed3, NULL, &f3) != 0 || register_names() != 0) {
    fprintf(stderr, "bench_call: setup failed\n");
    return 1;
  }
  double (*const fns[])(void) = {time_direct0,        time_packed0,    time_direct3,
                                 time_packed3,        time_cell3,      time_lookup_cycling,
                                 time_lookup_hot,     time_func_get};
  double best[sizeof(fns) / sizeof(fns[0])];
  best_of_interleaved(fns, best, sizeof(fns) / sizeof(fns[0]));
  double d0 = best[0], p0 = best[1], d3 = best[2], p3 = best[3];
  double cell3 = best[4], lookup = best[5], hot = best[6], get = best[7];
  const row_t rows[] = {
      {"indirect call, 0 args (volatile fn ptr)", d0, 0, ""},
      {"TVMFFIFunctionCall, 0 args", p0, d0, "<= 1.5x"},
      {"indirect call, 3 int args (volatile fn ptr)", d3, 0, ""},
      {"TVMFFIFunctionCall, 3 int args", p3, d3, "<= 1.5x"},
      {"cell->safe_call inlined (as C++ calls it), 3 int args", cell3, d3, ""},
      {"TVMFFIFunctionGetGlobal + DecRef, 10,000 names, shuffled", lookup, 0, "< 50 ns"},
      {"TVMFFIFunctionGetGlobal + DecRef, one hot name", hot, 0, "< 50 ns"},
      {"tether_func_get + DecRef, 10,000 names, shuffled", get, 0, ""},
  };
  size_t n = sizeof(rows) / sizeof(rows[0]);
  print_table(stdout, rows, n);
  unregister_names();
  TVMFFIObjectDecRef(f0);
  TVMFFIObjectDecRef(f3);
  if (write_path != NULL && write_results(write_path, rows, n) != 0) return 1;
  return 0;
}
