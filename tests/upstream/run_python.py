"""Runs apache-tvm-ffi's own Python test suite against the real tvm_ffi and against tether.

    python tests/upstream/run_python.py --build-dir build-upstream [--jobs 2] \
        [--results bench/results/upstream_python.md] [--min-ratio R] [-k FILE_SUBSTRING]

Steps, all inside --build-dir:
  1. downloads and unpacks the apache-tvm-ffi sdist (tests/upstream/run.py's fetch_sdist);
  2. runs tests/python of the sdist file by file with pytest twice: as is, against the
     apache-tvm-ffi installed for this python (the reference), and with tests/upstream/shim
     first on PYTHONPATH, whose sitecustomize makes `tvm_ffi[.X]` the module objects
     `tether[.X]` and implements nothing;
  3. prints a per-file table (tests passing on each side, whether the file imports) and the
     most common first lines of tether's failures, and writes them to --results.

A file whose pytest process dies (a signal, a timeout) on tether is re-run one test at a
time, so a crash costs only the tests that crash; each such test is listed as a crash.
Exit status 0 iff no test crashes the interpreter under tether and tether passes at least
--min-ratio of the tests the reference passes.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import SDIST_VERSION, fetch_sdist  # noqa: E402

SIDES = ("tvm_ffi", "tether")
SHIM = os.path.join(HERE, "shim")
FILE_TIMEOUT = 900
TEST_TIMEOUT = 120
# --tether-path: a directory put after the shim on PYTHONPATH (a development copy of tether).
TETHER_PATH = None


def log(msg):
    print(f"[test-upstream-python] {msg}", flush=True)


def test_files(tests_dir, pattern):
    files = []
    for root, _dirs, names in os.walk(tests_dir):
        for n in names:
            if n.startswith("test_") and n.endswith(".py"):
                files.append(os.path.relpath(os.path.join(root, n), tests_dir))
    return sorted(f for f in files if not pattern or pattern in f)


def side_env(side, tether_path=None):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    if side == "tether":
        env["PYTHONPATH"] = os.pathsep.join([SHIM] + ([tether_path] if tether_path else []))
    env["PYTHONFAULTHANDLER"] = "1"
    return env


def pytest_cmd(sdist, junit, targets):
    # -o addopts= drops the sdist's "-n auto" (pytest-xdist is not a dependency here).
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
            "--rootdir", sdist, f"--junitxml={junit}", *targets]


def parse_junit(path):
    """{test id: (outcome, message)}, outcome one of passed/failed/skipped/error."""
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        tid = f"{case.get('classname')}::{case.get('name')}"
        outcome, msg = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, msg = ("failed" if child.tag == "failure" else "error"), \
                    child.get("message") or (child.text or "")
                break
            if child.tag == "skipped":
                outcome, msg = "skipped", child.get("message") or ""
        out[tid] = (outcome, msg)
    return out


def run_file(sdist, work, rel, side, reuse=False):
    """({test id: (outcome, message)}, note): note says what went wrong with the process
    (None when pytest exited normally), "import" when the file did not import."""
    tests_dir = os.path.join(sdist, "tests", "python")
    tag = f"{rel.replace('/', '_')}.{side}"
    junit = os.path.join(work, tag + ".xml")
    logf = os.path.join(work, tag + ".log")
    if reuse and os.path.exists(junit):
        return parse_junit(junit), None
    if os.path.exists(junit):
        os.remove(junit)
    try:
        with open(logf, "w") as lf:
            res = subprocess.run(pytest_cmd(sdist, junit, [rel]), cwd=tests_dir, env=side_env(side, TETHER_PATH),
                                 stdout=lf, stderr=subprocess.STDOUT, timeout=FILE_TIMEOUT)
        rc = res.returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
    results = parse_junit(junit) if os.path.exists(junit) else {}
    if rc in (0, 1, 5) and os.path.exists(junit):
        return results, None
    if rc == 2 and os.path.exists(junit):
        # Interrupted: a collection error (the file does not import) or an internal error.
        return results, "import: " + first_error(logf)
    if side == "tvm_ffi":
        return results, f"pytest exit status {rc}"
    return rerun_one_by_one(sdist, work, rel, side, tag), f"crashed ({rc}); re-run test by test"


def collect(sdist, rel, side):
    tests_dir = os.path.join(sdist, "tests", "python")
    res = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p",
                          "no:cacheprovider", "-o", "addopts=", "--rootdir", sdist, rel],
                         cwd=tests_dir, env=side_env(side, TETHER_PATH), capture_output=True, text=True,
                         timeout=TEST_TIMEOUT)
    return [l.strip() for l in res.stdout.splitlines() if "::" in l]


def rerun_one_by_one(sdist, work, rel, side, tag):
    # Node ids are relative to the rootdir (the sdist), so each test runs from there.
    junit = os.path.join(work, tag + ".one.xml")
    results = {}
    for nodeid in collect(sdist, rel, side):
        if os.path.exists(junit):
            os.remove(junit)
        try:
            res = subprocess.run(pytest_cmd(sdist, junit, [nodeid]), cwd=sdist,
                                 env=side_env(side, TETHER_PATH), capture_output=True,
                                 text=True, timeout=TEST_TIMEOUT)
            rc = res.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        one = parse_junit(junit) if os.path.exists(junit) else {}
        if rc in (0, 1) and one:
            results.update(one)
        else:
            # The junit id of a test that never reported: dotted module path, classes, name.
            parts = nodeid.split("::")
            cls = ".".join([parts[0][:-3].replace("/", ".")] + parts[1:-1])
            results[f"{cls}::{parts[-1]}"] = ("crash", f"interpreter died ({rc})")
    return results


def first_error(logf):
    """The first pytest error line ("E   ...") of a log: what stopped a file importing."""
    with open(logf, errors="replace") as f:
        for line in f:
            if line.startswith("E   "):
                return re.sub(r" \(/[^)]*\)", "", line[1:].strip())
    return "collection error"


def first_line(msg):
    msg = msg.strip().splitlines()[0] if msg.strip() else ""
    msg = re.sub(r"0x[0-9a-f]+", "0x...", msg)
    msg = re.sub(r" \(/[^)]*\)", "", msg)  # "(/path/to/module.py)" after an import error
    return msg[:160].replace("|", "\\|")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--results", help="write the summary (markdown) here too")
    ap.add_argument("--min-ratio", type=float, default=0.0,
                    help="fail unless tether passes this fraction of the reference's passes")
    ap.add_argument("-k", dest="pattern", help="only test files whose path contains this")
    ap.add_argument("--failures", help="write every reference-passing test tether fails, "
                    "with its first message, to this file")
    ap.add_argument("--tether-path", help="put this directory (holding a tether package) "
                    "after the shim on PYTHONPATH for the tether runs")
    ap.add_argument("--reuse-reference", action="store_true",
                    help="reuse the tvm_ffi side's results of an earlier run where present")
    args = ap.parse_args()
    global TETHER_PATH
    TETHER_PATH = args.tether_path and os.path.abspath(args.tether_path)
    start = time.monotonic()
    args.build_dir = os.path.abspath(args.build_dir)
    os.makedirs(args.build_dir, exist_ok=True)
    sdist = fetch_sdist(args.build_dir)
    work = os.path.join(args.build_dir, "python-results")
    os.makedirs(work, exist_ok=True)
    files = test_files(os.path.join(sdist, "tests", "python"), args.pattern)
    jobs = [(rel, side) for rel in files for side in SIDES]
    done = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = {pool.submit(run_file, sdist, work, rel, side,
                                args.reuse_reference and side == "tvm_ffi"): (rel, side) for rel, side in jobs}
        for fut in concurrent.futures.as_completed(futs):
            done[futs[fut]] = fut.result()

    rows, missing, crashes = [], [], []
    totals = collections.Counter()
    for rel in files:
        ref, ref_note = done[(rel, "tvm_ffi")]
        te, te_note = done[(rel, "tether")]
        ref_pass = {t for t, (o, _) in ref.items() if o == "passed"}
        te_pass = {t for t, (o, _) in te.items() if o == "passed"}
        both = ref_pass & te_pass
        ref_imports = not (ref_note or "").startswith("import")
        te_imports = not (te_note or "").startswith("import")
        imports = "yes" if te_note is None else te_note
        if not te_imports:
            imports = "no: " + te_note[len("import: "):]
        if not ref_imports:
            imports += " (not under tvm_ffi either)"
        rows.append((rel, len(ref), len(ref_pass), len(both), imports))
        totals.update(ref=len(ref_pass), both=len(both), files=1,
                      te_imports=te_imports or not ref_imports)
        for t in sorted(ref_pass - te_pass):
            outcome, msg = te.get(t, ("not run", "not collected: " + (te_note or "")))
            missing.append((rel, t, outcome, msg))
        crashes += [(rel, t) for t, (o, _) in te.items() if o == "crash"]
        log(f"{rel:44s} tvm_ffi {len(ref_pass):4d}  tether {len(both):4d}  {imports[:60]}")

    ratio = totals["both"] / totals["ref"] if totals["ref"] else 1.0
    reasons = collections.Counter(first_line(m) for _r, _t, _o, m in missing)
    elapsed = time.monotonic() - start
    lines = [
        "# apache-tvm-ffi's Python suite on tether",
        "",
        f"`make test-upstream-python`: tests/python of the apache-tvm-ffi {SDIST_VERSION} sdist,",
        "run file by file with pytest against the installed apache-tvm-ffi and against tether",
        "through an alias-only shim (tests/upstream/shim: `tvm_ffi[.X]` is the module object",
        "`tether[.X]`). \"tether\" counts the tests that pass on both sides.",
        "",
        "| file | tests | pass on tvm_ffi | pass on tether too | imports under tether |",
        "|---|---:|---:|---:|---|",
    ]
    lines += [f"| {r} | {n} | {p} | {b} | {i.replace('|', '/')[:120]} |" for r, n, p, b, i in rows]
    lines += [f"| **total** | | **{totals['ref']}** | **{totals['both']}** "
              f"({100 * ratio:.1f}%) | {totals['te_imports']}/{totals['files']} |", ""]
    if crashes:
        lines += [f"{len(crashes)} test(s) crash the interpreter under tether:", ""]
        lines += [f"- {r}: {t}" for r, t in crashes] + [""]
    if reasons:
        lines += ["Most common first lines of tether's failures (of tests passing on tvm_ffi):",
                  "", "| tests | message |", "|---:|---|"]
        lines += [f"| {n} | {m} |" for m, n in reasons.most_common(40)] + [""]
    lines += [f"Wall time: {elapsed:.0f} s with {args.jobs} job(s).", ""]
    text = "\n".join(lines)
    print(text)
    if args.results:
        with open(args.results, "w") as f:
            f.write(text)
    if args.failures:
        with open(args.failures, "w") as f:
            for r, t, o, m in missing:
                f.write(f"{t}\t{o}\t{first_line(m)}\n")
    ok = not crashes and ratio >= args.min_ratio
    if not ok:
        log(f"FAILED: {len(crashes)} crash(es); ratio {ratio:.4f} (need {args.min_ratio})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
