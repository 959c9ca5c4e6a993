# Installs an already-built trisect build tree into a fresh prefix, then configures, builds and
# runs tests/package as a separate project against that prefix. Run by the CTest test
# package.find_package as
#   cmake -DTRISECT_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=... -DCONFIG=...
#         -DGENERATOR=... -DCXX_COMPILER=... -DCXX_FLAGS=... -DLINKER_FLAGS=... -P run_consumer.cmake
# CXX_FLAGS and LINKER_FLAGS carry the parent build's flags (sanitizers need them on both sides).
cmake_minimum_required(VERSION 3.25)

foreach(required TRISECT_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${required} OR "${${required}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: ${required} is not set")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run_step description)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "package test: ${description} failed (${result})")
  endif()
endfunction()

set(config_args)
if(NOT "${CONFIG}" STREQUAL "")
  set(config_args --config "${CONFIG}")
endif()

run_step("install into ${prefix}"
  "${CMAKE_COMMAND}" --install "${TRISECT_BUILD_DIR}" --prefix "${prefix}" ${config_args})

set(configure_args
  -S "${CONSUMER_SOURCE_DIR}" -B "${consumer_build}"
  "-DCMAKE_PREFIX_PATH=${prefix}"
  # Only the fresh prefix may satisfy find_package(trisect): no package registries.
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
  -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
  "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
  "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
if(NOT "${GENERATOR}" STREQUAL "")
  list(APPEND configure_args -G "${GENERATOR}")
endif()
if(NOT "${CXX_COMPILER}" STREQUAL "")
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
if(NOT "${CONFIG}" STREQUAL "")
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${CONFIG}")
endif()
run_step("configuring the consumer" "${CMAKE_COMMAND}" ${configure_args})

# The consumer must have found the installed package, not the build tree.
file(STRINGS "${consumer_build}/CMakeCache.txt" found_dir REGEX "^trisect_DIR:")
string(FIND "${found_dir}" "${prefix}/" at)
if(NOT at GREATER -1)
  message(FATAL_ERROR "package test: trisect was not found in ${prefix}: ${found_dir}")
endif()

run_step("building the consumer" "${CMAKE_COMMAND}" --build "${consumer_build}" ${config_args} --parallel 2)

if(EXISTS "${consumer_build}/consumer")
  set(consumer "${consumer_build}/consumer")
else()
  set(consumer "${consumer_build}/${CONFIG}/consumer")
endif()
run_step("running the consumer" "${consumer}")
