"""Record apache-tvm's texts for the programs of tests/python/meta_programs.py.

For each program P it writes, into tests/python/data/tvm_meta/:
  P.show_meta.txt   node.script(show_meta=True)
  P.json            tvm.ir.save_json(node)
and string_imm.show_meta.txt for a StringImm (the header's escaping of every kind of byte).

Run it with an interpreter that has apache-tvm 0.27.0.post1 and apache-tvm-ffi 0.1.14.post1
(TVM's save_json crashes under apache-tvm-ffi 0.1.15.post2) and numpy:

    make venv-tvm && .venv-tvm/bin/python tools/record_tvm_meta.py [OUT_DIR]

tests/python/test_show_meta.py compares tether's texts for the same programs with these.
"""
import os
import sys

import numpy as np
import tvm
from tvm import relax

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

from meta_programs import PROGRAMS, string_imm  # noqa: E402


def main(argv):
    out_dir = argv[1] if len(argv) > 1 else os.path.join(HERE, "..", "tests", "python", "data",
                                                         "tvm_meta")
    os.makedirs(out_dir, exist_ok=True)
    for name, build in sorted(PROGRAMS.items()):
        node = build(relax, np)
        texts = {"show_meta.txt": node.script(show_meta=True), "json": tvm.ir.save_json(node)}
        for suffix, text in texts.items():
            with open(os.path.join(out_dir, f"{name}.{suffix}"), "w", encoding="utf-8") as f:
                f.write(text)
    with open(os.path.join(out_dir, "string_imm.show_meta.txt"), "w", encoding="utf-8") as f:
        f.write(string_imm(tvm.ir).script(show_meta=True))
    print(f"recorded {len(PROGRAMS)} programs (apache-tvm {tvm.__version__}) into {out_dir}")


if __name__ == "__main__":
    main(sys.argv)
