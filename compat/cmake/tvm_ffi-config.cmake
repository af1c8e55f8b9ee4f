# CMake package configuration installed with the tether Python package as
# share/cmake/tvm_ffi/tvm_ffi-config.cmake (`python -m tether.config --cmakedir`), so that a
# project written for tvm-ffi, `find_package(tvm_ffi CONFIG)` with
# -Dtvm_ffi_DIR=$(python -m tether.config --cmakedir), builds against tether:
#   tvm_ffi::header  the include directory (tvm/ffi/c_api.h, dlpack/dlpack.h, tether/*.h)
#   tvm_ffi::shared  the same, plus tether's libtvm_ffi.so alias to link
# tether carries no C++ headers: C++ code using tvm-ffi's (<tvm/ffi/function.h>, ...) adds
# the include directory of an installed apache-tvm-ffi itself.
get_filename_component(_tether_pkg_dir "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(tvm_ffi_INCLUDE_DIR "${_tether_pkg_dir}/include")
set(tvm_ffi_DLPACK_INCLUDE_DIR "${_tether_pkg_dir}/include")
set(tvm_ffi_LIB_FILES "${_tether_pkg_dir}/lib/libtvm_ffi.so")
foreach(_tether_path IN ITEMS "${tvm_ffi_INCLUDE_DIR}/tvm/ffi/c_api.h" "${tvm_ffi_LIB_FILES}")
  if(NOT EXISTS "${_tether_path}")
    set(tvm_ffi_FOUND FALSE)
    set(tvm_ffi_NOT_FOUND_MESSAGE "tether installation incomplete: no ${_tether_path}")
    return()
  endif()
endforeach()

if(NOT TARGET tvm_ffi::header)
  add_library(tvm_ffi::header INTERFACE IMPORTED)
  set_target_properties(tvm_ffi::header PROPERTIES
                        INTERFACE_INCLUDE_DIRECTORIES "${tvm_ffi_INCLUDE_DIR}")
endif()
if(NOT TARGET tvm_ffi::shared)
  add_library(tvm_ffi::shared SHARED IMPORTED)
  set_target_properties(tvm_ffi::shared PROPERTIES
                        IMPORTED_LOCATION "${tvm_ffi_LIB_FILES}"
                        IMPORTED_SONAME "libtvm_ffi.so"
                        INTERFACE_INCLUDE_DIRECTORIES "${tvm_ffi_INCLUDE_DIR}")
endif()
unset(_tether_pkg_dir)
unset(_tether_path)
