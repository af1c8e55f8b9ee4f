#!/bin/sh
# run.sh -- what `make bench-python` runs: the Python-boundary benchmark, end to end.
#   1. a venv at bench/python/.venv (BENCH_PYTHON picks the interpreter; default python3) with
#      requirements.txt (re-run pip only when that file changes);
#   2. tether (re)installed into it from the working tree, built in bench/python/build/tether
#      (incremental; not stripped, so callgrind profiles name its functions); if it does not
#      build, the run goes on without the tether column (log: build/tether-install.log);
#   3. the floor extension and the nanobind / pybind11 peers built with CMake in
#      bench/python/build/peers;
#   4. bench_boundary.py, which writes bench/results/python_boundary.{md,png} (timings, then
#      instruction counts under callgrind; the whole run takes about 5 minutes).
# Extra arguments go to bench_boundary.py (e.g. --quick, --reps 61).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VENV=$HERE/.venv
PY=$VENV/bin/python
mkdir -p "$HERE/build"

if [ ! -x "$PY" ]; then
  echo "[bench-python] creating $VENV"
  "${BENCH_PYTHON:-python3}" -m venv "$VENV"
fi
STAMP=$VENV/.bench-requirements
if [ ! -f "$STAMP" ] || ! cmp -s "$HERE/requirements.txt" "$STAMP"; then
  echo "[bench-python] installing requirements.txt"
  "$PY" -m pip install -q -r "$HERE/requirements.txt"
  cp "$HERE/requirements.txt" "$STAMP"
fi

echo "[bench-python] building and installing tether from $ROOT"
if "$PY" -m pip install -q --no-build-isolation --no-deps --force-reinstall \
     -C build-dir="$HERE/build/tether" -C install.strip=false "$ROOT" >"$HERE/build/tether-install.log" 2>&1; then
  :
else
  echo "[bench-python] WARNING: tether did not build (see bench/python/build/tether-install.log);" \
       "its column will be skipped" >&2
  "$PY" -m pip uninstall -q -y tether >/dev/null 2>&1 || true
fi

echo "[bench-python] building the floor and the nanobind / pybind11 peers"
cmake -S "$HERE" -B "$HERE/build/peers" -DPython_EXECUTABLE="$PY" \
  -DTETHER_INCLUDE_DIR="$ROOT/include" >"$HERE/build/peers-configure.log" 2>&1 ||
  { cat "$HERE/build/peers-configure.log"; exit 1; }
cmake --build "$HERE/build/peers" -j"${JOBS:-2}" >"$HERE/build/peers-build.log" 2>&1 ||
  { cat "$HERE/build/peers-build.log"; exit 1; }

cd "$ROOT"
exec "$PY" "$HERE/bench_boundary.py" --out-dir "$ROOT/bench/results" "$@"
