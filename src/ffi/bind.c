/*
 * bind.c -- loads the shared library of a "library" module (ffi.ModuleLoadFromFile,
 * tether.load_module) so that every TVMFFI* call it makes reaches libtether, whatever else
 * the process has loaded.
 *
 * The dynamic loader binds an undefined symbol to the first definition in the global scope,
 * then in the library's own dependencies.  A library built for tvm-ffi links libtvm_ffi.so
 * (tether's alias or apache-tvm-ffi's real one), libtether, or nothing (it expects the host
 * process to provide TVMFFI*), and `import tvm_ffi` puts apache-tvm-ffi's runtime into the
 * global scope.  Left to the loader, such a library calls whichever runtime came first, or
 * dies at its first call ("symbol lookup error") when none is global.
 *
 * So the library is opened with RTLD_LAZY | RTLD_LOCAL, and before anything of it is called
 * through tether its own dynamic relocations (DT_RELA and DT_JMPREL) are walked:
 *   - each GLOB_DAT, JUMP_SLOT or ABS64 relocation of an undefined TVMFFI* symbol is pointed
 *     at libtether's definition of that name (RELRO pages are made writable for the writes
 *     and read-only again after);
 *   - every other undefined, non-weak symbol must resolve, in the library's dependencies or
 *     in the global scope, or else is bound to libtether's definition (tether's own API,
 *     tether_*), so that no later call can fail to bind.
 *
 * Invariants:
 *   - All or nothing: every relocation is checked before the first write.  A library with
 *     a symbol that cannot be bound is dlclosed, and RuntimeError names the library and the
 *     symbol.
 *   - Only the named library is rebound.  Its dependencies (libtvm.so, helper libraries)
 *     keep the loader's binding, and TVMFFI* symbols the library defines itself (a runtime
 *     linked in statically) are left alone.
 *   - A library instance another runtime may use is never rebound in place.  When the file
 *     is already loaded and not bound to libtether, or another runtime's TVMFFI* is in the
 *     global scope (that runtime may load the same file later), tether loads a private copy
 *     of the file: a memfd, opened as /proc/self/fd/<n>, which the loader treats as a
 *     different library (dependencies already loaded still match by name; $ORIGIN in the
 *     copy's RUNPATH names /proc/self/fd).  Loads of the same file version share one copy;
 *     its memfd stays open while the copy is mapped.
 *     A bare file name (no '/', searched by the loader) that is not loaded yet is loaded in
 *     place even then: there is no file to copy before the loader finds it.
 *   - Code the library runs while dlopen loads it (ELF constructors) runs before the
 *     binding, bound the loader's way; and a library linked with immediate binding (-z now)
 *     whose TVMFFI* nothing global provides is refused by the loader itself (its dlerror,
 *     which names the symbol, becomes the InternalError).
 *   - Supported where relocations are RELA: x86_64 and aarch64.  Elsewhere the library is
 *     loaded with RTLD_NOW | RTLD_LOCAL and binds the loader's way (an undefined symbol is
 *     then a load error, never a crash at first call).
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bind.h"
#include "error.h"

#define TETHER__BIND_FN "ffi.ModuleLoadFromFile"
#define TETHER__ABI_PREFIX "TVMFFI"

#if defined(__x86_64__)
#define TETHER__BIND_SUPPORTED 1
#define TETHER__R_ABS64 R_X86_64_64
#define TETHER__R_GLOB_DAT R_X86_64_GLOB_DAT
#define TETHER__R_JUMP_SLOT R_X86_64_JUMP_SLOT
/* x86_64: GLOB_DAT and JUMP_SLOT write S, ABS64 writes S + A. */
#define TETHER__R_USES_ADDEND(type) ((type) == R_X86_64_64)
#elif defined(__aarch64__)
#define TETHER__BIND_SUPPORTED 1
#define TETHER__R_ABS64 R_AARCH64_ABS64
#define TETHER__R_GLOB_DAT R_AARCH64_GLOB_DAT
#define TETHER__R_JUMP_SLOT R_AARCH64_JUMP_SLOT
/* aarch64: all three write S + A. */
#define TETHER__R_USES_ADDEND(type) 1
#else
#define TETHER__BIND_SUPPORTED 0
#endif

/* Loads path with the dynamic loader; InternalError with the loader's text otherwise (the
 * reference's wording, prefixed to what dlerror says). */
static void* tether__bind_dlopen(const char* path, const char* shown_path, int mode) {
  void* dl = dlopen(path, mode);
  if (dl == NULL) {
    const char* why = dlerror();
    tether_raise("InternalError", "Failed to load dynamic shared library %s %s", shown_path,
                 why != NULL ? why : "");
  }
  return dl;
}

#if TETHER__BIND_SUPPORTED

/* ---- the library's dynamic section and segments ------------------------------------------ */

typedef struct {
  const char* path;            /* for messages: the file the caller named */
  struct link_map* lm;
  void* dl;                    /* the library */
  void* self;                  /* libtether, for dlsym of TVMFFI* names */
  void* global;                /* dlopen(NULL): the global scope */
  const ElfW(Sym)* symtab;
  const char* strtab;
  const ElfW(Rela)* rela[2];   /* DT_RELA, DT_JMPREL */
  size_t rela_count[2];
  const ElfW(Phdr)* phdr;
  size_t phnum;
  uintptr_t relro_start, relro_end; /* the pages the loader made read-only; empty if none */
} tether_bind_t;

/* glibc stores DT_* addresses relocated on these targets, other loaders as offsets. */
static uintptr_t tether__bind_addr(const tether_bind_t* b, ElfW(Addr) v) {
  return v < b->lm->l_addr ? v + b->lm->l_addr : v;
}

static int tether__bind_find_phdr(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  tether_bind_t* b = data;
  if (info->dlpi_addr != b->lm->l_addr || info->dlpi_name == NULL ||
      strcmp(info->dlpi_name, b->lm->l_name) != 0) {
    return 0;
  }
  b->phdr = info->dlpi_phdr;
  b->phnum = info->dlpi_phnum;
  return 1;
}

/* Fills b from the library's link map; RuntimeError if its tables cannot be read. */
static int tether__bind_open(tether_bind_t* b) {
  if (dlinfo(b->dl, RTLD_DI_LINKMAP, &b->lm) != 0 || b->lm == NULL) {
    return tether_raise("RuntimeError", "%s: cannot load %s: dlinfo found no link map",
                        TETHER__BIND_FN, b->path);
  }
  ElfW(Xword) pltrel = DT_RELA, rel_size = 0;
  for (const ElfW(Dyn)* d = b->lm->l_ld; d != NULL && d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB: b->symtab = (const ElfW(Sym)*)tether__bind_addr(b, d->d_un.d_ptr); break;
      case DT_STRTAB: b->strtab = (const char*)tether__bind_addr(b, d->d_un.d_ptr); break;
      case DT_RELA: b->rela[0] = (const ElfW(Rela)*)tether__bind_addr(b, d->d_un.d_ptr); break;
      case DT_RELASZ: b->rela_count[0] = d->d_un.d_val / sizeof(ElfW(Rela)); break;
      case DT_JMPREL: b->rela[1] = (const ElfW(Rela)*)tether__bind_addr(b, d->d_un.d_ptr); break;
      case DT_PLTRELSZ: b->rela_count[1] = d->d_un.d_val / sizeof(ElfW(Rela)); break;
      case DT_PLTREL: pltrel = d->d_un.d_val; break;
      case DT_RELSZ: rel_size = d->d_un.d_val; break;
      default: break;
    }
  }
  if (pltrel != DT_RELA || rel_size != 0) {
    return tether_raise("RuntimeError", "%s: cannot load %s: it has REL relocations, and "
                        "tether binds only RELA ones", TETHER__BIND_FN, b->path);
  }
  if (b->symtab == NULL || b->strtab == NULL) {
    return tether_raise("RuntimeError", "%s: cannot load %s: it has no dynamic symbol table",
                        TETHER__BIND_FN, b->path);
  }
  if (dl_iterate_phdr(tether__bind_find_phdr, b) == 0) {
    return tether_raise("RuntimeError", "%s: cannot load %s: its program headers are not "
                        "among the loaded objects", TETHER__BIND_FN, b->path);
  }
  /* The loader protects whole pages only: start rounded down, end rounded down. */
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  for (size_t i = 0; i < b->phnum; ++i) {
    if (b->phdr[i].p_type != PT_GNU_RELRO) continue;
    uintptr_t start = b->lm->l_addr + b->phdr[i].p_vaddr;
    b->relro_start = start & ~(page - 1);
    b->relro_end = (start + b->phdr[i].p_memsz) & ~(page - 1);
  }
  return 0;
}

/* Whether [slot, slot + 8) may be written: inside a writable PT_LOAD or the RELRO pages. */
static bool tether__bind_slot_ok(const tether_bind_t* b, uintptr_t slot) {
  if (slot >= b->relro_start && slot + sizeof(void*) <= b->relro_end) return true;
  for (size_t i = 0; i < b->phnum; ++i) {
    const ElfW(Phdr)* p = &b->phdr[i];
    uintptr_t start = b->lm->l_addr + p->p_vaddr;
    if (p->p_type == PT_LOAD && (p->p_flags & PF_W) && slot >= start &&
        slot + sizeof(void*) <= start + p->p_memsz) {
      return true;
    }
  }
  return false;
}

/* ---- the walk ------------------------------------------------------------------------------ */

/* Whether `name`, undefined in the library, is defined in its dependencies or globally.
 * (Not RTLD_DEFAULT: called from libtether, which is linked -Bsymbolic, that would search
 * libtether first.) */
static bool tether__bind_resolves(const tether_bind_t* b, const char* name) {
  bool found = dlsym(b->dl, name) != NULL || dlsym(b->global, name) != NULL;
  (void)dlerror();
  return found;
}

/*
 * One pass over every relocation of an undefined symbol.  A TVMFFI* symbol binds to
 * libtether; any other binds the loader's way if the loader can resolve it, else to
 * libtether if libtether defines it (tether's own API, tether_*), else it is an error.
 * Without `write`: checks all of them, *mismatched = the number of slots to bind that do
 * not yet point at libtether.  With `write`: points them there (after a checking pass).
 */
static int tether__bind_walk(tether_bind_t* b, bool write, size_t* mismatched) {
  *mismatched = 0;
  for (int t = 0; t < 2; ++t) {
    for (size_t i = 0; i < b->rela_count[t]; ++i) {
      const ElfW(Rela)* r = &b->rela[t][i];
      uint32_t type = (uint32_t)ELF64_R_TYPE(r->r_info);
      size_t sym_index = (size_t)ELF64_R_SYM(r->r_info);
      if (sym_index == 0) continue;
      const ElfW(Sym)* sym = &b->symtab[sym_index];
      if (sym->st_shndx != SHN_UNDEF) continue; /* defined in the library itself */
      const char* name = b->strtab + sym->st_name;
      bool abi = strncmp(name, TETHER__ABI_PREFIX, strlen(TETHER__ABI_PREFIX)) == 0;
      if (!abi && (ELF64_ST_BIND(sym->st_info) == STB_WEAK || tether__bind_resolves(b, name))) {
        continue;
      }
      void* target = dlsym(b->self, name);
      (void)dlerror();
      if (target == NULL && abi) {
        return tether_raise("RuntimeError", "%s: cannot load %s: it calls `%s`, which "
                            "libtether does not provide", TETHER__BIND_FN, b->path, name);
      }
      if (target == NULL) {
        return tether_raise("RuntimeError", "%s: cannot load %s: undefined symbol `%s` (not "
                            "defined by the library, its dependencies, the process or "
                            "libtether)", TETHER__BIND_FN, b->path, name);
      }
      if (type != TETHER__R_GLOB_DAT && type != TETHER__R_JUMP_SLOT && type != TETHER__R_ABS64) {
        return tether_raise("RuntimeError", "%s: cannot load %s: relocation type %u of `%s` "
                            "cannot be bound to libtether", TETHER__BIND_FN, b->path, type, name);
      }
      uintptr_t slot = b->lm->l_addr + r->r_offset;
      uintptr_t value = (uintptr_t)target;
      if (TETHER__R_USES_ADDEND(type)) value += (uintptr_t)r->r_addend;
      if (!tether__bind_slot_ok(b, slot)) {
        return tether_raise("RuntimeError", "%s: cannot load %s: the relocation of `%s` is in "
                            "a read-only segment (text relocations are not supported)",
                            TETHER__BIND_FN, b->path, name);
      }
      if (*(const uintptr_t*)slot == value) continue;
      ++*mismatched;
      if (write) *(uintptr_t*)slot = value;
    }
  }
  return 0;
}

/* Serializes the walks: two threads binding the same library (dlopen hands both the same
 * instance) would otherwise race on its RELRO protection, one making the pages read-only
 * while the other still writes.  Never held across dlopen of a library (its constructors
 * may load libraries through tether). */
static pthread_mutex_t tether__bind_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Checks library `dl` and, when `may_write`, binds it.  *bound: whether every TVMFFI*
 * reference now points at libtether (with `may_write`, always on success). */
static int tether__bind_library(void* dl, const char* path, bool may_write, bool* bound) {
  tether_bind_t b;
  memset(&b, 0, sizeof(b));
  b.path = path;
  b.dl = dl;
  *bound = false;
  size_t mismatched = 0;
  int rc = -1;
  Dl_info self_info;
  if (dladdr((void*)TVMFFIFunctionCall, &self_info) == 0 || self_info.dli_fname == NULL ||
      (b.self = dlopen(self_info.dli_fname, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD)) == NULL ||
      dlsym(b.self, "TVMFFIFunctionCall") != (void*)TVMFFIFunctionCall) {
    (void)dlerror();
    tether_raise("RuntimeError", "%s: cannot load %s: libtether cannot look up its own "
                 "TVMFFI* functions (is it linked statically?)", TETHER__BIND_FN, path);
    goto done;
  }
  if ((b.global = dlopen(NULL, RTLD_LAZY)) == NULL) {
    tether_raise("RuntimeError", "%s: cannot load %s: dlopen(NULL) failed", TETHER__BIND_FN,
                 path);
    goto done;
  }
  pthread_mutex_lock(&tether__bind_mutex);
  rc = tether__bind_open(&b);
  if (rc == 0) rc = tether__bind_walk(&b, false, &mismatched);
  if (rc == 0 && mismatched > 0 && may_write) {
    bool relro = b.relro_end > b.relro_start;
    size_t relro_size = b.relro_end - b.relro_start;
    if (relro && mprotect((void*)b.relro_start, relro_size, PROT_READ | PROT_WRITE) != 0) {
      rc = tether_raise("RuntimeError", "%s: cannot load %s: mprotect of its RELRO pages: %s",
                        TETHER__BIND_FN, path, strerror(errno));
    } else {
      rc = tether__bind_walk(&b, true, &mismatched);
      if (relro) (void)mprotect((void*)b.relro_start, relro_size, PROT_READ);
      mismatched = 0;
    }
  }
  pthread_mutex_unlock(&tether__bind_mutex);
  if (rc == 0) *bound = mismatched == 0;
done:
  if (b.global != NULL) dlclose(b.global);
  if (b.self != NULL) dlclose(b.self);
  return rc;
}

/* Whether another runtime's TVMFFI* functions are in the global scope (searched through
 * dlopen(NULL), not RTLD_DEFAULT, for the reason given at tether__bind_resolves). */
static bool tether__bind_foreign_runtime_is_global(void) {
  void* global = dlopen(NULL, RTLD_LAZY);
  void* f = global != NULL ? dlsym(global, "TVMFFIFunctionCall") : NULL;
  (void)dlerror();
  if (global != NULL) dlclose(global);
  return f != NULL && f != (void*)TVMFFIFunctionCall;
}

/* ---- private copies ------------------------------------------------------------------------ */

/*
 * Live private copies, one per source file version (device, inode, size, mtime): loading
 * the same file again shares its copy, which the loader hands out as the same, already bound
 * instance, instead of filling another memfd.  The list and the reference counts are
 * guarded by tether__bind_copies_mutex, which is held across dlopen only of a copy that is
 * already loaded (no constructors run then).
 */
typedef struct tether_bind_copy {
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  int fd;
  size_t refs; /* tether_bound_library_t values holding fd */
  struct tether_bind_copy* next;
} tether_bind_copy_t;

static tether_bind_copy_t* tether__bind_copies;
static pthread_mutex_t tether__bind_copies_mutex = PTHREAD_MUTEX_INITIALIZER;

static void tether__bind_copy_name(int fd, char* name, size_t cap) {
  snprintf(name, cap, "/proc/self/fd/%d", fd);
}

/* A memfd holding a copy of the open file src (what `path` names); -1 with the error
 * raised. */
static int tether__bind_copy(const char* path, int src) {
  int fd = memfd_create("tether-module", MFD_CLOEXEC);
  if (fd < 0) {
    return tether_raise("RuntimeError", "%s: cannot load %s: it is in use by another runtime "
                        "and memfd_create, for a private copy, failed: %s", TETHER__BIND_FN, path,
                        strerror(errno));
  }
  char buf[65536];
  for (;;) {
    ssize_t n = read(src, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) return fd;
    if (n < 0) goto fail;
    for (ssize_t done = 0; done < n;) {
      ssize_t w = write(fd, buf + done, (size_t)(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) goto fail;
      done += w;
    }
  }
fail:;
  int e = errno;
  close(fd);
  return tether_raise("RuntimeError", "%s: cannot load %s: copying it failed: %s",
                      TETHER__BIND_FN, path, strerror(e));
}

/* The live copy of the file version st, or NULL.  Caller holds the mutex. */
static tether_bind_copy_t* tether__bind_copy_find_locked(const struct stat* st) {
  for (tether_bind_copy_t* c = tether__bind_copies; c != NULL; c = c->next) {
    if (c->dev == st->st_dev && c->ino == st->st_ino && c->size == st->st_size &&
        c->mtime.tv_sec == st->st_mtim.tv_sec && c->mtime.tv_nsec == st->st_mtim.tv_nsec) {
      return c;
    }
  }
  return NULL;
}

/* Loads a private copy of the file `file`, which `path` names: the live one if there is
 * one, else a new copy, bound. */
static int tether__bind_load_copy(const char* path, const char* file,
                                  tether_bound_library_t* out) {
  char name[40];
  struct stat st;
  tether_bind_copy_t* copy = NULL;
  void* dl = NULL;
  int fd = -1;
  int src = open(file, O_RDONLY | O_CLOEXEC);
  if (src < 0 || fstat(src, &st) != 0) {
    tether_raise("InternalError", "Failed to load dynamic shared library %s %s", path,
                 strerror(errno));
    goto fail;
  }
  pthread_mutex_lock(&tether__bind_copies_mutex);
  copy = tether__bind_copy_find_locked(&st);
  if (copy != NULL) {
    tether__bind_copy_name(copy->fd, name, sizeof(name));
    dl = dlopen(name, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    (void)dlerror();
    if (dl != NULL) copy->refs++;
  }
  pthread_mutex_unlock(&tether__bind_copies_mutex);
  if (dl != NULL) {
    close(src);
    out->dl = dl;
    out->copy_fd = copy->fd;
    return 0;
  }

  copy = calloc(1, sizeof(*copy));
  if (copy == NULL) {
    tether_raise("MemoryError", "%s: out of memory", TETHER__BIND_FN);
    goto fail;
  }
  if ((fd = tether__bind_copy(path, src)) < 0) goto fail;
  tether__bind_copy_name(fd, name, sizeof(name));
  dl = dlopen(name, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
  if (dl != NULL) { /* someone else's library already answers to this name */
    tether_raise("RuntimeError", "%s: cannot load %s: a library named %s is already loaded",
                 TETHER__BIND_FN, path, name);
    goto fail;
  }
  (void)dlerror();
  bool bound;
  if ((dl = tether__bind_dlopen(name, path, RTLD_LAZY | RTLD_LOCAL)) == NULL ||
      tether__bind_library(dl, path, true, &bound) != 0) {
    goto fail;
  }
  close(src);
  copy->dev = st.st_dev;
  copy->ino = st.st_ino;
  copy->size = st.st_size;
  copy->mtime = st.st_mtim;
  copy->fd = fd;
  copy->refs = 1;
  pthread_mutex_lock(&tether__bind_copies_mutex);
  copy->next = tether__bind_copies;
  tether__bind_copies = copy;
  pthread_mutex_unlock(&tether__bind_copies_mutex);
  out->dl = dl;
  out->copy_fd = fd;
  return 0;
fail:
  if (dl != NULL) dlclose(dl);
  if (fd >= 0) close(fd);
  if (src >= 0) close(src);
  free(copy);
  return -1;
}

int tether__bind_load(const char* path, tether_bound_library_t* out) {
  out->dl = NULL;
  out->copy_fd = -1;
  bool bound;
  void* dl = dlopen(path, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
  (void)dlerror();
  if (dl != NULL) { /* already loaded: usable as it is only if bound to libtether */
    if (tether__bind_library(dl, path, false, &bound) != 0) {
      dlclose(dl);
      return -1;
    }
    if (bound) {
      out->dl = dl;
      return 0;
    }
    /* The loaded instance's file (path may be a bare name the loader searched for). */
    struct link_map* lm = NULL;
    char* file = NULL;
    if (dlinfo(dl, RTLD_DI_LINKMAP, &lm) == 0 && lm != NULL) file = strdup(lm->l_name);
    dlclose(dl);
    if (file == NULL) {
      return tether_raise("RuntimeError", "%s: cannot load %s: cannot name the file of its "
                          "loaded instance", TETHER__BIND_FN, path);
    }
    int rc = tether__bind_load_copy(path, file, out);
    free(file);
    return rc;
  }
  /* A bare name (searched by the loader) is loaded in place: there is no file to copy. */
  if (strchr(path, '/') != NULL && tether__bind_foreign_runtime_is_global()) {
    return tether__bind_load_copy(path, path, out);
  }
  dl = tether__bind_dlopen(path, path, RTLD_LAZY | RTLD_LOCAL);
  if (dl == NULL) return -1;
  if (tether__bind_library(dl, path, true, &bound) != 0) {
    dlclose(dl);
    return -1;
  }
  out->dl = dl;
  return 0;
}

#else /* !TETHER__BIND_SUPPORTED */

int tether__bind_load(const char* path, tether_bound_library_t* out) {
  out->copy_fd = -1;
  out->dl = tether__bind_dlopen(path, path, RTLD_NOW | RTLD_LOCAL);
  return out->dl != NULL ? 0 : -1;
}

static void tether__bind_copy_name(int fd, char* name, size_t cap) {
  snprintf(name, cap, "/proc/self/fd/%d", fd);
}

#endif /* TETHER__BIND_SUPPORTED */

void tether__bind_unload(tether_bound_library_t* lib) {
  int fd = lib->copy_fd;
  bool last = false;
#if TETHER__BIND_SUPPORTED
  if (fd >= 0) {
    pthread_mutex_lock(&tether__bind_copies_mutex);
    tether_bind_copy_t** link = &tether__bind_copies;
    while (*link != NULL && (*link)->fd != fd) link = &(*link)->next;
    tether_bind_copy_t* copy = *link;
    if (copy != NULL && --copy->refs == 0) {
      *link = copy->next;
      free(copy);
      last = true;
    }
    pthread_mutex_unlock(&tether__bind_copies_mutex);
  }
#endif
  if (lib->dl != NULL) dlclose(lib->dl);
  lib->dl = NULL;
  lib->copy_fd = -1;
  if (!last) return;
  char name[40];
  tether__bind_copy_name(fd, name, sizeof(name));
  void* still = dlopen(name, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
  (void)dlerror();
  if (still != NULL) {
    dlclose(still); /* still mapped (the loader keeps it): the fd keeps its name taken */
  } else {
    close(fd);
  }
}
