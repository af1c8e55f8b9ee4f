/*
 * bench_tensor.c -- cost of moving tensors across the ABI: DLPack import and release,
 * import -> export -> release round trips (legacy and versioned), unsafe views, and
 * TVMFFIEnvTensorAlloc through a malloc-backed allocator.
 *
 * Uses only the stable ABI (<tvm/ffi/c_api.h>), so the same file builds against tether
 * (as bench_bench_tensor) and against apache-tvm-ffi's libtvm_ffi.so for comparison:
 *   cc -O2 -std=c11 -D_GNU_SOURCE -I<tvm_ffi>/include bench/bench_tensor.c \
 *      -L<tvm_ffi>/lib -ltvm_ffi -Wl,-rpath,<tvm_ffi>/lib -o bench_tensor_ref
 *
 * Usage: bench_tensor [--iters N] [--label NAME] [--only CASE] [--write [PATH] | --append PATH]
 *   --only runs a single case (e.g. under `valgrind --tool=callgrind` to count instructions).
 *   --write overwrites PATH (default bench/results/tensor.md, relative to the current
 *   directory) with a title and a markdown table of the figures; --append adds just the
 *   table (used for the reference build's figures, and by bench/bench_tensor.py).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

static float g_buf[24] __attribute__((aligned(64)));
static int64_t g_shape[3] = {2, 3, 4};
static int64_t g_strides[3] = {12, 4, 1};
static volatile int64_t g_sink;

static void noop_deleter(DLManagedTensor* self) { g_sink += (int64_t)(intptr_t)self->manager_ctx; }
static void noop_deleter_v(DLManagedTensorVersioned* self) {
  g_sink += (int64_t)(intptr_t)self->manager_ctx;
}

/* Thread CPU time: the figures stay meaningful on a machine busy with other work. */
static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char* what) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  fprintf(stderr, "bench_tensor: %s failed\n", what);
  exit(1);
}

static DLTensor make_dl(void) {
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = g_buf;
  t.device.device_type = kDLCPU;
  t.ndim = 3;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = g_shape;
  return t;
}

/* ---- the measured operations (one iteration each) -------------------------------------- */

static void op_from_release(void) {
  DLManagedTensor m = {make_dl(), NULL, noop_deleter};
  TVMFFIObjectHandle t;
  if (TVMFFITensorFromDLPack(&m, 64, 1, &t) != 0) die("TVMFFITensorFromDLPack");
  TVMFFIObjectDecRef(t);
}

static void op_round_trip(void) {
  DLManagedTensor m = {make_dl(), NULL, noop_deleter};
  TVMFFIObjectHandle t;
  DLManagedTensor* out;
  if (TVMFFITensorFromDLPack(&m, 64, 1, &t) != 0) die("TVMFFITensorFromDLPack");
  if (TVMFFITensorToDLPack(t, &out) != 0) die("TVMFFITensorToDLPack");
  TVMFFIObjectDecRef(t);
  out->deleter(out);
}

static void op_round_trip_versioned(void) {
  DLManagedTensorVersioned m;
  memset(&m, 0, sizeof(m));
  m.version.major = DLPACK_MAJOR_VERSION;
  m.deleter = noop_deleter_v;
  m.dl_tensor = make_dl();
  TVMFFIObjectHandle t;
  DLManagedTensorVersioned* out;
  if (TVMFFITensorFromDLPackVersioned(&m, 64, 1, &t) != 0) die("FromDLPackVersioned");
  if (TVMFFITensorToDLPackVersioned(t, &out) != 0) die("ToDLPackVersioned");
  TVMFFIObjectDecRef(t);
  out->deleter(out);
}

static TVMFFIObjectHandle g_source;

static void op_unsafe_view(void) {
  DLTensor proto = make_dl();
  proto.strides = g_strides;
  TVMFFIObjectHandle v;
  if (TVMFFITensorCreateUnsafeView(g_source, &proto, &v) != 0) die("CreateUnsafeView");
  TVMFFIObjectDecRef(v);
}

/* A minimal malloc-backed allocator so that both runtimes measure the same work. */
typedef struct {
  DLManagedTensorVersioned mt;
  int64_t dims[6];
} bench_managed_t;

static void bench_managed_deleter(DLManagedTensorVersioned* self) {
  free(self->dl_tensor.data);
  free(self);
}

static int bench_allocator(DLTensor* proto, DLManagedTensorVersioned** out, void* ctx,
                           void (*SetError)(void*, const char*, const char*)) {
  bench_managed_t* m = malloc(sizeof(*m));
  void* data = NULL;
  if (m == NULL || proto->ndim > 3 || posix_memalign(&data, 64, 24 * sizeof(float)) != 0) {
    free(m);
    SetError(ctx, "MemoryError", "bench allocator failed");
    return -1;
  }
  memset(m, 0, sizeof(*m));
  m->mt.version.major = DLPACK_MAJOR_VERSION;
  m->mt.deleter = bench_managed_deleter;
  m->mt.dl_tensor = *proto;
  m->mt.dl_tensor.data = data;
  m->mt.dl_tensor.shape = m->dims;
  m->mt.dl_tensor.strides = m->dims + 3;
  for (int i = 0; i < proto->ndim; ++i) {
    m->dims[i] = proto->shape[i];
    m->dims[3 + i] = g_strides[i];
  }
  *out = &m->mt;
  return 0;
}

static void op_env_alloc(void) {
  DLTensor proto = make_dl();
  TVMFFIObjectHandle t;
  if (TVMFFIEnvTensorAlloc(&proto, &t) != 0) die("TVMFFIEnvTensorAlloc");
  TVMFFIObjectDecRef(t);
}

/* ---- driver ----------------------------------------------------------------------------- */

typedef struct {
  const char* name;
  const char* what;
  void (*op)(void);
  double ns;
} bench_case_t;

static bench_case_t g_cases[] = {
    {"from_dlpack", "FromDLPack(align 64, contiguous) + DecRef", op_from_release, 0},
    {"round_trip", "FromDLPack + ToDLPack + DecRef + exported deleter", op_round_trip, 0},
    {"round_trip_versioned", "the same with the versioned structs", op_round_trip_versioned, 0},
    {"unsafe_view", "CreateUnsafeView(3-d) + DecRef", op_unsafe_view, 0},
    {"env_tensor_alloc", "EnvTensorAlloc([2,3,4] f32, malloc allocator) + DecRef", op_env_alloc, 0},
};
#define N_CASES (sizeof(g_cases) / sizeof(g_cases[0]))

/* Best of 5 runs of `iters` iterations, in ns per iteration. */
static double measure(void (*op)(void), long iters) {
  double best = 1e300;
  for (long i = 0; i < iters / 10 + 1; ++i) op(); /* warm up */
  for (int rep = 0; rep < 5; ++rep) {
    double t0 = now_ns();
    for (long i = 0; i < iters; ++i) op();
    double per = (now_ns() - t0) / (double)iters;
    if (per < best) best = per;
  }
  return best;
}

static int write_markdown(const char* path, const char* label, long iters, int append) {
  /* make the directory of `path` if it is missing (one level, e.g. bench/results) */
  char dir[1024];
  snprintf(dir, sizeof(dir), "%s", path);
  char* slash = strrchr(dir, '/');
  if (slash != NULL) {
    *slash = '\0';
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
      perror(dir);
      return -1;
    }
  }
  FILE* f = fopen(path, append ? "a" : "w");
  if (f == NULL) {
    perror(path);
    return -1;
  }
  if (!append) {
    fprintf(f, "# Tensor / DLPack benchmark\n\n");
    fprintf(f, "Produced by `bench/bench_tensor.c` (C, stable ABI only) and `bench/bench_tensor.py`.\n"
               "3-d float32 tensor [2, 3, 4]; thread CPU time, best of 5 runs.\n\n");
  }
  fprintf(f, "## C ABI, %s (%ld iterations per run)\n\n", label, iters);
  fprintf(f, "| case | what | ns/op |\n|---|---|---|\n");
  for (size_t i = 0; i < N_CASES; ++i) {
    fprintf(f, "| %s | %s | %.1f |\n", g_cases[i].name, g_cases[i].what, g_cases[i].ns);
  }
  fprintf(f, "\n");
  fclose(f);
  return 0;
}

int main(int argc, char** argv) {
  long iters = 1000000;
  const char* label = "tether";
  const char* write_path = NULL;
  int append = 0;
  const char* only = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc) {
      iters = atol(argv[++i]);
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (strcmp(argv[i], "--label") == 0 && i + 1 < argc) {
      label = argv[++i];
    } else if (strcmp(argv[i], "--write") == 0) {
      write_path = (i + 1 < argc && argv[i + 1][0] != '-') ? argv[++i] : "bench/results/tensor.md";
    } else if (strcmp(argv[i], "--append") == 0 && i + 1 < argc) {
      write_path = argv[++i];
      append = 1;
    } else {
      fprintf(stderr,
              "usage: %s [--iters N] [--label NAME] [--only CASE] [--write [PATH] | --append PATH]\n",
              argv[0]);
      return 2;
    }
  }
  if (iters < 1) iters = 1;

  DLManagedTensor src = {make_dl(), NULL, noop_deleter};
  if (TVMFFITensorFromDLPack(&src, 0, 0, &g_source) != 0) die("TVMFFITensorFromDLPack");
  DLPackManagedTensorAllocator prev = NULL;
  TVMFFIEnvSetDLPackManagedTensorAllocator(bench_allocator, 0, &prev);

  printf("%-22s %10s   (%s, %ld iterations, best of 5)\n", "case", "ns/op", label, iters);
  for (size_t i = 0; i < N_CASES; ++i) {
    if (only != NULL && strcmp(only, g_cases[i].name) != 0) continue;
    g_cases[i].ns = measure(g_cases[i].op, iters);
    printf("%-22s %10.1f\n", g_cases[i].name, g_cases[i].ns);
  }

  TVMFFIEnvSetDLPackManagedTensorAllocator(prev, 0, NULL);
  TVMFFIObjectDecRef(g_source);
  if (write_path != NULL && write_markdown(write_path, label, iters, append) != 0) return 1;
  return 0;
}
