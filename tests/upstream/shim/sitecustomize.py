"""The alias-only shim under which apache-tvm-ffi's Python suite runs against tether.

With this directory first on PYTHONPATH, `import tvm_ffi` gives the module object `tether`,
and `import tvm_ffi.X.Y` gives `tether.X.Y`, the same object under a second name.  Nothing
is implemented here: a name tether lacks fails to import as it would in any program, and
the real tvm_ffi, if installed, is never reached.
"""
import importlib
import importlib.abc
import importlib.machinery
import sys

ALIAS, TARGET = "tvm_ffi", "tether"


class _AliasLoader(importlib.abc.Loader):
    """Loads `tvm_ffi[.X]` by importing `tether[.X]` and registering the same object.

    load_module (not exec_module) so that the import system keeps tether's own __spec__,
    __name__ and __package__ on the module: relative imports inside tether stay tether's."""

    def __init__(self, target):
        self.target = target

    def load_module(self, fullname):
        module = importlib.import_module(self.target)
        sys.modules[fullname] = module
        return module

    def get_code(self, fullname):
        """The code of `tether[.X]` itself, for `python -m tvm_ffi.X` (runpy asks for it)."""
        return importlib.util.find_spec(self.target).loader.get_code(self.target)


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != ALIAS and not fullname.startswith(ALIAS + "."):
            return None
        real = TARGET + fullname[len(ALIAS):]
        if importlib.util.find_spec(real) is None:
            raise ModuleNotFoundError(f"No module named {fullname!r} (tether has no {real!r})",
                                      name=fullname)
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(real))


import importlib.util  # noqa: E402  (find_spec above needs it loaded)

sys.meta_path.insert(0, _AliasFinder())
