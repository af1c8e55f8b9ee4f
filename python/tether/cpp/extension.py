"""Compiling C, C++ and CUDA sources into a shared library (or an object file) and loading
it as a tether Module.

    mod = tether.cpp.load_inline("demo", cpp_sources=CODE, functions=["add"])
    mod.add(1, 2)

Which headers a source compiles against depends on its language:
  - C (.c) against tether's include directory (tvm/ffi/c_api.h, dlpack/dlpack.h): the
    stable C ABI, which is all a C kernel can use;
  - C++ (.cc, .cpp, ...) and CUDA (.cu) also against the C++ headers of an installed
    apache-tvm-ffi (tvm/ffi/function.h, TVM_FFI_DLL_EXPORT_TYPED_FUNC, TensorView, ...),
    found by tether.libinfo.find_tvm_ffi_cxx_include_path; tether ships no C++ headers.
Every library is linked with -ltvm_ffi against tether's libtvm_ffi.so alias, so what it
needs is the stable C ABI; tether.load_module binds those calls to libtether whatever the
library was linked against (README, "tether beside tvm-ffi").

A build happens in a directory of its own: `build_directory`, or one under the cache
($TETHER_CACHE_DIR, default ~/.cache/tether/cpp) named after the module and a hash of
everything that decides the result.  Objects are recompiled only when their source, a
header it included, or the command changed; the directory is locked while building so
concurrent processes do not interleave.
"""
from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Union

from .. import libinfo
from ..utils.lockfile import FileLock

__all__ = ["build", "build_inline", "load", "load_inline"]

_Strings = Union[Sequence[str], str, None]

_C_SUFFIXES = (".c",)
_CUDA_SUFFIXES = (".cu",)
_OBJECT_SUFFIXES = (".o", ".obj")
# The headers an inline source is compiled with (the functions it defines use them).
_INLINE_PRELUDE = ("tvm/ffi/container/tensor.h", "tvm/ffi/dtype.h", "tvm/ffi/error.h",
                   "tvm/ffi/extra/c_env_api.h", "tvm/ffi/function.h")


def _as_list(value: _Strings) -> List[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def _kind(path: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in _OBJECT_SUFFIXES:
        return "obj"
    if suffix in _C_SUFFIXES:
        return "c"
    if suffix in _CUDA_SUFFIXES:
        return "cuda"
    return "cxx"


def _cache_root() -> Path:
    root = os.environ.get("TETHER_CACHE_DIR")
    return Path(root).expanduser() if root else Path("~/.cache/tether/cpp").expanduser()


def _find_nvcc() -> str:
    for var in ("CUDA_HOME", "CUDA_PATH"):
        home = os.environ.get(var)
        if home and os.path.isfile(os.path.join(home, "bin", "nvcc")):
            return os.path.join(home, "bin", "nvcc")
    found = shutil.which("nvcc")
    if found:
        return found
    if os.path.isfile("/usr/local/cuda/bin/nvcc"):
        return "/usr/local/cuda/bin/nvcc"
    raise RuntimeError("tether.cpp: CUDA sources need nvcc, found neither in $CUDA_HOME/bin, "
                       "on PATH nor in /usr/local/cuda/bin")


class _Plan:
    """The commands of one build: compile each source to an object, then link (or merge)."""

    def __init__(self, name: str, sources: List[str], extra_cflags: List[str],
                 extra_cuda_cflags: List[str], extra_ldflags: List[str],
                 extra_include_paths: List[str], embed_cubin: Optional[Mapping[str, bytes]],
                 output: Optional[str]) -> None:
        self.name = name
        self.sources = sources
        self.embed_cubin = dict(embed_cubin or {})
        self.output = Path(output).name if output else f"{name}.so"
        self.object_mode = Path(self.output).suffix.lower() in _OBJECT_SUFFIXES
        kinds = {_kind(s) for s in sources}
        includes = [str(Path(p).resolve()) for p in extra_include_paths]
        tether_inc = libinfo.find_include_path()
        self.cxx_headers = libinfo.find_tvm_ffi_cxx_include_path()
        # tvm-ffi's C++ headers come with their own copy of c_api.h: they go first, so the
        # C++ translation units see one consistent set.
        cxx_inc = ([self.cxx_headers] if self.cxx_headers else []) + [tether_inc]
        self.cc = os.environ.get("CC", "cc")
        self.cxx = os.environ.get("CXX", "c++")
        self.cflags = ["-fPIC", "-O2", *extra_cflags] + [f"-I{p}" for p in includes +
                                                           [tether_inc]]
        self.cxxflags = ["-std=c++17", "-fPIC", "-O2", *extra_cflags] + \
            [f"-I{p}" for p in includes + cxx_inc]
        self.nvcc = _find_nvcc() if "cuda" in kinds else None
        self.cudaflags = ["-std=c++17", "-O2", "-Xcompiler", "-fPIC", *extra_cuda_cflags] + \
            [f"-I{p}" for p in includes + cxx_inc]
        libdir = str(Path(libinfo.find_libtvm_ffi()).parent)
        self.ldflags = ["-shared", f"-L{libdir}", "-ltvm_ffi", f"-Wl,-rpath,{libdir}"]
        if self.nvcc:
            cuda_lib = Path(self.nvcc).resolve().parent.parent / "lib64"
            self.ldflags += [f"-L{cuda_lib}", "-lcudart"]
        self.ldflags += extra_ldflags

    def compile_steps(self) -> List[tuple]:
        """(object name, source, command) for each source that needs compiling; objects
        given as sources are used where they are."""
        steps, counts = [], {}
        for src in sorted(self.sources):
            kind = _kind(src)
            if kind == "obj":
                continue
            index = counts.get(kind, 0)
            counts[kind] = index + 1
            obj = f"{kind}_{index}.o"
            if kind == "c":
                cmd = [self.cc, *self.cflags, "-MMD", "-MF", obj + ".d", "-c", src, "-o", obj]
            elif kind == "cuda":
                cmd = [self.nvcc, *self.cudaflags, "-MD", "-MF", obj + ".d", "-c", src,
                       "-o", obj]
            else:
                cmd = [self.cxx, *self.cxxflags, "-MMD", "-MF", obj + ".d", "-c", src,
                       "-o", obj]
            steps.append((obj, src, cmd))
        return steps

    def objects(self) -> List[str]:
        given = [s for s in sorted(self.sources) if _kind(s) == "obj"]
        return given + [obj for obj, _, _ in self.compile_steps()]


def _depfile_inputs(path: Path) -> List[str]:
    """The prerequisites a compiler's make-style dependency file lists."""
    text = path.read_text().replace("\\\n", " ")
    _, _, deps = text.partition(": ")
    out, word = [], ""
    i = 0
    while i < len(deps):
        ch = deps[i]
        if ch == "\\" and i + 1 < len(deps) and deps[i + 1] == " ":
            word += " "
            i += 2
            continue
        if ch.isspace():
            if word:
                out.append(word)
            word = ""
        else:
            word += ch
        i += 1
    if word:
        out.append(word)
    return out


def _up_to_date(build_dir: Path, obj: str, cmd: List[str], recorded: Dict[str, List[str]]) \
        -> bool:
    target = build_dir / obj
    depfile = build_dir / (obj + ".d")
    if recorded.get(obj) != cmd or not target.is_file() or not depfile.is_file():
        return False
    built = target.stat().st_mtime
    try:
        return all(os.stat(dep if os.path.isabs(dep) else build_dir / dep).st_mtime <= built
                   for dep in _depfile_inputs(depfile))
    except OSError:
        return False


def _run(cmd: List[str], cwd: Path, what: str) -> None:
    if os.environ.get("TETHER_CPP_VERBOSE"):
        print(f"tether.cpp: {shlex.join(cmd)}", file=sys.stderr)
    try:
        done = subprocess.run(cmd, cwd=str(cwd), capture_output=True, text=True, check=False)
    except FileNotFoundError as e:
        raise RuntimeError(f"tether.cpp: {what}: cannot run {cmd[0]!r} ({e})") from None
    if done.returncode != 0:
        raise RuntimeError(f"tether.cpp: {what} failed (exit status {done.returncode}) in "
                           f"{cwd}:\n{shlex.join(cmd)}\n{done.stdout}{done.stderr}")


def _execute(plan: _Plan, build_dir: Path) -> Path:
    """Run the plan in build_dir (locked by the caller); the path of the result."""
    record_path = build_dir / "commands.json"
    try:
        recorded = json.loads(record_path.read_text())
    except (OSError, ValueError):
        recorded = {}
    for obj, src, cmd in plan.compile_steps():
        if _up_to_date(build_dir, obj, cmd, recorded):
            continue
        recorded.pop(obj, None)
        try:
            _run(cmd, build_dir, f"compiling {src}")
        except RuntimeError as e:
            if _kind(src) != "c" and plan.cxx_headers is None:
                raise RuntimeError(f"{e}\n(C++ sources that use tvm-ffi's C++ headers need "
                                   "them from an installed apache-tvm-ffi, and none was "
                                   "found)") from None
            raise
        recorded[obj] = cmd
        record_path.write_text(json.dumps(recorded))
    objects = plan.objects()
    if not objects:
        raise ValueError("tether.cpp.build: no sources to build")
    out = build_dir / plan.output
    if plan.object_mode:
        if len(objects) == 1:
            shutil.copyfile(build_dir / objects[0], out)
        else:
            _run(["ld", "-r", "-o", plan.output, *objects], build_dir, "merging objects")
        return out.resolve()
    if plan.embed_cubin:
        from ..utils.embed_cubin import embed_cubin
        _run(["ld", "-r", "-o", "merged.o", *objects], build_dir, "merging objects")
        current = "merged.o"
        for cubin_name in sorted(plan.embed_cubin):
            cubin = build_dir / f"{cubin_name}.cubin"
            cubin.write_bytes(plan.embed_cubin[cubin_name])
            nxt = f"merged_{cubin_name}.o"
            embed_cubin(cubin, build_dir / current, build_dir / nxt, cubin_name)
            current = nxt
        objects = [current]
    _run([plan.cxx, *objects, *plan.ldflags, "-o", plan.output], build_dir, "linking")
    return out.resolve()


def _digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else json.dumps(part, sort_keys=True).encode()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:16]


def _build(name: str, sources: List[str], extra_cflags: _Strings, extra_cuda_cflags: _Strings,
           extra_ldflags: _Strings, extra_include_paths: _Strings,
           build_directory: Optional[str], embed_cubin: Optional[Mapping[str, bytes]],
           output: Optional[str], files: Optional[Dict[str, str]] = None,
           lock: bool = True) -> str:
    """Shared by build and build_inline: `files` are written into the build directory
    first (their names are then among `sources`)."""
    if not sources:
        raise ValueError("tether.cpp.build: sources must name at least one file")
    if embed_cubin and sys.platform.startswith("win32"):
        raise NotImplementedError("tether.cpp: embedding CUDA binaries needs ld and objcopy")
    flags = (_as_list(extra_cflags), _as_list(extra_cuda_cflags), _as_list(extra_ldflags),
             _as_list(extra_include_paths))
    if build_directory is None:
        key = _digest(name, sources, files or {}, flags, output,
                      {k: hashlib.sha256(v).hexdigest() for k, v in (embed_cubin or {}).items()})
        build_dir = _cache_root() / f"{name}_{key}"
    else:
        build_dir = Path(build_directory).resolve()
    build_dir.mkdir(parents=True, exist_ok=True)
    resolved = [str(build_dir / s) if files and s in files else str(Path(s).resolve())
                for s in sources]
    plan = _Plan(name, resolved, *flags, embed_cubin, output)
    guard = FileLock(str(build_dir / "lock")) if lock else None
    if guard is not None:
        guard.blocking_acquire()
    try:
        for fname, text in (files or {}).items():
            path = build_dir / fname
            # rewritten only when different: an unchanged file keeps its time stamp
            if not path.is_file() or path.read_text() != text:
                path.write_text(text)
        return str(_execute(plan, build_dir))
    finally:
        if guard is not None:
            guard.release()


def build(name: str, sources: _Strings = None, extra_cflags: _Strings = None,
          extra_cuda_cflags: _Strings = None, extra_ldflags: _Strings = None,
          extra_include_paths: _Strings = None, build_directory: Optional[str] = None,
          embed_cubin: Optional[Mapping[str, bytes]] = None, backend: Optional[str] = None,
          output: Optional[str] = None) -> str:
    """Compile `sources` (paths of .c, .cc/.cpp/..., .cu files and ready .o objects) and
    link them into `<name>.so`, or, when `output` ends in .o, merge them into that object.
    Returns the absolute path of the result.

    extra_cflags go to the C and C++ compilers, extra_cuda_cflags to nvcc, extra_ldflags
    to the link; embed_cubin maps TVM_FFI_EMBED_CUBIN names to CUDA binaries to embed.
    `backend` is accepted for CUDA ("cuda"); other GPU backends are not supported.
    RuntimeError with the compiler's output when a step fails."""
    if backend not in (None, "cuda"):
        raise ValueError(f"tether.cpp.build: backend {backend!r} is not supported (only "
                         "'cuda')")
    return _build(name, _as_list(sources), extra_cflags, extra_cuda_cflags, extra_ldflags,
                  extra_include_paths, build_directory, embed_cubin, output)


def _export_lines(functions: Mapping[str, str]) -> List[str]:
    lines = []
    for fname, doc in functions.items():
        if not fname.isidentifier():
            raise ValueError(f"tether.cpp: function name {fname!r} is not a C++ identifier")
        lines.append(f"TVM_FFI_DLL_EXPORT_TYPED_FUNC({fname}, {fname});")
        if doc:
            lines.append(f"TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC({fname}, {json.dumps(doc)});")
    return lines


def _inline_files(cpp_sources: _Strings, cuda_sources: _Strings,
                  functions: Union[Mapping[str, str], Sequence[str], str, None]) \
        -> Dict[str, str]:
    if isinstance(functions, str):
        functions = {functions: ""}
    elif functions is None:
        functions = {}
    elif not isinstance(functions, Mapping):
        functions = {f: "" for f in functions}
    cpp, cuda = _as_list(cpp_sources), _as_list(cuda_sources)
    if not cpp and not cuda:
        raise ValueError("tether.cpp: give cpp_sources or cuda_sources")
    prelude = [f"#include <{h}>" for h in _INLINE_PRELUDE]
    files = {}
    # The export macros go into the C++ file when there is one (functions defined in the
    # CUDA file are declared there), else into the CUDA file.
    if cpp:
        files["main.cpp"] = "\n".join(prelude + ["", *cpp, "", *_export_lines(functions), ""])
    if cuda:
        exports = [] if cpp else _export_lines(functions)
        files["cuda.cu"] = "\n".join(prelude + ["", *cuda, "", *exports, ""])
    return files


def build_inline(name: str, *, cpp_sources: _Strings = None, cuda_sources: _Strings = None,
                 functions: Union[Mapping[str, str], Sequence[str], str, None] = None,
                 extra_cflags: _Strings = None, extra_cuda_cflags: _Strings = None,
                 extra_ldflags: _Strings = None, extra_include_paths: _Strings = None,
                 build_directory: Optional[str] = None,
                 embed_cubin: Optional[Mapping[str, bytes]] = None,
                 backend: Optional[str] = None, output: Optional[str] = None) -> str:
    """Build C++ (and CUDA) source text into a library; returns its path.

    cpp_sources / cuda_sources: source text (one string or several, concatenated), compiled
    with tvm-ffi's C++ headers included.  functions: the names of C++ functions to export
    as FFI functions of the module (TVM_FFI_DLL_EXPORT_TYPED_FUNC), a list, or a dict from
    name to docstring (an empty docstring exports no documentation).  The rest is as in
    build."""
    if backend not in (None, "cuda"):
        raise ValueError(f"tether.cpp.build_inline: backend {backend!r} is not supported")
    files = _inline_files(cpp_sources, cuda_sources, functions)
    return _build(name, sorted(files), extra_cflags, extra_cuda_cflags, extra_ldflags,
                  extra_include_paths, build_directory, embed_cubin, output, files=files)


def load(name: str, sources: _Strings = None, extra_cflags: _Strings = None,
         extra_cuda_cflags: _Strings = None, extra_ldflags: _Strings = None,
         extra_include_paths: _Strings = None, build_directory: Optional[str] = None,
         embed_cubin: Optional[Mapping[str, bytes]] = None, backend: Optional[str] = None,
         keep_module_alive: bool = True):
    """build, then tether.load_module of the library."""
    from ..module import load_module
    path = build(name, sources, extra_cflags, extra_cuda_cflags, extra_ldflags,
                 extra_include_paths, build_directory, embed_cubin, backend)
    return load_module(path, keep_module_alive=keep_module_alive)


def load_inline(name: str, *, cpp_sources: _Strings = None, cuda_sources: _Strings = None,
                functions: Union[Mapping[str, str], Sequence[str], str, None] = None,
                extra_cflags: _Strings = None, extra_cuda_cflags: _Strings = None,
                extra_ldflags: _Strings = None, extra_include_paths: _Strings = None,
                build_directory: Optional[str] = None,
                embed_cubin: Optional[Mapping[str, bytes]] = None,
                backend: Optional[str] = None, keep_module_alive: bool = True):
    """build_inline, then tether.load_module of the library: the exported functions are
    attributes of the returned Module."""
    from ..module import load_module
    path = build_inline(name, cpp_sources=cpp_sources, cuda_sources=cuda_sources,
                        functions=functions, extra_cflags=extra_cflags,
                        extra_cuda_cflags=extra_cuda_cflags, extra_ldflags=extra_ldflags,
                        extra_include_paths=extra_include_paths,
                        build_directory=build_directory, embed_cubin=embed_cubin,
                        backend=backend)
    return load_module(path, keep_module_alive=keep_module_alive)
