# How tile-cc targets link MLIR and LLVM.
#
# Development builds link the shared libMLIR.so / libLLVM.so (fast links, small binaries).
# With TILE_STATIC_TOOLS=ON every target links the static MLIR/LLVM archives plus a static
# libstdc++/libgcc, so a tool runs on a machine without LLVM (the GPU machine).

if(TILE_STATIC_TOOLS)
  file(GLOB TILE_MLIR_ARCHIVES "${LLVM_LIBRARY_DIR}/libMLIR*.a")
  file(GLOB TILE_LLVM_ARCHIVES "${LLVM_LIBRARY_DIR}/libLLVM*.a")
  # Drop archives that pull in unwanted host dependencies (C API shims, Python bindings).
  list(FILTER TILE_MLIR_ARCHIVES EXCLUDE REGEX "libMLIRCAPI|libMLIRPython|libMLIRTestLib")
  find_library(TILE_LIBZSTD_A NAMES libzstd.a REQUIRED)
  find_library(TILE_LIBZ_A NAMES libz.a REQUIRED)
  set(TILE_STATIC_LINK_LIBS
    -Wl,--start-group ${TILE_MLIR_ARCHIVES} ${TILE_LLVM_ARCHIVES} -Wl,--end-group
    ${TILE_LIBZSTD_A} ${TILE_LIBZ_A} -ldl -lpthread -lrt -lm
    -static-libstdc++ -static-libgcc)
  list(LENGTH TILE_MLIR_ARCHIVES _n_mlir)
  message(STATUS "tile-cc: static tools, linking ${_n_mlir} MLIR archives")
  # lld links the archive group in seconds where ld.bfd takes minutes.
  find_program(TILE_LLD ld.lld)
  if(TILE_LLD)
    list(APPEND TILE_STATIC_LINK_LIBS -fuse-ld=lld)
  endif()
endif()

# tile_link_mlir(<target>): link <target> against MLIR and LLVM as the build mode requires.
function(tile_link_mlir target)
  if(TILE_STATIC_TOOLS)
    target_link_libraries(${target} PRIVATE ${TILE_STATIC_LINK_LIBS})
  else()
    target_link_libraries(${target} PRIVATE MLIR LLVM)
  endif()
  target_compile_options(${target} PRIVATE ${TILE_LLVM_CXX_FLAGS})
endfunction()
