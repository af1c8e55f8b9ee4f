"""tether.core.SignatureFunction (src/python/signature.c): a Function called through a Python
signature -- names, defaults, keywords, int-to-tuple widening -- and the shared Arrays of
small int tuples (convert.c) it and every Function argument use."""
import gc
import inspect

import pytest

from tether import core

use_count = core.get_global_func("testing.object_use_count")


def _collect(*args):
    return list(args)


def make(params=("a", "b", "c"), defaults=(5, (1, 2)), expand=(0, 2, 0), name="f"):
    return core.SignatureFunction(core.Function(_collect), name, params, defaults, expand)


def test_positional_keywords_and_defaults():
    f = make()
    assert list(f(1)) == [1, [5, 5], [1, 2]]
    assert list(f(1, 2, 3)) == [1, [2, 2], 3]
    assert list(f(c="x", a=0)) == [0, [5, 5], "x"]
    assert list(f(0, c=9, b=(3, 4))) == [0, [3, 4], 9]
    # A keyword that is not the interned parameter name still matches by value.
    assert list(f(**{"".join(["a"]): 7})) == [7, [5, 5], [1, 2]]


def test_expand_widens_only_exact_ints():
    f = make(params=("x",), defaults=(), expand=(3,))
    assert list(f(2)[0]) == [2, 2, 2]
    assert list(f(-1)[0]) == [-1, -1, -1]
    assert list(f(1000)[0]) == [1000, 1000, 1000]  # outside the shared range: a fresh Array
    assert list(f(2**40)[0]) == [2**40] * 3
    assert f(True)[0] is True  # bool is not widened
    assert list(f((1, 2))[0]) == [1, 2]
    assert f(None)[0] is None


@pytest.mark.parametrize("call, text", [
    (lambda f: f(), "f() missing 1 required positional argument: 'a'"),
    (lambda f: f(1, 2, 3, 4), "f() takes from 1 to 3 positional arguments but 4 were given"),
    (lambda f: f(1, d=2), "f() got an unexpected keyword argument 'd'"),
    (lambda f: f(1, a=2), "f() got multiple values for argument 'a'"),
])
def test_argument_errors_use_pythons_texts(call, text):
    with pytest.raises(TypeError) as info:
        call(make())
    assert str(info.value) == text


def test_missing_several_and_fixed_arity_texts():
    g = make(params=("x", "y", "z"), defaults=(), expand=None, name="g")
    with pytest.raises(TypeError, match=r"^g\(\) missing 2 required positional arguments: "
                                        r"'y' and 'z'$"):
        g(1)
    with pytest.raises(TypeError, match=r"^g\(\) missing 3 required positional arguments: "
                                        r"'x', 'y' and 'z'$"):
        g()
    with pytest.raises(TypeError, match=r"^g\(\) takes 3 positional arguments but 4 were given$"):
        g(1, 2, 3, 4)


def test_errors_of_the_function_itself_pass_through():
    def boom(*args):
        raise ValueError("inner")

    f = core.SignatureFunction(core.Function(boom), "f", ("a",))
    with pytest.raises(ValueError, match="inner"):
        f(1)


def test_metadata_and_signature():
    f = make()
    f.__doc__ = "doc"
    f.__module__ = "m"
    assert f.__doc__ == "doc" and f.__module__ == "m"
    sig = inspect.signature(f)
    assert str(sig) == "(a, b=5, c=(1, 2))"
    assert repr(f) == "<SignatureFunction f>"
    assert isinstance(f.func, core.Function)


@pytest.mark.parametrize("args, exc", [
    ((lambda: 0, "f", ("a",)), TypeError),                     # not a Function
    ((core.Function(_collect), "f", ("a",), (1, 2)), ValueError),  # more defaults than params
    ((core.Function(_collect), "f", ("a",), (), (9,)), ValueError),  # expand out of range
    ((core.Function(_collect), "f", ("a",), (), (1, 1)), ValueError),  # expand length
    ((core.Function(_collect), "f", (1,)), TypeError),          # a name that is not a str
    ((core.Function(_collect), "f", tuple("p%d" % i for i in range(17))), ValueError),
])
def test_bad_construction(args, exc):
    with pytest.raises(exc):
        core.SignatureFunction(*args)


def test_no_leaks():
    f = make()
    g = make(params=("x", "y"), defaults=(), expand=None, name="g")
    for _ in range(100):
        f(1, 2, (1000, 2000))
    gc.collect()
    live = core._live_object_count()
    for _ in range(1000):
        f(1, 2, (1000, 2000))
        f(1)
        with pytest.raises(TypeError):
            g([1000, 2000])  # converted before the missing argument is noticed: released
    gc.collect()
    assert core._live_object_count() <= live


def test_each_tuple_converts_to_its_own_array():
    # As tvm_ffi: equal tuples are never one shared Array, and the new Array is owned by
    # the wrapper alone.
    for value in [(1, 2), (1, 2, 3, 4, 5), (7, 1), (1.0, 2), [1, 2]]:
        a, b = core.convert(value), core.convert(value)
        assert not a.same_as(b)
        assert list(a) == list(value)
        assert use_count(a) == 1
