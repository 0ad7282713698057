// The tgpu dialect's shared buffers, as tile-place-shared-operands and tile-allocate-shared
// leave them: a buffer lives in the scratch at its tgpu.offset (counted from the scratch start
// padded to the largest alignment a buffer needs); tgpu.store_shared writes a tile into it in
// its NVMMA layout (StageLayout.h), and tgpu.transpose and tgpu.load_shared are views that a
// wgmma product reads in place, with no code of their own.
//
// A buffer shares bytes with the scratch of other ops (reductions, layout conversions), never
// time: it is written right before the product that reads it, whose wait comes before the
// next barrier (waitForDeferredWgmma), and every use of the scratch starts with a barrier.

#include "compiler/codegen/lowering/KernelLowering.h"
#include "dialect/gpu/TileGpu.h"

#include "compiler/codegen/analysis/Debug.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

namespace {

// The allocation a buffer value views (through tgpu.transpose).
tgpu::AllocSharedOp allocationOf(Value buffer) {
  while (auto view = buffer.getDefiningOp<tgpu::TransposeOp>())
    buffer = view.getBuffer();
  return buffer.getDefiningOp<tgpu::AllocSharedOp>();
}

// A buffer as the wgmma lowering addresses it: the batch's tiles stacked along the rows.
OperandTile operandTileOf(tgpu::SharedType type) {
  int64_t cols = type.getShape().back();
  return {type.getNumElements() / cols, cols, type.getElementBytes(), type.getNvmma().getSwizzle(), false};
}

} // namespace

int64_t KernelLowering::bufferRegionPad() {
  if (!bufferAlign_) {
    bufferAlign_ = 16;
    kernel_.walk(
        [&](tgpu::AllocSharedOp alloc) { bufferAlign_ = std::max(bufferAlign_, alloc.getType().getAlignment()); });
  }
  return static_cast<int64_t>(llvm::alignTo(scratchOffset(), bufferAlign_)) - scratchOffset();
}

void KernelLowering::finishBufferWrites() {
  if (!bufferWritesPending_)
    return;
  // The stores went through the generic proxy; wgmma reads through the async proxy.
  asyncProxyFence();
  barrier();
  bufferWritesPending_ = false;
}

std::optional<KernelLowering::BufferOperand> KernelLowering::bufferOperand(Value operand, bool isB) {
  auto read = operand.getDefiningOp<tgpu::LoadSharedOp>();
  if (!read)
    return std::nullopt;
  tgpu::AllocSharedOp alloc = allocationOf(read.getBuffer());
  OperandTile tile = operandTileOf(alloc.getType());
  // Stored with K contiguous: A untransposed, B transposed (TileGpu.td, #tgpu.nvmma).
  bool transposed = read.getBuffer().getType().getNvmma().getTransposed();
  tile.mnMajor = isB ? !transposed : transposed;
  return BufferOperand{tile, bufferRegionPad() + alloc->getAttrOfType<IntegerAttr>(tgpu::kOffsetAttr).getInt()};
}

LogicalResult KernelLowering::lowerSharedBufferOp(Operation *op) {
  if (auto alloc = dyn_cast<tgpu::AllocSharedOp>(op)) {
    tgpu::SharedType type = alloc.getType();
    if (!alloc->getAttrOfType<IntegerAttr>(tgpu::kOffsetAttr))
      return op->emitError("code generation needs the buffer's place in shared memory (")
             << tgpu::kOffsetAttr << "): run tile-allocate-shared first";
    if (!type.getNvmma() || type.getStages())
      return op->emitError("code generation supports buffers in the NVMMA layout without stages, not ") << type;
    return success();
  }
  if (isa<tgpu::TransposeOp>(op))
    return success();
  if (auto read = dyn_cast<tgpu::LoadSharedOp>(op)) {
    for (OpOperand &use : read->getUses()) {
      auto mma = dyn_cast<mlir::tile::MmaOp>(use.getOwner());
      if (!mma || use.getOperandNumber() > 1 || !runsAsWgmma(mma))
        return op->emitError("code generation reads a buffer only as the operand of a wgmma product, not for '")
               << use.getOwner()->getName() << "'";
    }
    if (!allocationOf(read.getBuffer()))
      return op->emitError("code generation reads buffers of tgpu.alloc_shared (or views of them) only");
    return success();
  }
  if (auto store = dyn_cast<tgpu::StoreSharedOp>(op)) {
    auto alloc = store.getBuffer().getDefiningOp<tgpu::AllocSharedOp>();
    if (!alloc || store.getStage())
      return op->emitError("code generation writes whole buffers of tgpu.alloc_shared only");
    // One barrier before the writes of the buffers a product reads: the previous reads of
    // these bytes (a product waited for at the barrier, or other scratch users) are done.
    if (!bufferWritesPending_)
      barrier();
    int64_t offset = bufferRegionPad() + alloc->getAttrOfType<IntegerAttr>(tgpu::kOffsetAttr).getInt();
    TypedValue<RankedTensorType> value = store.getValue();
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tgpu.store_shared at " << op->getLoc() << ": " << alloc.getType()
                            << " at scratch +" << offset << "\n");
    writeOperandTile(tiles_[value], layoutOf(value.getType()), value.getType().getElementType(), offset,
                     operandTileOf(alloc.getType()));
    bufferWritesPending_ = true;
    return success();
  }
  return op->emitError("code generation does not support '") << op->getName() << "' yet";
}

} // namespace tile::codegen
