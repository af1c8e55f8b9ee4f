// nb_bench.cpp -- the nanobind peer of the tether Python-boundary benchmark (built only for
// the benchmark).  Each function converts its arguments the way nanobind users write them and
// stores the converted values into a stack array of 16-byte tagged values, then calls a no-op
// through a volatile function pointer (the same work as the floor, bench/python/floor/floor.c).
//   typed:  nop0(), nop_int3(int64 x3), nop_float3(double x3), nop_str(string_view),
//           nop_obj3(const Obj& x3), nop_nd3(nb::ndarray<> x3)
//   nop_args(*args): nb::args, each element dispatched with nb::isinstance / nb::cast
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string_view.h>

#include <cstdint>
#include <string_view>

namespace nb = nanobind;

namespace {

struct Obj {
  void* handle = nullptr;
};

struct Value {  // the layout of a 16-byte tagged value
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

NB_MODULE(nb_bench, m) {
  nb::class_<Obj>(m, "Obj").def("__init__", [](Obj* self) { new (self) Obj{&obj_marker}; });

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
  m.def("nop_nd3", [](nb::ndarray<> a, nb::ndarray<> b, nb::ndarray<> c) {
    Value v[3];
    v[0].tag = 7; v[0].p = a.data();
    v[1].tag = 7; v[1].p = b.data();
    v[2].tag = 7; v[2].p = c.data();
    sink(v, 3);
  });
  m.def("nop_args", [](nb::args args) {
    Value v[8];
    StrView strs[8];
    size_t n = args.size();
    if (n > 8) throw nb::type_error("nop_args: at most 8 arguments");
    for (size_t i = 0; i < n; ++i) {
      nb::handle h = args[i];
      if (nb::isinstance<nb::int_>(h)) {
        v[i].tag = 1; v[i].i = nb::cast<int64_t>(h);
      } else if (nb::isinstance<nb::float_>(h)) {
        v[i].tag = 3; v[i].f = nb::cast<double>(h);
      } else if (nb::isinstance<nb::str>(h)) {
        std::string_view s = nb::cast<std::string_view>(h);
        strs[i] = StrView{s.data(), s.size()};
        v[i].tag = 9; v[i].p = &strs[i];
      } else if (nb::isinstance<Obj>(h)) {
        v[i].tag = 64; v[i].p = nb::cast<const Obj&>(h).handle;
      } else {
        // ndarray last; the ndarray (and its import) lives only as long as this loop turn,
        // which is enough for a nop that reads the pointer.
        v[i].tag = 7; v[i].p = nb::cast<nb::ndarray<>>(h).data();
      }
    }
    sink(v, static_cast<int>(n));
  });
}
