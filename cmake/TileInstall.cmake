# Install rules and the CMake package (find_package(TileCC), docs/embedding.md).
#
#   cmake --install build --prefix P
#
# puts the tools in P/bin, the public headers in P/include/tilecc (included as
# "runtime/Runtime.h", "runtime/jit/Backend.h", "kernels/mamba2/SsdForward.h", "tile/Version.h"),
# the static libraries in P/lib and the package in P/lib/cmake/TileCC. Export sets, so that
# an application of the runtime alone never needs MLIR: TileCCRuntimeTargets (TileCC::runtime)
# and TileCCJitTargets (TileCC::jit, TileCC::mamba2 and the compiler archives they link; they
# reference MLIR's own targets, which the package config finds), and TileCCToolsTargets
# (TileCC::tile-cc, which tilecc_add_launcher runs).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TILE_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}/tilecc")
set(TILE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/TileCC")

# The three public targets carry short names; the archives behind TileCC::jit keep theirs
# (TileCC::TileDriver, ...) and are internal.
set_target_properties(TileRuntime PROPERTIES EXPORT_NAME runtime)
set_target_properties(TileJit PROPERTIES EXPORT_NAME jit)
set_target_properties(TileMamba2 PROPERTIES EXPORT_NAME mamba2)
foreach(target TileRuntime TileJit TileMamba2 TileMamba2Plan TileMamba2Reference)
  target_include_directories(${target} INTERFACE "$<INSTALL_INTERFACE:${TILE_INSTALL_INCLUDEDIR}>")
endforeach()

install(TARGETS TileRuntime EXPORT TileCCRuntimeTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(TARGETS TileJit TileDriver TileFrontend TileFrontendSyntax TilePipeline TileTarget TileCodegen
                TileDialect TileGpuDialect TileInterpreter TileMamba2 TileMamba2Plan TileMamba2Reference
        EXPORT TileCCJitTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(EXPORT TileCCRuntimeTargets NAMESPACE TileCC:: DESTINATION "${TILE_INSTALL_CMAKEDIR}")
install(EXPORT TileCCJitTargets NAMESPACE TileCC:: DESTINATION "${TILE_INSTALL_CMAKEDIR}")

# libtilecc.so (the C API, include/tile/c/tilecc.h; what the Python package loads): TileCC::shared.
set_target_properties(tilecc PROPERTIES EXPORT_NAME shared)
target_include_directories(tilecc INTERFACE "$<INSTALL_INTERFACE:${TILE_INSTALL_INCLUDEDIR}>")
set_target_properties(tilecc PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS tilecc EXPORT TileCCSharedTargets LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(EXPORT TileCCSharedTargets NAMESPACE TileCC:: DESTINATION "${TILE_INSTALL_CMAKEDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/include/tile/c/tilecc.h" DESTINATION "${TILE_INSTALL_INCLUDEDIR}/tile/c")

# The tools find libMLIR.so/libLLVM.so where they were linked (RPATH), from any prefix.
set_target_properties(tile-cc tile-opt tile-run tile-ssd tile-bench tile-jit-example PROPERTIES
                      INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS tile-cc EXPORT TileCCToolsTargets RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS tile-opt tile-run tile-ssd tile-bench tile-jit-example RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
# TileCC::tile-cc, for tilecc_add_launcher (cmake/package/TileCCLauncher.cmake).
install(EXPORT TileCCToolsTargets NAMESPACE TileCC:: DESTINATION "${TILE_INSTALL_CMAKEDIR}")

# Public headers: what an application includes and what those headers include. Driver.h,
# Native.h and CudaApi.h (the driver behind the classes) stay internal and are not installed.
set(TILE_PUBLIC_HEADERS
  runtime/Args.h runtime/DLPack.h runtime/DType.h runtime/Device.h runtime/DeviceBuffer.h runtime/Embedded.h runtime/Error.h
  runtime/Event.h runtime/Kernel.h runtime/KernelMetadata.h runtime/Launch.h runtime/LaunchPlan.h
  runtime/Module.h runtime/Runtime.h runtime/Stream.h runtime/TuneBucket.h
  runtime/KernelPackage.h
  runtime/jit/Backend.h runtime/jit/Buffer.h runtime/jit/Jit.h runtime/jit/DiskCache.h runtime/jit/Prebuilt.h
  runtime/jit/Tuner.h runtime/jit/TuneKey.h runtime/jit/TuneRecord.h runtime/jit/TuneSettings.h runtime/jit/TuneTimer.h
  compiler/frontend/Specialization.h
  kernels/mamba2/SsdForward.h kernels/mamba2/SsdVarlen.h kernels/mamba2/SsdBackward.h kernels/mamba2/SsdPlan.h
  kernels/mamba2/SsdProblem.h
  kernels/mamba2/HostTensor.h
  kernels/mamba2/Reference.h kernels/mamba2/ReferenceBackward.h kernels/mamba2/ErrorMetrics.h
  kernels/mamba2/SsdWork.h)
foreach(header ${TILE_PUBLIC_HEADERS})
  get_filename_component(dir "${header}" DIRECTORY)
  install(FILES "${PROJECT_SOURCE_DIR}/${header}" DESTINATION "${TILE_INSTALL_INCLUDEDIR}/${dir}")
endforeach()
install(FILES "${PROJECT_BINARY_DIR}/tile/Version.h" DESTINATION "${TILE_INSTALL_INCLUDEDIR}/tile")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/package/TileCCConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/package/TileCCConfig.cmake"
  INSTALL_DESTINATION "${TILE_INSTALL_CMAKEDIR}")
# 0.x: a minor release may break the API, so only the same major.minor is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/package/TileCCConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/package/TileCCConfig.cmake" "${PROJECT_SOURCE_DIR}/cmake/package/TileCCLauncher.cmake"
              "${PROJECT_BINARY_DIR}/package/TileCCConfigVersion.cmake"
        DESTINATION "${TILE_INSTALL_CMAKEDIR}")
