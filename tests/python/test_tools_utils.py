"""tether.utils (FileLock, keyword wrappers, unpacking dataclasses), tether.access_path and
tether.structural's Python API."""
import dataclasses
import inspect
import subprocess
import sys
from typing import Any, List, Optional

import pytest

import tether
from tether.access_path import AccessKind, AccessPath
from tether.utils import FileLock
from tether.utils.kwargs_wrapper import make_kwargs_wrapper, make_kwargs_wrapper_from_signature
from tether.utils.unpack_dataclass import (_extract_dataclass_to_tuple_schema,
                                           unpack_dataclass_to_tuple)


def test_filelock_excludes_other_processes(tmp_path):
    path = str(tmp_path / "lock")
    lock = FileLock(path)
    assert lock.acquire() and not lock.acquire()
    probe = ("import sys; from tether.utils import FileLock; "
             "print(FileLock(sys.argv[1]).acquire())")
    held = subprocess.run([sys.executable, "-c", probe, path], capture_output=True, text=True)
    assert held.stdout.strip() == "False"
    lock.release()
    free = subprocess.run([sys.executable, "-c", probe, path], capture_output=True, text=True)
    assert free.stdout.strip() == "True"
    with FileLock(path) as again:
        assert again._file_descriptor is not None
    assert again._file_descriptor is None


def test_kwargs_wrapper_binds_like_python():
    def target(*args):
        return args

    f = make_kwargs_wrapper(target, ["a", "b"], arg_defaults=([7],), kwonly_names=["c"],
                            kwonly_defaults={"c": None})
    assert f(1) == (1, [7], None)
    assert f(b=2, a=1, c=3) == (1, 2, 3)
    assert f(1)[1] is f(2)[1]  # defaults are shared, not copied
    assert str(inspect.signature(f)).startswith("(a, b=")
    with pytest.raises(TypeError):
        f(1, 2, 3)  # c is keyword-only
    with pytest.raises(ValueError, match="Duplicate argument names"):
        make_kwargs_wrapper(target, ["a", "a"])

    def proto(x: int, *, y: str = "s") -> None:
        """doc"""

    g = make_kwargs_wrapper_from_signature(target, inspect.signature(proto), proto)
    assert g(1) == (1, "s") and g.__name__ == "proto" and g.__doc__ == "doc"


@dataclasses.dataclass
class Point:
    x: int
    y: int


@dataclasses.dataclass
class Shape:
    name: str
    corners: List[Point]
    origin: Point
    extra: Optional[Any] = None


def test_unpack_dataclass_to_tuple():
    s = Shape("sq", [Point(0, 0), Point(1, 1)], Point(2, 3), extra={"p": Point(4, 5)})
    assert unpack_dataclass_to_tuple(s) == ("sq", [(0, 0), (1, 1)], (2, 3), {"p": (4, 5)})
    assert _extract_dataclass_to_tuple_schema(Shape) == {
        "name": None, "corners": "unpack", "origin": {"x": None, "y": None}, "extra": "unpack"}
    leaf = object()
    assert unpack_dataclass_to_tuple((leaf, Point(1, 2)))[0] is leaf


def test_access_path_steps_and_prefixes():
    p = AccessPath.root().attr("body").array_item(2).map_item("k")
    assert [(s.kind, s.key) for s in p.to_steps()] == [
        (AccessKind.ATTR, "body"), (AccessKind.ARRAY_ITEM, 2), (AccessKind.MAP_ITEM, "k")]
    assert p.parent.parent == AccessPath.root().attr("body")
    assert AccessPath.root().attr("body").is_prefix_of(p)
    assert not p.is_prefix_of(AccessPath.root().attr("body"))
    assert AccessPath.root().array_item_missing(3).to_steps()[0].kind == AccessKind.ARRAY_ITEM_MISSING
    with pytest.raises(ValueError):
        AccessPath()


def test_structural_api():
    a = {"xs": [1, 2, {"k": "v"}], "n": 3}
    b = {"n": 3, "xs": [1, 2, {"k": "v"}]}
    assert tether.structural_equal(a, b)
    assert tether.structural_hash(a) == tether.structural_hash(b) >= 0
    assert tether.get_first_structural_mismatch(a, b) is None
    lhs, rhs = tether.get_first_structural_mismatch(a, {"n": 3, "xs": [1, 5, {"k": "v"}]})
    assert lhs == rhs == AccessPath.root().map_item("xs").array_item(1)
    keys = {tether.StructuralKey(a): "first"}
    assert keys[tether.StructuralKey(b)] == "first"

    seen = []
    root = tether.Array([1, tether.Array(["s", 2.5]), b"by"])
    assert tether.structural_walk(root, [((int, float), seen.append),
                                         (str, lambda s: seen.append("str:" + s))],
                                  order="pre") is None
    assert seen == [1, "str:s", 2.5]
    stop = tether.structural_walk(root, (float, lambda v: tether.VisitInterrupt(v * 2)))
    assert isinstance(stop, tether.VisitInterrupt) and stop.value == 5.0

    mapped = tether.structural_map(root, (int, lambda v: v + 10))
    assert list(mapped)[0] == 11 and not mapped.same_as(root)
    same = tether.structural_map(root, [(str, lambda s: s), (bytes, lambda s: s)])
    assert same.same_as(root)  # equal strings hand back the value unchanged
    doubled = tether.structural_mutate(tether.Array([1, 2]),
                                       (int, lambda v, mutator: v * 2))
    assert list(doubled) == [2, 4]
    with pytest.raises(TypeError, match="callback type"):
        tether.structural_walk(root, (complex, print))
