// Loads copied into shared memory ahead of the loop iteration that reads them, as
// tile-pipeline-loops decided (PipelineLoops.cpp, attributes in Pipelining.h).
//
// A loop with S stages keeps S copies of its pipelined loads' tiles at the start of shared
// memory. Before the loop, the copies of iterations 0 .. S-2 are issued, one cp.async commit
// group per iteration (empty past the trip count). At the top of iteration i every thread
// waits until at most S-2 of its groups are pending (so iteration i's group is complete), a
// barrier makes every thread's copies visible and proves that all threads have finished
// reading iteration i-1's stage, and the copies of iteration i+S-1 are issued into that stage.
// The loads themselves read their stage's buffer. After the loop every group is waited for
// and a barrier lets the scratch of the ops outside pipelined loops reuse the stages: inside
// a pipelined loop the scratch follows the stages, elsewhere it starts at 0 over them.
//
// Each thread copies 16-byte (at least 4-byte) runs of a tile's rows with cp.async; a run
// past the array's edge copies only its bytes inside the array and zero-fills the rest (the
// copy's source size), so ragged edges cost no branch. The copy needs aligned addresses: a
// uniform run-time condition (unit stride along rows, base and strides multiples of the run)
// picks it, else each thread loads its runs element by element and stores them (strided or
// misaligned views). The loads' indices are evaluated for the later iteration by lowering
// the scalar ops that compute them again with the induction variable advanced.

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "compiler/codegen/analysis/TmaAccess.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

// tile-pipeline-loops writes consistent attributes; hand-written IR may not, and a wrong
// offset would make copies overwrite each other or the scratch: refuse it, naming the op.
LogicalResult KernelLowering::verifyPipelineAttributes() {
  auto bytesOf = [](mlir::tile::LoadOp load) {
    return load.getType().getNumElements() * elementBytes(load.getType().getElementType());
  };
  auto intAttr = [](Operation *op, StringRef name) -> std::optional<int64_t> {
    if (auto a = op->getAttrOfType<IntegerAttr>(name))
      return a.getInt();
    return std::nullopt;
  };
  WalkResult result = kernel_.walk([&](Operation *op) -> WalkResult {
    if (auto mma = dyn_cast<mlir::tile::MmaOp>(op); mma && mma->hasAttr(kWgmmaPendingAttr)) {
      auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
      if (!loop || !pipelineStages(loop) || pendingWgmma(loop) != mma)
        return op->emitError("malformed pipelining: ")
               << kWgmmaPendingAttr
               << " on a product that is not the one wgmma of a pipelined loop accumulating into its carried value";
      return WalkResult::advance();
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      std::optional<int64_t> stages = intAttr(op, kPipelineStagesAttr), bytes = intAttr(op, kPipelineStageBytesAttr);
      if (!stages && !bytes)
        return WalkResult::advance();
      if (!stages || !bytes || *stages < 2 || *stages > 8 || *bytes <= 0 || *bytes % 16)
        return op->emitError("malformed pipelining: ")
               << kPipelineStagesAttr << " (2-8) and " << kPipelineStageBytesAttr
               << " (a positive multiple of 16) go together";
      return WalkResult::advance();
    }
    auto load = dyn_cast<mlir::tile::LoadOp>(op);
    if (!load)
      return WalkResult::advance();
    std::optional<int64_t> offset = intAttr(op, kPipelineOffsetAttr), prefetch = intAttr(op, kPrefetchOffsetAttr);
    if (offset && prefetch)
      return op->emitError("malformed pipelining: a load is either pipelined or prefetched, not both");
    if (offset) {
      auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
      if (!loop || !pipelineStages(loop) || !loop->hasAttr(kPipelineStageBytesAttr))
        return op->emitError("malformed pipelining: ") << kPipelineOffsetAttr << " on a load outside a pipelined loop";
      // Stage s of the load's buffer is at s * stage bytes + offset in the stages region.
      int64_t last = (pipelineStages(loop) - 1) * *intAttr(loop, kPipelineStageBytesAttr) + *offset + bytesOf(load);
      if (*offset < 0 || *offset % 16 || last > pipelineBytes_)
        return op->emitError("malformed pipelining: the load's stages end at byte ")
               << last << " of a " << pipelineBytes_ << "-byte stages region (" << kPipelineBytesAttr
               << "), or its offset " << *offset << " is not a multiple of 16";
    }
    // Tensor Core operands' buffers start on the swizzle period (StageLayout.h).
    if (op->hasAttr(kPipelineCoreMatricesAttr)) {
      auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
      int64_t start = offset ? *offset + prefetchBytes_ : prefetch.value_or(0);
      int64_t stride = offset && loop ? intAttr(loop, kPipelineStageBytesAttr).value_or(0) : 0;
      if (start % kSwizzleAlign || stride % kSwizzleAlign)
        return op->emitError("malformed pipelining: a Tensor Core operand's buffer (")
               << kPipelineCoreMatricesAttr << ") starts at byte " << start << " of shared memory, with stages "
               << stride << " bytes apart; both must be multiples of " << kSwizzleAlign;
    }
    if (prefetch) {
      if (op->getBlock() != &kernel_.getBody().front())
        return op->emitError("malformed pipelining: ") << kPrefetchOffsetAttr << " on a load inside a region";
      if (*prefetch < 0 || *prefetch % 16 || *prefetch + bytesOf(load) > prefetchBytes_)
        return op->emitError("malformed pipelining: the load's ")
               << bytesOf(load) << " bytes at offset " << *prefetch << " leave the kernel's " << prefetchBytes_
               << "-byte prefetch region";
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

static int64_t stageBytes(scf::ForOp op) { return op->getAttrOfType<IntegerAttr>(kPipelineStageBytesAttr).getInt(); }

static SmallVector<mlir::tile::LoadOp> pipelinedLoads(scf::ForOp op) {
  SmallVector<mlir::tile::LoadOp> loads;
  for (Operation &inner : *op.getBody())
    if (auto load = dyn_cast<mlir::tile::LoadOp>(inner); load && load->hasAttr(kPipelineOffsetAttr))
      loads.push_back(load);
  return loads;
}

Value KernelLowering::stageIndex(mlir::tile::LoadOp load, Value linear) {
  if (!load->hasAttr(kPipelineCoreMatricesAttr))
    return linear;
  auto type = load.getType();
  int64_t cols = type.getShape().back();
  Value row = arith::DivUIOp::create(b_, loc_, linear, i32(cols));
  Value col = arith::RemUIOp::create(b_, loc_, linear, i32(cols));
  return stageOffset(row, col, type.getNumElements() / cols, cols, elementBytes(type.getElementType()));
}

Value KernelLowering::stageByteOffset(mlir::tile::LoadOp load) {
  if (auto prefetch = load->getAttrOfType<IntegerAttr>(kPrefetchOffsetAttr))
    return i32(prefetch.getInt());
  auto loop = dyn_cast_or_null<scf::ForOp>(load->getParentOp());
  Value stageOffset = loop ? pipelineStageOffset_.lookup(loop) : Value();
  if (!stageOffset)
    return {};
  int64_t offset = load->getAttrOfType<IntegerAttr>(kPipelineOffsetAttr).getInt();
  return arith::AddIOp::create(b_, loc_, stageOffset, i32(offset));
}

Value KernelLowering::stageAddress(mlir::tile::LoadOp load) {
  return arith::AddIOp::create(b_, loc_, sharedWindowBase(), stageByteOffset(load));
}

Value KernelLowering::stagePointer(Type type, Value byteOffset, Value index) {
  Value base = LLVM::AddressOfOp::create(b_, loc_, smem_);
  Value at = LLVM::GEPOp::create(b_, loc_, base.getType(), b_.getI8Type(), base, ValueRange{byteOffset});
  return LLVM::GEPOp::create(b_, loc_, base.getType(), storageType(type), at, ValueRange{index});
}

// The induction variable `k` steps after `iv`, and whether that iteration exists (computed
// in 64 bits for i32 loops, so the step past the bound cannot wrap).
static std::pair<Value, Value> advance(KernelLowering &l, scf::ForOp op, Value iv, int64_t k) {
  OpBuilder &b = l.b_;
  Location loc = l.loc_;
  Value step = l.scalars_.lookup(op.getStep()), ub = l.scalars_.lookup(op.getUpperBound());
  Type type = iv.getType();
  auto constant = [&](Type t, int64_t v) { return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v)); };
  bool unsignedCmp = op.getUnsignedCmp();
  Type wide = type.isInteger(32) ? b.getI64Type() : type;
  auto widen = [&](Value v) -> Value {
    if (wide == type)
      return v;
    return unsignedCmp ? Value(arith::ExtUIOp::create(b, loc, wide, v))
                       : Value(arith::ExtSIOp::create(b, loc, wide, v));
  };
  Value next = arith::AddIOp::create(b, loc, widen(iv), arith::MulIOp::create(b, loc, widen(step), constant(wide, k)));
  Value valid = arith::CmpIOp::create(b, loc, unsignedCmp ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt, next,
                                      widen(ub));
  if (wide != type)
    next = arith::TruncIOp::create(b, loc, type, next);
  return {next, valid};
}

void KernelLowering::pipelinePrologue(scf::ForOp op) {
  if (isSpecialized(op))
    return releaseStagesToProducer(op);
  int64_t stages = pipelineStages(op);
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] scf.for at " << op.getLoc() << ": " << pipelinedLoads(op).size()
                          << " load(s) in " << stages << " shared-memory stages of " << stageBytes(op)
                          << " bytes, copied " << stages - 1 << " iteration(s) ahead with cp.async\n");
  auto tmaBarriers = tmaLoopBarriers_.find(op);
  bool tma = tmaBarriers != tmaLoopBarriers_.end();
  if (tma) {
    initMbarriers(tmaBarriers->second, stages);
    // Shared-memory writes of the generic proxy (the scratch over idle stages) come before the
    // copy engine's writes into the same bytes.
    asyncProxyFence();
  }
  // An enclosing loop's previous iteration may still be reading these stages.
  barrier();
  Value lb = scalars_.lookup(op.getLowerBound());
  for (int64_t s = 0; s + 1 < stages; ++s) {
    auto [iv, valid] = advance(*this, op, lb, s);
    ifThen(valid, [&] {
      issuePipelineCopies(op, iv, i32(prefetchBytes_ + s * stageBytes(op)),
                          tma ? mbarrierAddress(i32(tmaBarriers->second + s)) : Value());
    });
    NVVM::CpAsyncCommitGroupOp::create(b_, loc_);
  }
}

// Whether a wgmma product reads `load`'s buffer in place (through reshapes and a transpose):
// wgmma reads shared memory through the async proxy, so the copies need a proxy fence before
// it; mma.sync's ldmatrix reads like any load and needs none (the fence costs an issue slot and
// a wait every iteration).
static bool readByWgmmaInPlace(mlir::tile::LoadOp load) {
  if (!load->hasAttr(kPipelineCoreMatricesAttr))
    return false;
  SmallVector<Value> worklist{load.getResult()};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<mlir::tile::ReshapeOp, mlir::tile::PermuteOp>(user))
        worklist.push_back(user->getResult(0));
      if (isa<mlir::tile::MmaOp>(user) && recordedMmaInstruction(user) == mlir::tile::MmaInstruction::wgmma)
        return true;
    }
  }
  return false;
}

std::pair<Value, Value> KernelLowering::pipelineStageAndPhase(scf::ForOp op, Value counter) {
  if (!tmaLoopBarriers_.count(op))
    return {counter, Value()};
  int64_t stages = pipelineStages(op);
  Value second = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::uge, counter, i32(stages));
  Value stage =
      arith::SelectOp::create(b_, loc_, second, arith::SubIOp::create(b_, loc_, counter, i32(stages)), counter);
  return {stage, arith::ExtUIOp::create(b_, loc_, b_.getI32Type(), second)};
}

void KernelLowering::pipelineIteration(scf::ForOp op, Value iv, Value counter) {
  int64_t stages = pipelineStages(op);
  auto [stage, phase] = pipelineStageAndPhase(op, counter);
  auto tmaBarriers = tmaLoopBarriers_.find(op);
  bool tma = tmaBarriers != tmaLoopBarriers_.end();
  // With a pending wgmma group, iteration i - 1's product may still read its stage here: the
  // copies into it wait until that product's group is complete (issued after its wait, with a
  // barrier of their own). The barrier below then only makes cp.async copies visible, which
  // the mbarrier wait does for bulk copies.
  bool pending = markedPendingWgmma(op) != nullptr;
  NVVM::CpAsyncWaitGroupOp::create(b_, loc_, static_cast<int32_t>(stages - 2));
  if (tma)
    waitMbarrier(mbarrierAddress(arith::AddIOp::create(b_, loc_, stage, i32(tmaBarriers->second))), phase);
  // wgmma reads stages in core-matrix order in place, through the async proxy (which the copy
  // engine writes through too: TMA copies need no fence).
  if (target_.hasWgmma() && llvm::any_of(pipelinedLoads(op), [](mlir::tile::LoadOp load) {
        return !usesTma(load) && readByWgmmaInPlace(load);
      }))
    asyncProxyFence();
  if (pipelineTopBarrier(op)) {
    // The staging buffer of the loop's bulk store is free once its previous store has read
    // it: the barrier then covers that store's own wait (KernelLoweringTmaStore.cpp).
    if (storeFreedByLoopTop(op))
      ifThen(tmaStagingSingle_, [&] { onThreadZero([&] { ptx("cp.async.bulk.wait_group.read 0;", "", {}); }); });
    barrier();
  }
  auto [ahead, valid] = advance(*this, op, iv, stages - 1);
  // The stage of iteration i + S - 1 is the one iteration i - 1 read: (stage + S - 1) mod S.
  Value isFirst = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, stage, i32(0));
  Value aheadStage =
      arith::SelectOp::create(b_, loc_, isFirst, i32(stages - 1), arith::SubIOp::create(b_, loc_, stage, i32(1)));
  if (isSpecialized(op)) {
    releasePreviousStage(op, iv, aheadStage);
    pipelineStageOffset_[op] = pipelineStageStart(op, stage);
    return; // the producer copies (KernelLoweringWarpSpecialize.cpp)
  }
  Value aheadOffset = pipelineStageStart(op, aheadStage);
  Value mbarrier =
      tma ? mbarrierAddress(arith::AddIOp::create(b_, loc_, aheadStage, i32(tmaBarriers->second))) : Value();
  auto issue = [this, op, ahead = ahead, valid = valid, aheadOffset, mbarrier] {
    ifThen(valid, [&] { issuePipelineCopies(op, ahead, aheadOffset, mbarrier); });
    NVVM::CpAsyncCommitGroupOp::create(b_, loc_);
  };
  if (pending)
    deferredCopies_[op] = issue;
  else
    issue();
  pipelineStageOffset_[op] = pipelineStageStart(op, stage);
}

// Stages start after the prefetch buffers.
Value KernelLowering::pipelineStageStart(scf::ForOp op, Value stage) {
  return arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, stage, i32(stageBytes(op))),
                               i32(prefetchBytes_));
}

// Every thread has left the previous iteration (and its stage) at the barrier; with a pending
// wgmma group and only bulk copies, the mbarrier waits order the copies and the copies into a
// stage wait for the product instead.
bool KernelLowering::pipelineTopBarrier(scf::ForOp op) {
  bool pending = markedPendingWgmma(op) != nullptr;
  bool allTma = tmaLoopBarriers_.count(op) &&
                llvm::all_of(pipelinedLoads(op), [](mlir::tile::LoadOp load) { return usesTma(load); });
  return !(pending && allTma) && !isSpecialized(op);
}

Value KernelLowering::pipelineNextStage(scf::ForOp op, Value stage) {
  int64_t period = pipelineStages(op) * (tmaLoopBarriers_.count(op) ? 2 : 1);
  Value next = arith::AddIOp::create(b_, loc_, stage, i32(1));
  Value wraps = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, next, i32(period));
  return arith::SelectOp::create(b_, loc_, wraps, i32(0), next);
}

void KernelLowering::pipelineEpilogue(scf::ForOp op) {
  // Every thread's copies are done before the scratch outside the loop reuses the stages (the
  // bulk copies were: each iteration waited for its own).
  NVVM::CpAsyncWaitGroupOp::create(b_, loc_, 0);
  finishPingPong(op);
  barrier();
  // The next run of the loop (in an outer loop) starts again at phase 0.
  if (auto tmaBarriers = tmaLoopBarriers_.find(op); tmaBarriers != tmaLoopBarriers_.end())
    invalidateMbarriers(tmaBarriers->second, pipelineStages(op) * (isSpecialized(op) ? 2 : 1));
}

// Lowers the scalar ops of `body` that compute `loads`' indices (with whatever bindings the
// caller made, e.g. a later induction variable), issues each load's copy at
// `byteOffset(load)`, and forgets those values again: the body's own lowering computes them
// where they stand.
void KernelLowering::issueCopies(ArrayRef<mlir::tile::LoadOp> loads, Block *body,
                                 function_ref<Value(mlir::tile::LoadOp)> byteOffset, Value mbarrier) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist;
  for (mlir::tile::LoadOp load : loads)
    llvm::append_range(worklist, load.getIndices());
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (def && def->getBlock() == body && slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  // Copies issued in the middle of the body (after a pending wgmma's wait) find the body's own
  // values of these ops bound already: they are put back afterwards.
  SmallVector<std::pair<Value, Value>> saved;
  for (Operation *def : ordered)
    for (Value r : def->getResults())
      saved.push_back({r, scalars_.lookup(r)});
  Location savedLoc = loc_;
  for (Operation *def : ordered) {
    loc_ = def->getLoc();
    // tile-pipeline-loops admits only scalar arithmetic and grid/array queries here.
    (void)lowerOp(def);
  }
  SmallVector<mlir::tile::LoadOp> bulk;
  for (mlir::tile::LoadOp load : loads) {
    loc_ = load.getLoc();
    if (usesTma(load))
      bulk.push_back(load);
    else
      issueCopy(load, byteOffset(load));
  }
  if (!bulk.empty())
    issueTmaCopies(bulk, byteOffset, mbarrier);
  loc_ = savedLoc;
  for (auto [r, value] : saved) {
    if (value)
      scalars_[r] = value;
    else
      scalars_.erase(r);
  }
}

// The copies of iteration `iv` of a pipelined loop into the stage at `stageOffset`; its bulk
// copies complete on `mbarrier`.
void KernelLowering::issuePipelineCopies(scf::ForOp op, Value iv, Value stageOffset, Value mbarrier) {
  Value savedIv = scalars_.lookup(op.getInductionVar());
  scalars_[op.getInductionVar()] = iv;
  issueCopies(
      pipelinedLoads(op), op.getBody(),
      [&](mlir::tile::LoadOp load) -> Value {
        int64_t offset = load->getAttrOfType<IntegerAttr>(kPipelineOffsetAttr).getInt();
        return arith::AddIOp::create(b_, loc_, stageOffset, i32(offset));
      },
      mbarrier);
  scalars_[op.getInductionVar()] = savedIv;
}

void KernelLowering::issueCopy(mlir::tile::LoadOp load, Value byteOffset) {
  Array &array = arrays_[load.getArray()];
  auto type = load.getType();
  ArrayRef<int64_t> shape = type.getShape();
  Type elt = type.getElementType();
  int64_t rank = shape.size(), esize = elementBytes(elt);
  // Elements per copy: a row's run of up to 16 bytes (rows of at least 4 bytes, powers of two).
  int64_t width = std::min<int64_t>(16 / esize, shape.back());
  int64_t copyBytes = width * esize;
  int64_t copies = type.getNumElements() / width;
  Value aligned = vectorAligned(*this, array, load.getArray().getType(), rank - 1, width);
  SmallVector<Value> tileStart;
  for (int64_t d = 0; d < rank; ++d)
    tileStart.push_back(arith::MulIOp::create(b_, loc_, toI64(scalars_.lookup(load.getIndices()[d])), i64(shape[d])));
  // A tile wholly inside the array (the common case: every tile but the ragged ones at the
  // edges) needs no bounds per copy: one uniform check per load, then full 16-byte copies with
  // no source size (the bounds, the zero-fill sizes and the address select were most of each
  // copy's integer work).
  Value whole = boolAnd(aligned, tileInside(array, load.getIndices(), shape));
  auto cache = copyBytes == 16 ? NVVM::LoadCacheModifierKind::CG : NVVM::LoadCacheModifierKind::CA;
  auto zext = [&](Value v) { return arith::ExtUIOp::create(b_, loc_, b_.getI64Type(), v).getResult(); };
  for (int64_t k = 0; k * numThreads_ < copies; ++k) {
    Value copy = arith::AddIOp::create(b_, loc_, tid_, i32(k * numThreads_));
    Value exists = (k + 1) * numThreads_ > copies
                       ? Value(arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, copy, i32(copies)))
                       : Value();
    ifThen(exists, [&] {
      Value first = arith::MulIOp::create(b_, loc_, copy, i32(width));
      SmallVector<Value> local = delinearize(first, shape);
      SmallVector<Value> idx;
      for (int64_t d = 0; d < rank; ++d)
        idx.push_back(arith::AddIOp::create(b_, loc_, tileStart[d], zext(local[d])));
      // The run lies in one 16-byte chunk of the row, which every stage layout keeps contiguous:
      // its elements follow the first one's place (one address for the copy and the fallback).
      Value dstIndex = stageIndex(load, first);
      Value dst = stagePointer(elt, byteOffset, dstIndex);
      auto ifWhole = scf::IfOp::create(b_, loc_, TypeRange{}, whole, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard wholeGuard(b_);
      b_.setInsertionPoint(ifWhole.thenBlock()->getTerminator());
      NVVM::CpAsyncOp::create(b_, loc_, dst, elementPointer(array, idx), b_.getI32IntegerAttr(copyBytes),
                              NVVM::LoadCacheModifierKindAttr::get(b_.getContext(), cache), Value());
      b_.setInsertionPoint(ifWhole.elseBlock()->getTerminator());
      Value rowInBounds; // every dimension but the last
      for (int64_t d = 0; d + 1 < rank; ++d)
        rowInBounds =
            boolAnd(rowInBounds, arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, idx[d], array.shape[d]));
      auto ifAligned = scf::IfOp::create(b_, loc_, TypeRange{}, aligned, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(b_);
        b_.setInsertionPoint(ifAligned.thenBlock()->getTerminator());
        // Elements of the run inside the array: 0 when its start is outside (unsigned compare:
        // negative indices too), else min(width, extent - start).
        Value last = idx[rank - 1];
        Value startIn = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, last, array.shape[rank - 1]);
        Value left =
            arith::MinSIOp::create(b_, loc_, arith::SubIOp::create(b_, loc_, array.shape[rank - 1], last), i64(width));
        Value inside = arith::SelectOp::create(b_, loc_, boolAnd(rowInBounds, startIn), left, i64(0));
        Value srcBytes =
            arith::TruncIOp::create(b_, loc_, b_.getI32Type(), arith::MulIOp::create(b_, loc_, inside, i64(esize)));
        // An empty copy reads nothing; give it the array's base rather than an address outside.
        Value any = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ne, inside, i64(0));
        Value src = arith::SelectOp::create(b_, loc_, any, elementPointer(array, idx), array.ptr);
        NVVM::CpAsyncOp::create(b_, loc_, dst, src, b_.getI32IntegerAttr(copyBytes),
                                NVVM::LoadCacheModifierKindAttr::get(b_.getContext(), cache), srcBytes);
        // Strided or misaligned views: element by element, zero outside the array (from
        // opaque indices: no induction variables for these addresses).
        b_.setInsertionPoint(ifAligned.elseBlock()->getTerminator());
        SmallVector<Value> coldIdx;
        for (Value v : idx)
          coldIdx.push_back(opaque(v));
        for (int64_t i = 0; i < width; ++i) {
          SmallVector<Value> at(coldIdx);
          at[rank - 1] = arith::AddIOp::create(b_, loc_, coldIdx[rank - 1], i64(i));
          Value in = boolAnd(rowInBounds, arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, at[rank - 1],
                                                                array.shape[rank - 1]));
          Value ptr = elementPointer(array, at);
          Value v = ifValue(
              in, registerType(elt), [&] { return loadElement(elt, ptr); }, [&] { return zeroOf(elt); });
          storeElement(v, stagePointer(elt, byteOffset, arith::AddIOp::create(b_, loc_, dstIndex, i32(i))));
        }
      }
    });
  }
}

// Prefetched loads before the body's first loop form the first kernel-start group, those after
// it the second: the loads before a loop wait for their own copies only.
static bool beforeFirstLoop(mlir::tile::LoadOp load) {
  for (Operation *op = load->getPrevNode(); op; op = op->getPrevNode())
    if (isa<scf::ForOp, scf::WhileOp>(op))
      return false;
  return true;
}

void KernelLowering::issuePrefetches() {
  Block &body = kernel_.getBody().front();
  SmallVector<mlir::tile::LoadOp> groups[2];
  for (Operation &op : body)
    if (auto load = dyn_cast<mlir::tile::LoadOp>(op); load && load->hasAttr(kPrefetchOffsetAttr))
      groups[beforeFirstLoop(load) ? 0 : 1].push_back(load);
  TILE_DEBUG(if (!groups[0].empty() || !groups[1].empty()) llvm::dbgs()
             << "[" DEBUG_TYPE "] kernel '" << kernel_.getSymName() << "': " << groups[0].size()
             << " load(s) before and " << groups[1].size() << " after its loops copied at kernel start ("
             << prefetchBytes_ << " bytes)\n");
  prefetchGroupsAfterEarly_ = groups[1].empty() ? 0 : 1;
  for (auto [g, loads] : llvm::enumerate(groups)) {
    if (loads.empty())
      continue;
    prefetchGroupTma_[g] = llvm::any_of(loads, usesTma);
    issueCopies(
        loads, &body,
        [&](mlir::tile::LoadOp load) -> Value {
          return i32(load->getAttrOfType<IntegerAttr>(kPrefetchOffsetAttr).getInt());
        },
        prefetchGroupTma_[g] ? mbarrierAddress(i32(tmaPrefetchBarrier_ + int64_t(g))) : Value());
    NVVM::CpAsyncCommitGroupOp::create(b_, loc_);
  }
}

LogicalResult KernelLowering::lowerPipelinedLoad(mlir::tile::LoadOp op) {
  if (auto prefetch = op->getAttrOfType<IntegerAttr>(kPrefetchOffsetAttr)) {
    // The first prefetched load of a group to run waits for that group's copies: the loads
    // before the first loop for the first group only (the second may stay in flight), the
    // others for every kernel-start copy (no pipelined loop is running here: each waits for
    // all of its own groups when it ends).
    bool early = beforeFirstLoop(op);
    bool &waited = early ? earlyPrefetchWaited_ : prefetchWaited_;
    if (!waited) {
      NVVM::CpAsyncWaitGroupOp::create(b_, loc_, early ? prefetchGroupsAfterEarly_ : 0);
      // The bulk copies of the groups waited for (each group's barrier completes phase 0 once).
      for (int64_t g = 0; g < (early ? 1 : 2); ++g)
        if (prefetchGroupTma_[g] && !(g == 0 && !early && earlyPrefetchWaited_))
          waitMbarrier(mbarrierAddress(i32(tmaPrefetchBarrier_ + g)), i32(0));
      // wgmma reads buffers in core-matrix order in place, through the async proxy (sm_90a:
      // the fence does not exist before sm_90, and nothing needs it there); bulk copies write
      // through it.
      bool inPlace = false;
      kernel_.getBody().front().walk([&](mlir::tile::LoadOp l) {
        inPlace |= l->hasAttr(kPrefetchOffsetAttr) && !usesTma(l) && readByWgmmaInPlace(l);
      });
      if (inPlace && target_.hasWgmma())
        asyncProxyFence();
      barrier();
      waited = true;
      if (!early)
        earlyPrefetchWaited_ = true;
    }
    readStage(op, stageByteOffset(op));
    return success();
  }
  Value offset = stageByteOffset(op);
  if (!offset)
    return op.emitError("internal error: a load marked for pipelining is not in a pipelined loop");
  readStage(op, offset);
  return success();
}

void KernelLowering::readStage(mlir::tile::LoadOp op, Value base) {
  TileLayout layout = layoutOf(op.getType());
  Type elt = op.getType().getElementType();
  int64_t esize = elementBytes(elt);
  // A canonical run of V registers is V consecutive elements of one row: read it in vectors of
  // up to 16 bytes (the buffer is 128-byte aligned and runs start at multiples of V).
  int64_t width = 1;
  if (!layout.isMma() && !layout.replicated) {
    width = std::min<int64_t>(layout.vector, 16 / esize);
    while (width > 1 && layout.vector % width)
      width /= 2;
  }
  Elements values;
  for (int64_t r = 0; r < layout.perThread; r += width) {
    if (width == 1) {
      values.push_back(readStageElement(op, base, linearIndex(layout, r)));
      continue;
    }
    Value ptr = stagePointer(elt, base, stageIndex(op, linearIndex(layout, r)));
    Value vec = LLVM::LoadOp::create(b_, loc_, VectorType::get({width}, registerType(elt)), ptr, width * esize);
    for (int64_t i = 0; i < width; ++i)
      values.push_back(LLVM::ExtractElementOp::create(b_, loc_, vec, i32(i)));
  }
  // The copy filled out-of-bounds elements with zeros (TMA: NaN for NaN-padded floats); any
  // other padding replaces them here.
  mlir::tile::PaddingMode padding = op.getPadding();
  bool filled = padding == mlir::tile::PaddingMode::zero || padding == mlir::tile::PaddingMode::undetermined ||
                (padding == mlir::tile::PaddingMode::nan && usesTma(op) && tmaFillsNan(elt));
  if (!filled)
    for (int64_t r = 0; r < layout.perThread; ++r)
      values[r] = padOutOfBounds(op, linearIndex(layout, r), values[r]);
  tiles_[op] = values;
}

Value KernelLowering::readStageElement(mlir::tile::LoadOp op, Value base, Value linear) {
  Type elt = op.getType().getElementType();
  return LLVM::LoadOp::create(b_, loc_, registerType(elt), stagePointer(elt, base, stageIndex(op, linear)));
}

} // namespace tile::codegen
