"""Embedding a CUDA binary (a .cubin or .fatbin) into an ELF object file, as the pair of
symbols `__tvm_ffi__cubin_<name>` (first byte) and `__tvm_ffi__cubin_<name>_end` (one past
the last) that tvm-ffi's TVM_FFI_EMBED_CUBIN(name) declares.  The symbols are made local to
the merged object, so several objects may embed a binary under the same name.

    python -m tether.utils.embed_cubin --input-obj k.o --cubin k.cubin --name k --output-obj out.o

Needs the binutils `ld` and `objcopy` (Linux).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Union

__all__ = ["embed_cubin"]

_PathLike = Union[str, "os.PathLike[str]"]


def _run(step: str, cmd: List[str], cwd: str, verbose: bool) -> None:
    if verbose:
        print(f"embed_cubin: {step}: {' '.join(cmd)}")
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError as e:
        raise RuntimeError(f"embed_cubin: {step}: cannot run {cmd[0]!r} ({e})") from None
    if done.returncode != 0:
        raise RuntimeError(f"embed_cubin: {step} failed (exit status {done.returncode}): "
                           f"{' '.join(cmd)}\n{done.stdout}{done.stderr}")


def embed_cubin(cubin_path: _PathLike, input_obj_path: _PathLike,
                output_obj_path: _PathLike, name: str, verbose: bool = False) -> None:
    """Write to `output_obj_path` the object `input_obj_path` with the bytes of `cubin_path`
    added read-only as `__tvm_ffi__cubin_<name>` .. `__tvm_ffi__cubin_<name>_end`.

    FileNotFoundError if either input is missing, ValueError for a name that is not a C
    identifier, RuntimeError (with the tool's output) if ld or objcopy fails."""
    cubin, obj, out = Path(cubin_path), Path(input_obj_path), Path(output_obj_path)
    if not cubin.is_file():
        raise FileNotFoundError(f"embed_cubin: no CUDA binary at {cubin}")
    if not obj.is_file():
        raise FileNotFoundError(f"embed_cubin: no input object at {obj}")
    if not name.isidentifier():
        raise ValueError(f"embed_cubin: name must be a C identifier, got {name!r}")
    start, end = f"__tvm_ffi__cubin_{name}", f"__tvm_ffi__cubin_{name}_end"
    with tempfile.TemporaryDirectory(prefix="tether-embed-") as work:
        # ld -b binary names the symbols after the input file name, so give it a known one.
        blob = "blob.bin"
        shutil.copyfile(cubin, os.path.join(work, blob))
        _run("wrap the binary", ["ld", "-r", "-b", "binary", "-o", "blob.o", blob], work,
             verbose)
        _run("rename its section and symbols", [
            "objcopy",
            "--rename-section", ".data=.rodata,alloc,load,readonly,data,contents",
            "--add-section", ".note.GNU-stack=/dev/null",
            "--set-section-flags", ".note.GNU-stack=noload,readonly",
            "--redefine-sym", f"_binary_blob_bin_start={start}",
            "--redefine-sym", f"_binary_blob_bin_end={end}",
            "--strip-symbol", "_binary_blob_bin_size",
            "blob.o"], work, verbose)
        _run("merge with the input object",
             ["ld", "-r", "-o", "merged.o", str(obj.resolve()), "blob.o"], work, verbose)
        _run("make the symbols local",
             ["objcopy", "--localize-symbol", start, "--localize-symbol", end, "merged.o"],
             work, verbose)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(os.path.join(work, "merged.o"), out)
    if verbose:
        print(f"embed_cubin: wrote {out} ({cubin.stat().st_size} bytes as {start})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tether.utils.embed_cubin",
                                     description="Embed a CUDA binary into an object file")
    parser.add_argument("--input-obj", required=True, help="object file to extend")
    parser.add_argument("--output-obj", required=True, help="object file to write")
    parser.add_argument("--cubin", required=True, help="the .cubin / .fatbin to embed")
    parser.add_argument("--name", required=True, help="TVM_FFI_EMBED_CUBIN name")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    try:
        embed_cubin(args.cubin, args.input_obj, args.output_obj, args.name, args.verbose)
    except (OSError, RuntimeError, ValueError) as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
