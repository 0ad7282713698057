// The tile-lower-to-llvm pass: runs KernelLowering on every kernel and records the launch
// facts on the resulting function.

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/DecisionRemarks.h"
#include "compiler/codegen/analysis/GpuTarget.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

namespace tile::codegen {

#define GEN_PASS_DEF_TILELOWERTOLLVM
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {
struct TileLowerToLLVMPass : impl::TileLowerToLLVMBase<TileLowerToLLVMPass> {
  using Base::Base;

  // Whether the lowered kernel takes more shared memory than a block gets at the occupancy the
  // kernel asks for (it would then run fewer blocks per SM than asked).
  static bool overOccupancyBudget(mlir::tile::KernelOp kernel, const KernelLaunchInfo &info, const GpuTarget &target) {
    std::optional<int32_t> occupancy = kernel.getOccupancy();
    return occupancy && *occupancy > 1 && info.sharedMemoryBytes > target.sharedBytesPerBlockAt(*occupancy);
  }

  // tile-pipeline-loops sized the stages from an estimate of the lowering's scratch. When the
  // real scratch leaves the kernel over its occupancy's share of shared memory, the loop whose
  // stages end the stages region loses one stage (keeping at least two) and the kernel is
  // lowered again; the occupancy was asked for, the stage count was the compiler's choice.
  // Returns false, with a remark, when no stage can go.
  static bool dropLastStage(mlir::tile::KernelOp kernel, int64_t sharedBytes, const GpuTarget &target) {
    int32_t occupancy = *kernel.getOccupancy();
    int64_t share = target.sharedBytesPerBlockAt(occupancy);
    scf::ForOp last;
    kernel.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      if (loop->hasAttr(kPipelineStagesAttr))
        last = loop;
    });
    auto bytes = kernel->getAttrOfType<IntegerAttr>(kPipelineBytesAttr);
    int64_t stages = last ? last->getAttrOfType<IntegerAttr>(kPipelineStagesAttr).getInt() : 0;
    if (stages <= 2 || !bytes) {
      kernel.emitRemark() << "the kernel needs " << sharedBytes << " bytes of shared memory, over the " << share
                          << " a block gets at occupancy " << occupancy << ": fewer blocks run per SM";
      return false;
    }
    int64_t stageBytes = last->getAttrOfType<IntegerAttr>(kPipelineStageBytesAttr).getInt();
    Builder b(kernel.getContext());
    last->setAttr(kPipelineStagesAttr, b.getI64IntegerAttr(stages - 1));
    kernel->setAttr(kPipelineBytesAttr, b.getI64IntegerAttr(bytes.getInt() - stageBytes));
    last.emitRemark() << "loop pipelined with " << stages - 1 << " stages instead of " << stages << ": with " << stages
                      << " the kernel needs " << sharedBytes << " bytes of shared memory, over the " << share
                      << " a block gets at occupancy " << occupancy;
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName() << "': " << sharedBytes
                            << " bytes of shared memory at occupancy " << occupancy << " (share " << share
                            << "); lowering again with " << stages - 1 << " stages in its last pipelined loop\n");
    return true;
  }

  // tile-pipeline-loops sized the stages from an estimate of the lowering's scratch; when the
  // real scratch does not fit beside them, the kernel is lowered again with synchronous loads
  // (whose products' operands are then placed in buffers).
  FailureOr<KernelLaunchInfo> lowerKernel(mlir::tile::KernelOp kernel, const GpuTarget &target) {
    int64_t threads = kernelThreads(kernel, numThreads);
    if (!threads)
      return failure();
    KernelLowering lowering(kernel, threads, target);
    lowering.setTmaStoreBuffers(tmaStoreBuffers);
    FailureOr<KernelLaunchInfo> info = lowering.run();
    while (succeeded(info) && overOccupancyBudget(kernel, *info, target)) {
      if (!dropLastStage(kernel, info->sharedMemoryBytes, target))
        return info;
      kernel->getParentOfType<ModuleOp>().lookupSymbol(info->symbol)->erase();
      KernelLowering fewer(kernel, threads, target);
      fewer.setTmaStoreBuffers(tmaStoreBuffers);
      info = fewer.run();
    }
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
    // The operands read from the stages now need buffers of their own.
    if (failed(placeSharedOperands(kernel, target)) || failed(allocateSharedBuffers(kernel, target)))
      return failure();
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
      if (decisionRemarks)
        remarkCodegenDecisions(kernel);
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
          entry.push_back(b.getNamedAttr("dtype", b.getStringAttr(mlir::tile::dtypeName(array.getElementType()))));
          entry.push_back(b.getNamedAttr("rank", b.getI64IntegerAttr(array.getRank())));
          if (kernel.getArgAttr(arg.getArgNumber(), mlir::tile::kAlignedArgAttr))
            entry.push_back(b.getNamedAttr("aligned", b.getUnitAttr()));
        } else {
          entry.push_back(b.getNamedAttr("kind", b.getStringAttr("scalar")));
          entry.push_back(b.getNamedAttr("dtype", b.getStringAttr(mlir::tile::dtypeName(arg.getType()))));
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
      if (info->maxUsefulThreads < 1024)
        fn->setAttr("tile.max_useful_threads", b.getI64IntegerAttr(info->maxUsefulThreads));
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
      // num_ctas=N (sm_90+): the launch groups the blocks into clusters of N where the grid
      // allows (a hint: the kernel's results do not depend on it).
      if (std::optional<int32_t> numCtas = kernel.getNumCtas(); numCtas && *numCtas > 1 && target->sm >= 90)
        fn->setAttr("tile.preferred_cluster_size", b.getI64IntegerAttr(*numCtas));
      kernel.erase();
    }
  }
};
} // namespace

} // namespace tile::codegen
