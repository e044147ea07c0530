# Warnings are errors (house style rule 10, docs/development.md); one place sets them for every
# target.
add_library(cineflow_warnings INTERFACE)
target_compile_options(cineflow_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wnon-virtual-dtor>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wshadow=local>  # clang: fuzz preset
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${CINEFLOW_WARNINGS_AS_ERRORS}>>:-Werror>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${CINEFLOW_WARNINGS_AS_ERRORS}>>:--Werror=all-warnings>)
