// Warpgroup matrix products (wgmma.mma_async, sm_90a). Operands read in place from pipeline
// stages keep their stage layout (StageLayout.h: swizzled); the others go to the scratch in the
// K-major core-matrix layout without swizzle (8 rows x 16 bytes per core matrix, stored back to
// back). wgmma reads both through 64-bit matrix descriptors; the accumulator stays in the
// #tile.mma registers, whose per-warp order is wgmma's D fragment order. Each warpgroup runs
// one m64nNk16 instruction per 64-row block, N chunk (N <= 256) and K step, then waits.

#include "compiler/codegen/KernelLowering.h"
#include "compiler/codegen/MmaLayout.h"
#include "compiler/codegen/StageLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

#include "compiler/codegen/Debug.h"

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
  int64_t swizzle = stageSwizzleBytes(cols * elementBytes);
  if (!swizzle)
    return coreMatrixOffset(row, col, cols);
  auto c = [&](int64_t v) { return i32(v); };
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  auto mul = [&](Value x, int64_t m) { return arith::MulIOp::create(b_, loc_, x, c(m)).getResult(); };
  auto shr = [&](Value x, int64_t s) { return arith::ShRUIOp::create(b_, loc_, x, c(s)).getResult(); };
  auto and_ = [&](Value x, int64_t m) { return arith::AndIOp::create(b_, loc_, x, c(m)).getResult(); };
  int64_t perRow = swizzle / elementBytes; // elements of a block's row
  int64_t perRowLog = llvm::Log2_64(perRow);
  // Block col / perRow starts at (col / perRow) * rows * S; row r at r * S inside it.
  Value rowBytes = mul(row, swizzle);
  Value blockBytes = mul(shr(col, perRowLog), rows * swizzle);
  Value chunkBytes = mul(and_(col, perRow - 1), elementBytes);
  // The 16-byte chunk XOR (row * S / 128) mod (S / 16): bits 7.. of the row's offset into bits 4...
  Value flip = arith::ShLIOp::create(b_, loc_, and_(shr(rowBytes, 7), swizzle / 16 - 1), c(4));
  Value inRow = arith::XOrIOp::create(b_, loc_, chunkBytes, flip);
  return shr(add(add(blockBytes, rowBytes), inRow), llvm::Log2_64(elementBytes));
}

// Writes a (batch-stacked) operand held in the canonical layout into the core-matrix layout.
// With `transposeToKMajor` the tile is K x N (N contiguous) and is stored as N x K.
void KernelLowering::writeCoreMatrices(const Elements &values, const TileLayout &layout, Type type, int64_t byteOffset,
                                       bool transposeToKMajor) {
  int64_t rank = layout.shape.size();
  int64_t rows = layout.shape[rank - 2], cols = layout.shape[rank - 1];
  int64_t esize = byteSize(type);
  reserveShared(byteOffset + layout.numElements * esize);
  // A canonical run is up to 8 consecutive elements of one row, starting at a multiple of its
  // length: it stays within one 16-byte core-matrix row when rows are K (no transpose).
  int64_t width = transposeToKMajor || layout.replicated ? 1 : std::min<int64_t>(layout.vector, 16 / esize);
  for (int64_t r = 0; r < static_cast<int64_t>(values.size()); r += width) {
    SmallVector<Value> idx = delinearize(linearIndex(layout, r), layout.shape);
    Value bIndex = rank == 3 ? idx[0] : i32(0);
    Value row = idx[rank - 2], col = idx[rank - 1];
    int64_t kmRows = transposeToKMajor ? cols : rows, kCols = transposeToKMajor ? rows : cols;
    Value at = transposeToKMajor ? coreMatrixOffset(col, row, kCols) : coreMatrixOffset(row, col, kCols);
    at = arith::AddIOp::create(b_, loc_, at, arith::MulIOp::create(b_, loc_, bIndex, i32(kmRows * kCols)));
    storeRun(values, layout, type, r, width, sharedPointer(type, byteOffset, at));
  }
}

// The permute swapping the last two dimensions that produces `operand`, if any.
mlir::tile::PermuteOp lastTwoSwapped(Value operand) {
  auto p = operand.getDefiningOp<mlir::tile::PermuteOp>();
  if (!p)
    return nullptr;
  ArrayRef<int32_t> perm = p.getPermutation();
  int64_t rank = perm.size();
  if (rank < 2 || perm[rank - 2] != rank - 1 || perm[rank - 1] != rank - 2)
    return nullptr;
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (perm[d] != d)
      return nullptr;
  return p;
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

LogicalResult KernelLowering::lowerMmaWgmma(mlir::tile::MmaOp op) {
  MLIRContext *ctx = b_.getContext();
  auto aType = op.getA().getType(), bType = op.getB().getType(), accType = op.getAcc().getType();
  int64_t rank = aType.getRank();
  int64_t batch = rank == 3 ? aType.getDimSize(0) : 1;
  int64_t m = aType.getDimSize(rank - 2), k = aType.getDimSize(rank - 1), n = bType.getDimSize(rank - 1);
  Type ea = aType.getElementType(), f32 = b_.getF32Type(), i64t = b_.getI64Type();
  int64_t esize = byteSize(ea);
  TileLayout acc = layoutOf(accType);
  int64_t wm = acc.mmaWarps[1], warpgroups = wm / 4; // usesWgmma: warpsB = warpsN = 1
  int64_t nPerWarp = n / 8, mPerWarp = m / 16 / wm, bPerWarp = batch;
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": wgmma (m64n"
                          << std::min<int64_t>(n, 256) << "k16 " << ea << "), " << warpgroups << " warpgroup(s), "
                          << mPerWarp * bPerWarp << " m64 block(s) and " << (n + 255) / 256
                          << " N chunk(s) each, operands in shared memory\n");

  // Operands copied into pipeline stages in core-matrix order are read there in place
  // (KernelLoweringPipeline.cpp); the others are written to the scratch.
  std::optional<StageOperand> aStage = stageOperand(op.getA(), /*isB=*/false);
  std::optional<StageOperand> bStage = stageOperand(op.getB(), /*isB=*/true);
  TILE_DEBUG(if (aStage || bStage) llvm::dbgs()
             << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": "
             << (aStage ? (aStage->mnMajor ? "A M-major" : "A K-major") : "A from registers") << ", "
             << (bStage ? (bStage->mnMajor ? "B N-major" : "B K-major") : "B from registers")
             << (aStage && bStage ? ", both" : "") << " read in place from pipeline stages\n");

  // Operands: A (M x K) as is, B (K x N) as its transpose (N x K); both K-major.
  int64_t aBytes = aStage ? 0 : batch * m * k * esize;
  int64_t bOffset = (aBytes + 127) / 128 * 128;
  bool scratch = !aStage || !bStage;
  if (scratch)
    barrier();
  // A is stored M x K and B as N x K: an operand that is a transpose (permuteFoldsIntoMma)
  // is its input written in the other orientation, with no permute through shared memory.
  auto writeOperand = [&](Value operand, int64_t offset, bool kMajorIsTransposed) {
    if (mlir::tile::PermuteOp p = lastTwoSwapped(operand); p && permuteFoldsIntoMma(p)) {
      Value input = p.getInput();
      writeCoreMatrices(tiles_[input], layoutOf(input.getType()), ea, offset, !kMajorIsTransposed);
    } else {
      writeCoreMatrices(tiles_[operand], layoutOf(operand.getType()), ea, offset, kMajorIsTransposed);
    }
  };
  if (!aStage)
    writeOperand(op.getA(), 0, /*kMajorIsTransposed=*/false);
  if (!bStage)
    writeOperand(op.getB(), bOffset, /*kMajorIsTransposed=*/true);
  if (scratch) {
    // The stores above go through the generic proxy; wgmma reads through the async proxy.
    asyncProxyFence();
    barrier();
  }

  auto add64 = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  // The shared window address of the buffer start, as descriptors carry it.
  Value smemAddress64 = LLVM::PtrToIntOp::create(b_, loc_, i64t, sharedBase());
  auto descriptorAt = [&](Value base, Value byteOffset, int64_t leading, int64_t stride, int64_t swizzle = 0) {
    // Start address (>> 4) in bits 0-13, plus the constant offsets; the byte offset is
    // 16-byte aligned and the window below 256 KiB, so the sum never carries out of 14 bits.
    Value address = add64(base, byteOffset);
    Value start = arith::AndIOp::create(b_, loc_, arith::ShRUIOp::create(b_, loc_, address, i64(4)), i64(0x3FFF));
    return add64(start, i64(static_cast<int64_t>(wgmmaDescriptor(0, static_cast<uint32_t>(leading),
                                                                 static_cast<uint32_t>(stride), swizzle))));
  };
  auto descriptor = [&](Value byteOffset) { return descriptorAt(smemAddress64, byteOffset, 128, k * 16); };
  // An operand read in place from its stage (StageLayout.h), at stage row `row` and column `col`
  // (K-major: row along M/N, col along K; MN-major: row along K, col along M/N).
  auto stageDescriptor = [&](StageOperand s, Value row, Value col) {
    auto type = s.load.getType();
    int64_t cols = type.getShape().back(), rows = type.getNumElements() / cols;
    Value base = toI64(stageAddress(s.load));
    auto mul = [&](Value x, int64_t c) { return arith::MulIOp::create(b_, loc_, x, i64(c)).getResult(); };
    auto div = [&](Value x, int64_t c) { return arith::DivUIOp::create(b_, loc_, x, i64(c)).getResult(); };
    auto rem = [&](Value x, int64_t c) { return arith::RemUIOp::create(b_, loc_, x, i64(c)).getResult(); };
    if (int64_t swizzle = stageSwizzleBytes(cols * esize)) {
      // The unswizzled address of (row, col): row is a multiple of 8 and col stays inside its
      // column block, and wgmma applies the XOR from the address bits (the buffer starts on a
      // kSwizzleAlign boundary). The stride byte offset is the step between 8-row groups
      // (8 * S); the leading one is unused for K-major operands (a K step of 16 elements stays
      // in its block) and the step between column blocks (rows * S) for MN-major ones.
      int64_t perRow = swizzle / esize;
      Value offset =
          add64(add64(mul(div(col, perRow), rows * swizzle), mul(row, swizzle)), mul(rem(col, perRow), esize));
      return s.mnMajor ? descriptorAt(base, offset, rows * swizzle, 8 * swizzle, swizzle)
                       : descriptorAt(base, offset, 16, 8 * swizzle, swizzle);
    }
    // 16-byte rows, interleaved core matrices tiling the loaded rows row-major, 128 bytes each.
    // Core matrices adjacent along the loaded row are 128 bytes apart, adjacent rows of them
    // cols * 16. The leading byte offset is the step along K and the stride byte offset the
    // step along M/N, in both orientations (checked on the H200: the other reading of the
    // transposed case faults): K-major rows run along M/N, so leading 128, stride cols * 16;
    // MN-major rows run along K, so leading cols * 16, stride 128.
    Value offset = mul(add64(mul(div(row, 8), cols / 8), div(col, 8)), 128);
    return s.mnMajor ? descriptorAt(base, offset, cols * 16, 128) : descriptorAt(base, offset, 128, cols * 16);
  };

  Value warp = arith::ShRUIOp::create(b_, loc_, tid_, i32(5));
  Value warpgroup = toI64(arith::DivUIOp::create(b_, loc_, warp, i32(4)));
  auto wgType = [&](Type t) {
    return t.isF16() ? NVVM::WGMMATypes::f16 : t.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::tf32;
  };
  const Elements &accIn = tiles_[op.getAcc()];
  Elements result(accIn.size());
  NVVM::WgmmaFenceAlignedOp::create(b_, loc_);
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
          // A: core row aRow / 8, core column k0 / 8. B: its batch's N x K block, core row
          // n0 / 8, core column k0 / 8.
          Value aOff = arith::MulIOp::create(
              b_, loc_,
              add64(arith::MulIOp::create(b_, loc_, arith::DivUIOp::create(b_, loc_, aRow, i64(8)), i64(k / 8)),
                    i64(k0 / 8)),
              i64(128));
          int64_t bCore = bLocal * n * k * esize + ((n0 / 8) * (k / 8) + k0 / 8) * 128;
          // Stage operands: A M x K rows (K-major) or K x M rows (M-major); B N x K or K x N.
          Value descA = !aStage           ? descriptor(aOff)
                        : aStage->mnMajor ? stageDescriptor(*aStage, i64(k0), aRow)
                                          : stageDescriptor(*aStage, aRow, i64(k0));
          Value descB = !bStage           ? descriptor(i64(bOffset + bCore))
                        : bStage->mnMajor ? stageDescriptor(*bStage, i64(k0), i64(n0))
                                          : stageDescriptor(*bStage, i64(n0), i64(k0));
          d = NVVM::WgmmaMmaAsyncOp::create(
              b_, loc_, structType, d, descA, descB, NVVM::MMAShapeAttr::get(ctx, 64, chunk, kStep),
              NVVM::WGMMATypesAttr::get(ctx, wgType(ea)), NVVM::WGMMATypesAttr::get(ctx, wgType(ea)),
              NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
              NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one),
              NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
              NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
              NVVM::MMALayoutAttr::get(ctx, aStage && aStage->mnMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row),
              NVVM::MMALayoutAttr::get(ctx, bStage && bStage->mnMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col),
              NVVM::MMAIntOverflowAttr());
        }
        pending.push_back({d, firstReg, count});
      }
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b_, loc_);
  // Wait for the group, threading every accumulator through the wait (tied operands), so no
  // use of a result can be scheduled before it.
  for (Pending &p : pending) {
    std::string constraints;
    for (int64_t i = 0; i < p.count; ++i)
      constraints += (i ? ",=f" : "=f");
    for (int64_t i = 0; i < p.count; ++i)
      constraints += "," + std::to_string(i);
    SmallVector<Value> regs;
    for (int64_t i = 0; i < p.count; ++i)
      regs.push_back(LLVM::ExtractValueOp::create(b_, loc_, p.structValue, i));
    auto structType = p.structValue.getType();
    auto wait = LLVM::InlineAsmOp::create(b_, loc_, structType, regs,
                                          &p == pending.begin() ? "wgmma.wait_group.sync.aligned 0;" : "", constraints,
                                          /*has_side_effects=*/true, /*is_align_stack=*/false,
                                          LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
    for (int64_t i = 0; i < p.count; ++i)
      result[p.firstReg + i] = LLVM::ExtractValueOp::create(b_, loc_, wait.getResult(0), i);
  }
  tiles_[op] = result;
  return success();
}

} // namespace tile::codegen
