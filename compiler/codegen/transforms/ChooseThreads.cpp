// The tile-choose-threads pass: records the target on the module and gives each kernel its
// threads per block, from its products' accumulators (or, without products, its widest tile)
// unless the kernel or the caller chose.

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/MmaLayout.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"

#define DEBUG_TYPE "tile-choose-threads"

namespace tile::codegen {

#define GEN_PASS_DEF_TILECHOOSETHREADS
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

constexpr int64_t kDefaultThreads = 128; // one warpgroup
constexpr int64_t kMaxChosenThreads = 512;
// f32 accumulator registers per thread that still leave room for operands and addresses
// under the 255-register limit (a 128x256 accumulator at 128 threads, 256 per thread, spills).
constexpr int64_t kMaxAccumulatorRegisters = 128;

// The instruction `op` runs on at `threads`: 2 wgmma, 1 mma.sync, 0 without its accumulator in
// registers (mma.sync through shared memory, or FMA).
int instructionAt(mlir::tile::MmaOp op, const GpuTarget &target, int64_t threads) {
  std::optional<mlir::tile::MmaLayoutAttr> layout = accumulatorLayoutFor(op, target, threads);
  if (!layout)
    return 0;
  return usesWgmma(op, target, *layout) ? 2 : 1;
}

const char *instructionName(int instruction, mlir::tile::MmaOp op, const GpuTarget &target) {
  if (instruction)
    return instruction == 2 ? "wgmma" : "mma.sync";
  return usesTensorCores(op, target) ? "mma.sync with the accumulator in shared memory" : "FMA";
}

// The loop-carried tiles of the loop around `products` that no product accumulates into (their
// accumulators reached back through element-wise ops): a running sum kept beside products that
// start from zero each iteration (TileGym's block-scaled fp8 GEMM, acc += dot(a, b) * scale).
int64_t carriedBesideAccumulators(ArrayRef<mlir::tile::MmaOp> products) {
  auto loop = products.front()->getParentOfType<scf::ForOp>();
  if (!loop)
    return 0;
  llvm::SmallPtrSet<Value, 8> accumulated;
  for (mlir::tile::MmaOp op : products) {
    SmallVector<Value> pending{op.getAcc()};
    while (!pending.empty()) {
      Value v = pending.pop_back_val();
      if (!accumulated.insert(v).second)
        continue;
      if (Operation *def = v.getDefiningOp(); def && isa<arith::ArithDialect>(def->getDialect()))
        llvm::append_range(pending, def->getOperands());
    }
  }
  int64_t elements = 0;
  for (BlockArgument carried : loop.getRegionIterArgs())
    if (auto tile = dyn_cast<RankedTensorType>(carried.getType()); tile && !accumulated.count(carried))
      elements += tile.getNumElements();
  return elements;
}

// The threads a set of products whose accumulators are live together asks for: doubled from
// 128 while their accumulators (and the loop-carried tiles beside them) take more than
// kMaxAccumulatorRegisters per thread together and every product keeps its instruction; a
// remark when they stay above the limit.
int64_t threadsFor(ArrayRef<mlir::tile::MmaOp> products, const GpuTarget &target) {
  int64_t carried = carriedBesideAccumulators(products);
  int64_t elements = carried;
  for (mlir::tile::MmaOp op : products)
    elements += op.getAcc().getType().getNumElements();
  int64_t threads = kDefaultThreads;
  // Several products of one loop also hold their operands computed between them (attention's P
  // beside S and O): they double at the limit itself. On the H100, attention with 128x64 S and O
  // (64 registers each at 128 threads, 184 in all) ran 4-10% faster at 256 threads.
  bool several = products.size() > 1 || carried > 0;
  auto over = [&](int64_t perThread) {
    return several ? perThread >= kMaxAccumulatorRegisters : perThread > kMaxAccumulatorRegisters;
  };
  while (over(elements / threads) && threads < kMaxChosenThreads) {
    for (mlir::tile::MmaOp op : products) {
      int instruction = instructionAt(op, target, threads), next = instructionAt(op, target, 2 * threads);
      if (next < instruction) {
        op.emitRemark() << (products.size() > 1 ? "with the other products of its loop, this "
                            : carried           ? "with the tiles its loop carries beside it, these "
                                                : "this ")
                        << elements
                        << (carried && products.size() == 1 ? " elements take " : "-element accumulator takes ")
                        << elements / threads << " registers per thread at " << threads << " threads, but at "
                        << 2 * threads << " the product would run on " << instructionName(next, op, target)
                        << " instead of " << instructionName(instruction, op, target) << "; keeping " << threads;
        return threads;
      }
    }
    threads *= 2;
  }
  return threads;
}

// The products whose accumulators are live at the same time: those of one loop body (online
// softmax's S = Q.K^T and O += P.V), each other product on its own.
SmallVector<SmallVector<mlir::tile::MmaOp>> liveTogether(mlir::tile::KernelOp kernel) {
  llvm::MapVector<Operation *, SmallVector<mlir::tile::MmaOp>> byLoop;
  SmallVector<SmallVector<mlir::tile::MmaOp>> groups;
  kernel.walk([&](mlir::tile::MmaOp op) {
    if (auto loop = op->getParentOfType<scf::ForOp>())
      byLoop[loop].push_back(op);
    else
      groups.push_back({op});
  });
  for (auto &[loop, products] : byLoop)
    groups.push_back(products);
  return groups;
}

// Tile elements per thread in a kernel without products: a row of 4096 at 128 threads. Row
// kernels (norms, softmax) then keep their loads in flight without crowding the registers; on
// the H100, LayerNorm over 8192-wide bf16 rows moved 1.58 TB/s at 128 threads (64 per thread,
// 252 registers) and 2.22 at 256, while 4096-wide rows were fastest at 128.
constexpr int64_t kMaxTileElementsPerThread = 32;

// The widest tile any op of `kernel` produces: its element count and the op.
std::pair<int64_t, Operation *> widestTile(mlir::tile::KernelOp kernel) {
  std::pair<int64_t, Operation *> widest{0, nullptr};
  kernel.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tile = dyn_cast<RankedTensorType>(type); tile && tile.hasStaticShape())
        if (tile.getNumElements() > widest.first)
          widest = {tile.getNumElements(), op};
  });
  return widest;
}

// The threads a kernel without products asks for: doubled from 128, up to 512, while its widest
// tile holds more than kMaxTileElementsPerThread elements per thread; a remark above 128.
int64_t threadsForTiles(mlir::tile::KernelOp kernel) {
  auto [elements, op] = widestTile(kernel);
  int64_t threads = kDefaultThreads;
  while (elements / threads > kMaxTileElementsPerThread && threads < kMaxChosenThreads)
    threads *= 2;
  if (threads > kDefaultThreads)
    op->emitRemark() << threads << " threads per block for kernel '" << kernel.getSymName() << "': at " << threads / 2
                     << " this " << elements << "-element tile would take " << elements / (threads / 2)
                     << " elements per thread (more than " << kMaxTileElementsPerThread << ")";
  return threads;
}

struct TileChooseThreadsPass : impl::TileChooseThreadsBase<TileChooseThreadsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    std::optional<GpuTarget> target = GpuTarget::parse(arch, error);
    if (!target || (numThreads != 0 && !GpuTarget::checkNumThreads(numThreads, error))) {
      module.emitError(error);
      return signalPassFailure();
    }
    module->setAttr(kTargetAttr, targetAttr(&getContext(), target->arch()));
    Builder b(&getContext());
    for (auto kernel : module.getOps<mlir::tile::KernelOp>()) {
      if (kernel.getNumThreads()) {
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName()
                                << "': " << *kernel.getNumThreads() << " threads (kernel option)\n");
        continue;
      }
      int64_t threads = numThreads;
      mlir::tile::MmaOp widest;
      int64_t widestElements = 0, widestCarried = 0;
      size_t widestCount = 0;
      bool hasProducts = false;
      if (threads == 0) {
        threads = kDefaultThreads;
        for (SmallVector<mlir::tile::MmaOp> &products : liveTogether(kernel)) {
          hasProducts = true;
          int64_t wanted = threadsFor(products, *target);
          if (wanted <= threads)
            continue;
          threads = wanted, widest = products.front(), widestCount = products.size();
          widestCarried = carriedBesideAccumulators(products);
          widestElements = widestCarried;
          for (mlir::tile::MmaOp op : products)
            widestElements += op.getAcc().getType().getNumElements();
        }
        if (!hasProducts)
          threads = threadsForTiles(kernel);
      }
      kernel.setNumThreadsAttr(b.getI32IntegerAttr(int32_t(threads)));
      if (widest) {
        bool several = widestCount > 1 || widestCarried > 0;
        const char *what = widestCount > 1 ? " the accumulators of this loop's products ("
                           : widestCarried ? " this accumulator and the tiles its loop carries beside it ("
                                           : " this ";
        widest.emitRemark() << threads << " threads per block for kernel '" << kernel.getSymName() << "': at "
                            << threads / 2 << what << widestElements
                            << (several ? " elements together)" : "-element accumulator") << " would take "
                            << widestElements / (threads / 2) << " registers per thread ("
                            << (several ? "at least " : "more than ") << kMaxAccumulatorRegisters << ")";
      }
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName() << "': " << threads << " threads ("
                              << (numThreads                                  ? "option"
                                  : widest                                    ? "its widest product"
                                  : !hasProducts && threads > kDefaultThreads ? "its widest tile"
                                                                              : "default")
                              << ") on sm_" << target->sm << (target->archSpecific ? "a" : "") << "\n");
    }
  }
};

} // namespace

} // namespace tile::codegen
