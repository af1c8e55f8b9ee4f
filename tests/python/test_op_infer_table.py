"""tests/ir/test_op_infer.c's expected strings against apache-tvm 0.27, through
tools/tvm_op_infer_table.py run in TVM's own interpreter ($TETHER_TVM_PYTHON, which `make
test-python` sets to .venv-tvm).  Skipped when TETHER_TVM_PYTHON is not set.
"""
import os
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(REPO, "tools", "tvm_op_infer_table.py")
TVM_PYTHON = os.environ.get("TETHER_TVM_PYTHON")

pytestmark = pytest.mark.skipif(not TVM_PYTHON, reason="TETHER_TVM_PYTHON is not set")


def _run(*args):
    return subprocess.run([TVM_PYTHON, TOOL, *args], capture_output=True, text=True, timeout=600)


def test_recorded_expectations_are_tvms():
    r = _run("--check")
    assert r.returncode == 0, r.stdout + r.stderr
    assert " 0 differ from TVM" in r.stdout


# A small table in the C file's layout: one right row, one wrong type, one wrong error text.
ROWS = r'''static const op_case_t op_cases[] = {
    /* BEGIN CASES */
    /* ---- add */
    {"add", "T[2,1]:float32, T[1,3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"add", "T[n,3]:float32, T[n,1]:float32",
     "R.Tensor((n, 1), dtype=\"float32\")"},
    {"reshape", "T[2,3]:float32, [-1,-1]",
     "!!InternalError: wrong text"},
    /* END CASES */
};
'''


def test_check_lists_rows_that_differ_and_write_fixes_them(tmp_path):
    table = tmp_path / "table.c"
    table.write_text(ROWS)
    r = _run("--check", "--file", str(table))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "case 0 " not in r.stdout
    assert 'case 1 (line 6): add T[n,3]:float32, T[n,1]:float32\n' \
           '  recorded: R.Tensor((n, 1), dtype="float32")\n' \
           '  TVM:      R.Tensor((n, 3), dtype="float32")\n' in r.stdout
    assert "case 2 (line 8): reshape" in r.stdout
    assert "3 rows, 2 differ from TVM" in r.stdout

    r = _run("--write", "--file", str(table))
    assert r.returncode == 0, r.stdout + r.stderr
    text = table.read_text()
    assert text == ROWS.replace(r'"R.Tensor((n, 1), dtype=\"float32\")"',
                                r'"R.Tensor((n, 3), dtype=\"float32\")"').replace(
        '"!!InternalError: wrong text"',
        r'"!!InternalError: Check failed: dim_to_infer == -1 (0 vs. -1) : Reshape accepts at '
        r'most one \"-1\" in the new shape. However, there are multiple \"-1\" in the given new '
        r'shape  (-1, -1)"')
    assert _run("--check", "--file", str(table)).returncode == 0
