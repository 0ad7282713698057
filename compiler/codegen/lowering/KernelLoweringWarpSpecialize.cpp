// A warp-specialized loop (tile.warp_specialize, WarpSpecialization.h): the block gets one
// warpgroup more than the kernel's threads. After thread 0 has initialized the loop's barriers
// (a full one per stage: the copies landed; an empty one: every consumer thread left it) and
// every thread has passed a barrier, the extra warpgroup lowers its registers (setmaxnreg) and
// its first thread runs the producer: the scalar ops the loop's bounds and copies depend on,
// then, per iteration j, a wait for stage j mod S's empty barrier (phase j / S: the consumers
// arrive on every stage once when they reach the loop, then once per iteration they finish)
// and the copies of iteration j into it. The kernel's own threads raise their registers and run
// the kernel as before, except that the loop's prologue only releases the stages, its
// iterations only wait for their copies and release the previous stage, and their barriers
// name only them (bar.sync 1, threads).

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/WarpSpecialization.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

void KernelLowering::findSpecializedLoop() {
  for (auto loop : kernel_.getBody().front().getOps<scf::ForOp>()) {
    auto decision = loop->getAttrOfType<DictionaryAttr>(kWarpSpecializeAttr);
    if (!decision)
      continue;
    // The decision may no longer hold (the stages dropped to make room for the scratch).
    if (std::optional<std::string> why = whyNotWarpSpecialized(loop)) {
      loop.emitRemark() << "loop not warp-specialized after all: " << *why;
      continue;
    }
    auto get = [&](StringRef name) {
      auto value = decision.getAs<IntegerAttr>(name);
      return value ? value.getInt() : 0;
    };
    specializedLoop_ = loop;
    producerThreads_ = get("producer_threads");
    producerRegisters_ = get("producer_registers");
    consumerRegisters_ = get("consumer_registers");
    auto pingPong = decision.getAs<BoolAttr>(kPingPongKey);
    pingPong_ = pingPong && pingPong.getValue() && numThreads_ == 2 * kProducerThreads;
    return;
  }
}

bool KernelLowering::isSpecialized(scf::ForOp loop) {
  return specializedLoop_ && loop.getOperation() == specializedLoop_.getOperation();
}

scf::IfOp KernelLowering::startWarpSpecialization() {
  if (!specializedLoop_)
    return {};
  scf::ForOp loop = specializedLoop_;
  int64_t stages = pipelineStages(loop), first = tmaLoopBarriers_.lookup(loop);
  initMbarriers(first, stages);
  initMbarriers(first + stages, stages, numThreads_);
  // Every thread, the producer's too, sees the barriers initialized.
  NVVM::Barrier0Op::create(b_, loc_);
  Value isProducer = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::uge, tid_, i32(numThreads_));
  auto branch = scf::IfOp::create(b_, loc_, TypeRange{}, isProducer, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPoint(branch.thenBlock()->getTerminator());
    if (producerRegisters_)
      NVVM::SetMaxRegisterOp::create(b_, loc_, uint32_t(producerRegisters_), NVVM::SetMaxRegisterAction::decrease);
    Value first = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, tid_, i32(numThreads_));
    ifThen(first, [&] { produceCopies(loop); });
  }
  b_.setInsertionPoint(branch.elseBlock()->getTerminator());
  if (consumerRegisters_)
    NVVM::SetMaxRegisterOp::create(b_, loc_, uint32_t(consumerRegisters_), NVVM::SetMaxRegisterAction::increase);
  return branch;
}

void KernelLowering::produceCopies(scf::ForOp loop) {
  std::string why;
  std::optional<SmallVector<Operation *>> prologue = producerPrologue(loop, why);
  int64_t stages = pipelineStages(loop), first = tmaLoopBarriers_.lookup(loop);
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] scf.for at " << loop.getLoc() << ": a producer warpgroup issues the "
                          << "copies of " << stages << " stages (" << prologue->size()
                          << " op(s) recomputed for it)\n");
  Location savedLoc = loc_;
  for (Operation *op : *prologue) {
    loc_ = op->getLoc();
    (void)lowerOp(op); // scalar arithmetic and grid/array queries (producerPrologue)
  }
  loc_ = loop.getLoc();
  producing_ = true;
  scf::ForOp producer = createLoweredLoop(loop, ValueRange{i32(0)});
  {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(producer.getBody());
    Value counter = producer.getRegionIterArgs().front();
    auto [stage, phase] = pipelineStageAndPhase(loop, counter);
    waitMbarrier(mbarrierAddress(arith::AddIOp::create(b_, loc_, stage, i32(first + stages))), phase);
    issuePipelineCopies(loop, producer.getInductionVar(), pipelineStageStart(loop, stage),
                        mbarrierAddress(arith::AddIOp::create(b_, loc_, stage, i32(first))));
    scf::YieldOp::create(b_, loc_, ValueRange{pipelineNextStage(loop, counter)});
  }
  producing_ = false;
  // The consumers compute these values again where they stand.
  for (Operation *op : *prologue)
    for (Value r : op->getResults())
      scalars_.erase(r);
  loc_ = savedLoc;
}

void KernelLowering::releaseStagesToProducer(scf::ForOp loop) {
  int64_t stages = pipelineStages(loop), first = tmaLoopBarriers_.lookup(loop);
  // The bytes of the stages may have been scratch until here: the generic proxy's writes come
  // before the copy engine's.
  asyncProxyFence();
  for (int64_t s = 0; s < stages; ++s)
    ptx("mbarrier.arrive.shared::cta.b64 _, [$0];", "r", {mbarrierAddress(i32(first + stages + s))});
  // Ping-pong: warpgroup 0 issues the first product.
  if (pingPong_)
    ifThen(consumerWarpgroupIs(1), [&] { ptx("bar.arrive 2, 256;", "", {}); });
}

void KernelLowering::finishPingPong(scf::ForOp loop) {
  // Warpgroup 1's last turn (or, for no iteration, the first one) is warpgroup 0's to take:
  // every named barrier ends the loop with no arrival pending.
  if (isSpecialized(loop) && pingPong_)
    ifThen(consumerWarpgroupIs(0), [&] { ptx("bar.sync 2, 256;", "", {}); });
}

Value KernelLowering::consumerWarpgroup() { return arith::DivUIOp::create(b_, loc_, tid_, i32(kProducerThreads)); }

Value KernelLowering::consumerWarpgroupIs(int64_t warpgroup) {
  return arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, consumerWarpgroup(), i32(warpgroup));
}

bool KernelLowering::takesTurns(Operation *product, int64_t warpgroups) {
  return pingPong_ && warpgroups == 2 && specializedLoop_->isProperAncestor(product);
}

void KernelLowering::takeTensorCoreTurn() {
  // Warpgroup w waits on barrier 2 + w for the other's arrival (its previous product issued).
  Value own = arith::AddIOp::create(b_, loc_, consumerWarpgroup(), i32(2));
  ptx("bar.sync $0, 256;", "r", {own});
}

void KernelLowering::passTensorCoreTurn() {
  Value other = arith::SubIOp::create(b_, loc_, i32(3), consumerWarpgroup());
  ptx("bar.arrive $0, 256;", "r", {other});
}

void KernelLowering::releasePreviousStage(scf::ForOp loop, Value iv, Value previousStage) {
  int64_t stages = pipelineStages(loop), first = tmaLoopBarriers_.lookup(loop);
  // The thread has read that stage: its loads were lowered where they stand and its products
  // waited for in that iteration. No thread can arrive for a stage's next phase before the
  // current one completes: that needs copies the producer issues only after the completion.
  Value empty = mbarrierAddress(arith::AddIOp::create(b_, loc_, previousStage, i32(first + stages)));
  Value notFirst = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ne, iv, scalars_.lookup(loop.getLowerBound()));
  ifThen(notFirst, [&] { ptx("mbarrier.arrive.shared::cta.b64 _, [$0];", "r", {empty}); });
}

void KernelLowering::consumerBarrier() { ptx("bar.sync 1, " + std::to_string(numThreads_) + ";", "", {}); }

} // namespace tile::codegen
