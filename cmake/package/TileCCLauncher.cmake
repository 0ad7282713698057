# tilecc_add_launcher(): compiles a kernel ahead of time into a C++ launcher
# (tile-cc --emit=launcher, docs/embedding.md) and adds it to a target, which links
# TileCC::runtime only.
#
#   tilecc_add_launcher(<target>
#     SOURCE kernel.py KERNEL name OUTPUT basename   # writes <binary dir>/basename.h and .cpp
#     [ARCHS sm_80 sm_90a ...]                       # cubins (default sm_90a)
#     [CONSTANTS K=V ...] [ARGS name=dtype:rank ...] [CONFIG N|all]
#     [NAME launcher_name] [NAMESPACE ns] [PTX_ARCH arch|none] [PTX_ONLY] [NUM_THREADS n]
#     [TUNING_TABLE table.json])                     # with CONFIG all: NAME_tuned_config
#
# The target includes "basename.h" and calls launch_<name>(stream, grid, args...). The launcher
# is regenerated when the kernel source, the tuning table or tile-cc changes. TILECC_TILE_CC overrides the
# compiler (default: the package's TileCC::tile-cc).
function(tilecc_add_launcher target)
  cmake_parse_arguments(PARSE_ARGV 1 L "PTX_ONLY" "SOURCE;KERNEL;OUTPUT;CONFIG;NAME;NAMESPACE;PTX_ARCH;NUM_THREADS;TUNING_TABLE"
                        "ARCHS;CONSTANTS;ARGS")
  foreach(required SOURCE KERNEL OUTPUT)
    if(NOT L_${required})
      message(FATAL_ERROR "tilecc_add_launcher(${target}): ${required} is required")
    endif()
  endforeach()
  if(L_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilecc_add_launcher(${target}): unknown arguments: ${L_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(source "${L_SOURCE}" ABSOLUTE)
  set(header "${CMAKE_CURRENT_BINARY_DIR}/${L_OUTPUT}.h")
  set(impl "${CMAKE_CURRENT_BINARY_DIR}/${L_OUTPUT}.cpp")
  set(args "${source}" --kernel "${L_KERNEL}" --emit=launcher -o "${header}")
  foreach(arch IN LISTS L_ARCHS)
    list(APPEND args --arch "${arch}")
  endforeach()
  foreach(c IN LISTS L_CONSTANTS)
    list(APPEND args --const "${c}")
  endforeach()
  foreach(a IN LISTS L_ARGS)
    list(APPEND args --arg "${a}")
  endforeach()
  foreach(option CONFIG NAME NAMESPACE PTX_ARCH NUM_THREADS)
    if(DEFINED L_${option})
      string(TOLOWER "${option}" flag)
      string(REPLACE "_" "-" flag "${flag}")
      if(option STREQUAL "NAME" OR option STREQUAL "NAMESPACE")
        set(flag "launcher-${flag}")
      endif()
      list(APPEND args "--${flag}" "${L_${option}}")
    endif()
  endforeach()
  if(L_PTX_ONLY)
    list(APPEND args --ptx-only)
  endif()
  set(table "")
  if(L_TUNING_TABLE)
    get_filename_component(table "${L_TUNING_TABLE}" ABSOLUTE)
    list(APPEND args --tuning-table "${table}")
  endif()
  if(TILECC_TILE_CC)
    set(compiler "${TILECC_TILE_CC}")
  else()
    set(compiler "$<TARGET_FILE:TileCC::tile-cc>")
  endif()
  add_custom_command(OUTPUT "${header}" "${impl}"
    COMMAND ${compiler} ${args}
    DEPENDS "${source}" ${table} ${compiler}
    COMMENT "tile-cc: launcher for ${L_KERNEL} (${L_OUTPUT}.h, ${L_OUTPUT}.cpp)"
    VERBATIM)
  target_sources(${target} PRIVATE "${header}" "${impl}")
  target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_BINARY_DIR}")
  target_link_libraries(${target} PRIVATE TileCC::runtime)
endfunction()
