// pyb_bench.cpp -- the pybind11 peer of the tether Python-boundary benchmark (built only for
// the benchmark).  Same functions as nb_bench.cpp: typed ones and a py::args one; each stores
// the converted values into a stack array of 16-byte tagged values and calls a no-op through a
// volatile function pointer.  Arrays: py::array (numpy); torch tensors are not py::array, so
// nop_nd3_cvt takes py::array_t<float> (pybind11 converts through numpy.asarray, a zero-copy
// view of a CPU tensor made anew on every call).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string_view>

namespace py = pybind11;

namespace {

struct Obj {
  void* handle = nullptr;
};

struct Value {
  int32_t tag;
  int32_t pad;
  union {
    int64_t i;
    double f;
    const void* p;
  };
};

struct StrView {
  const char* data;
  size_t size;
};

void callee(const Value*, int) {}
void (*volatile sink)(const Value*, int) = callee;

int obj_marker;

}  // namespace

PYBIND11_MODULE(pyb_bench, m) {
  py::class_<Obj>(m, "Obj").def(py::init([]() { return Obj{&obj_marker}; }));

  m.def("nop0", []() { sink(nullptr, 0); });
  m.def("nop_int3", [](int64_t a, int64_t b, int64_t c) {
    Value v[3];
    v[0].tag = 1; v[0].i = a;
    v[1].tag = 1; v[1].i = b;
    v[2].tag = 1; v[2].i = c;
    sink(v, 3);
  });
  m.def("nop_float3", [](double a, double b, double c) {
    Value v[3];
    v[0].tag = 3; v[0].f = a;
    v[1].tag = 3; v[1].f = b;
    v[2].tag = 3; v[2].f = c;
    sink(v, 3);
  });
  m.def("nop_str", [](std::string_view s) {
    StrView sv{s.data(), s.size()};
    Value v[1];
    v[0].tag = 9; v[0].p = &sv;
    sink(v, 1);
  });
  m.def("nop_obj3", [](const Obj& a, const Obj& b, const Obj& c) {
    Value v[3];
    v[0].tag = 64; v[0].p = a.handle;
    v[1].tag = 64; v[1].p = b.handle;
    v[2].tag = 64; v[2].p = c.handle;
    sink(v, 3);
  });
  m.def("nop_nd3", [](py::array a, py::array b, py::array c) {
    Value v[3];
    v[0].tag = 7; v[0].p = a.data();
    v[1].tag = 7; v[1].p = b.data();
    v[2].tag = 7; v[2].p = c.data();
    sink(v, 3);
  });
  m.def("nop_nd3_cvt", [](py::array_t<float> a, py::array_t<float> b, py::array_t<float> c) {
    Value v[3];
    v[0].tag = 7; v[0].p = a.data();
    v[1].tag = 7; v[1].p = b.data();
    v[2].tag = 7; v[2].p = c.data();
    sink(v, 3);
  });
  m.def("nop_args", [](py::args args) {
    Value v[8];
    StrView strs[8];
    size_t n = args.size();
    if (n > 8) throw py::type_error("nop_args: at most 8 arguments");
    for (size_t i = 0; i < n; ++i) {
      py::handle h = args[i];
      if (py::isinstance<py::int_>(h)) {
        v[i].tag = 1; v[i].i = h.cast<int64_t>();
      } else if (py::isinstance<py::float_>(h)) {
        v[i].tag = 3; v[i].f = h.cast<double>();
      } else if (py::isinstance<py::str>(h)) {
        std::string_view s = h.cast<std::string_view>();
        strs[i] = StrView{s.data(), s.size()};
        v[i].tag = 9; v[i].p = &strs[i];
      } else if (py::isinstance<Obj>(h)) {
        v[i].tag = 64; v[i].p = h.cast<const Obj&>().handle;
      } else if (py::isinstance<py::array>(h)) {
        v[i].tag = 7; v[i].p = py::reinterpret_borrow<py::array>(h).data();
      } else {
        v[i].tag = 7; v[i].p = py::array_t<float>::ensure(h).data();
      }
    }
    sink(v, static_cast<int>(n));
  });
}
