# run_example.cmake -- runs an example program as a test and checks what it prints:
#
#   cmake -DEXE=<program> -DEXPECTED=<file> -P run_example.cmake
#
# Passes when the program exits with 0 and its output contains every non-empty line of
# EXPECTED, in that order (each line a literal substring; lines it does not mention are
# free, e.g. ones with addresses).  The output is echoed either way.
execute_process(COMMAND ${EXE} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} exited with ${rc}")
endif()

file(STRINGS ${EXPECTED} expected_lines)
set(rest "${out}")
set(checked 0)
foreach(line IN LISTS expected_lines)
  if(line STREQUAL "")
    continue()
  endif()
  string(FIND "${rest}" "${line}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "expected output line not found (in order): \"${line}\"")
  endif()
  string(LENGTH "${line}" len)
  math(EXPR pos "${pos} + ${len}")
  string(SUBSTRING "${rest}" ${pos} -1 rest)
  math(EXPR checked "${checked} + 1")
endforeach()
message("${checked} expected lines found")
