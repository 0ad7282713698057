// The tile-pipeline-loops pass: decides which loads of a loop are copied into shared memory
// stages ahead of the iteration that uses them, and how many stages each loop gets.
//
// A load qualifies when the copy engine can serve it and it can be issued iterations early:
// it sits directly in the loop body; its indices are computed from the induction variable and
// values defined outside the loop by scalar arithmetic and grid/array queries (so the lowering
// can evaluate them for a later iteration); nothing in the loop writes its array; its padding is zero or
// undetermined (copies fill out-of-bounds elements with zeros); its dimensions are in memory
// order; and a row of the tile is at least 4 bytes (the smallest asynchronous copy).
//
// The decisions are attributes that tile-lower-to-llvm honours:
//   scf.for      tile.pipeline_stages = S, tile.pipeline_stage_bytes = bytes of one stage
//   tile.load    tile.pipeline_offset = byte offset of its stage-0 buffer in the region, and
//                tile.pipeline_core_matrices when only wgmma products read it (in place)
//   tile.kernel  tile.pipeline_bytes = size of the region (before the lowering's scratch), and
//                tile.no_tma_prefetch when the kernel-start copies' mbarriers do not fit
// A load of the kernel's body that follows a loop qualifies the same way for a copy at kernel
// start (tile.prefetch_offset on it, tile.prefetch_bytes on the kernel), waited for at its
// first use.
// Every load in a loop that does not qualify gets a remark saying why (tile-cc --remarks).

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/ArrayWrites.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/ElementStorage.h"
#include "compiler/codegen/analysis/GpuTarget.h"
#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/Pipelining.h"
#include "compiler/codegen/analysis/Rematerialize.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "compiler/codegen/analysis/TmaStore.h"
#include "dialect/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>

#define DEBUG_TYPE "tile-pipeline-loops"

namespace tile::codegen {

#define GEN_PASS_DEF_TILEPIPELINELOOPS
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

constexpr int64_t kAlign = 128; // each buffer starts on a 128-byte boundary

int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

// Bytes of a tile as the lowering stores it (elementBytes per element).
int64_t tileBytes(Type t) {
  auto tt = dyn_cast<RankedTensorType>(t);
  if (!tt || !tt.hasStaticShape())
    return 0;
  return tt.getNumElements() * elementBytes(tt.getElementType());
}

} // namespace

// The product of `loop` that may leave its wgmma group pending across iterations
// (kWgmmaPendingAttr): the only tile.mma of the body, run as wgmma, accumulating into an
// iter_arg used by nothing else, its result used only by the yield at that position.
mlir::tile::MmaOp pendingWgmma(scf::ForOp loop) {
  mlir::tile::MmaOp found;
  for (Operation &op : *loop.getBody()) {
    if (op.getNumRegions() && op.walk([](mlir::tile::MmaOp) { return WalkResult::interrupt(); }).wasInterrupted())
      return nullptr;
    auto mma = dyn_cast<mlir::tile::MmaOp>(op);
    if (!mma)
      continue;
    if (found)
      return nullptr;
    found = mma;
  }
  if (!found)
    return nullptr;
  auto acc = dyn_cast<BlockArgument>(found.getAcc());
  if (recordedMmaInstruction(found) != mlir::tile::MmaInstruction::wgmma || !acc || acc.getOwner() != loop.getBody() ||
      acc.getArgNumber() == 0 || !acc.hasOneUse() || !found->hasOneUse())
    return nullptr;
  OpOperand &use = *found->getUses().begin();
  if (!isa<scf::YieldOp>(use.getOwner()) || use.getOperandNumber() != acc.getArgNumber() - 1)
    return nullptr;
  return found;
}

mlir::tile::MmaOp markedPendingWgmma(scf::ForOp loop) {
  for (Operation &op : *loop.getBody())
    if (auto mma = dyn_cast<mlir::tile::MmaOp>(op); mma && mma->hasAttr(kWgmmaPendingAttr))
      return mma;
  return nullptr;
}

// The iteration being consumed plus one copy in flight per three points of latency (1 low ...
// 10 high), at least two in flight and at most four.
int64_t pipelineStagesForLatency(int64_t latency) {
  if (latency <= 0)
    return 3;
  return std::clamp<int64_t>(1 + (latency + 2) / 3, 2, 4) + 1;
}

namespace {

bool feedsTensorCores(mlir::tile::LoadOp load, Operation *scope);

/// Why `load` cannot be copied ahead ("" when it can) within `scope`: a loop (whose induction
/// variable is `iv`), or the kernel for a load copied at kernel start (no `iv`). `slice`
/// receives the ops of the scope's body that compute its indices.
std::string refusal(mlir::tile::LoadOp load, Operation *scope, Block *body, Value iv,
                    llvm::SetVector<Operation *> &slice) {
  auto type = load.getType();
  Type elt = type.getElementType();
  if (!type.hasStaticShape())
    return "its shape is not static";
  if (elt.isInteger(1) || elt.isTF32() || !(elt.isIntOrFloat()) || elt.getIntOrFloatBitWidth() % 8)
    return "asynchronous copies move bytes of a stored type, not " + [&] {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << elt;
      return s;
    }();
  // Copies fill out-of-bounds elements with zeros; the threads reading the copy put any other
  // padding in (KernelLowering::readStage), but a product reading it in place cannot.
  auto padding = load.getPadding();
  if (padding != mlir::tile::PaddingMode::zero && padding != mlir::tile::PaddingMode::undetermined &&
      feedsTensorCores(load, scope))
    return "its padding is not zero and Tensor Core products would read its copy in place (asynchronous copies "
           "fill out-of-bounds elements with zeros)";
  if (auto order = load.getOrder())
    for (auto [d, a] : llvm::enumerate(*order))
      if (static_cast<int64_t>(d) != a)
        return "it reads dimensions out of memory order (order=)";
  int64_t rank = type.getRank();
  if (rank == 0)
    return "it is 0-d";
  int64_t rowBytes = type.getShape().back() * elementBytes(elt);
  if (rowBytes < 4)
    return "a row of the tile is " + std::to_string(rowBytes) + " bytes (the smallest asynchronous copy is 4)";
  // Nothing in the scope may write the array: the copy would read it before the write.
  if (writesArray(scope, load.getArray()))
    return iv ? "the loop writes the array it reads" : "the kernel writes the array it reads";
  // The indices: the induction variable, values from outside the scope (the kernel's
  // parameters), and pure scalar ops of the body on them.
  SmallVector<Value> worklist(load.getIndices().begin(), load.getIndices().end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (iv && v == iv)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body) {
        if (iv)
          return "an index depends on a value carried from the previous iteration";
        continue; // a kernel parameter
      }
      if (scope->isAncestor(arg.getOwner()->getParentOp()))
        return "an index is computed in a nested region";
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!scope->isAncestor(def))
      continue;
    if (def->getBlock() != body)
      return "an index is computed in a nested region";
    // Scalar arithmetic and the side-effect-free queries (block ids, grid size, array
    // extents and strides), which the lowering can evaluate again for a later iteration.
    bool scalarQuery =
        isa<mlir::tile::BlockIdOp, mlir::tile::NumBlocksOp, mlir::tile::DimOp, mlir::tile::StrideOp>(def);
    if ((!isa<arith::ArithDialect>(def->getDialect()) && !scalarQuery) || def->getNumRegions() ||
        llvm::any_of(def->getResultTypes(), [](Type t) { return isa<ShapedType>(t); }))
      return "an index is computed by '" + def->getName().getStringRef().str() + "'";
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  return "";
}

/// Whether `load` feeds a Tensor Core product in `scope` as an operand, reached through rank-2
/// reshapes that keep the last dimension and at most one transpose of a 2-D tile, and every
/// product it feeds is a 2-D wgmma or mma.sync one: its buffer can then hold core matrices,
/// which the products read in place (wgmma through descriptors, mma.sync with ldmatrix; its
/// other uses read registers from that order). Element-wise ops on the way count when they
/// lead to an A operand built in registers: its fragments of the load are read with ldmatrix
/// and the ops applied to them (KernelLoweringRemat.cpp).
bool feedsTensorCores(mlir::tile::LoadOp load, Operation *scope) {
  auto type = load.getType();
  Type elt = type.getElementType();
  // (8-bit floats feed 8-bit wgmma products read in place; their other uses read registers.)
  if (!(elt.isBF16() || elt.isF16() || isFloat8(elt)) || type.getShape().back() * elementBytes(elt) % 16 ||
      (type.getNumElements() / type.getShape().back()) % 8)
    return false;
  // (value, transposed, computed: reached through element-wise ops)
  SmallVector<std::tuple<Value, bool, bool>> worklist{{load.getResult(), false, false}};
  bool any = false;
  while (!worklist.empty()) {
    auto [v, transposed, computed] = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (!scope->isAncestor(user))
        return false;
      if (isa<arith::ArithDialect, math::MathDialect>(user->getDialect()) && user->getNumResults() == 1 &&
          user->getResult(0).getType() == RankedTensorType::get(cast<RankedTensorType>(v.getType()).getShape(),
                                                                getElementTypeOrSelf(user->getResult(0)))) {
        worklist.push_back({user->getResult(0), transposed, true});
        continue;
      }
      if (auto reshape = dyn_cast<mlir::tile::ReshapeOp>(user)) {
        auto out = cast<RankedTensorType>(reshape.getType());
        if (!transposed && !computed && out.getRank() == 2 && out.getShape().back() == type.getShape().back())
          worklist.push_back({reshape.getResult(), false, false});
        continue;
      }
      if (auto permute = dyn_cast<mlir::tile::PermuteOp>(user)) {
        ArrayRef<int32_t> perm = permute.getPermutation();
        if (!transposed && !computed && perm.size() == 2 && perm[0] == 1 && perm[1] == 0)
          worklist.push_back({permute.getResult(), true, false});
        continue;
      }
      // A conversion to the mma layout that each thread recomputes (an A operand built in
      // registers, AssignLayouts.cpp) reads its fragments with ldmatrix (KernelLoweringRemat.cpp).
      if (auto convert = dyn_cast<mlir::tile::ConvertLayoutOp>(user);
          convert && convert->hasAttr(kRematerializeAttr) &&
          isa_and_nonnull<mlir::tile::MmaLayoutAttr>(convert.getType().getEncoding()) &&
          convert.getType().getRank() == 2) {
        any = true;
        continue;
      }
      auto mma = dyn_cast<mlir::tile::MmaOp>(user);
      if (!mma || use.getOperandNumber() > 1 || computed)
        continue; // read from registers (a computed operand goes through the scratch)
      std::optional<mlir::tile::MmaInstruction> instruction = recordedMmaInstruction(mma);
      // Read in place by Tensor Core products, but not one whose accumulator has a layout other
      // than #tile.mma (some warps sit it out: it keeps the accumulator in shared memory and
      // takes its operands from the scratch).
      Attribute accLayout = mma.getAcc().getType().getEncoding();
      if (!instruction || *instruction == mlir::tile::MmaInstruction::fma || mma.getA().getType().getRank() != 2 ||
          (accLayout && !isa<mlir::tile::MmaLayoutAttr>(accLayout)))
        return false;
      any = true;
    }
  }
  return any;
}

/// An estimate of the scratch shared memory the lowering takes next to the stages, which is
/// the scratch of the ops in the loop (outside pipelined loops it reuses the stages): the
/// largest tile data one op moves through shared memory (a product's operands but those it
/// reads in place, `readInPlace`; for other ops the larger of their operands and results).
int64_t scratchEstimate(Operation *scope, llvm::function_ref<bool(Value)> readInPlace = nullptr) {
  int64_t most = 0;
  scope->walk([&](Operation *op) {
    if (op == scope)
      return;
    if (isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::YieldOp, mlir::tile::LoadOp>(op))
      return;
    auto sum = [](auto types) {
      int64_t bytes = 0;
      for (Type t : types)
        bytes += alignUp(tileBytes(t), kAlign);
      return bytes;
    };
    if (auto mma = dyn_cast<mlir::tile::MmaOp>(op)) {
      // An A operand in registers (#tile.mma) takes no shared memory, nor does an operand
      // read where its pipeline stage holds it.
      auto staged = [&](Value v) { return readInPlace && readInPlace(v); };
      int64_t bytes = 0;
      if (!mma.getA().getType().getEncoding() && !staged(mma.getA()))
        bytes += sum(TypeRange{mma.getA().getType()});
      if (!staged(mma.getB()))
        bytes += sum(TypeRange{mma.getB().getType()});
      most = std::max(most, bytes);
      return;
    }
    // Element-wise ops and memory accesses work in registers.
    if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<mlir::tile::StoreOp, mlir::tile::GatherOp, mlir::tile::ScatterOp, mlir::tile::BroadcastOp,
            mlir::tile::IotaOp>(op))
      return;
    // A row reduction of an accumulator into its rows stays in registers (lowerReduceToMmaRows).
    if (auto reduce = dyn_cast<mlir::tile::ReduceOp>(op);
        reduce && isa_and_nonnull<mlir::tile::MmaRowsLayoutAttr>(reduce.getType().getEncoding()))
      return;
    // A reshape that only adds or drops unit dimensions keeps every element where it is.
    if (auto reshape = dyn_cast<mlir::tile::ReshapeOp>(op)) {
      auto nonUnit = [](Type t) {
        SmallVector<int64_t> dims;
        for (int64_t d : cast<RankedTensorType>(t).getShape())
          if (d != 1)
            dims.push_back(d);
        return dims;
      };
      if (nonUnit(reshape->getOperand(0).getType()) == nonUnit(reshape.getType()))
        return;
    }
    // Data movement may pad rows against bank conflicts: an eighth more.
    int64_t moved = std::max(sum(op->getOperandTypes()), sum(op->getResultTypes()));
    most = std::max(most, moved + moved / 8);
  });
  return most;
}

/// The kernel body's loads that Tensor Core products inside loops read (through reshapes and
/// transposes): every iteration reads them, so their kernel-start copies get shared memory
/// before the loops' stages do.
llvm::SmallPtrSet<Operation *, 4> loopInvariantOperands(mlir::tile::KernelOp kernel) {
  llvm::SmallPtrSet<Operation *, 4> loads;
  kernel.walk([&](mlir::tile::MmaOp mma) {
    if (!mma->getParentOfType<scf::ForOp>())
      return;
    for (Value v : {mma.getA(), mma.getB()}) {
      mlir::tile::LoadOp load = operandLoad(v);
      if (load && load->getBlock() == &kernel.getBody().front() && feedsTensorCores(load, kernel))
        loads.insert(load);
    }
  });
  return loads;
}

struct TilePipelineLoopsPass : impl::TilePipelineLoopsBase<TilePipelineLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GpuTarget> target = passTarget(getOperation(), arch);
    if (!target)
      return signalPassFailure();
    if (stages < 0 || stages > 8) {
      getOperation().emitError("pipeline stages ")
          << static_cast<int64_t>(stages) << " must be 0 (from latency hints) or 1 ... 8";
      return signalPassFailure();
    }
    getOperation().walk([&](mlir::tile::KernelOp kernel) { runOnKernel(kernel, *target); });
  }

  void runOnKernel(mlir::tile::KernelOp kernel, const GpuTarget &target) {
    Builder b(kernel.getContext());
    // cp.async exists from sm_80 on.
    bool canCopy = target.sm >= 80;
    int64_t occupancy = kernel.getOccupancy().value_or(1);
    int64_t perBlock = target.sharedBytesPerBlockAt(occupancy);
    // tile-place-tma gives the stores it makes bulk stores a staging buffer after the other
    // shared memory, on the swizzle period (TmaStore.h; the lowering adds a second one when it
    // fits).
    if (int64_t staging = tmaStoreStagingBytes(kernel, target)) {
      perBlock -= tmaStagingBufferBytes(staging) + kSwizzleAlign;
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName()
                              << "': " << tmaStagingBufferBytes(staging)
                              << " bytes kept for the staging buffer of TMA stores\n");
    }
    // tile-place-tma may copy loads of aligned arguments with TMA, whose mbarriers follow the
    // other shared memory: kTmaBarrierBytes per stage of a loop with such loads, and per
    // kernel-start group.
    auto mayUseTma = [&](mlir::tile::LoadOp load) {
      auto arg = dyn_cast<BlockArgument>(load.getArray());
      return target.sm >= 90 && arg && arg.getOwner() == &kernel.getBody().front() &&
             kernel.getArgAttr(arg.getArgNumber(), mlir::tile::kAlignedArgAttr);
    };
    int64_t barrierBytes = 0;
    int64_t used = 0;
    // Loads whose buffers (a loop's stages, a kernel-start copy) products read in place: their
    // operands take no scratch.
    llvm::SmallPtrSet<Operation *, 4> readInPlaceLoads = loopInvariantOperands(kernel);
    int64_t reserved = 0;
    for (Operation *load : readInPlaceLoads)
      reserved += alignUp(tileBytes(cast<mlir::tile::LoadOp>(load).getType()), kSwizzleAlign);
    auto readInPlace = [&](Value v) {
      mlir::tile::LoadOp load = operandLoad(v);
      return load && readInPlaceLoads.contains(load);
    };
    TILE_DEBUG(if (reserved) llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName() << "': " << reserved
                                          << " bytes kept for loop-invariant Tensor Core operands\n");
    bool swizzledStages = false; // the stages region then starts on a kSwizzleAlign boundary
    // Outer loops first: their stages are live while inner loops run.
    SmallVector<scf::ForOp> loops;
    kernel.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      SmallVector<mlir::tile::LoadOp> loads;
      int64_t latency = 0;
      for (Operation &op : *loop.getBody()) {
        auto load = dyn_cast<mlir::tile::LoadOp>(op);
        if (!load)
          continue;
        llvm::SetVector<Operation *> slice;
        std::string why = !canCopy ? "sm_" + std::to_string(target.sm) + " has no asynchronous copies (sm_80 and later)"
                          : stages == 1 ? std::string("pipelining is off (stages=1)")
                                        : refusal(load, loop, loop.getBody(), loop.getInductionVar(), slice);
        if (!why.empty()) {
          load.emitRemark() << "load not pipelined: " << why;
          TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] load at " << load.getLoc() << ": not pipelined (" << why
                                  << ")\n");
          continue;
        }
        loads.push_back(load);
        latency = std::max<int64_t>(latency, load.getLatency().value_or(0));
      }
      if (loads.empty())
        continue;
      // Offsets inside a stage; Tensor Core operands' buffers start on the swizzle period, and
      // so does every stage of a loop that has one (StageLayout.h).
      SmallVector<int64_t> offsets;
      SmallVector<bool> operands;
      int64_t stageBytes = 0, stageAlign = kAlign;
      for (mlir::tile::LoadOp load : loads) {
        operands.push_back(feedsTensorCores(load, loop));
        int64_t align = operands.back() ? kSwizzleAlign : kAlign;
        stageAlign = std::max(stageAlign, align);
        offsets.push_back(alignUp(stageBytes, align));
        stageBytes = offsets.back() + alignUp(tileBytes(load.getType()), kAlign);
      }
      stageBytes = alignUp(stageBytes, stageAlign);
      used = alignUp(used, stageAlign);
      swizzledStages |= stageAlign == kSwizzleAlign;
      // Products read the stages of Tensor Core operands in place.
      for (auto [load, operand] : llvm::zip(loads, operands))
        if (operand)
          readInPlaceLoads.insert(load);
      int64_t budget = perBlock - scratchEstimate(loop, readInPlace) - reserved - barrierBytes;
      int64_t want = stages > 1 ? stages : pipelineStagesForLatency(latency);
      int64_t n = want;
      int64_t stageBarrier = llvm::any_of(loads, mayUseTma) ? kTmaBarrierBytes : 0;
      while (n >= 2 && used + n * (stageBytes + stageBarrier) > budget)
        --n;
      // The figures count each stage's mbarrier (TMA copies), which decides close cases.
      const char *withBarriers = stageBarrier ? " with their mbarriers" : "";
      if (n < 2) {
        loop.emitRemark() << "loop not pipelined: 2 stages of its loads need " << 2 * (stageBytes + stageBarrier)
                          << " bytes of shared memory" << withBarriers << " and " << std::max<int64_t>(0, budget - used)
                          << " are left at occupancy " << occupancy;
        continue;
      }
      if (n < want)
        loop.emitRemark() << "loop pipelined with " << n << " stages instead of " << want << ": " << want << " need "
                          << want * (stageBytes + stageBarrier) << " bytes of shared memory" << withBarriers << " and "
                          << budget - used << " are left at occupancy " << occupancy;
      loop->setAttr(kPipelineStagesAttr, b.getI64IntegerAttr(n));
      loop->setAttr(kPipelineStageBytesAttr, b.getI64IntegerAttr(stageBytes));
      for (auto [load, offset, operand] : llvm::zip(loads, offsets, operands)) {
        load->setAttr(kPipelineOffsetAttr, b.getI64IntegerAttr(used + offset));
        if (operand) {
          load->setAttr(kPipelineCoreMatricesAttr, b.getUnitAttr());
          TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] load at " << load.getLoc()
                                  << ": stages in the Tensor Core operand layout (its products read them in place)\n");
        }
      }
      if (mlir::tile::MmaOp pending = pendingWgmma(loop)) {
        pending->setAttr(kWgmmaPendingAttr, b.getUnitAttr());
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << pending.getLoc()
                                << ": its wgmma group stays pending across iterations\n");
      }
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] loop at " << loop.getLoc() << ": " << loads.size()
                              << " load(s) copied " << n - 1 << " iteration(s) ahead, " << n << " stages of "
                              << stageBytes << " bytes at offset " << used << " (latency hint " << latency
                              << ", budget " << budget << " bytes)\n");
      used += n * stageBytes;
      barrierBytes += n * stageBarrier;
    }
    if (used)
      kernel->setAttr(kPipelineBytesAttr, b.getI64IntegerAttr(used));
    int64_t left = prefetchLoads(kernel, canCopy, perBlock - used - barrierBytes, swizzledStages, readInPlace);
    // The kernel-start groups' two barriers come last: a load is worth more than its copy's
    // engine, so when they do not fit beside the loads, those copies keep cp.async.
    auto prefetched = [&](mlir::tile::LoadOp load) { return load->hasAttr(kPrefetchOffsetAttr) && mayUseTma(load); };
    if (llvm::any_of(kernel.getBody().front().getOps<mlir::tile::LoadOp>(), prefetched) &&
        left < 2 * kTmaBarrierBytes) {
      kernel->setAttr(kNoTmaPrefetchAttr, b.getUnitAttr());
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName() << "': " << left
                              << " bytes left, no room for the kernel-start copies' mbarriers\n");
    }
  }

  // Loads of the kernel's body in a kernel with loops are copied at kernel start: those after
  // a loop so that their latency passes while the loops run, those before one together with
  // them (one copy engine pass instead of one load after another), and both can then be
  // re-read from shared memory (rematerialized broadcasts). The first load of each group
  // waits for its copies.
  //
  // In a kernel without loops only the loads that Tensor Core products can read in place are
  // (the copy engine writes them into shared memory, where the product reads them, instead of
  // each thread loading registers and storing them to the scratch behind two barriers); the
  // others gain nothing from a copy and stay direct loads.
  // The stages region follows the prefetch region: with `swizzledStages` its size is rounded
  // up to the swizzle period.
  // Returns the bytes of the budget left.
  int64_t prefetchLoads(mlir::tile::KernelOp kernel, bool canCopy, int64_t budget, bool swizzledStages,
                        llvm::function_ref<bool(Value)> readInPlace) {
    Builder b(kernel.getContext());
    Block &body = kernel.getBody().front();
    bool hasLoops = llvm::any_of(body, [](Operation &op) { return isa<scf::ForOp, scf::WhileOp>(op); });
    budget -= scratchEstimate(kernel, readInPlace) + (swizzledStages ? kSwizzleAlign : 0);
    int64_t used = 0;
    for (Operation &op : body) {
      auto load = dyn_cast<mlir::tile::LoadOp>(op);
      if (!load || (!hasLoops && !feedsTensorCores(load, kernel)))
        continue;
      llvm::SetVector<Operation *> slice;
      std::string why = !canCopy      ? std::string("the target has no asynchronous copies")
                        : stages == 1 ? std::string("pipelining is off (stages=1)")
                                      : refusal(load, kernel, &body, Value(), slice);
      int64_t bytes = alignUp(tileBytes(load.getType()), kAlign);
      bool operand = feedsTensorCores(load, kernel);
      int64_t at = alignUp(used, operand ? kSwizzleAlign : kAlign);
      if (why.empty() && at + bytes > budget)
        why = "its " + std::to_string(bytes) + " bytes do not fit the " +
              std::to_string(std::max<int64_t>(0, budget - used)) + " bytes of shared memory left";
      if (!why.empty()) {
        load.emitRemark() << "load not copied at kernel start: " << why;
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] load at " << load.getLoc() << ": not copied at kernel start ("
                                << why << ")\n");
        continue;
      }
      load->setAttr(kPrefetchOffsetAttr, b.getI64IntegerAttr(at));
      if (operand)
        load->setAttr(kPipelineCoreMatricesAttr, b.getUnitAttr());
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] load at " << load.getLoc() << ": copied at kernel start into "
                              << bytes << " bytes at offset " << at
                              << (operand ? ", in the Tensor Core operand layout" : "") << "\n");
      used = at + bytes;
    }
    if (used && swizzledStages)
      used = alignUp(used, kSwizzleAlign);
    if (used)
      kernel->setAttr(kPrefetchBytesAttr, b.getI64IntegerAttr(used));
    return budget - used;
  }
};

} // namespace

} // namespace tile::codegen
