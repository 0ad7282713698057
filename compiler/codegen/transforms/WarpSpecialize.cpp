// The tile-warp-specialize pass: decides which pipelined loop's copies a producer warpgroup
// issues (WarpSpecialization.h), for a kernel that asks with @ct.kernel(warp_specialize=True):
// every loop of its top block that admits it (whyNotWarpSpecialized), one at most. It is not
// chosen without the option: timed on the GPU it ran no faster than the loop whose own threads
// copy without the ping-pong order, and with it faster only at D = 128 (non-causal). The loops
// it would serve best hold two or more wgmma products (attention's Q K^T and P V, whose softmax
// between them leaves the Tensor Cores idle unless another warpgroup's products run beside
// it); for those a remark says how to ask.
//
// Decision: tile.warp_specialize on the loop; a remark for each loop taken, and for each loop
// with two or more products not taken (why, or how to ask); a warning for a loop the kernel
// asked for that does not admit it.

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/GpuTarget.h"
#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/WarpSpecialization.h"

#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "tile-warp-specialize"

namespace tile::codegen {

#define GEN_PASS_DEF_TILEWARPSPECIALIZE
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

int64_t wgmmaProducts(scf::ForOp loop) {
  int64_t count = 0;
  loop.getBody()->walk(
      [&](mlir::tile::MmaOp mma) { count += recordedMmaInstruction(mma) == mlir::tile::MmaInstruction::wgmma; });
  return count;
}

struct TileWarpSpecializePass : impl::TileWarpSpecializeBase<TileWarpSpecializePass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GpuTarget> target = passTarget(getOperation(), arch);
    if (!target)
      return signalPassFailure();
    for (auto kernel : getOperation().getOps<mlir::tile::KernelOp>())
      runOnKernel(kernel, *target);
  }

  void runOnKernel(mlir::tile::KernelOp kernel, const GpuTarget &target) {
    std::optional<bool> asked = kernel.getWarpSpecialize();
    if (asked == false || (!asked && !target.hasWgmma()))
      return;
    int64_t threads = kernelThreads(kernel, numThreads);
    SmallVector<scf::ForOp> chosen;
    for (auto loop : kernel.getBody().front().getOps<scf::ForOp>()) {
      if (!asked && wgmmaProducts(loop) < 2)
        continue;
      std::optional<std::string> why = whyNotWarpSpecialized(loop);
      if (!target.hasWgmma())
        why = "setmaxnreg and TMA need sm_90a";
      else if (!why && threads + kProducerThreads > 1024)
        why = "the kernel's " + std::to_string(threads) + " threads leave no room for a producer warpgroup";
      if (why) {
        // Asked for by the kernel: a warning where the loop is; otherwise a remark.
        (asked ? loop.emitWarning() : loop.emitRemark()) << "loop not warp-specialized: " << *why;
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] scf.for at " << loop.getLoc() << ": not specialized (" << *why
                                << ")\n");
        continue;
      }
      if (!asked) {
        loop.emitRemark() << "loop not warp-specialized: it admits a producer warpgroup for its copies; "
                             "@ct.kernel(warp_specialize=True) asks for one";
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] scf.for at " << loop.getLoc()
                                << ": admits specialization, not asked for\n");
        continue;
      }
      chosen.push_back(loop);
    }
    // The producer serves one loop: the kernel's threads run everything else.
    if (chosen.size() > 1) {
      for (scf::ForOp loop : chosen)
        loop.emitRemark() << "loop not warp-specialized: the kernel has " << chosen.size()
                          << " such loops and a producer serves one";
      return;
    }
    if (chosen.empty())
      return;
    scf::ForOp loop = chosen.front();
    Builder b(kernel.getContext());
    int64_t consumer = consumerRegisters(threads);
    bool pingPong = threads == 2 * kProducerThreads && wgmmaProducts(loop) >= 2;
    loop->setAttr(kWarpSpecializeAttr,
                  b.getDictionaryAttr(
                      {b.getNamedAttr("producer_threads", b.getI64IntegerAttr(kProducerThreads)),
                       b.getNamedAttr("producer_registers", b.getI64IntegerAttr(consumer ? kProducerRegisters : 0)),
                       b.getNamedAttr("consumer_registers", b.getI64IntegerAttr(consumer)),
                       b.getNamedAttr(kPingPongKey, b.getBoolAttr(pingPong))}));
    auto remark = loop.emitRemark() << "loop warp-specialized: a producer warpgroup (" << kProducerThreads
                                    << " threads more) issues its TMA copies, the kernel's " << threads
                                    << " threads wait for them and release each stage";
    if (consumer)
      remark << " (setmaxnreg: " << consumer << " registers per consumer thread, " << kProducerRegisters
             << " per producer thread)";
    if (pingPong)
      remark << "; its two consumer warpgroups take turns issuing its products (ping-pong)";
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] scf.for at " << loop.getLoc() << ": producer warpgroup, " << threads
                            << " consumer threads at " << consumer << " registers" << (pingPong ? ", ping-pong" : "")
                            << "\n");
  }
};

} // namespace
} // namespace tile::codegen
