"""Runs apache-tvm-ffi's own C++ test suite against upstream's library and against libtether.

    python tests/upstream/run.py --build-dir build-upstream --tether-lib build/libtether.so \
        [--upstream-lib PATH] [--jobs 2] [--results bench/results/upstream_cpp.md]

Steps, all inside --build-dir (nothing is cached elsewhere):
  1. downloads the apache-tvm-ffi sdist (SDIST_VERSION) from PyPI with pip, checks its sha256
     and unpacks it;
  2. configures and builds tests/upstream/CMakeLists.txt: every tests/cpp test file as two
     programs, one linked to upstream's libtvm_ffi.so (default: the one of the apache-tvm-ffi
     wheel installed for this python), one to libtether;
  3. runs every program (gtest JSON output; a program that crashes or hangs is re-run one
     test at a time, so a crash costs only the tests that crash);
  4. prints a per-file table and writes it, with every test that passes upstream and not on
     tether, to --results.

Exit status 0 iff every test that passes against upstream's library passes against libtether.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import time

SDIST_VERSION = "0.1.15.post2"
SDIST_NAME = f"apache_tvm_ffi-{SDIST_VERSION}"
SDIST_SHA256 = "909be9ef5af07726aa9afd38a3111abc4d86cfd5927ebedfa9166232ce7d287b"
HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIMES = ("upstream", "tether")
# The test file every program links for its registrations (tests/upstream/CMakeLists.txt).
COMPANION = "test_reflection"
# Seconds for one whole program, and for one test when a program is re-run test by test.
PROGRAM_TIMEOUT = 600
TEST_TIMEOUT = 120


def log(msg):
    print(f"[test-upstream] {msg}", flush=True)


def fetch_sdist(build_dir):
    """Returns the unpacked sdist directory, downloading and unpacking it if needed."""
    src = os.path.join(build_dir, "src", SDIST_NAME)
    if os.path.isfile(os.path.join(src, "PKG-INFO")):
        return src
    dl = os.path.join(build_dir, "download")
    tarball = os.path.join(dl, f"{SDIST_NAME}.tar.gz")
    if not os.path.isfile(tarball):
        log(f"downloading apache-tvm-ffi {SDIST_VERSION} sdist from PyPI")
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        "--no-binary", "apache-tvm-ffi", f"apache-tvm-ffi=={SDIST_VERSION}",
                        "-d", dl], check=True)
    with open(tarball, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != SDIST_SHA256:
        sys.exit(f"test-upstream: {tarball}: sha256 {digest}, expected {SDIST_SHA256}")
    with tarfile.open(tarball) as tar:
        # The "data" filter (no absolute paths, links out of the tree, devices) where available.
        kw = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(os.path.join(build_dir, "src"), **kw)
    return src


def upstream_lib_of_wheel():
    out = subprocess.run([sys.executable, "-m", "tvm_ffi.config", "--libfiles"],
                         check=True, capture_output=True, text=True).stdout.split()
    libs = [p for p in out if os.path.basename(p) == "libtvm_ffi.so"]
    if not libs:
        sys.exit("test-upstream: no libtvm_ffi.so in `python -m tvm_ffi.config --libfiles`; "
                 "install apache-tvm-ffi or pass --upstream-lib")
    return libs[0]


def build(args, sdist):
    cmake_dir = os.path.join(args.build_dir, "cmake")
    subprocess.run(["cmake", "-S", HERE, "-B", cmake_dir, f"-DSDIST={sdist}",
                    f"-DTETHER_LIB={os.path.abspath(args.tether_lib)}",
                    f"-DUPSTREAM_LIB={os.path.abspath(args.upstream_lib)}"],
                   check=True, stdout=subprocess.DEVNULL)
    # -k: a program that does not link (a symbol libtether lacks) must not stop the others.
    res = subprocess.run(["cmake", "--build", cmake_dir, f"-j{args.jobs}", "--", "-k"])
    if res.returncode != 0:
        log("some programs did not build; their tests count as failed")
    with open(os.path.join(cmake_dir, "test_names.txt")) as f:
        return cmake_dir, f.read().strip().split(";")


def list_tests(prog):
    """The test names of a gtest program, as Suite.Name (DISABLED_ tests left out)."""
    out = subprocess.run([prog, "--gtest_list_tests"], capture_output=True, text=True,
                         timeout=TEST_TIMEOUT).stdout
    names, suite = [], ""
    for line in out.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            names.append(suite + line.split("#")[0].strip())
    return [n for n in names if "DISABLED_" not in n]


def gtest_json(prog, out_json, gtest_filter=None, timeout=PROGRAM_TIMEOUT):
    """Runs prog; returns ({test: (passed, message)}, note), note None iff the program wrote
    its report and exited normally.  A program killed by a signal after its report (a crash
    at exit) has every reported test failed."""
    if os.path.exists(out_json):
        os.remove(out_json)
    cmd = [prog, f"--gtest_output=json:{out_json}"]
    if gtest_filter:
        cmd.append(f"--gtest_filter={gtest_filter}")
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {}, f"timed out after {timeout}s"
    tail = " | ".join((res.stdout + res.stderr).strip().splitlines()[-3:])
    if not os.path.exists(out_json):
        return {}, f"exit status {res.returncode}: {tail}"
    with open(out_json) as f:
        report = json.load(f)
    died = f"died with signal {-res.returncode} after its tests: {tail}" \
        if res.returncode < 0 else None
    results = {}
    for suite in report.get("testsuites", []):
        for t in suite.get("testsuite", []):
            if t.get("status") == "NOTRUN":
                continue
            failures = t.get("failures", [])
            skipped = t.get("result") == "SKIPPED"
            msg = failures[0].get("failure", "") if failures else ("skipped" if skipped else "")
            ok = not failures and not skipped and died is None
            results[f"{suite['name']}.{t['name']}"] = (ok, msg or died or "")
    return results, died


def run_program(prog, work, exclude):
    """({test: (passed, message)} for every test of prog not in exclude, note on tests
    that could not run at all)."""
    try:
        names = [n for n in list_tests(prog) if n not in exclude]
    except subprocess.TimeoutExpired:
        names = []
    results, note = gtest_json(prog, work + ".json",
                               "-" + ":".join(sorted(exclude)) if exclude else None)
    if note is None and set(names) <= set(results):
        return {n: results[n] for n in names}, None
    # The program died before or after writing its report: one test at a time.
    results = {}
    for name in names:
        one, crash = gtest_json(prog, work + ".json", name, TEST_TIMEOUT)
        results[name] = one.get(name, (False, f"crashed: {crash}"))
    return results, note


def first_line(msg, sdist):
    """The start of a failure message, the sdist's path shortened to <sdist>."""
    msg = msg.replace(sdist, "<sdist>")
    lines = [l.strip() for l in msg.strip().splitlines() if l.strip()]
    text = " / ".join(lines[:3])
    return text[:300].replace("|", "\\|")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--tether-lib", required=True)
    ap.add_argument("--upstream-lib", help="default: libtvm_ffi.so of the installed wheel")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--results", help="write the summary (markdown) here too")
    args = ap.parse_args()
    start = time.monotonic()
    args.build_dir = os.path.abspath(args.build_dir)
    os.makedirs(args.build_dir, exist_ok=True)
    args.upstream_lib = args.upstream_lib or upstream_lib_of_wheel()
    sdist = fetch_sdist(args.build_dir)
    cmake_dir, names = build(args, sdist)
    built = time.monotonic()

    env_clean = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    os.environ.clear()
    os.environ.update(env_clean)
    work = os.path.join(args.build_dir, "results")
    os.makedirs(work, exist_ok=True)
    # Every other program also holds test_reflection's tests (CMakeLists.txt says why).
    companion = os.path.join(cmake_dir, f"{COMPANION}__upstream")
    companion_tests = set(list_tests(companion)) if os.path.exists(companion) else set()
    rows, regressions, all_results = [], [], {}
    for name in names:
        per_rt, notes = {}, {}
        exclude = set() if name == COMPANION else companion_tests
        for rt in RUNTIMES:
            prog = os.path.join(cmake_dir, f"{name}__{rt}")
            if os.path.exists(prog):
                per_rt[rt], notes[rt] = run_program(prog, os.path.join(work, f"{name}__{rt}"),
                                                    exclude)
            else:
                per_rt[rt], notes[rt] = None, "program did not build"
        # The test list comes from whichever program was built (upstream's, normally).
        tests = sorted(set().union(*(r for r in per_rt.values() if r)))
        for rt in RUNTIMES:
            # Tests a program did not report (it did not build, or died listing them).
            per_rt[rt] = {t: (per_rt[rt] or {}).get(t, (False, notes[rt] or "not run"))
                          for t in tests}
        up, te = per_rt["upstream"], per_rt["tether"]
        n_up = sum(1 for t in tests if up[t][0])
        n_te = sum(1 for t in tests if te[t][0])
        rows.append((name, n_up, n_te, len(tests)))
        regressions += [(name, t, te[t][1]) for t in tests if up[t][0] and not te[t][0]]
        all_results[name] = {t: {rt: per_rt[rt][t][0] for rt in RUNTIMES} for t in tests}
        log(f"{name:36s} upstream {n_up}/{len(tests)}  tether {n_te}/{len(tests)}")
    with open(os.path.join(args.build_dir, "results.json"), "w") as f:
        json.dump(all_results, f, indent=1, sort_keys=True)

    tot = [sum(r[i] for r in rows) for i in (1, 2, 3)]
    elapsed = time.monotonic() - start
    lines = [
        "# apache-tvm-ffi's C++ suite on libtether",
        "",
        f"`make test-upstream`: tests/cpp of the apache-tvm-ffi {SDIST_VERSION} sdist, each file",
        "built as one gtest program against upstream's libtvm_ffi.so (the installed wheel's) and",
        "against libtether (tests/upstream/CMakeLists.txt says how). Passing tests per file:",
        "",
        "| file | upstream | tether |",
        "|---|---|---|",
    ]
    lines += [f"| {n} | {u}/{m} | {t}/{m} |" for n, u, t, m in rows]
    lines += [f"| **total** | **{tot[0]}/{tot[2]}** | **{tot[1]}/{tot[2]}** |", ""]
    if regressions:
        lines += [f"{len(regressions)} test(s) pass against upstream's library and fail against "
                  "libtether:", "", "| file | test | first failure |", "|---|---|---|"]
        lines += [f"| {n} | {t} | {first_line(m, sdist)} |" for n, t, m in regressions]
    else:
        lines.append("Every test that passes against upstream's library passes against libtether.")
    lines += ["", f"Wall time: {elapsed:.0f} s ({built - start:.0f} s download and build, "
              f"{elapsed - (built - start):.0f} s running).", ""]
    text = "\n".join(lines)
    print(text)
    if args.results:
        with open(args.results, "w") as f:
            f.write(text)
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
