# Finds what the Python module needs (an interpreter with NumPy and its headers, pybind11) and
# sets TRISECT_PYTHON_FOUND. Without them the module is skipped with a message, an error only
# when TRISECT_REQUIRE_PYTHON is on.
#
# Which interpreter: Python3_EXECUTABLE when given; otherwise the first of `python3` on PATH and
# /usr/bin/python3 that imports numpy, so that a pyenv or virtualenv python3 without NumPy
# earlier on PATH does not hide Debian's python3 with python3-numpy.
#
# TRISECT_PYTHON_INSTALL_DIR (relative to the install prefix) is where `cmake --install` puts the
# package: lib/pythonX.Y/dist-packages on Debian (in sys.path for the prefix /usr/local),
# lib/pythonX.Y/site-packages elsewhere.

set(TRISECT_PYTHON_FOUND OFF)
if(NOT Python3_EXECUTABLE)
  find_program(trisect_path_python3 NAMES python3 NO_CACHE)
  foreach(candidate IN ITEMS ${trisect_path_python3} /usr/bin/python3)
    execute_process(COMMAND ${candidate} -c "import numpy"
                    RESULT_VARIABLE trisect_numpy_missing OUTPUT_QUIET ERROR_QUIET)
    if(trisect_numpy_missing EQUAL 0)
      set(Python3_EXECUTABLE ${candidate} CACHE FILEPATH "The Python of the trisect module")
      break()
    endif()
  endforeach()
endif()
find_package(Python3 3.9 COMPONENTS Interpreter Development.Module NumPy)
if(Python3_FOUND)
  set(PYBIND11_FINDPYTHON ON)  # pybind11 uses the Python3 found above
  find_package(pybind11 2.6 CONFIG)
endif()
if(Python3_FOUND AND pybind11_FOUND)
  set(TRISECT_PYTHON_FOUND ON)
  if(Python3_SITEARCH MATCHES "dist-packages")
    set(trisect_site_folder dist-packages)
  else()
    set(trisect_site_folder site-packages)
  endif()
  set(TRISECT_PYTHON_INSTALL_DIR
      "lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/${trisect_site_folder}"
      CACHE STRING "Where `cmake --install` puts the trisect package, relative to the prefix")
  message(STATUS "Python module: ${Python3_EXECUTABLE} ${Python3_VERSION}, pybind11 "
                 "${pybind11_VERSION}; installs to <prefix>/${TRISECT_PYTHON_INSTALL_DIR}")
elseif(TRISECT_REQUIRE_PYTHON)  # set by setup.py: `pip install .` has nothing to build without
  message(FATAL_ERROR "Python module: ${Python3_EXECUTABLE} needs NumPy and pybind11 (Debian's "
                      "python3-dev python3-numpy pybind11-dev; a venv sees python3-numpy when "
                      "made with --system-site-packages)")
else()
  message(STATUS "Python module: skipped (needs python3 with NumPy and pybind11: Debian's "
                 "python3-dev python3-numpy pybind11-dev)")
endif()
