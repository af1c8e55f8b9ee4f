/*
 * test_threads.c -- the registry and functions under concurrency.  Eight or more threads
 * run for about a second each, concurrently: registering distinct names (enough to force
 * table growth), looking names up and calling the functions, IncRef/DecRef'ing shared
 * functions, and overriding and removing a shared set of names.  Every result is
 * checked: a name always resolves to a function computing that name's value, or (for
 * names being removed) to nothing.  At the end every function created has been
 * destroyed exactly once.  Also built and run under TSan (build-registry-tsan).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "test.h"

enum { NUM_THREADS = 8, NUM_STABLE = 16, NUM_VOLATILE = 8, MAX_OWN = 4096 };
static const double RUN_SECONDS = 1.0;

static atomic_long created, destroyed;

typedef struct {
  int64_t value;
} closure_t;

static int return_value(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(((const closure_t*)self)->value);
  return 0;
}

static void free_closure(void* self) {
  free(self);
  atomic_fetch_add(&destroyed, 1);
}

/* New function returning `value` (a new reference), or NULL on failure. */
static TVMFFIObjectHandle make_fn(int64_t value) {
  closure_t* c = malloc(sizeof(*c));
  if (c == NULL) return NULL;
  c->value = value;
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(c, return_value, free_closure, &f) != 0) {
    free(c);
    return NULL;
  }
  atomic_fetch_add(&created, 1);
  return f;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t next_random(uint64_t* state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

static TVMFFIObjectHandle lookup(const char* name) {
  TVMFFIByteArray key = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionGetGlobal(&key, &f) != 0) return NULL;
  return f;
}

/* Calls f() and returns its int result, or INT64_MIN on error. */
static int64_t call_value(TVMFFIObjectHandle f) {
  TVMFFIAny result = tether_any_none();
  if (TVMFFIFunctionCall(f, NULL, 0, &result) != 0 || result.type_index != kTVMFFIInt) {
    return INT64_MIN;
  }
  return result.v_int64;
}

/* Removes global `name` through ffi.FunctionRemoveGlobal: 1 if it was there, 0 if not,
 * -1 on error. */
static int remove_name(const char* name) {
  TVMFFIAny a = tether_any_raw_str(name), res = tether_any_none();
  TVMFFIObjectHandle rm = lookup("ffi.FunctionRemoveGlobal");
  int rc = rm != NULL ? TVMFFIFunctionCall(rm, &a, 1, &res) : -1;
  TVMFFIObjectDecRef(rm);
  if (rc != 0 || res.type_index != kTVMFFIBool) return -1;
  return (int)res.v_int64;
}

static TVMFFIObjectHandle shared_fns[NUM_STABLE]; /* held by main, used by all */

typedef struct {
  int id;
  long ops, errors, own_registered, volatile_misses;
  char own_present[MAX_OWN]; /* which of this thread's names are currently registered */
} worker_t;

#define ERROR_IF(cond, w)                                                                  \
  do {                                                                                     \
    if (cond) {                                                                            \
      if ((w)->errors++ < 5) fprintf(stderr, "thread %d: %s (line %d)\n", (w)->id, #cond,   \
                                     __LINE__);                                            \
    }                                                                                      \
  } while (0)

static void* worker(void* arg) {
  worker_t* w = arg;
  uint64_t rng = 0x9e3779b97f4a7c15ull * (uint64_t)(w->id + 1);
  char name[64];
  double deadline = now_seconds() + RUN_SECONDS;
  int next_own = 0;
  while (now_seconds() < deadline) {
    for (int step = 0; step < 64; ++step, ++w->ops) {
      uint64_t r = next_random(&rng);
      switch (r % 8) {
        case 0: { /* register a new distinct name, then find it */
          if (next_own >= MAX_OWN) break;
          int i = next_own++;
          snprintf(name, sizeof(name), "thr.%d.%d", w->id, i);
          TVMFFIObjectHandle f = make_fn((int64_t)w->id * 100000 + i);
          TVMFFIByteArray key = {name, strlen(name)};
          ERROR_IF(f == NULL || TVMFFIFunctionSetGlobal(&key, f, 0) != 0, w);
          TVMFFIObjectDecRef(f);
          w->own_present[i] = 1;
          w->own_registered++;
          TVMFFIObjectHandle g = lookup(name);
          ERROR_IF(g != f, w);
          TVMFFIObjectDecRef(g);
          break;
        }
        case 1: { /* look up one of our names: present iff we did not remove it */
          if (next_own == 0) break;
          int i = (int)((r >> 8) % (uint64_t)next_own);
          snprintf(name, sizeof(name), "thr.%d.%d", w->id, i);
          TVMFFIObjectHandle g = lookup(name);
          if (w->own_present[i]) {
            ERROR_IF(g == NULL || call_value(g) != (int64_t)w->id * 100000 + i, w);
          } else {
            ERROR_IF(g != NULL, w);
          }
          TVMFFIObjectDecRef(g);
          if (w->own_present[i] && (r >> 40) % 4 == 0) { /* sometimes remove it */
            ERROR_IF(remove_name(name) != 1, w);
            w->own_present[i] = 0;
          }
          break;
        }
        case 2:
        case 3: { /* stable names: always present, always the same function */
          int k = (int)((r >> 8) % NUM_STABLE);
          snprintf(name, sizeof(name), "stable.%d", k);
          TVMFFIObjectHandle g = lookup(name);
          ERROR_IF(g != shared_fns[k], w);
          if (g != NULL) ERROR_IF(call_value(g) != k, w);
          TVMFFIObjectDecRef(g);
          break;
        }
        case 4: { /* IncRef/DecRef the shared functions directly and call them */
          int k = (int)((r >> 8) % NUM_STABLE);
          TVMFFIObjectHandle f = shared_fns[k];
          TVMFFIObjectIncRef(f);
          TVMFFIObjectIncRef(f);
          ERROR_IF(call_value(f) != k, w);
          TVMFFIObjectDecRef(f);
          TVMFFIObjectDecRef(f);
          break;
        }
        case 5: { /* volatile names: whatever function is found must compute the name's value */
          int k = (int)((r >> 8) % NUM_VOLATILE);
          snprintf(name, sizeof(name), "volatile.%d", k);
          TVMFFIObjectHandle g = lookup(name);
          if (g == NULL) {
            w->volatile_misses++;
          } else {
            ERROR_IF(call_value(g) != 1000 + k, w);
            TVMFFIObjectDecRef(g);
          }
          break;
        }
        case 6: { /* override a volatile name with a fresh function of the same value */
          int k = (int)((r >> 8) % NUM_VOLATILE);
          snprintf(name, sizeof(name), "volatile.%d", k);
          TVMFFIObjectHandle f = make_fn(1000 + k);
          TVMFFIByteArray key = {name, strlen(name)};
          ERROR_IF(f == NULL || TVMFFIFunctionSetGlobal(&key, f, 1) != 0, w);
          TVMFFIObjectDecRef(f);
          break;
        }
        case 7: { /* remove a volatile name (it may already be gone), or list all names */
          int k = (int)((r >> 8) % NUM_VOLATILE);
          if ((r >> 32) % 16 == 0) {
            TVMFFIObjectHandle lf = lookup("ffi.FunctionListGlobalNamesFunctor");
            TVMFFIAny res = tether_any_none(), a = tether_any_int(-1), cnt = tether_any_none();
            ERROR_IF(lf == NULL || TVMFFIFunctionCall(lf, NULL, 0, &res) != 0, w);
            if (res.type_index == kTVMFFIFunction) {
              ERROR_IF(TVMFFIFunctionCall(res.v_obj, &a, 1, &cnt) != 0 || cnt.v_int64 < NUM_STABLE,
                       w);
            }
            tether_any_release(&res);
            TVMFFIObjectDecRef(lf);
            break;
          }
          snprintf(name, sizeof(name), "volatile.%d", k);
          ERROR_IF(remove_name(name) < 0, w);
          break;
        }
      }
    }
  }
  return NULL;
}

static void test_concurrent_registry(void) {
  static worker_t workers[NUM_THREADS];
  pthread_t threads[NUM_THREADS];
  char name[64];
  atomic_store(&created, 0);
  atomic_store(&destroyed, 0);
  for (int k = 0; k < NUM_STABLE; ++k) {
    shared_fns[k] = make_fn(k);
    snprintf(name, sizeof(name), "stable.%d", k);
    TVMFFIByteArray key = {name, strlen(name)};
    CHECK_OK(TVMFFIFunctionSetGlobal(&key, shared_fns[k], 0));
  }
  for (int t = 0; t < NUM_THREADS; ++t) {
    memset(&workers[t], 0, sizeof(workers[t]));
    workers[t].id = t;
    CHECK_EQ_INT(pthread_create(&threads[t], NULL, worker, &workers[t]), 0);
  }
  long ops = 0, registered = 0;
  for (int t = 0; t < NUM_THREADS; ++t) {
    pthread_join(threads[t], NULL);
    CHECK_EQ_INT(workers[t].errors, 0);
    ops += workers[t].ops;
    registered += workers[t].own_registered;
  }
  printf("  %ld operations, %ld names registered by %d threads\n", ops, registered, NUM_THREADS);
  CHECK(registered > 100);

  /* After the storm: exactly the names each thread kept are registered. */
  for (int t = 0; t < NUM_THREADS; ++t) {
    for (int i = 0; i < MAX_OWN; ++i) {
      snprintf(name, sizeof(name), "thr.%d.%d", t, i);
      TVMFFIObjectHandle g = lookup(name);
      if (workers[t].own_present[i]) {
        CHECK(g != NULL && call_value(g) == (int64_t)t * 100000 + i);
      } else {
        CHECK(g == NULL);
      }
      TVMFFIObjectDecRef(g);
      if (workers[t].own_present[i]) CHECK_EQ_INT(remove_name(name), 1);
    }
  }
  for (int k = 0; k < NUM_VOLATILE; ++k) {
    snprintf(name, sizeof(name), "volatile.%d", k);
    remove_name(name);
  }
  for (int k = 0; k < NUM_STABLE; ++k) {
    snprintf(name, sizeof(name), "stable.%d", k);
    CHECK_EQ_INT(remove_name(name), 1);
    CHECK_EQ_INT(tether_object_use_count(shared_fns[k]), 1);
    TVMFFIObjectDecRef(shared_fns[k]);
  }
  /* Every function ever created (including overridden and removed ones) is gone. */
  CHECK_EQ_INT(atomic_load(&destroyed), atomic_load(&created));
}

TEST_MAIN(TEST_CASE(test_concurrent_registry))
