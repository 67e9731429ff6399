cmake_minimum_required(VERSION 3.20)
# Run by CTest as <layer>_complete (tests/CMakeLists.txt): every top-level test unit of BINARY
# (a suite, or a case outside any suite) must be one of UNITS, the units the per-file entries
# run, so that splitting a binary into per-file entries never drops a test case.
execute_process(COMMAND ${BINARY} --list_content ERROR_VARIABLE listing OUTPUT_VARIABLE out
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${BINARY} --list_content failed (${rc})")
endif()
string(APPEND listing "${out}")
string(REPLACE "\n" ";" lines "${listing}")
set(missing "")
set(count 0)
foreach(line ${lines})
  # Top-level units are not indented; "name*" or "name" (a trailing * marks enabled units).
  if(line MATCHES "^([A-Za-z0-9_]+)\\*?$")
    set(unit ${CMAKE_MATCH_1})
    math(EXPR count "${count} + 1")
    if(NOT unit IN_LIST UNITS)
      list(APPEND missing ${unit})
    endif()
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${BINARY} --list_content listed no test unit")
endif()
if(missing)
  message(FATAL_ERROR "test units no per-file CTest entry runs: ${missing} (start their file's "
                      "suite at the beginning of a line: BOOST_AUTO_TEST_SUITE(name))")
endif()
message(STATUS "${count} top-level units, all run by the per-file entries")
