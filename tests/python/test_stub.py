"""tether.stub on tether's own registry: the testing library's globals and object types.

Every test runs the generator the way a user does (the command line over files on disk, or
the library calls it is made of) and checks the text it writes.
"""
import json
import os
import subprocess
import sys

import pytest

import tether
import tether.testing  # noqa: F401  (registers the testing.* types and globals)
from tether import core

if not hasattr(core, "TypeSchema"):  # the stub generator reads schemas through it
    pytest.skip("tether.core has no TypeSchema in this build", allow_module_level=True)

from tether.stub import cli, layout  # noqa: E402
from tether.stub.consts import PYTHON_SYNTAX as PY, RUST_SYNTAX as RS  # noqa: E402
from tether.stub.file_utils import FileInfo  # noqa: E402
from tether.stub.lib_state import collect_global_funcs, object_info_from_type_key  # noqa: E402


def run_cli(monkeypatch, *args):
    monkeypatch.setattr(sys, "argv", ["tvm-ffi-stubgen", *map(str, args)])
    return cli.__main__()


def write(path, *lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def api_file(tmp_path):
    return write(tmp_path / "api.py",
                 '"""Bindings of the testing library."""',
                 f"{PY.begin} import-section", PY.end,
                 f"{PY.begin} global/testing", PY.end,
                 "__all__ = [", f"    {PY.begin} __all__", f"    {PY.end}", "]")


def test_global_block_gets_signatures_of_registered_functions(tmp_path, monkeypatch):
    path = api_file(tmp_path)
    assert run_cli(monkeypatch, path) == 0
    text = path.read_text(encoding="utf-8")
    assert '_FFI_INIT_FUNC("testing", __name__)' in text
    assert "    def schema_id_int(_0: int, /) -> int: ..." in text
    assert "    def schema_id_opt_str(_0: str | None, /) -> str | None: ..." in text
    assert "from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC" in text
    assert '    "schema_id_int",' in text
    compile(text, str(path), "exec")  # the stub is valid Python
    # A second run changes nothing.
    assert run_cli(monkeypatch, path) == 0
    assert path.read_text(encoding="utf-8") == text


def test_check_names_a_stale_file_and_leaves_it(tmp_path, monkeypatch, capsys):
    path = api_file(tmp_path)
    assert run_cli(monkeypatch, path) == 0
    fresh = path.read_text(encoding="utf-8")
    assert run_cli(monkeypatch, "--check", path) == 0
    stale = fresh.replace("def schema_id_int(_0: int, /) -> int", "def schema_id_int(_0: str, /) -> int")
    assert stale != fresh
    path.write_text(stale, encoding="utf-8")
    capsys.readouterr()
    assert run_cli(monkeypatch, "--check", path) == 1
    assert f"[Stale] {path.resolve()}" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8") == stale


def test_object_block_of_a_registered_type(tmp_path, monkeypatch):
    path = write(tmp_path / "pair.py",
                 f"{PY.begin} import-section", PY.end,
                 "class TestIntPair:",
                 f"    {PY.begin} object/testing.TestIntPair",
                 f"    {PY.end}")
    assert run_cli(monkeypatch, path) == 0
    text = path.read_text(encoding="utf-8")
    assert "    a: int\n    b: int\n" in text
    compile(text, str(path), "exec")


def test_registered_type_reports_its_field_bytes():
    info = object_info_from_type_key("testing.TestIntPair")
    assert [(f.name, f.offset, f.size, f.alignment) for f in info.fields] == [
        ("a", 24, 8, 8), ("b", 32, 8, 8)]
    assert info.ancestors == ["ffi.Object"]
    assert info.total_size == 40
    with pytest.raises((KeyError, ValueError)):
        object_info_from_type_key("testing.NoSuchType")


def test_functions_without_a_schema_are_left_out():
    funcs = collect_global_funcs()
    names = {f.schema.name for f in funcs["testing"]}
    assert "testing.schema_id_int" in names
    for f in funcs["testing"]:
        assert f.schema.origin == "Callable"


def test_coverage_report_covers_every_registered_type(tmp_path, monkeypatch):
    out = tmp_path / "coverage.json"
    assert run_cli(monkeypatch, "--coverage-out", out) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    keys = tether.get_global_func("ffi.GetRegisteredTypeKeys")()
    assert {k for k in keys if "." in k} <= set(report)
    assert all(entry["verdict"] in ("complete", "opaque") for entry in report.values())
    pair = report["testing.TestIntPair"]
    assert pair["fields"] == [{"name": "a", "offset": 24, "size": 8, "alignment": 8},
                              {"name": "b", "offset": 32, "size": 8, "alignment": 8}]
    assert pair["parent"] == "ffi.Object"


def test_layout_verdict_of_the_registered_pair():
    """Two int64 fields fill [24, 40) exactly under a complete header."""
    pair = object_info_from_type_key("testing.TestIntPair")
    root = layout.ByteRange(24, 24)
    header = type(pair)(fields=[], methods=[], type_key="ffi.Object", total_size=24)
    verdict = layout.classify({"ffi.Object": header, "testing.TestIntPair": pair})
    assert verdict["ffi.Object"].own_bytes == root
    assert verdict["testing.TestIntPair"].is_complete
    assert verdict["testing.TestIntPair"].own_bytes == layout.ByteRange(24, 40)
    assert verdict["testing.TestIntPair"].padding == []


def test_init_scaffolds_a_package_for_a_prefix(tmp_path, monkeypatch):
    assert run_cli(monkeypatch, "--init-pypkg", "demo", "--init-lib", "demo_shared",
                   "--init-prefix", "testing.", tmp_path) == 0
    api = (tmp_path / "testing" / "_ffi_api.py").read_text(encoding="utf-8")
    init = (tmp_path / "testing" / "__init__.py").read_text(encoding="utf-8")
    assert 'LIB = _FFI_LOAD_LIB("demo", "demo_shared")' in api
    assert "    def schema_id_int(_0: int, /) -> int: ..." in api
    assert '@_FFI_REG_OBJ("testing.TestIntPair")\nclass TestIntPair(' in api
    assert "from ._ffi_api import *" in init
    compile(api, "_ffi_api.py", "exec")
    compile(init, "__init__.py", "exec")


def rust_crate(tmp_path, *type_keys):
    """A crate `demo` whose src/lib.rs has the import section and an object block per key."""
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "demo"\n', encoding="utf-8")
    (tmp_path / "src").mkdir()
    blocks = [line for key in type_keys for line in (f"{RS.begin} object/{key}", RS.end)]
    return write(tmp_path / "src" / "lib.rs", f"{RS.begin} import-section", RS.end, *blocks)


def test_rust_target_binds_a_registered_type(tmp_path, monkeypatch):
    path = rust_crate(tmp_path, "testing.TestIntPair")
    assert run_cli(monkeypatch, "--target", "rust", path) == 0
    text = path.read_text(encoding="utf-8")
    assert '#[type_key = "testing.TestIntPair"]\n' in text
    assert "pub struct TestIntPair {\n    base: ObjectArc<TestIntPairObj>,\n}" in text
    assert "use tvm_ffi::ObjectArc;" in text
    assert run_cli(monkeypatch, "--target", "rust", "--check", path) == 0


def test_bad_files_are_reported_not_fatal(tmp_path, monkeypatch, capsys):
    unknown = write(tmp_path / "unknown.py", f"{PY.directive('bogus')} x",
                    f"{PY.begin} global/testing", PY.end)
    before = unknown.read_text(encoding="utf-8")
    assert run_cli(monkeypatch, unknown) == 2
    assert "Unknown directive `bogus` at line 1" in capsys.readouterr().out
    assert unknown.read_text(encoding="utf-8") == before

    gone = write(tmp_path / "gone.py", f"{PY.begin} object/testing.NoSuchType", PY.end)
    assert run_cli(monkeypatch, gone) == 2
    assert "`object/testing.NoSuchType` (line 1): the type is no longer registered" in \
        capsys.readouterr().out

    nested = write(tmp_path / "nested.py", f"{PY.begin} global/a", f"{PY.begin} global/b")
    with pytest.raises(ValueError, match="Nested stub not permitted at line 2"):
        FileInfo.from_file(nested)
    with pytest.raises(ValueError, match="Unknown stub type `bogus/x` at line 1"):
        FileInfo.from_file(write(tmp_path / "kind.py", f"{PY.begin} bogus/x", PY.end))


def test_command_line_module(tmp_path):
    path = api_file(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-m", "tether.stub", "--dry-run", str(path)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert PY.end in path.read_text(encoding="utf-8")
    assert "def schema_id_int" not in path.read_text(encoding="utf-8")  # --dry-run wrote nothing
    usage = subprocess.run([sys.executable, "-m", "tether.stub"], capture_output=True,
                           text=True, env=env, timeout=120)
    assert usage.returncode == 1 and "usage: tvm-ffi-stubgen" in usage.stdout


def test_a_schema_leaf_that_is_not_a_name_is_annotated_any():
    """A malformed schema (a leaf such as "Optional<ffi.Object>") never reaches the text
    as an import: Python annotates it Any, Rust reads the field as Any."""
    from tether.stub.file_utils import CodeBlock
    from tether.stub.generator import get_generator
    from tether.stub.python_generator.codegen import generate_python_object
    from tether.stub.python_generator.consts import TY_MAP_DEFAULTS
    from tether.stub.rust_generator.codegen import generate_rust_object
    from tether.stub.utils import NamedTypeSchema, ObjectInfo, Options

    odd = core.TypeSchema("Optional", (core.TypeSchema("Optional<ffi.Object>"),))
    info = ObjectInfo(fields=[NamedTypeSchema("v", odd)], methods=[], type_key="demo.Odd",
                      parent_type_key="ffi.Object", ancestors=["ffi.Object"])
    block = CodeBlock("object", "demo.Odd", 1, 2, [f"{PY.begin} object/demo.Odd", PY.end])
    imports = []
    generate_python_object(block, dict(TY_MAP_DEFAULTS), imports, Options(), info)
    assert "v: Any | None" in block.lines
    assert {item.full_name for item in imports} == {"typing.Any"}

    rust = get_generator("rust")
    block = CodeBlock("object", "demo.Odd", 1, 2, [f"{RS.begin} object/demo.Odd", RS.end])
    rust_imports = rust.new_imports()
    generate_rust_object(block, rust.default_ty_map(), rust_imports, Options(), info,
                         {"demo.Odd": ("crate",)})
    text = "\n".join(block.lines)
    assert 'pub fn v(&self) -> Result<Any> {\n        FieldGetter::new(Self::type_index(), "v")?.get_any(self)' in text


def _verdicts(*keys):
    infos = {"ffi.Object": object_info_from_type_key("ffi.Object")}
    infos.update((k, object_info_from_type_key(k)) for k in keys)
    return layout.classify(infos)


def test_verdicts_of_the_testing_class_chain():
    """Base/Derived/DerivedDerived are complete: each type's fields fill its own bytes."""
    keys = ["testing.TestCxxClassBase", "testing.TestCxxClassDerived",
            "testing.TestCxxClassDerivedDerived"]
    verdicts = _verdicts(*keys)
    owns = [verdicts[k].own_bytes for k in keys]
    assert owns == [layout.ByteRange(24, 40), layout.ByteRange(40, 56), layout.ByteRange(56, 80)]
    assert all(verdicts[k].is_complete for k in keys)
    assert [verdicts[k].padding for k in keys] == [
        [layout.ByteRange(36, 40)], [layout.ByteRange(52, 56)], [layout.ByteRange(73, 80)]]
    assert [verdicts[k].is_final for k in keys] == [False, False, False]


def test_unreflected_bytes_are_reported_uncovered():
    verdicts = _verdicts("testing.TestCxxClassHiddenField", "testing.TestCxxClassPolymorphic")
    hidden = verdicts["testing.TestCxxClassHiddenField"]
    assert hidden.reason == "uncovered-bytes" and hidden.is_final is True
    assert hidden.uncovered == [layout.ByteRange(32, 40)]
    assert hidden.padding == [layout.ByteRange(44, 48)]
    poly = verdicts["testing.TestCxxClassPolymorphic"]
    assert poly.reason == "uncovered-bytes" and poly.total_size == 40
    assert poly.uncovered == [layout.ByteRange(32, 40)]


def test_rust_binding_keeps_a_type_with_hidden_bytes_opaque(tmp_path, monkeypatch):
    path = rust_crate(tmp_path, "testing.TestCxxClassHiddenField", "testing.TestCxxClassBase",
                      "testing.TestCxxClassDerived")
    assert run_cli(monkeypatch, "--target", "rust", path) == 0
    text = path.read_text(encoding="utf-8")
    assert "Opaque: bytes [32, 40) of [24, 48)" in text
    assert "pub v_f32: f32," in text
