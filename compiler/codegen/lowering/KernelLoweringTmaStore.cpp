// Bulk tensor stores (TMA) of the stores tile-place-tma marked (tile.tma on a tile.store,
// TmaStore.h).
//
// The kernel's TMA stores share a staging buffer after the mbarriers on a 1024-byte boundary
// (the 128-byte swizzle's period), placed like the mbarriers once the scratch's size is known.
// With tma-store-buffers=2, and when a second one fits beside the rest at the kernel's
// occupancy, the stores alternate between two by the parity of a counter (a register once LLVM
// promotes it). One is the default: on the H200 the second buffer's shared memory cost more
// than the barrier it saves (docs/pipeline.md). A store:
//   0. with one buffer: thread 0 waits until the copy engine has read it for the previous bulk
//      store (cp.async.bulk.wait_group.read 0), and a barrier tells the other threads;
//   1. every thread writes its elements into the buffer in the box's layout: row-major, or in
//      swizzled column blocks of 32, 64 or 128 bytes (StageLayout.h, the layout TMA loads
//      write), so that an accumulator's fragments land in distinct banks;
//   2. fence.proxy.async.shared::cta makes the writes visible to the copy engine;
//   3. thread 0 waits until the previous bulk store has read its buffer, then a barrier: every
//      write is done, and (two buffers) the other buffer is free for the next store;
//   4. thread 0 issues one cp.async.bulk.tensor per column block and commits the group; the
//      hardware leaves out the elements outside the array.
// With two buffers, the one a store writes was last read by the store two before it, which
// step 3 of the store in between waited for: one barrier per store, and step 0 is folded
// away (the choice is a constant set at the end, like the offsets). Before the kernel returns,
// thread 0 waits for every bulk store to complete (cp.async.bulk.wait_group 0): the buffers
// must outlive the copies' reads of them.

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/TmaStore.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

void KernelLowering::declareTmaStaging() {
  auto bytes = kernel_->getAttrOfType<IntegerAttr>(kTmaStoreBytesAttr);
  if (!bytes)
    return;
  tmaStagingBufferBytes_ = tmaStagingBufferBytes(bytes.getInt());
  tmaStagingOffset_ = arith::ConstantOp::create(b_, loc_, b_.getI32IntegerAttr(0));
  tmaStagingParityMask_ = arith::ConstantOp::create(b_, loc_, b_.getI32IntegerAttr(0));
  tmaStagingSingle_ = arith::ConstantOp::create(b_, loc_, b_.getBoolAttr(true));
  auto ptrType = LLVM::LLVMPointerType::get(b_.getContext());
  tmaStoreCount_ = LLVM::AllocaOp::create(b_, loc_, ptrType, b_.getI32Type(), i32(1));
  LLVM::StoreOp::create(b_, loc_, i32(0), tmaStoreCount_);
}

int64_t KernelLowering::tailBytes() const {
  return mbarrierBytes_ + (tmaStagingBufferBytes_ ? kSwizzleAlign + tmaStagingBufferBytes_ : 0);
}

int64_t KernelLowering::placeTail(int64_t dataBytes) {
  placeTmaBarriers(dataBytes);
  int64_t end = dataBytes + mbarrierBytes_;
  if (!tmaStagingBufferBytes_)
    return end;
  int64_t staging = (end + kSwizzleAlign - 1) / kSwizzleAlign * kSwizzleAlign;
  bool two = tmaStoreBuffers_ == 2 &&
             staging + 2 * tmaStagingBufferBytes_ <= target_.sharedBytesPerBlockAt(kernel_.getOccupancy().value_or(1));
  tmaStagingOffset_.setValueAttr(b_.getI32IntegerAttr(int32_t(staging)));
  tmaStagingParityMask_.setValueAttr(b_.getI32IntegerAttr(two ? 1 : 0));
  tmaStagingSingle_.setValueAttr(b_.getBoolAttr(!two));
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel_.getSymName() << "': " << (two ? 2 : 1)
                          << " staging buffer(s) of " << tmaStagingBufferBytes_ << " bytes for TMA stores at offset "
                          << staging << "\n");
  return staging + (two ? 2 : 1) * tmaStagingBufferBytes_;
}

mlir::tile::StoreOp KernelLowering::storeFreedByLoopTop(scf::ForOp loop) {
  if (!pipelineStages(loop) || !pipelineTopBarrier(loop))
    return {};
  SmallVector<mlir::tile::StoreOp> stores;
  loop.getBody()->walk([&](mlir::tile::StoreOp store) {
    if (store->hasAttr(kTmaAttr))
      stores.push_back(store);
  });
  if (stores.size() != 1 || stores.front()->getParentOp() != loop.getOperation())
    return {};
  return stores.front();
}

bool KernelLowering::stagingFreedByLoopTop(mlir::tile::StoreOp op) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  return loop && storeFreedByLoopTop(loop) == op;
}

void KernelLowering::waitForTmaStores() {
  if (tmaStagingBufferBytes_)
    onThreadZero([&] { ptx("cp.async.bulk.wait_group 0;", "", {}); });
}

LogicalResult KernelLowering::lowerTmaStore(mlir::tile::StoreOp op) {
  int64_t index = op->getAttrOfType<IntegerAttr>(kTmaAttr).getInt();
  auto map = cast<DictionaryAttr>(tmaMaps()[index]);
  ArrayRef<int64_t> box = map.getAs<DenseI64ArrayAttr>("box").asArrayRef();
  int64_t swizzle = map.getAs<IntegerAttr>("swizzle").getInt();
  auto type = cast<RankedTensorType>(op.getValue().getType());
  ArrayRef<int64_t> shape = type.getShape();
  Type elt = type.getElementType();
  int64_t rank = shape.size(), esize = elementBytes(elt), cols = shape.back();
  int64_t rows = type.getNumElements() / cols;
  TileLayout layout = layoutOf(type);
  Elements values = tiles_.lookup(op.getValue());

  // This store's buffer: the counter's parity (always the first with one buffer).
  Value count = LLVM::LoadOp::create(b_, loc_, b_.getI32Type(), tmaStoreCount_);
  LLVM::StoreOp::create(b_, loc_, arith::AddIOp::create(b_, loc_, count, i32(1)), tmaStoreCount_);
  Value parity = arith::AndIOp::create(b_, loc_, count, tmaStagingParityMask_);
  Value buffer = arith::AddIOp::create(b_, loc_, tmaStagingOffset_,
                                       arith::MulIOp::create(b_, loc_, parity, i32(tmaStagingBufferBytes_)));
  // 0. One buffer: free once the previous bulk store has read it (in a pipelined loop whose
  // only bulk store this is, thread 0 waits before the loop's barrier at the top of the
  // iteration, which then does this one's work).
  if (!stagingFreedByLoopTop(op))
    ifThen(tmaStagingSingle_, [&] {
      onThreadZero([&] { ptx("cp.async.bulk.wait_group.read 0;", "", {}); });
      barrier();
    });
  // 1. Each thread's elements, a run (up to 16 bytes of one row, starting at a multiple of its
  // length: within one 16-byte chunk, which the swizzle moves whole) per store.
  OperandTile tile{rows, cols, esize, swizzle, /*mnMajor=*/false};
  int64_t width = 1;
  if (!layout.replicated && layout.rowLength() % layout.runLength() == 0)
    width = std::min<int64_t>(layout.runLength(), 16 / esize);
  for (int64_t r = 0; r < layout.perThread; r += width) {
    Value linear = linearIndex(layout, r);
    Value at = linear;
    if (swizzle) {
      Value row = arith::DivUIOp::create(b_, loc_, linear, i32(cols));
      Value col = arith::RemUIOp::create(b_, loc_, linear, i32(cols));
      at = operandTileOffset(tile, row, col);
    }
    storeRun(values, layout, elt, r, width, stagePointer(elt, buffer, at));
  }
  // 2. Visible to the copy engine (the async proxy), from every thread; 3. the other buffer
  // read, every write done.
  asyncProxyFence();
  onThreadZero([&] { ptx("cp.async.bulk.wait_group.read 0;", "", {}); });
  barrier();
  // 4. One bulk store per column block.
  Value descriptor = LLVM::PtrToIntOp::create(b_, loc_, b_.getI64Type(), tmaParams_[index]);
  SmallVector<Value> coords = tmaCoordinates(op.getIndices(), shape);
  std::string text = "cp.async.bulk.tensor." + std::to_string(rank) + "d.global.shared::cta.bulk_group [$0, {" +
                     tmaCoordinateList(rank, 2) + "}], [$1];";
  std::string constraints = "l,r";
  for (int64_t d = 0; d < rank; ++d)
    constraints += ",r";
  int64_t blocks = cols / box.back();
  int64_t blockBytes = rows * box.back() * esize;
  onThreadZero([&] {
    Value staging = arith::AddIOp::create(b_, loc_, sharedWindowBase(), buffer);
    for (int64_t blk = 0; blk < blocks; ++blk) {
      SmallVector<Value> operands{descriptor, arith::AddIOp::create(b_, loc_, staging, i32(blk * blockBytes))};
      for (int64_t d = 0; d < rank; ++d)
        operands.push_back(d == 0 && blk ? arith::AddIOp::create(b_, loc_, coords[0], i32(blk * box.back())).getResult()
                                         : coords[d]);
      ptx(text, constraints, operands);
    }
    ptx("cp.async.bulk.commit_group;", "", {});
  });
  return success();
}

} // namespace tile::codegen
