// The tile-lower-to-llvm pass: runs KernelLowering on every kernel and records the launch
// facts on the resulting function.

#include "compiler/codegen/Debug.h"
#include "compiler/codegen/GpuTarget.h"
#include "compiler/codegen/KernelLowering.h"
#include "compiler/codegen/Passes.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

namespace tile::codegen {

#define GEN_PASS_DEF_TILELOWERTOLLVM
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

// cuTile's dtype names, used in the metadata.
static std::string dtypeName(Type t) {
  if (t.isInteger(1))
    return "bool_";
  if (auto i = dyn_cast<IntegerType>(t))
    return "int" + std::to_string(i.getWidth());
  if (t.isF16())
    return "float16";
  if (t.isBF16())
    return "bfloat16";
  if (t.isF32())
    return "float32";
  if (t.isF64())
    return "float64";
  if (t.isTF32())
    return "tfloat32";
  if (isa<Float8E4M3FNType>(t))
    return "float8_e4m3fn";
  if (isa<Float8E5M2Type>(t))
    return "float8_e5m2";
  return "unknown";
}

namespace {
struct TileLowerToLLVMPass : impl::TileLowerToLLVMBase<TileLowerToLLVMPass> {
  using Base::Base;

  // tile-pipeline-loops sized the stages from an estimate of the lowering's scratch; when the
  // real scratch does not fit beside them, the kernel is lowered again with synchronous loads.
  FailureOr<KernelLaunchInfo> lowerKernel(mlir::tile::KernelOp kernel, const GpuTarget &target) {
    int64_t threads = kernelThreads(kernel, numThreads);
    if (!threads)
      return failure();
    KernelLowering lowering(kernel, threads, target);
    lowering.setTmaStoreBuffers(tmaStoreBuffers);
    FailureOr<KernelLaunchInfo> info = lowering.run();
    if (succeeded(info) || !lowering.pipelineOverflowed())
      return info;
    kernel.emitRemark() << "loads not copied ahead: the kernel needs " << lowering.scratchBytes()
                        << " bytes of shared memory beside " << lowering.pipelineBytes()
                        << " bytes of prefetch buffers and pipeline stages, over the limit of "
                        << target.maxSharedBytesPerBlock();
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName()
                            << "': scratch does not fit beside the pipeline stages; lowering without them\n");
    kernel->removeAttr(kPipelineBytesAttr);
    kernel->removeAttr(kPrefetchBytesAttr);
    kernel->removeAttr(kTmaMapsAttr);
    kernel.walk([](Operation *op) {
      op->removeAttr(kTmaAttr);
      op->removeAttr(kPrefetchOffsetAttr);
      op->removeAttr(kPipelineCoreMatricesAttr);
      op->removeAttr(kPipelineStagesAttr);
      op->removeAttr(kPipelineStageBytesAttr);
      op->removeAttr(kPipelineOffsetAttr);
    });
    KernelLowering again(kernel, threads, target);
    again.setTmaStoreBuffers(tmaStoreBuffers);
    return again.run();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<GpuTarget> target = passTarget(module, arch);
    if (!target)
      return signalPassFailure();
    if (tmaStoreBuffers != 1 && tmaStoreBuffers != 2) {
      module.emitError("tma-store-buffers ") << static_cast<int64_t>(tmaStoreBuffers) << " must be 1 or 2";
      return signalPassFailure();
    }
    SmallVector<mlir::tile::KernelOp> kernels(module.getOps<mlir::tile::KernelOp>());
    for (mlir::tile::KernelOp kernel : kernels) {
      FailureOr<KernelLaunchInfo> info = lowerKernel(kernel, *target);
      if (failed(info))
        return signalPassFailure();
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName() << "' -> llvm.func @"
                              << info->symbol << ": " << info->numThreads << " threads, " << info->sharedMemoryBytes
                              << " bytes of dynamic shared memory (limit on sm_" << target->sm << ": "
                              << target->maxSharedBytesPerBlock() << ")\n");
      auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(info->symbol);
      Builder b(&getContext());
      SmallVector<Attribute> params;
      for (BlockArgument arg : kernel.getBody().front().getArguments()) {
        SmallVector<NamedAttribute> entry;
        entry.push_back(b.getNamedAttr("name", b.getStringAttr(kernel.getParamName(arg.getArgNumber()))));
        if (auto array = dyn_cast<mlir::tile::ArrayType>(arg.getType())) {
          entry.push_back(b.getNamedAttr("kind", b.getStringAttr("array")));
          entry.push_back(b.getNamedAttr("dtype", b.getStringAttr(dtypeName(array.getElementType()))));
          entry.push_back(b.getNamedAttr("rank", b.getI64IntegerAttr(array.getRank())));
          if (kernel.getArgAttr(arg.getArgNumber(), mlir::tile::kAlignedArgAttr))
            entry.push_back(b.getNamedAttr("aligned", b.getUnitAttr()));
        } else {
          entry.push_back(b.getNamedAttr("kind", b.getStringAttr("scalar")));
          entry.push_back(b.getNamedAttr("dtype", b.getStringAttr(dtypeName(arg.getType()))));
        }
        params.push_back(b.getDictionaryAttr(entry));
      }
      // The TMA descriptors, by parameter name, for the metadata.
      if (auto maps = kernel->getAttrOfType<ArrayAttr>(kTmaMapsAttr)) {
        SmallVector<Attribute> tma;
        for (Attribute a : maps) {
          auto map = cast<DictionaryAttr>(a);
          unsigned arg = unsigned(map.getAs<IntegerAttr>("arg").getInt());
          tma.push_back(
              b.getDictionaryAttr({b.getNamedAttr("param", b.getStringAttr(kernel.getParamName(arg))),
                                   b.getNamedAttr("box", map.get("box")), b.getNamedAttr("swizzle", map.get("swizzle")),
                                   b.getNamedAttr("nan_fill", map.get("nan_fill"))}));
        }
        fn->setAttr("tile.tma", b.getArrayAttr(tma));
      }
      fn->setAttr("tile.name", b.getStringAttr(kernel.getSymName()));
      fn->setAttr("tile.params", b.getArrayAttr(params));
      fn->setAttr("tile.num_threads", b.getI64IntegerAttr(info->numThreads));
      fn->setAttr("tile.shared_bytes", b.getI64IntegerAttr(info->sharedMemoryBytes));
      if (auto constants = kernel.getConstantsAttr())
        fn->setAttr("tile.constants", constants);
      // A kernel that waits for its predecessors is launched with programmatic dependent
      // launch (sm_90+): it may start before they finish, and waits where the source says.
      bool waits = false;
      kernel.walk([&](mlir::tile::GridDependencyControlOp op) {
        waits |= op.getAction() == mlir::tile::GridDependencyAction::wait;
      });
      if (waits && target->sm >= 90)
        fn->setAttr("tile.programmatic_launch", b.getUnitAttr());
      kernel.erase();
    }
  }
};
} // namespace

} // namespace tile::codegen
