// Bulk tensor copies (TMA) of the loads tile-place-tma marked (tile.tma), and the mbarriers
// that say when they have landed.
//
// Each descriptor of tile.tma_maps is a kernel parameter after the ABI's own: a 128-byte
// CUtensorMap passed by value as a __grid_constant__ (the runtime encodes it at launch,
// runtime/LaunchPlan.cpp); the copy names it by its generic address.
//
// Barriers live at the end of the dynamic shared memory, after everything else (kTmaBarrierBytes
// each, which tile-pipeline-loops leaves out of its budget): one per stage of each pipelined
// loop with TMA loads, one per kernel-start copy group with TMA loads. Their offset is known
// once the kernel's scratch is: the lowering emits a placeholder constant and sets it at the end
// (a static shared array would move the dynamic region, whose swizzled stages need its 1024-byte
// alignment). Thread 0 arms a barrier with the bytes the copies into that stage will write
// (mbarrier.arrive.expect_tx: the barrier's one arrival) and issues them; every thread waits
// for the barrier's phase (mbarrier.try_wait.parity) before reading the stage. A loop's stage
// barriers are initialized in its prologue and invalidated after its last iteration, so each
// run of the loop (inside an outer loop) starts at phase 0: iteration i waits for phase
// (i / stages) % 2 of barrier i % stages.
//
// Every instruction is inline PTX: LLVM 22's NVPTX back end aborts on the CTA form of
// cp.async.bulk.tensor at PTX 8.0 (sm_90a's version here), and an abort would take a JIT
// application down.

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/Invariants.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

void KernelLowering::ptx(StringRef text, StringRef constraints, ValueRange operands) {
  LLVM::InlineAsmOp::create(b_, loc_, TypeRange{}, operands, text, constraints, /*has_side_effects=*/true,
                            /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
                            ArrayAttr());
}

ArrayAttr KernelLowering::tmaMaps() { return kernel_->getAttrOfType<ArrayAttr>(kTmaMapsAttr); }

bool KernelLowering::usesTma(mlir::tile::LoadOp load) { return load->hasAttr(kTmaAttr); }

LogicalResult KernelLowering::verifyTmaAttributes() {
  ArrayAttr maps = tmaMaps();
  int64_t count = maps ? int64_t(maps.size()) : 0;
  if (maps)
    for (Attribute a : maps) {
      auto dict = dyn_cast<DictionaryAttr>(a);
      auto arg = dict ? dict.getAs<IntegerAttr>("arg") : IntegerAttr();
      auto box = dict ? dict.getAs<DenseI64ArrayAttr>("box") : DenseI64ArrayAttr();
      auto swizzle = dict ? dict.getAs<IntegerAttr>("swizzle") : IntegerAttr();
      if (!arg || !box || !swizzle || !dict.getAs<BoolAttr>("nan_fill") || arg.getInt() < 0 ||
          arg.getInt() >= int64_t(kernel_.getArgumentTypes().size()) ||
          !isa<mlir::tile::ArrayType>(kernel_.getArgumentTypes()[arg.getInt()]) ||
          int64_t(box.size()) != cast<mlir::tile::ArrayType>(kernel_.getArgumentTypes()[arg.getInt()]).getRank() ||
          !llvm::is_contained({0, 32, 64, 128}, swizzle.getInt()))
        return kernel_.emitError("malformed ")
               << kTmaMapsAttr << ": each entry is {arg = an array argument's index, box = one size per dimension, "
               << "swizzle = 0, 32, 64 or 128, nan_fill = bool}";
    }
  WalkResult result = kernel_.walk([&](mlir::tile::LoadOp load) -> WalkResult {
    auto index = load->getAttrOfType<IntegerAttr>(kTmaAttr);
    if (!load->hasAttr(kTmaAttr))
      return WalkResult::advance();
    if (!index || index.getInt() < 0 || index.getInt() >= count)
      return load.emitError("malformed ")
             << kTmaAttr << ": not an index into the kernel's " << count << " TMA descriptor(s)";
    if (!load->hasAttr(kPipelineOffsetAttr) && !load->hasAttr(kPrefetchOffsetAttr))
      return load.emitError("malformed ") << kTmaAttr << " on a load that is not copied ahead";
    auto map = cast<DictionaryAttr>(maps[index.getInt()]);
    auto array = dyn_cast<BlockArgument>(load.getArray());
    if (!array || map.getAs<IntegerAttr>("arg").getInt() != int64_t(array.getArgNumber()))
      return load.emitError("malformed ") << kTmaAttr << ": descriptor " << index.getInt() << " reads another array";
    // One copy per column block: the box is the tile but for its last dimension, which divides
    // the tile's (issueTmaCopy).
    ArrayRef<int64_t> box = map.getAs<DenseI64ArrayAttr>("box").asArrayRef();
    ArrayRef<int64_t> shape = load.getType().getShape();
    if (box.size() != shape.size() || box.drop_back() != shape.drop_back() || box.back() <= 0 ||
        shape.back() % box.back())
      return load.emitError("malformed ")
             << kTmaAttr << ": descriptor " << index.getInt() << "'s box does not tile the load's " << load.getType();
    return WalkResult::advance();
  });
  if (result.wasInterrupted() || failed(verifyTmaDescriptors(kernel_)))
    return failure();
  auto staging = kernel_->getAttrOfType<IntegerAttr>(kTmaStoreBytesAttr);
  result = kernel_.walk([&](mlir::tile::StoreOp store) -> WalkResult {
    if (!store->hasAttr(kTmaAttr))
      return WalkResult::advance();
    auto index = store->getAttrOfType<IntegerAttr>(kTmaAttr);
    if (!index || index.getInt() < 0 || index.getInt() >= count)
      return store.emitError("malformed ")
             << kTmaAttr << ": not an index into the kernel's " << count << " TMA descriptor(s)";
    auto map = cast<DictionaryAttr>(maps[index.getInt()]);
    auto array = dyn_cast<BlockArgument>(store.getArray());
    if (!array || map.getAs<IntegerAttr>("arg").getInt() != int64_t(array.getArgNumber()))
      return store.emitError("malformed ") << kTmaAttr << ": descriptor " << index.getInt() << " writes another array";
    // The staging buffer holds the tile in column blocks of the box's width (swizzled when the
    // descriptor is, each block's rows exactly one swizzle span).
    auto type = cast<RankedTensorType>(store.getValue().getType());
    ArrayRef<int64_t> box = map.getAs<DenseI64ArrayAttr>("box").asArrayRef();
    ArrayRef<int64_t> shape = type.getShape();
    int64_t swizzle = map.getAs<IntegerAttr>("swizzle").getInt();
    int64_t esize = elementBytes(type.getElementType());
    if (box.size() != shape.size() || box.drop_back() != shape.drop_back() || box.back() <= 0 ||
        shape.back() % box.back() || (swizzle ? box.back() * esize != swizzle : box.back() != shape.back()))
      return store.emitError("malformed ")
             << kTmaAttr << ": descriptor " << index.getInt() << "'s box does not tile the stored " << type;
    if (!staging || staging.getInt() < type.getNumElements() * esize)
      return store.emitError("malformed ")
             << kTmaAttr << ": the kernel's " << kTmaStoreBytesAttr << " does not hold the stored " << type;
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

int64_t KernelLowering::countTmaBarriers() {
  int64_t count = 0;
  kernel_.walk([&](scf::ForOp loop) {
    if (pipelineStages(loop) && llvm::any_of(*loop.getBody(), [&](Operation &op) {
          auto load = dyn_cast<mlir::tile::LoadOp>(op);
          return load && usesTma(load);
        })) {
      tmaLoopBarriers_[loop] = count;
      // Full barriers (the copies landed), then, for a warp-specialized loop, empty ones (every
      // consumer thread left the stage).
      count += pipelineStages(loop) * (isSpecialized(loop) ? 2 : 1);
    }
  });
  return count;
}

void KernelLowering::declareTmaBarriers(int64_t prefetchGroups) {
  int64_t count = countTmaBarriers() + prefetchGroups;
  tmaPrefetchBarrier_ = count - prefetchGroups;
  if (!count)
    return;
  mbarrierBytes_ = count * kTmaBarrierBytes;
  mbarrierOffset_ = arith::ConstantOp::create(b_, loc_, b_.getI32IntegerAttr(0));
}

void KernelLowering::placeTmaBarriers(int64_t offset) {
  if (mbarrierOffset_)
    mbarrierOffset_.setValueAttr(b_.getI32IntegerAttr(int32_t(offset)));
}

Value KernelLowering::mbarrierAddress(Value index) {
  Value base = arith::AddIOp::create(b_, loc_, sharedWindowBase(), mbarrierOffset_);
  return arith::AddIOp::create(b_, loc_, base, arith::MulIOp::create(b_, loc_, index, i32(kTmaBarrierBytes)));
}

void KernelLowering::onThreadZero(const std::function<void()> &then) {
  if (producing_)
    return then(); // the producer's one thread
  ifThen(arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, tid_, i32(0)), then);
}

void KernelLowering::initMbarriers(int64_t first, int64_t count, int64_t arrivals) {
  onThreadZero([&] {
    for (int64_t i = 0; i < count; ++i)
      ptx("mbarrier.init.shared::cta.b64 [$0], " + std::to_string(arrivals) + ";", "r",
          {mbarrierAddress(i32(first + i))});
    // The copy engine (async proxy) sees the initialized barriers.
    ptx("fence.mbarrier_init.release.cluster;", "", {});
  });
}

void KernelLowering::invalidateMbarriers(int64_t first, int64_t count) {
  onThreadZero([&] {
    for (int64_t i = 0; i < count; ++i)
      ptx("mbarrier.inval.shared::cta.b64 [$0];", "r", {mbarrierAddress(i32(first + i))});
  });
}

void KernelLowering::waitMbarrier(Value address, Value parity) {
  // The label is local to the braces, so the loop may be inlined any number of times.
  ptx("{\n"
      ".reg .pred P1;\n"
      "LAB_WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [$0], $1;\n"
      "@!P1 bra LAB_WAIT;\n"
      "}",
      "r,r", {address, parity});
}

// The whole tile, over all its column blocks: out-of-bounds boxes are filled and counted too.
int64_t KernelLowering::tmaBytes(mlir::tile::LoadOp load) {
  return load.getType().getNumElements() * elementBytes(load.getType().getElementType());
}

void KernelLowering::issueTmaCopies(ArrayRef<mlir::tile::LoadOp> loads,
                                    function_ref<Value(mlir::tile::LoadOp)> byteOffset, Value mbarrier) {
  int64_t bytes = 0;
  for (mlir::tile::LoadOp load : loads)
    bytes += tmaBytes(load);
  if (!bytes)
    return;
  onThreadZero([&] {
    ptx("mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r", {mbarrier, i32(bytes)});
    for (mlir::tile::LoadOp load : loads) {
      loc_ = load.getLoc();
      issueTmaCopy(load, byteOffset(load), mbarrier);
    }
  });
}

void KernelLowering::issueTmaCopy(mlir::tile::LoadOp load, Value byteOffset, Value mbarrier) {
  int64_t index = load->getAttrOfType<IntegerAttr>(kTmaAttr).getInt();
  auto map = cast<DictionaryAttr>(tmaMaps()[index]);
  ArrayRef<int64_t> box = map.getAs<DenseI64ArrayAttr>("box").asArrayRef();
  auto type = load.getType();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size(), esize = elementBytes(type.getElementType());
  // Column blocks of a swizzled operand stage follow each other (StageLayout.h).
  int64_t blocks = shape.back() / box.back();
  int64_t blockBytes = type.getNumElements() / shape.back() * box.back() * esize;
  Value descriptor = LLVM::PtrToIntOp::create(b_, loc_, b_.getI64Type(), tmaParams_[index]);
  Value smemBase = sharedWindowBase();
  SmallVector<Value> coords = tmaCoordinates(load.getIndices(), shape);
  std::string text = "cp.async.bulk.tensor." + std::to_string(rank) +
                     "d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1, {" + tmaCoordinateList(rank, 3) +
                     "}], [$2];";
  std::string constraints = "r,l,r";
  for (int64_t d = 0; d < rank; ++d)
    constraints += ",r";
  for (int64_t blk = 0; blk < blocks; ++blk) {
    SmallVector<Value> operands{
        arith::AddIOp::create(b_, loc_, smemBase, arith::AddIOp::create(b_, loc_, byteOffset, i32(blk * blockBytes))),
        descriptor, mbarrier};
    for (int64_t d = 0; d < rank; ++d)
      operands.push_back(d == 0 && blk ? arith::AddIOp::create(b_, loc_, coords[0], i32(blk * box.back())).getResult()
                                       : coords[d]);
    ptx(text, constraints, operands);
  }
}

// Tile coordinates in elements, innermost first; the aligned promise keeps every dimension
// below 2^31, and a start outside [INT32_MIN, INT32_MAX] is clamped (still outside the array:
// a load's box is filled, a store's dropped).
SmallVector<Value> KernelLowering::tmaCoordinates(ValueRange indices, ArrayRef<int64_t> shape) {
  SmallVector<Value> coords;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    Value start = arith::MulIOp::create(b_, loc_, toI64(scalars_.lookup(indices[d])), i64(shape[d]));
    start = arith::MaxSIOp::create(b_, loc_, start, i64(std::numeric_limits<int32_t>::min()));
    start = arith::MinSIOp::create(b_, loc_, start, i64(std::numeric_limits<int32_t>::max()));
    coords.push_back(arith::TruncIOp::create(b_, loc_, b_.getI32Type(), start));
  }
  return coords;
}

std::string KernelLowering::tmaCoordinateList(int64_t rank, int64_t first) {
  std::string list;
  for (int64_t d = 0; d < rank; ++d)
    list += (d ? ", $" : "$") + std::to_string(first + d);
  return list;
}

} // namespace tile::codegen
