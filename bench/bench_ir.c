/*
 * bench_ir.c -- libtether_ir (the Relax IR) as a binding drives it, next to apache-tvm.
 *
 * Every IR operation goes through the FFI globals with TVMFFIFunctionCall, exactly as a
 * Python binding would reach them (libtether_ir is dlopened, so its load-time constructor
 * registers the globals; nothing here calls a trx_ function directly):
 *
 *   conv2d      one seed Call per call: relax.op.nn.conv2d(data, weight, (1, 1), (0, 0, 0, 0),
 *               (1, 1), 1, "NCHW", "OIHW", None, None), with the tuples built once;
 *   conv2d+conv the same, building the three int tuples as ffi.Arrays per call (what a
 *               binding converting Python tuples does);
 *   chain       a BlockBuilder building main(x, w) with one dataflow block of 10,000 ops
 *               cycling conv2d(cur, w, padding=(1, 1)), nn.relu(cur), add(cur, x), then
 *               emit_output and emit_func_output; then ir.Print of the module, and
 *               ir.StructuralHash of the module;
 *   memory      10,000 seed conv2d Calls held alive: malloc'd bytes (mallinfo2 uordblks +
 *               hblkhd) and live FFI objects (tether_object_live_count) per Call.
 *
 * Times are thread CPU time (CLOCK_THREAD_CPUTIME_ID), best of 5 runs (chain: best of 3).
 * With --tvm-python PY the same work runs in apache-tvm under PY in the same invocation
 * (the script is TVM_SCRIPT below; per-call figures from Python include its call overhead,
 * TVM's BlockBuilder is its Python class over the C++ one, as users drive it), and the
 * printed module texts are compared byte for byte.
 *
 * Usage: bench_ir [--lib PATH] [--tvm-python PY] [--only CASE] [--write [PATH]]
 *   --lib      libtether_ir.so (default: ../libtether_ir.so next to this binary's directory)
 *   --only     conv2d | conv2d_conv | chain | memory (for callgrind / perf; skips TVM)
 *   --write    also writes the table (default bench/results/ir.md; run from the repo root)
 */
#include <dlfcn.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tether/c_api.h>
#include <tether/container.h>
#include <tether/tether.h>

enum { RUNS = 5, CHAIN_RUNS = 3, CHAIN_OPS = 10000, MEM_CALLS = 10000 };
static const long CALL_ITERS = 200000;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- FFI helpers (abort on any error: a benchmark has no error path) -------------------------- */

static void die_raised(const char* what) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIByteArray msg = err ? tether_error_message(err) : (TVMFFIByteArray){"?", 1};
  fprintf(stderr, "bench_ir: %s failed: %.*s\n", what, (int)msg.size, msg.data);
  exit(1);
}

static TVMFFIObjectHandle global(const char* name) {
  TVMFFIObjectHandle f = tether_func_get(name);
  if (f == NULL) {
    fprintf(stderr, "bench_ir: global %s is not registered\n", name);
    exit(1);
  }
  return f;
}

/* Calls f; the result is returned (owned by the caller). */
static TVMFFIAny call(TVMFFIObjectHandle f, const TVMFFIAny* args, int n, const char* what) {
  TVMFFIAny rv = tether_any_none();
  if (TVMFFIFunctionCall(f, (TVMFFIAny*)args, n, &rv) != 0) die_raised(what);
  return rv;
}

static TVMFFIAny str_any(const char* s) {
  TVMFFIAny v;
  if (tether_any_str(s, strlen(s), &v) != 0) die_raised("tether_any_str");
  return v;
}

static TVMFFIAny int_array(const int64_t* xs, int n) {
  TVMFFIAny items[8];
  for (int i = 0; i < n; ++i) items[i] = tether_any_int(xs[i]);
  TVMFFIObjectHandle arr = NULL;
  if (tether_array_new(items, n, &arr) != 0) die_raised("tether_array_new");
  return tether_any_object(arr);
}

static size_t heap_bytes(void) {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

/* ---- the IR globals ---------------------------------------------------------------------------- */

static TVMFFIObjectHandle g_var, g_tensor_type, g_conv2d, g_relu, g_add, g_bb_create, g_bb_begin_fn,
    g_bb_begin_df, g_bb_end_df, g_bb_emit, g_bb_emit_output, g_bb_emit_func_output, g_bb_end_fn,
    g_bb_get, g_print, g_hash;

static void load_globals(void) {
  g_var = global("ir.Var");
  g_tensor_type = global("relax.TensorType");
  g_conv2d = global("relax.op.nn.conv2d");
  g_relu = global("relax.op.nn.relu");
  g_add = global("relax.op.add");
  g_bb_create = global("relax.BlockBuilderCreate");
  g_bb_begin_fn = global("relax.BlockBuilderBeginFunction");
  g_bb_begin_df = global("relax.BlockBuilderBeginDataflow");
  g_bb_end_df = global("relax.BlockBuilderEndDataflow");
  g_bb_emit = global("relax.BlockBuilderEmit");
  g_bb_emit_output = global("relax.BlockBuilderEmitOutput");
  g_bb_emit_func_output = global("relax.BlockBuilderEmitFuncOutput");
  g_bb_end_fn = global("relax.BlockBuilderEndFunctionWithoutOutput");
  g_bb_get = global("relax.BlockBuilderGetModule");
  g_print = global("ir.Print");
  g_hash = global("ir.StructuralHash");
}

static void free_globals(void) {
  TVMFFIObjectHandle* all[] = {&g_var, &g_tensor_type, &g_conv2d, &g_relu, &g_add, &g_bb_create,
                               &g_bb_begin_fn, &g_bb_begin_df, &g_bb_end_df, &g_bb_emit,
                               &g_bb_emit_output, &g_bb_emit_func_output, &g_bb_end_fn, &g_bb_get,
                               &g_print, &g_hash};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) TVMFFIObjectDecRef(*all[i]);
}

/* relax.Var(name, relax.TensorType(shape, "float32")) */
static TVMFFIAny tensor_var(const char* name, const int64_t* shape, int ndim) {
  TVMFFIAny ta[2] = {int_array(shape, ndim), str_any("float32")};
  TVMFFIAny ty = call(g_tensor_type, ta, 2, "relax.TensorType");
  TVMFFIAny va[2] = {str_any(name), ty};
  TVMFFIAny v = call(g_var, va, 2, "ir.Var");
  for (int i = 0; i < 2; ++i) tether_any_release(&ta[i]), tether_any_release(&va[i]);
  return v;
}

/* ---- conv2d per call ------------------------------------------------------------------------------ */

static const int64_t ONE2[2] = {1, 1}, ZERO4[4] = {0, 0, 0, 0};
static const int64_t SEED_DATA[4] = {1, 3, 224, 224}, SEED_WEIGHT[4] = {16, 3, 3, 3};

typedef struct {
  TVMFFIAny args[10]; /* data, weight, strides, padding, dilation, groups, layouts, None, None */
} seed_args_t;

static void seed_args_init(seed_args_t* s) {
  s->args[0] = tensor_var("data", SEED_DATA, 4);
  s->args[1] = tensor_var("weight", SEED_WEIGHT, 4);
  s->args[2] = int_array(ONE2, 2);
  s->args[3] = int_array(ZERO4, 4);
  s->args[4] = int_array(ONE2, 2);
  s->args[5] = tether_any_int(1);
  s->args[6] = str_any("NCHW");
  s->args[7] = str_any("OIHW");
  s->args[8] = tether_any_none();
  s->args[9] = tether_any_none();
}

static void seed_args_fini(seed_args_t* s) {
  for (int i = 0; i < 10; ++i) tether_any_release(&s->args[i]);
}

/* Seconds per Call; convert_tuples rebuilds strides/padding/dilation each call. */
static double time_conv2d(seed_args_t* s, long iters, int convert_tuples) {
  double t0 = now_s();
  for (long i = 0; i < iters; ++i) {
    TVMFFIAny a[10];
    memcpy(a, s->args, sizeof(a));
    if (convert_tuples) {
      a[2] = int_array(ONE2, 2);
      a[3] = int_array(ZERO4, 4);
      a[4] = int_array(ONE2, 2);
    }
    TVMFFIAny rv = call(g_conv2d, a, 10, "relax.op.nn.conv2d");
    tether_any_release(&rv);
    if (convert_tuples) {
      for (int j = 2; j < 5; ++j) tether_any_release(&a[j]);
    }
  }
  return (now_s() - t0) / (double)iters;
}

/* ---- the 10k chain ---------------------------------------------------------------------------------- */

typedef struct {
  double build, print, hash;
  size_t text_bytes;
  char* text; /* malloc'd copy of the printed module */
} chain_result_t;

static void any_text(const TVMFFIAny* v, TVMFFIByteArray* out) {
  if (!tether_any_get_str(v, out)) {
    fprintf(stderr, "bench_ir: ir.Print did not return a str\n");
    exit(1);
  }
}

static chain_result_t run_chain(int nops) {
  static const int64_t X[4] = {1, 16, 32, 32}, W[4] = {16, 16, 3, 3};
  chain_result_t r = {0};
  TVMFFIAny x = tensor_var("x", X, 4), w = tensor_var("w", W, 4);
  TVMFFIAny conv_tail[8] = {int_array(ONE2, 2), int_array(ONE2, 2), int_array(ONE2, 2),
                            tether_any_int(1),  str_any("NCHW"),    str_any("OIHW"),
                            tether_any_none(),  tether_any_none()};
  TVMFFIAny main_name = str_any("main"), empty = str_any("");

  double t0 = now_s();
  TVMFFIAny bb = call(g_bb_create, NULL, 0, "BlockBuilderCreate");
  TVMFFIAny pv[2] = {x, w};
  TVMFFIObjectHandle params = NULL;
  if (tether_array_new(pv, 2, &params) != 0) die_raised("tether_array_new");
  TVMFFIAny bf[6] = {bb, main_name, tether_any_object(params), tether_any_none(),
                     tether_any_bool(true), tether_any_bool(false)};
  TVMFFIAny rv = call(g_bb_begin_fn, bf, 6, "BlockBuilderBeginFunction");
  rv = call(g_bb_begin_df, &bb, 1, "BlockBuilderBeginDataflow");
  TVMFFIAny cur;
  tether_any_copy(&x, &cur);
  for (int i = 0; i < nops; ++i) {
    TVMFFIAny e;
    switch (i % 3) {
      case 0: {
        TVMFFIAny a[10] = {cur, w};
        memcpy(a + 2, conv_tail, sizeof(conv_tail));
        e = call(g_conv2d, a, 10, "relax.op.nn.conv2d");
        break;
      }
      case 1:
        e = call(g_relu, &cur, 1, "relax.op.nn.relu");
        break;
      default: {
        TVMFFIAny a[2] = {cur, x};
        e = call(g_add, a, 2, "relax.op.add");
      }
    }
    TVMFFIAny ea[3] = {bb, e, empty};
    TVMFFIAny v = call(g_bb_emit, ea, 3, "BlockBuilderEmit");
    tether_any_release(&e);
    tether_any_release(&cur);
    cur = v;
  }
  TVMFFIAny ea[3] = {bb, cur, empty};
  TVMFFIAny out = call(g_bb_emit_output, ea, 3, "BlockBuilderEmitOutput");
  rv = call(g_bb_end_df, &bb, 1, "BlockBuilderEndDataflow");
  TVMFFIAny fa[2] = {bb, out};
  TVMFFIAny gv = call(g_bb_emit_func_output, fa, 2, "BlockBuilderEmitFuncOutput");
  TVMFFIAny ef[2] = {bb, tether_any_bool(false)};
  rv = call(g_bb_end_fn, ef, 2, "BlockBuilderEndFunctionWithoutOutput");
  TVMFFIAny mod = call(g_bb_get, &bb, 1, "BlockBuilderGetModule");
  double t1 = now_s();
  TVMFFIAny text = call(g_print, &mod, 1, "ir.Print");
  double t2 = now_s();
  TVMFFIAny h = call(g_hash, &mod, 1, "ir.StructuralHash");
  double t3 = now_s();
  (void)rv;

  TVMFFIByteArray s;
  any_text(&text, &s);
  r.build = t1 - t0;
  r.print = t2 - t1;
  r.hash = t3 - t2;
  r.text_bytes = s.size;
  r.text = malloc(s.size + 1);
  memcpy(r.text, s.data, s.size);
  r.text[s.size] = '\0';

  TVMFFIAny* owned[] = {&x, &w, &main_name, &empty, &bb, &cur, &out, &gv, &mod, &text, &h};
  for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); ++i) tether_any_release(owned[i]);
  for (int i = 0; i < 8; ++i) tether_any_release(&conv_tail[i]);
  TVMFFIObjectDecRef(params);
  return r;
}

/* ---- memory per Call ------------------------------------------------------------------------------- */

typedef struct {
  double bytes, objects;
} mem_result_t;

static mem_result_t measure_memory(seed_args_t* s) {
  static TVMFFIAny calls[MEM_CALLS];
  /* warm up the allocator's free lists with a first batch, so the figure is steady state */
  for (int i = 0; i < MEM_CALLS; ++i) calls[i] = call(g_conv2d, s->args, 10, "relax.op.nn.conv2d");
  for (int i = 0; i < MEM_CALLS; ++i) tether_any_release(&calls[i]);
  malloc_trim(0);
  size_t h0 = heap_bytes();
  int64_t o0 = tether_object_live_count();
  for (int i = 0; i < MEM_CALLS; ++i) calls[i] = call(g_conv2d, s->args, 10, "relax.op.nn.conv2d");
  size_t h1 = heap_bytes();
  int64_t o1 = tether_object_live_count();
  for (int i = 0; i < MEM_CALLS; ++i) tether_any_release(&calls[i]);
  mem_result_t r = {(double)(h1 - h0) / MEM_CALLS, (double)(o1 - o0) / MEM_CALLS};
  return r;
}

/* ---- apache-tvm, the same work from Python ------------------------------------------------------------ */

static const char TVM_SCRIPT[] =
    "import ctypes, gc, sys, time\n"
    "import tvm, tvm_ffi\n"
    "from tvm import relax\n"
    "libc = ctypes.CDLL('libc.so.6')\n"
    "class MI2(ctypes.Structure):\n"
    "    _fields_ = [(n, ctypes.c_size_t) for n in 'arena ordblks smblks hblks hblkhd usmblks "
    "fsmblks uordblks fordblks keepcost'.split()]\n"
    "libc.mallinfo2.restype = MI2\n"
    "def heap():\n"
    "    m = libc.mallinfo2(); return m.uordblks + m.hblkhd\n"
    "T = time.thread_time\n"
    "gc.disable()\n"
    "print('version', tvm.__version__)\n"
    "conv2d_cpp = tvm.get_global_func('relax.op.nn.conv2d')\n"
    "data = relax.Var('data', relax.TensorType([1, 3, 224, 224], 'float32'))\n"
    "weight = relax.Var('weight', relax.TensorType([16, 3, 3, 3], 'float32'))\n"
    "def per_call(n):\n"
    "    f = conv2d_cpp; t = T()\n"
    "    for _ in range(n):\n"
    "        f(data, weight, (1, 1), (0, 0, 0, 0), (1, 1), 1, 'NCHW', 'OIHW', None, None)\n"
    "    return (T() - t) / n\n"
    "print('conv2d', min(per_call(20000) for _ in range(5)))\n"
    "def chain(n):\n"
    "    t0 = T()\n"
    "    bb = relax.BlockBuilder()\n"
    "    x = relax.Var('x', relax.TensorType([1, 16, 32, 32], 'float32'))\n"
    "    w = relax.Var('w', relax.TensorType([16, 16, 3, 3], 'float32'))\n"
    "    with bb.function('main', [x, w]):\n"
    "        with bb.dataflow():\n"
    "            cur = x\n"
    "            for i in range(n):\n"
    "                k = i % 3\n"
    "                if k == 0: cur = bb.emit(relax.op.nn.conv2d(cur, w, padding=(1, 1)))\n"
    "                elif k == 1: cur = bb.emit(relax.op.nn.relu(cur))\n"
    "                else: cur = bb.emit(relax.op.add(cur, x))\n"
    "            out = bb.emit_output(cur)\n"
    "        bb.emit_func_output(out)\n"
    "    mod = bb.get()\n"
    "    t1 = T(); s = str(mod); t2 = T(); tvm_ffi.structural_hash(mod); t3 = T()\n"
    "    return t1 - t0, t2 - t1, t3 - t2, s\n"
    "runs = [chain(int(sys.argv[1])) for _ in range(int(sys.argv[2]))]\n"
    "print('chain_build', min(r[0] for r in runs))\n"
    "print('chain_print', min(r[1] for r in runs))\n"
    "print('chain_hash', min(r[2] for r in runs))\n"
    "open(sys.argv[3], 'w').write(runs[0][3])\n"
    "del runs; gc.collect()\n"
    "N = 10000\n"
    "calls = [conv2d_cpp(data, weight, (1, 1), (0, 0, 0, 0), (1, 1), 1, 'NCHW', 'OIHW', None, None) "
    "for _ in range(N)]\n"
    "del calls; gc.collect()\n"
    "h0 = heap()\n"
    "calls = [conv2d_cpp(data, weight, (1, 1), (0, 0, 0, 0), (1, 1), 1, 'NCHW', 'OIHW', None, None) "
    "for _ in range(N)]\n"
    "arr = tvm_ffi.convert(calls); del calls; gc.collect()\n"
    "print('mem_bytes', (heap() - h0) / N)\n";

typedef struct {
  int ok;
  char version[64];
  double conv2d, build, print, hash, mem_bytes;
  char* text;
} tvm_result_t;

static char* read_file(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* s = malloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, f);
  s[got] = '\0';
  fclose(f);
  return s;
}

static tvm_result_t run_tvm(const char* python) {
  tvm_result_t r = {0};
  char script[] = "/tmp/bench_ir_tvm_XXXXXX.py", text[] = "/tmp/bench_ir_tvm_XXXXXX.txt";
  int fd = mkstemps(script, 3), fd2 = mkstemps(text, 4);
  if (fd < 0 || fd2 < 0) return r;
  if (write(fd, TVM_SCRIPT, sizeof(TVM_SCRIPT) - 1) != (ssize_t)(sizeof(TVM_SCRIPT) - 1)) return r;
  close(fd);
  close(fd2);
  char cmd[PATH_MAX * 3];
  snprintf(cmd, sizeof(cmd), "'%s' %s %d %d %s", python, script, CHAIN_OPS, CHAIN_RUNS, text);
  FILE* p = popen(cmd, "r");
  if (p != NULL) {
    char line[256], key[64], val[128];
    int got = 0;
    while (fgets(line, sizeof(line), p)) {
      if (sscanf(line, "%63s %127s", key, val) != 2) continue;
      if (!strcmp(key, "version")) snprintf(r.version, sizeof(r.version), "%.60s", val), ++got;
      if (!strcmp(key, "conv2d")) r.conv2d = atof(val), ++got;
      if (!strcmp(key, "chain_build")) r.build = atof(val), ++got;
      if (!strcmp(key, "chain_print")) r.print = atof(val), ++got;
      if (!strcmp(key, "chain_hash")) r.hash = atof(val), ++got;
      if (!strcmp(key, "mem_bytes")) r.mem_bytes = atof(val), ++got;
    }
    r.ok = pclose(p) == 0 && got == 6;
    if (r.ok) r.text = read_file(text);
  }
  unlink(script);
  unlink(text);
  return r;
}

/* ---- driver ---------------------------------------------------------------------------------------- */

static void default_lib(char* out, size_t n) {
  char exe[PATH_MAX - 32];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (len <= 0) len = 0;
  exe[len] = '\0';
  char* slash = strrchr(exe, '/');
  if (slash) *slash = '\0';
  snprintf(out, n, "%s/../libtether_ir.so", exe);
}

static void ratio(char* buf, size_t n, double tvm, double ours) {
  if (tvm > 0 && ours > 0) snprintf(buf, n, "%.1fx", tvm / ours);
  else snprintf(buf, n, "-");
}

int main(int argc, char** argv) {
  char lib[PATH_MAX];
  const char *only = NULL, *python = NULL, *out_path = NULL;
  default_lib(lib, sizeof(lib));
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--lib") && i + 1 < argc) snprintf(lib, sizeof(lib), "%s", argv[++i]);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!strcmp(argv[i], "--tvm-python") && i + 1 < argc) python = argv[++i];
    else if (!strcmp(argv[i], "--write")) {
      out_path = (i + 1 < argc && argv[i + 1][0] != '-') ? argv[++i] : "bench/results/ir.md";
    } else {
      fprintf(stderr, "usage: %s [--lib PATH] [--tvm-python PY] [--only CASE] [--write [PATH]]\n",
              argv[0]);
      return 2;
    }
  }
  void* ir = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
  if (ir == NULL) {
    fprintf(stderr, "bench_ir: cannot load %s: %s\n", lib, dlerror());
    return 1;
  }
  load_globals();
  seed_args_t seed;
  seed_args_init(&seed);

  if (only != NULL) {
    if (!strcmp(only, "conv2d")) printf("conv2d %.1f ns\n", 1e9 * time_conv2d(&seed, CALL_ITERS, 0));
    else if (!strcmp(only, "conv2d_conv")) printf("conv2d+conv %.1f ns\n", 1e9 * time_conv2d(&seed, CALL_ITERS, 1));
    else if (!strcmp(only, "chain")) {
      chain_result_t c = run_chain(CHAIN_OPS);
      printf("chain build %.2f ms print %.2f ms hash %.2f ms (%zu bytes)\n", c.build * 1e3,
             c.print * 1e3, c.hash * 1e3, c.text_bytes);
      free(c.text);
    } else if (!strcmp(only, "memory")) {
      mem_result_t m = measure_memory(&seed);
      printf("memory %.1f bytes %.2f objects per Call\n", m.bytes, m.objects);
    } else if (strcmp(only, "none") != 0) {
      fprintf(stderr, "bench_ir: unknown case %s\n", only);
      return 2;
    }
    seed_args_fini(&seed);
    free_globals();
    return 0;
  }

  double conv = 1e300, conv_conv = 1e300;
  for (int r = 0; r < RUNS; ++r) {
    double t = time_conv2d(&seed, CALL_ITERS, 0);
    if (t < conv) conv = t;
    t = time_conv2d(&seed, CALL_ITERS, 1);
    if (t < conv_conv) conv_conv = t;
  }
  chain_result_t best = {1e300, 1e300, 1e300, 0, NULL};
  for (int r = 0; r < CHAIN_RUNS; ++r) {
    chain_result_t c = run_chain(CHAIN_OPS);
    if (c.build < best.build) best.build = c.build;
    if (c.print < best.print) best.print = c.print;
    if (c.hash < best.hash) best.hash = c.hash;
    best.text_bytes = c.text_bytes;
    if (best.text == NULL) best.text = c.text;
    else free(c.text);
  }
  mem_result_t mem = measure_memory(&seed);
  tvm_result_t tvm = {0};
  if (python != NULL) {
    tvm = run_tvm(python);
    if (!tvm.ok) fprintf(stderr, "bench_ir: the apache-tvm run under %s failed\n", python);
  }

  char buf[4096 * 2], r1[32], r2[32], r3[32], r4[32], r5[32], r6[32];
  ratio(r1, sizeof(r1), tvm.conv2d, conv);
  ratio(r2, sizeof(r2), tvm.conv2d, conv_conv);
  ratio(r3, sizeof(r3), tvm.build, best.build);
  ratio(r4, sizeof(r4), tvm.print, best.print);
  ratio(r5, sizeof(r5), tvm.hash, best.hash);
  ratio(r6, sizeof(r6), tvm.build + tvm.print, best.build + best.print);
  const char* same = !tvm.ok || tvm.text == NULL ? "not compared"
                     : strcmp(tvm.text, best.text) == 0 ? "byte-identical"
                                                        : "DIFFERENT";
  int len = snprintf(
      buf, sizeof(buf),
      "| case | tether (C, through TVMFFIFunctionCall) | apache-tvm %s (Python) | tvm / tether |\n"
      "|---|---:|---:|---:|\n"
      "| seed conv2d Call, tuples prebuilt | %.3f us | %.3f us | %s |\n"
      "| seed conv2d Call, tuples converted per call | %.3f us | (same row) | %s |\n"
      "| 10k chain: BlockBuilder build | %.1f ms | %.1f ms | %s |\n"
      "| 10k chain: print (%zu bytes) | %.1f ms | %.1f ms | %s |\n"
      "| 10k chain: build + print | %.1f ms | %.1f ms | %s |\n"
      "| 10k chain: structural hash | %.2f ms | %.2f ms | %s |\n"
      "| memory per conv2d Call (malloc bytes) | %.0f B | %.0f B | %.2f of tvm |\n"
      "| FFI objects per conv2d Call | %.1f | | |\n"
      "\nPrinted modules: %s.\n",
      tvm.ok ? tvm.version : "(not run)", conv * 1e6, tvm.conv2d * 1e6, r1, conv_conv * 1e6, r2,
      best.build * 1e3, tvm.build * 1e3, r3, best.text_bytes, best.print * 1e3, tvm.print * 1e3, r4,
      (best.build + best.print) * 1e3, (tvm.build + tvm.print) * 1e3, r6, best.hash * 1e3,
      tvm.hash * 1e3, r5, mem.bytes, tvm.mem_bytes, tvm.mem_bytes > 0 ? mem.bytes / tvm.mem_bytes : 0,
      mem.objects, same);
  fputs(buf, stdout);
  if (out_path != NULL) {
    FILE* f = fopen(out_path, "w");
    if (f == NULL) {
      perror(out_path);
      return 1;
    }
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 0) load[0] = -1;
    fprintf(f,
            "# IR benchmark (bench/bench_ir.c)\n\n"
            "Generated by `bench_ir --tvm-python /tmp/tvmvenv/bin/python --write` (Release build).\n"
            "tether: libtether_ir through the FFI globals from C; apache-tvm: the same work from\n"
            "Python (its per-call figure includes Python's call and tuple conversion; its chain is\n"
            "dominated by C++ conv2d inference).  Thread CPU time, best of %d (chain: best of %d);\n"
            "load average %.1f while writing (on a busy machine the ratios move between runs;\n"
            "bench/README.md has load-independent instruction counts).\n\n",
            RUNS, CHAIN_RUNS, load[0]);
    fwrite(buf, 1, (size_t)len, f);
    fclose(f);
  }
  free(best.text);
  free(tvm.text);
  seed_args_fini(&seed);
  free_globals();
  return 0;
}
