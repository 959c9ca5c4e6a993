# trisect_set_warnings(target): the project's warning set, applied per target (never globally),
# as errors when TRISECT_WARNINGS_AS_ERRORS is on (CI turns it on).
function(trisect_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast
    -Wnon-virtual-dtor -Woverloaded-virtual -Wnull-dereference -Wdouble-promotion)
  if(TRISECT_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
