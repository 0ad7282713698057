# The CUDA toolkit is optional at build time: without it tile-cc still emits PTX, and the
# runtime (which dlopens libcuda) only needs cuda.h for its declarations.
set(TILE_CUDA_ROOT "/usr/local/cuda" CACHE PATH "CUDA toolkit root (cuda.h, ptxas)")
find_path(TILE_CUDA_INCLUDE_DIR cuda.h HINTS "${TILE_CUDA_ROOT}/include" NO_DEFAULT_PATH)
find_program(TILE_PTXAS ptxas HINTS "${TILE_CUDA_ROOT}/bin" NO_DEFAULT_PATH)
if(TILE_CUDA_INCLUDE_DIR AND TILE_PTXAS)
  message(STATUS "tile-cc: CUDA toolkit at ${TILE_CUDA_ROOT} (ptxas: ${TILE_PTXAS})")
  set(TILE_HAVE_CUDA ON)
else()
  message(STATUS "tile-cc: no CUDA toolkit at ${TILE_CUDA_ROOT} (cuda.h/ptxas missing); "
                 "cubin emission and ptxas tests are disabled. Set -DTILE_CUDA_ROOT=... to enable.")
  set(TILE_HAVE_CUDA OFF)
endif()
