// Warpgroup matrix products (wgmma.mma_async, sm_90a). Operands read in place from pipeline
// stages keep their stage layout (StageLayout.h: swizzled); the others are read in place from
// the buffers tile-place-shared-operands gave them (KernelLoweringSharedBuffers.cpp), in the
// same layout. wgmma reads both through 64-bit matrix descriptors; the accumulator stays in the
// #tile.mma registers, whose per-warp order is wgmma's D fragment order. An A operand in the
// #tile.mma layout (computed in registers, tile-assign-layouts) is read from registers instead.
// Each warpgroup runs one m64nNk16 instruction per 64-row block, N chunk (N <= 256) and K step;
// the wait comes later (waitForDeferredWgmma).

#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "compiler/codegen/lowering/KernelLowering.h"
#include "dialect/gpu/TileGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

#include "compiler/codegen/analysis/Debug.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

// Element (row, col) of a rows x cols K-major operand (col = k) in core-matrix order: core
// matrix (row / 8, col / 8) at ((row / 8) * (cols / 8) + col / 8) * 64 elements, row-major
// inside. Consecutive cores along K are 128 bytes apart (the leading byte offset), along
// rows cols * 16 bytes (the stride byte offset).
Value KernelLowering::coreMatrixOffset(Value row, Value col, int64_t cols) {
  auto c = [&](int64_t v) { return i32(v); };
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  auto mul = [&](Value x, Value y) { return arith::MulIOp::create(b_, loc_, x, y).getResult(); };
  auto div = [&](Value x, int64_t d) { return arith::DivUIOp::create(b_, loc_, x, c(d)).getResult(); };
  auto rem = [&](Value x, int64_t d) { return arith::RemUIOp::create(b_, loc_, x, c(d)).getResult(); };
  Value core = add(mul(div(row, 8), c(cols / 8)), div(col, 8));
  return add(mul(core, c(64)), add(mul(rem(row, 8), c(8)), rem(col, 8)));
}

Value KernelLowering::stageOffset(Value row, Value col, int64_t rows, int64_t cols, int64_t elementBytes) {
  return operandTileOffset({rows, cols, elementBytes, stageSwizzleBytes(cols * elementBytes), false}, row, col);
}

Value KernelLowering::operandTileOffset(const OperandTile &tile, Value row, Value col) {
  int64_t swizzle = tile.swizzleBytes, elementBytes = tile.elementBytes;
  if (!swizzle)
    return coreMatrixOffset(row, col, tile.cols);
  auto c = [&](int64_t v) { return i32(v); };
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  auto mul = [&](Value x, int64_t m) { return arith::MulIOp::create(b_, loc_, x, c(m)).getResult(); };
  auto shr = [&](Value x, int64_t s) { return arith::ShRUIOp::create(b_, loc_, x, c(s)).getResult(); };
  auto and_ = [&](Value x, int64_t m) { return arith::AndIOp::create(b_, loc_, x, c(m)).getResult(); };
  int64_t perRow = swizzle / elementBytes; // elements of a block's row
  int64_t perRowLog = llvm::Log2_64(perRow);
  // Block col / perRow starts at (col / perRow) * rows * S; row r at r * S inside it.
  Value rowBytes = mul(row, swizzle);
  Value blockBytes = mul(shr(col, perRowLog), tile.rows * swizzle);
  Value chunkBytes = mul(and_(col, perRow - 1), elementBytes);
  // The 16-byte chunk XOR (row * S / 128) mod (S / 16): bits 7.. of the row's offset into bits 4...
  Value flip = arith::ShLIOp::create(b_, loc_, and_(shr(rowBytes, 7), swizzle / 16 - 1), c(4));
  Value inRow = arith::XOrIOp::create(b_, loc_, chunkBytes, flip);
  return shr(add(add(blockBytes, rowBytes), inRow), llvm::Log2_64(elementBytes));
}

Value KernelLowering::operandDescriptor(Value base, const OperandTile &tile, Value row, Value col) {
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  auto mul = [&](Value x, int64_t c) { return arith::MulIOp::create(b_, loc_, x, i64(c)).getResult(); };
  auto div = [&](Value x, int64_t c) { return arith::DivUIOp::create(b_, loc_, x, i64(c)).getResult(); };
  auto rem = [&](Value x, int64_t c) { return arith::RemUIOp::create(b_, loc_, x, i64(c)).getResult(); };
  auto at = [&](Value byteOffset, int64_t leading, int64_t stride) {
    // Start address (>> 4) in bits 0-13, plus the constant fields; the byte offset is 16-byte
    // aligned and the window below 256 KiB, so the sum never carries out of 14 bits.
    Value address = add(base, byteOffset);
    Value start = arith::AndIOp::create(b_, loc_, arith::ShRUIOp::create(b_, loc_, address, i64(4)), i64(0x3FFF));
    return add(start, i64(static_cast<int64_t>(wgmmaDescriptor(0, static_cast<uint32_t>(leading),
                                                               static_cast<uint32_t>(stride), tile.swizzleBytes))));
  };
  if (int64_t swizzle = tile.swizzleBytes) {
    // The unswizzled address of (row, col): wgmma applies the XOR from the address bits (the
    // tile starts on a kSwizzleAlign boundary). The stride byte offset is the step between
    // 8-row groups (8 * S); the leading one is unused for K-major operands (a K step of 16
    // elements stays in its block) and the step between column blocks (rows * S) for
    // MN-major ones.
    int64_t perRow = swizzle / tile.elementBytes;
    Value offset = add(add(mul(div(col, perRow), tile.rows * swizzle), mul(row, swizzle)),
                       mul(rem(col, perRow), tile.elementBytes));
    return tile.mnMajor ? at(offset, tile.rows * swizzle, 8 * swizzle) : at(offset, 16, 8 * swizzle);
  }
  // 16-byte rows, interleaved core matrices tiling the rows row-major, 128 bytes each. Core
  // matrices adjacent along a row are 128 bytes apart, adjacent rows of them cols * 16. The
  // leading byte offset is the step along K and the stride byte offset the step along M/N, in
  // both orientations (checked on the H200: the other reading of the transposed case faults):
  // K-major rows run along M/N, so leading 128, stride cols * 16; MN-major rows run along K,
  // so leading cols * 16, stride 128.
  Value offset = mul(add(mul(div(row, 8), tile.cols / 8), div(col, 8)), 128);
  return tile.mnMajor ? at(offset, tile.cols * 16, 128) : at(offset, 128, tile.cols * 16);
}

void KernelLowering::writeOperandTile(const Elements &values, const TileLayout &layout, Type type, int64_t byteOffset,
                                      const OperandTile &tile) {
  int64_t rank = layout.shape.size();
  int64_t rows = layout.shape[rank - 2];
  reserveShared(byteOffset + layout.numElements * tile.elementBytes);
  // A run (TileLayout::runLength: up to 8 consecutive elements of one row, starting at a
  // multiple of its length) stays within one 16-byte chunk of a tile row, which the swizzle
  // moves whole.
  int64_t width = layout.replicated ? 1 : std::min<int64_t>(layout.runLength(), 16 / tile.elementBytes);
  for (int64_t r = 0; r < static_cast<int64_t>(values.size()); r += width) {
    SmallVector<Value> idx = delinearize(linearIndex(layout, r), layout.shape);
    Value bIndex = rank == 3 ? idx[0] : i32(0);
    Value row = idx[rank - 2], col = idx[rank - 1];
    // Batches are stacked along the tile's rows.
    Value stacked = arith::AddIOp::create(b_, loc_, row, arith::MulIOp::create(b_, loc_, bIndex, i32(rows)));
    storeRun(values, layout, type, r, width, sharedPointer(type, byteOffset, operandTileOffset(tile, stacked, col)));
  }
}

bool KernelLowering::permuteFoldsIntoMma(mlir::tile::PermuteOp op) {
  if (op->use_empty() || !lastTwoSwapped(op.getResult()))
    return false;
  for (OpOperand &use : op->getUses()) {
    auto mma = dyn_cast<mlir::tile::MmaOp>(use.getOwner());
    if (!mma || use.getOperandNumber() > 1)
      return false;
    if (runsAsWgmma(mma))
      continue;
    // mma.sync reads 16-bit operands with ldmatrix, which transposes 16-bit elements only.
    Type elt = mma.getA().getType().getElementType();
    if (!usesTensorCores(mma, target_) || !(elt.isBF16() || elt.isF16()))
      return false;
  }
  return true;
}

Value KernelLowering::packPair(Value lo, Value hi) {
  Value v = LLVM::PoisonOp::create(b_, loc_, VectorType::get({2}, lo.getType()));
  v = LLVM::InsertElementOp::create(b_, loc_, v, lo, i32(0));
  v = LLVM::InsertElementOp::create(b_, loc_, v, hi, i32(1));
  return LLVM::BitcastOp::create(b_, loc_, b_.getI32Type(), v);
}

// Inline asm whose outputs are its inputs (tied): `ptx` runs after every input is computed and
// before any use of an output, which the compilers may not move across it. Each value's
// register class follows its type: "f" for f32 (accumulators), "r" for i32 (packed A fragments).
static SmallVector<Value> throughAsm(OpBuilder &b, Location loc, ArrayRef<Value> values, StringRef ptx) {
  std::string constraints;
  for (size_t i = 0; i < values.size(); ++i)
    constraints += std::string(i ? ",=" : "=") + (values[i].getType().isF32() ? "f" : "r");
  for (size_t i = 0; i < values.size(); ++i)
    constraints += "," + std::to_string(i);
  SmallVector<Type> types;
  for (Value v : values)
    types.push_back(v.getType());
  auto structType = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  auto op = LLVM::InlineAsmOp::create(b, loc, structType, values, ptx, constraints, /*has_side_effects=*/true,
                                      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
                                      LLVM::AsmDialectAttr(), ArrayAttr());
  SmallVector<Value> out;
  for (size_t i = 0; i < values.size(); ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, op.getResult(0), i));
  return out;
}

Value KernelLowering::registerAWgmma(Value d, ArrayRef<Value> a, Value descB, int64_t n, Type elementType,
                                     bool bMnMajor) {
  // NVVM's wgmma op takes A by descriptor only: the register form is inline PTX. Operands:
  // the n/2 accumulators (outputs, tied to the same inputs), A's four registers, B's
  // descriptor and the constant 1 for the scale-d predicate.
  auto structType = cast<LLVM::LLVMStructType>(d.getType());
  int64_t count = structType.getBody().size();
  SmallVector<Value> operands;
  for (int64_t i = 0; i < count; ++i)
    operands.push_back(LLVM::ExtractValueOp::create(b_, loc_, d, i));
  llvm::append_range(operands, a);
  operands.push_back(descB);
  operands.push_back(i32(1));
  std::string constraints, accs;
  for (int64_t i = 0; i < count; ++i) {
    constraints += (i ? ",=f" : "=f");
    accs += (i ? ", $" : "$") + std::to_string(i);
  }
  for (int64_t i = 0; i < count; ++i)
    constraints += "," + std::to_string(i);
  constraints += ",r,r,r,r,l,r";
  auto at = [&](int64_t i) { return "$" + std::to_string(2 * count + i); };
  std::string type = elementType.isF16() ? "f16" : "bf16";
  std::string ptx = "{\n.reg .pred p;\nsetp.ne.b32 p, " + at(5) + ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                    std::to_string(n) + "k16.f32." + type + "." + type + " {" + accs + "}, {" + at(0) + ", " + at(1) +
                    ", " + at(2) + ", " + at(3) + "}, " + at(4) + ", p, 1, 1, " + (bMnMajor ? "1" : "0") + ";\n}";
  auto asmOp = LLVM::InlineAsmOp::create(b_, loc_, structType, operands, ptx, constraints,
                                         /*has_side_effects=*/true, /*is_align_stack=*/false,
                                         LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  return asmOp.getResult(0);
}

LogicalResult KernelLowering::lowerMmaWgmma(mlir::tile::MmaOp op) {
  MLIRContext *ctx = b_.getContext();
  auto aType = op.getA().getType(), bType = op.getB().getType(), accType = op.getAcc().getType();
  int64_t rank = aType.getRank();
  int64_t batch = rank == 3 ? aType.getDimSize(0) : 1;
  int64_t m = aType.getDimSize(rank - 2), k = aType.getDimSize(rank - 1), n = bType.getDimSize(rank - 1);
  Type ea = aType.getElementType(), f32 = b_.getF32Type(), i64t = b_.getI64Type();
  int64_t esize = elementBytes(ea);
  TileLayout acc = layoutOf(accType);
  int64_t wm = acc.mmaWarps[1], warpgroups = wm / 4; // usesWgmma: warpsB = warpsN = 1
  int64_t nPerWarp = n / 8, mPerWarp = m / 16 / wm, bPerWarp = batch;
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": wgmma (m64n"
                          << std::min<int64_t>(n, 256) << "k" << 32 / esize << " " << ea << "), " << warpgroups
                          << " warpgroup(s), " << mPerWarp * bPerWarp << " m64 block(s) and " << (n + 255) / 256
                          << " N chunk(s) each\n");

  // An A operand in the #tile.mma layout (tile-assign-layouts: computed in registers) is read
  // from its registers. Operands copied into pipeline stages in core-matrix order are read
  // there in place (KernelLoweringPipeline.cpp), the others in place from the buffers
  // tile-place-shared-operands gave them (KernelLoweringSharedBuffers.cpp).
  bool aRegisters = layoutOf(aType).isMma();
  if (aRegisters && esize != 2)
    return op.emitError("code generation builds wgmma's A fragments in registers for 16-bit operands only, not ") << ea;
  std::optional<StageOperand> aStage = aRegisters ? std::nullopt : stageOperand(op.getA(), /*isB=*/false);
  std::optional<StageOperand> bStage = stageOperand(op.getB(), /*isB=*/true);
  std::optional<BufferOperand> aBuffer = aRegisters || aStage ? std::nullopt : bufferOperand(op.getA(), false);
  std::optional<BufferOperand> bBuffer = bStage ? std::nullopt : bufferOperand(op.getB(), true);
  if (!aRegisters && !aStage && !aBuffer)
    return op.emitError("code generation needs wgmma's A in registers, a pipeline stage or a shared buffer "
                        "(tile-place-shared-operands places it)");
  if (!bStage && !bBuffer)
    return op.emitError("code generation needs wgmma's B in a pipeline stage or a shared buffer "
                        "(tile-place-shared-operands places it)");
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": A "
                          << (aRegisters ? "from registers (its #tile.mma fragments)"
                              : aStage
                                  ? (aStage->mnMajor ? "M-major in a pipeline stage" : "K-major in a pipeline stage")
                                  : (aBuffer->tile.mnMajor ? "M-major in a buffer" : "K-major in a buffer"))
                          << ", B "
                          << (bStage ? (bStage->mnMajor ? "N-major in a pipeline stage" : "K-major in a pipeline stage")
                                     : (bBuffer->tile.mnMajor ? "N-major in a buffer" : "K-major in a buffer"))
                          << ", read in place\n");
  finishBufferWrites();

  auto add64 = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  // The shared window address of the scratch start, as descriptors carry it.
  Value scratchAddress =
      aBuffer || bBuffer ? LLVM::PtrToIntOp::create(b_, loc_, i64t, sharedBase()).getResult() : Value();
  auto stageTile = [&](StageOperand s) {
    auto type = s.load.getType();
    int64_t cols = type.getShape().back();
    return OperandTile{type.getNumElements() / cols, cols, esize, stageSwizzleBytes(cols * esize), s.mnMajor};
  };
  // The descriptor of an operand's 8-row groups from K-major (mn, k) or MN-major (k, mn) on.
  auto descriptor = [&](const std::optional<StageOperand> &stage, const std::optional<BufferOperand> &buffer, Value mn,
                        Value kRow) {
    Value base = stage ? toI64(stageAddress(stage->load)) : add64(scratchAddress, i64(buffer->offset));
    OperandTile tile = stage ? stageTile(*stage) : buffer->tile;
    return tile.mnMajor ? operandDescriptor(base, tile, kRow, mn) : operandDescriptor(base, tile, mn, kRow);
  };
  bool aMnMajor = aRegisters ? false : aStage ? aStage->mnMajor : aBuffer->tile.mnMajor;
  bool bMnMajor = bStage ? bStage->mnMajor : bBuffer->tile.mnMajor;
  if (esize == 1 && (aMnMajor || bMnMajor))
    return op.emitError("wgmma reads 8-bit operands K-major only, but ")
           << (aMnMajor ? "A" : "B") << " is stored " << (aMnMajor ? "M" : "N")
           << "-major (tile-select-mma widens such products to f16)";

  Value warp = arith::ShRUIOp::create(b_, loc_, tid_, i32(5));
  Value warpgroup = toI64(arith::DivUIOp::create(b_, loc_, warp, i32(4)));
  auto wgType = [&](Type t) {
    if (isa<Float8E4M3FNType>(t))
      return NVVM::WGMMATypes::e4m3;
    if (isa<Float8E5M2Type>(t))
      return NVVM::WGMMATypes::e5m2;
    return t.isF16() ? NVVM::WGMMATypes::f16 : t.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::tf32;
  };
  Type eb = bType.getElementType();
  const Elements &accIn = tiles_[op.getAcc()];
  Elements result(accIn.size());
  // The fence orders this thread's register writes (accumulator, A fragments) before the
  // async reads. A's fragments, packed in pairs, pass through it (tied operands), so that no
  // packing is scheduled after it (ptxas would then add a fence before each wgmma).
  bool turns = takesTurns(op, warpgroups);
  if (turns)
    takeTensorCoreTurn();
  SmallVector<Value> aPacked;
  if (aRegisters) {
    // (Only here: an operand read from a buffer has no registers, and operator[] would insert
    // it into tiles_, moving accIn.)
    const Elements &aIn = tiles_[op.getA()];
    for (size_t i = 0; i < aIn.size(); i += 2)
      aPacked.push_back(packPair(aIn[i], aIn[i + 1]));
    aPacked = throughAsm(b_, loc_, aPacked, "wgmma.fence.sync.aligned;");
  } else {
    NVVM::WgmmaFenceAlignedOp::create(b_, loc_);
  }
  struct Pending {
    Value structValue;
    int64_t firstReg, count;
  };
  SmallVector<Pending> pending;
  for (int64_t bLocal = 0; bLocal < bPerWarp; ++bLocal) {
    for (int64_t mLocal = 0; mLocal < mPerWarp; ++mLocal) {
      // Rows of this warpgroup's block: 64 * warpgroup + 64 * warpgroups * mLocal (the
      // #tile.mma order: warp w owns rows 16 * w + 16 * wm * mLocal).
      Value row0 = add64(arith::MulIOp::create(b_, loc_, warpgroup, i64(64)), i64(64 * warpgroups * mLocal));
      Value aRow = add64(row0, i64(bLocal * m));
      for (int64_t n0 = 0; n0 < n; n0 += 256) {
        int64_t chunk = std::min<int64_t>(256, n - n0);
        int64_t firstReg = (bLocal * mPerWarp + mLocal) * nPerWarp * 4 + n0 / 2;
        int64_t count = chunk / 2;
        auto structType = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(count, f32));
        Value d = LLVM::PoisonOp::create(b_, loc_, structType);
        for (int64_t i = 0; i < count; ++i)
          d = LLVM::InsertValueOp::create(b_, loc_, d, accIn[firstReg + i], i);
        int64_t kStep = 32 / esize; // 16 for 16-bit types: two core matrices along K
        for (int64_t k0 = 0; k0 < k; k0 += kStep) {
          // Rows are stacked over the batch: A's M or K rows of batch bLocal start at bLocal * m
          // or bLocal * k, B's N or K rows at bLocal * n or bLocal * k.
          Value kStacked = i64(bLocal * k + k0);
          Value descB =
              descriptor(bStage, bBuffer, bMnMajor ? i64(n0) : i64(bLocal * n + n0), bMnMajor ? kStacked : i64(k0));
          if (aRegisters) {
            // The A fragment of this m-tile and K step: n-tiles 2s and 2s + 1 of A's #tile.mma
            // registers (A is 2-D: its registers run m-tile, then n-tile, then fragment).
            int64_t first = (mLocal * (k / 8) + k0 / 8) * 2;
            d = registerAWgmma(d, ArrayRef<Value>(aPacked).slice(first, 4), descB, chunk, ea, bMnMajor);
            continue;
          }
          Value descA = descriptor(aStage, aBuffer, aMnMajor ? row0 : aRow, aMnMajor ? kStacked : i64(k0));
          d = NVVM::WgmmaMmaAsyncOp::create(
              b_, loc_, structType, d, descA, descB, NVVM::MMAShapeAttr::get(ctx, 64, chunk, kStep),
              NVVM::WGMMATypesAttr::get(ctx, wgType(ea)), NVVM::WGMMATypesAttr::get(ctx, wgType(eb)),
              NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
              NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one),
              NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
              NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
              NVVM::MMALayoutAttr::get(ctx, aMnMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row),
              NVVM::MMALayoutAttr::get(ctx, bMnMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col),
              NVVM::MMAIntOverflowAttr());
        }
        pending.push_back({d, firstReg, count});
      }
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b_, loc_);
  if (turns)
    passTensorCoreTurn();
  // Wait for the group (a loop's pending product, kWgmmaPendingAttr: for the previous
  // iteration's), threading every accumulator through the wait (tied operands), so no use of a
  // result can be scheduled before it.
  bool keepPending = op->hasAttr(kWgmmaPendingAttr);
  if (!keepPending) {
    // Or later: the wait is deferred past the ops that can run meanwhile (lowerRegion).
    DeferredWgmma deferred{op.getResult(), {}, aPacked, 0};
    for (Pending &p : pending) {
      deferred.groups.push_back({p.structValue, p.firstReg, p.count});
      for (int64_t i = 0; i < p.count; ++i)
        result[p.firstReg + i] = LLVM::ExtractValueOp::create(b_, loc_, p.structValue, i);
    }
    tiles_[op] = result;
    deferredWgmma_ = std::move(deferred);
    return success();
  }
  for (Pending &p : pending) {
    SmallVector<Value> regs;
    for (int64_t i = 0; i < p.count; ++i)
      regs.push_back(LLVM::ExtractValueOp::create(b_, loc_, p.structValue, i));
    StringRef wait = &p != pending.begin() ? ""
                     : keepPending         ? "wgmma.wait_group.sync.aligned 1;"
                                           : "wgmma.wait_group.sync.aligned 0;";
    SmallVector<Value> waited = throughAsm(b_, loc_, regs, wait);
    for (int64_t i = 0; i < p.count; ++i)
      result[p.firstReg + i] = waited[i];
  }
  tiles_[op] = result;
  // The previous iteration's group is complete in this warpgroup: once every warpgroup is
  // here, the copies into the stage it read may start.
  if (keepPending)
    if (auto deferred = deferredCopies_.find(op->getParentOp()); deferred != deferredCopies_.end()) {
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc()
                              << ": wgmma group left pending; the next stage's copies issued after its wait\n");
      barrier();
      deferred->second();
      deferredCopies_.erase(deferred);
    }
  return success();
}

void KernelLowering::waitForDeferredWgmma() {
  if (!deferredWgmma_)
    return;
  DeferredWgmma d = std::move(*deferredWgmma_);
  deferredWgmma_.reset();
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << d.result.getLoc() << ": wgmma wait deferred past "
                          << d.opsOverlapped << " op(s)\n");
  // One wait for every group, the A fragments threaded through it too: their registers may
  // not be reused while the instructions read them.
  Elements &result = tiles_[d.result];
  for (auto [i, g] : llvm::enumerate(d.groups)) {
    SmallVector<Value> regs;
    for (int64_t k = 0; k < g.count; ++k)
      regs.push_back(LLVM::ExtractValueOp::create(b_, loc_, g.accumulators, k));
    if (i == 0)
      llvm::append_range(regs, d.aRegisters);
    SmallVector<Value> waited = throughAsm(b_, loc_, regs, i == 0 ? "wgmma.wait_group.sync.aligned 0;" : "");
    for (int64_t k = 0; k < g.count; ++k)
      result[g.firstReg + k] = waited[k];
  }
}

bool KernelLowering::mayRunBeforeWgmmaWait(Operation *op) const {
  if (op->getNumRegions() || op->hasTrait<OpTrait::IsTerminator>() ||
      llvm::is_contained(op->getOperands(), deferredWgmma_->result))
    return false;
  // Element-wise arithmetic, index math and data movement in registers; loads (from global
  // memory or a pipeline stage) and element stores to global memory. Whatever of these goes
  // through shared memory does so behind a barrier, which waits first.
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return true;
  // Buffers and their views take no code (their writes start with a barrier, which waits).
  if (isa<tgpu::AllocSharedOp, tgpu::TransposeOp, tgpu::LoadSharedOp>(op))
    return true;
  if (isa<tensor::ExtractOp, mlir::tile::BroadcastOp, mlir::tile::ExpandDimsOp, mlir::tile::ReshapeOp,
          mlir::tile::IotaOp, mlir::tile::LoadOp, mlir::tile::BlockIdOp, mlir::tile::NumBlocksOp, mlir::tile::DimOp,
          mlir::tile::StrideOp>(op))
    return true;
  if (auto store = dyn_cast<mlir::tile::StoreOp>(op))
    return !store->hasAttr(kTmaAttr);
  return false;
}

KernelLowering::Elements KernelLowering::waitForWgmma(const Elements &accumulators) {
  SmallVector<Value> waited = throughAsm(b_, loc_, accumulators, "wgmma.wait_group.sync.aligned 0;");
  return Elements(waited.begin(), waited.end());
}

} // namespace tile::codegen
